"""quasidyn's parity mode against the independent transcription of qsim's step on kinematic
trees read from the same files (tests/reference/qsim_files.py, qsim_tree_step.py: numpy,
cvxopt, PyYAML, no quasidyn code), docs/qsim-files.md "An independent transcription of qsim's
step".

Scenarios (d)–(f) (qsim_tree_scenarios.py: revolute robots, sphere and box links, a ball on
ghost joints, floating balls and boxes) are written as qsim files; both programs load them
and step STEPS times in qp and socp; every step's q must agree within PARITY_TOLERANCE. With
QSIM_MODELS set to qsim's models/ folder, its planar_hand_ball, allegro_hand_and_sphere and
iiwa_bimanual_box run with the q0 and commands of tests/data/qsim/example_starts.yaml. Run as
a script for the per-scenario table:

    PYTHONPATH=build/release/python python3 python/tests/test_qsim_tree_transcription.py \
        [--cli build/release/quasidyn]   (QSIM_MODELS=... adds qsim's files)
"""

import os
import pathlib
import sys

import numpy as np
import pytest
import yaml

import quasidyn

HERE = pathlib.Path(__file__).resolve().parent
ROOT = HERE.parents[1]
sys.path.insert(0, str(ROOT / "tests" / "reference"))
sys.path.insert(0, str(ROOT / "scripts"))
import qsim_files  # noqa: E402
import qsim_tree_step  # noqa: E402
import qsim_tree_scenarios as scenarios  # noqa: E402
from test_qsim_step_transcription import (PARITY_TOLERANCE, QUASIDYN_DEFAULTS,  # noqa: E402
                                          TRANSCRIPTION_STATIONARITY, default_mode_scene)

STEPS = 12
H = 0.1
QSIM_PACKAGE = "quasistatic_simulator"
# qsim's files of the issue, with example_starts.yaml's q0 and commands; None: as listed there.
# planar_hand_ball's script holds both fingers away from the ball (nothing moves), so the
# finger closes as in scripts/qsim_parity_difference.py; iiwa_bimanual_box's holds the arms
# (the box rests on the ground): a second run ramps the base joints ∓0.25 rad (the issue's),
# where box–box contact decides.
QSIM_FILES = {
    "planar_hand_ball.yml": {"arm_left": {"ramp_by": -0.35}},
    "allegro_hand_and_sphere.yml": None,
    "iiwa_bimanual_box.yml": None,
    "iiwa_bimanual_box.yml, base ramped": {
        "iiwa_left": {"knots": [[0, [-0.09, 1.44, 1.27, 0, 0, 0, 0]],
                                [2, [-0.34, 1.44, 1.27, 0, 0, 0, 0]]]},
        "iiwa_right": {"knots": [[0, [0.11, 1.57, 0, -0.33, 0, 0, 0]],
                                 [2, [0.36, 1.57, 0, -0.33, 0, 0, 0]]]}},
}

# --- q between the two programs ---------------------------------------------------------------


def _floating(model):
    return bool(model.joint_names) and model.joint_names[0].endswith("/floating")


def to_reference(scene, tree, q):
    """quasidyn's q (floating (x, y, z, qw, qx, qy, qz)) as the transcription's dict."""
    out = {}
    for model in tree.models.values():
        if model.kind == "static":
            continue
        qm = np.asarray(q)[scene.q_slice(model.name)]
        out[model.name] = np.concatenate([qm[3:7], qm[:3]]) if _floating(model) else qm.copy()
    return out


def to_quasidyn(scene, tree, q):
    out = np.zeros(scene.nq)
    for name, qm in q.items():
        qm = np.asarray(qm, dtype=float)
        out[scene.q_slice(name)] = (np.concatenate([qm[4:7], qm[:4]])
                                    if _floating(tree.models[name]) else qm)
    return out


def check_layout(scene, tree):
    """The two programs name the same coordinates in the same order (robots' joints)."""
    for model in tree.models.values():
        if model.kind == "static" or _floating(model):
            continue
        names = [n.rsplit("/", 1)[-1] for n in
                 np.array(scene.coordinate_names)[scene.q_slice(model.name)]]
        assert names == model.joint_names, (model.name, names, model.joint_names)


def run_both(scene, tree, q0, command, formulation, steps=STEPS, include_box_box=True):
    """(quasidyn's path, the transcription's path, reports): q0 and command(t) as dicts."""
    step = qsim_tree_step.TreeStep(tree, include_box_box)
    stepper = quasidyn.Stepper(scene, formulation, h=tree.h)
    q_ref = {k: np.asarray(v, dtype=float) for k, v in q0.items()}
    q = to_quasidyn(scene, tree, q_ref)
    ours, theirs, reports = [], [], []
    for k in range(steps):
        u_dict = command((k + 1) * tree.h)
        u = np.zeros(scene.nq_a)
        for name, value in u_dict.items():
            u[scene.u_slice(name)] = value
        result = stepper.step(q, u)
        if not result.ok:
            raise RuntimeError(f"quasidyn {formulation} step {k + 1}: {result.message}")
        q = result.q_next
        q_ref, report = step.forward(q_ref, u_dict, formulation)
        ours.append(q)
        theirs.append(to_quasidyn(scene, tree, q_ref))
        reports.append(report)
    return np.array(ours), np.array(theirs), reports


def load_written(name, folder):
    path, q0, command = scenarios.SCENARIOS[name](folder)
    scene = quasidyn.load_scene(path)
    tree = qsim_files.read_system(path)
    check_layout(scene, tree)
    return path, scene, tree, q0, command


# --- qsim's own files ---------------------------------------------------------------------------


def load_qsim(models, key):
    """(scene, tree, q0 dict, command(t) dict) of one QSIM_FILES entry."""
    sys.path.insert(0, str(ROOT / "scripts"))
    from qsim_systems_table import start_of
    file = key.split(",")[0]
    path = pathlib.Path(models) / "q_sys" / file
    packages = {QSIM_PACKAGE: str(models)}
    scene = quasidyn.load_scene(path, packages=packages)
    tree = qsim_files.read_system(path, packages=packages, h=H)
    check_layout(scene, tree)
    starts = yaml.safe_load((ROOT / "tests" / "data" / "qsim" / "example_starts.yaml")
                            .read_text())
    entry = dict(starts[file])
    if QSIM_FILES[key] is not None:
        entry["command"] = QSIM_FILES[key]
    q0, command_vector = start_of(scene, entry)
    robots = [m.name for m in tree.models.values() if m.kind == "robot"]

    def command(t):
        u = command_vector(t)
        return {r: u[scene.u_slice(r)] for r in robots}

    return path, scene, tree, to_reference(scene, tree, q0), command


def qsim_models():
    models = os.environ.get("QSIM_MODELS")
    return models if models and (pathlib.Path(models) / "q_sys").is_dir() else None


# --- tests -------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def folder(tmp_path_factory):
    return tmp_path_factory.mktemp("qsim_tree")


WRITTEN_CASES = [(name, formulation) for name in sorted(scenarios.SCENARIOS)
                 for formulation in ("qp", "socp")]
QSIM_CASES = [(key, formulation)
              for key in ("planar_hand_ball.yml", "allegro_hand_and_sphere.yml",
                          "iiwa_bimanual_box.yml") for formulation in ("qp", "socp")]


@pytest.mark.parametrize("name, formulation", WRITTEN_CASES)
def test_parity_mode_steps_as_the_transcription(name, formulation, folder, monkeypatch):
    """Every step within PARITY_TOLERANCE, (e)'s sliding cones in socp included: their polish
    reaches rounding (the interior point's answer alone lay 1.2e-6 from the
    transcription's)."""
    monkeypatch.delenv("ROS_PACKAGE_PATH", raising=False)
    _, scene, tree, q0, command = load_written(name, folder)
    ours, theirs, reports = run_both(scene, tree, q0, command, formulation)
    for k, report in enumerate(reports):
        assert report["stationarity"] <= TRANSCRIPTION_STATIONARITY, (k, report["status"])
    # Contact is made at every step, and the object moves: not a scene at rest.
    assert min(len(r["contacts"]) for r in reports) >= 1
    obj = [m.name for m in tree.models.values() if m.kind == "object"][0]
    start = to_quasidyn(scene, tree, q0)[scene.q_slice(obj)]
    assert np.abs(theirs[-1][scene.q_slice(obj)] - start).max() > 1e-3
    delta = np.abs(ours - theirs).max(axis=1)
    assert delta.max() <= PARITY_TOLERANCE, f"per step max |Δq|: {delta}"


def test_a_wrong_joint_axis_parts_from_quasidyn(folder, monkeypatch):
    """The check can fail: the transcription with one flexion axis read in the model frame
    instead of the joint frame (scenario (e)'s turned finger) parts from quasidyn by far more
    than PARITY_TOLERANCE."""
    monkeypatch.delenv("ROS_PACKAGE_PATH", raising=False)
    _, scene, tree, q0, command = load_written("e_fingers_ball", folder)
    body = next(b for b in tree.bodies if b.name == "hand::f1_distal")
    body.axis = -body.axis
    ours, theirs, _ = run_both(scene, tree, q0, command, "qp")
    assert np.abs(ours - theirs).max() > 1e3 * PARITY_TOLERANCE


def test_tree_reader_steps_as_the_first_transcription(tmp_path, monkeypatch):
    """Scenarios (a)–(c) of test_qsim_step_transcription.py (described in Python there) read
    back from their qsim files take the same steps within 1e3 · cvxopt's tolerance."""
    import test_qsim_step_transcription as first
    monkeypatch.delenv("ROS_PACKAGE_PATH", raising=False)
    for name, make in first.SCENARIOS.items():
        system, q0, commands = make()
        tree = qsim_files.read_system(first.write_qsim_files(system, tmp_path / name))
        expected, _ = first.ref.simulate(system, q0, commands[:6], "qp")
        actual, _ = qsim_tree_step.simulate(tree, q0, commands[:6], "qp")
        for a, b in zip(actual, expected):
            for model in b:
                assert np.abs(a[model] - b[model]).max() <= TRANSCRIPTION_STATIONARITY, name


def test_box_box_single_witness_on_a_face():
    """A 0.2 m box 1 mm above a ground box, turned 30° about z: φ = 1 mm along +z, the witness
    the centre of the box's bottom face (the smaller box's deepest feature)."""
    c, s = np.cos(np.pi / 6), np.sin(np.pi / 6)
    R = np.array([[c, -s, 0], [s, c, 0], [0, 0, 1.0]])
    small = (qsim_files.Shape("b", "box", (0.2, 0.2, 0.2), np.eye(3), np.zeros(3), 0.5), R,
             np.array([0.3, -0.2, 0.101]))
    ground = (qsim_files.Shape("g", "box", (4.0, 4.0, 1.0), np.eye(3), np.zeros(3), 0.5),
              np.eye(3), np.array([0.0, 0.0, -0.5]))
    phi, n, p_a, p_b, swapped = qsim_tree_step.signed_distance(small, ground)
    eps = np.finfo(float).eps
    assert not swapped and abs(phi - 0.001) <= 10 * eps
    assert np.abs(n - [0, 0, 1]).max() <= 10 * eps
    assert np.abs(p_a - [0.3, -0.2, 0.001]).max() <= 10 * eps
    assert np.abs(p_b - [0.3, -0.2, 0.0]).max() <= 10 * eps


def test_reader_fails_clearly_on_an_unread_shape(tmp_path):
    path = tmp_path / "m.sdf"
    path.write_text(scenarios.sdf("m", "<link name=\"l\"><collision name=\"c\"><geometry>"
                                  "<cylinder><radius>1</radius><length>1</length></cylinder>"
                                  "</geometry></collision></link>"))
    with pytest.raises(ValueError, match=r"m\.sdf link 'l' collision 'c': only <sphere> and"):
        qsim_files.read_sdf(path, "m")


@pytest.mark.parametrize("key, formulation", QSIM_CASES)
def test_qsim_files_in_parity_mode(key, formulation, monkeypatch):
    """qsim's own files (QSIM_MODELS): every step within PARITY_TOLERANCE, the Allegro
    hand's sliding cones in socp included (the interior point's answer alone: 9.4e-6)."""
    models = qsim_models()
    if models is None:
        pytest.skip("needs QSIM_MODELS: the reference simulator's models/ folder")
    monkeypatch.delenv("ROS_PACKAGE_PATH", raising=False)
    _, scene, tree, q0, command = load_qsim(models, key)
    ours, theirs, _ = run_both(scene, tree, q0, command, formulation)
    assert np.abs(ours - theirs).max() <= PARITY_TOLERANCE
    if not key.startswith("iiwa"):  # the iiwa's script holds its arms: the box rests
        obj = next(m.name for m in tree.models.values() if m.kind == "object")
        start = to_quasidyn(scene, tree, q0)[scene.q_slice(obj)]
        assert np.abs(theirs[-1][scene.q_slice(obj)] - start).max() > 1e-3


# --- the table (run as a script) ---------------------------------------------------------------


def table_rows(cli, cases):
    """cases: (label, loader) with loader() → (path, scene, tree, q0, command)."""
    rows = ["| scenario | formulation | contacts per step | max \\|Δq\\| parity mode | "
            "max \\|Δq\\| default mode |", "|---|---|---|---|---|"]
    for label, loader in cases:
        path, scene, tree, q0, command = loader()
        for formulation in ("qp", "socp"):
            ours, theirs, reports = run_both(scene, tree, q0, command, formulation)
            counts = [len(r["contacts"]) for r in reports]
            parity = f"{np.abs(ours - theirs).max():.2g}"
            default = "(no --cli)"
            if cli is not None:
                try:
                    other = default_mode_scene(cli, pathlib.Path(path), tuple(QUASIDYN_DEFAULTS))
                    d, _, _ = run_both(other, tree, q0, command, formulation)
                    default = f"{np.abs(d - theirs).max():.2g}"
                except (RuntimeError, subprocess_error()) as error:
                    default = str(error).splitlines()[0]
            rows.append(f"| {label} | {formulation} | {min(counts)}–{max(counts)} | {parity} | "
                        f"{default} |")
    return rows


def subprocess_error():
    import subprocess
    return subprocess.CalledProcessError


if __name__ == "__main__":
    import argparse
    import tempfile
    parser = argparse.ArgumentParser(description="max |Δq| over the steps against the qsim "
                                     "transcription on kinematic trees")
    parser.add_argument("--cli", default=None, help="the quasidyn command line (for convert)")
    args = parser.parse_args()
    os.environ.pop("ROS_PACKAGE_PATH", None)
    with tempfile.TemporaryDirectory() as tmp:
        cases = [(name, lambda name=name: load_written(name, tmp))
                 for name in sorted(scenarios.SCENARIOS)]
        models = qsim_models()
        if models:
            cases += [(key, lambda key=key: load_qsim(models, key)) for key in QSIM_FILES]
        print(f"max over {STEPS} steps of h = {H} s and over q of |Δq| [m or rad]")
        print("\n".join(table_rows(args.cli, cases)))
