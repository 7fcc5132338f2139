"""scripts/plan_step_errors.py, where a plan's steps part from a plant (issue 69): the planar hand's
ball 2 m up, falling for one step of h = 0.1 s, against closed forms. The quasi-dynamic model
moves an object from rest by h² g / s in one step; at h/N with s/N, N steps of (h/N)² g / (s/N)
each: the same h² g / s, so the planner's step equals the finer model's (a discretisation error
of zero; s kept at h/N would give 1/N of the fall, the simulator's rule s ∝ h² N times it). The
plant's semi-implicit Euler from rest falls h_p² g N(N + 1)/2 = h² g (N + 1)/(2N), off the finer
model by h² g |(N + 1)/(2N) − 1/s|. Tolerance: rounding of the printed rows (6 significant digits)."""

import re

import pytest

import quasidyn as qd
from conftest import example_path, run_script
from qsim_tree_scenarios import fingers_ball

G = 9.81  # the planar hand's gravity [m/s²]
H, N = 0.1, 10


def run(*arguments):
    return run_script("plan_step_errors.py", *arguments)


@pytest.fixture(scope="module")
def plan_file(tmp_path_factory):
    scene = qd.load_scene(example_path("planar_hand"))
    up = scene.q0.copy()  # the ball on the ground, the fingertips 1 cm from it ...
    up[scene.q_slice("ball")][1] += 2.0  # ... then 2 m up: nothing within reach for a step
    plan = qd.Trajectory(scene, h=H, formulation="qp")
    command = scene.q0[scene.q_a_slice]
    plan.append(up, command)  # step 1 from q0: the ball on the ground (its end as given: 2 m up)
    plan.append(qd.Stepper(scene, h=H).step(up, command).q_next, command)  # step 2: a free fall
    path = tmp_path_factory.mktemp("step_errors") / "plan.json"
    plan.save(path)
    return path


def rows(text):
    pattern = r"^(\S+) (\d+) \S+ (\S+) (\S+) (\S+) (\S+) (\S+) (\S+)$"
    return {(float(m.group(1)), int(m.group(2))): tuple(float(m.group(i)) for i in range(3, 9))
            for m in re.finditer(pattern, text, re.M)}


def test_a_free_fall_is_converged_in_its_step_and_the_plant_falls_as_semi_implicit_euler(
        plan_file):
    scene = qd.load_scene(example_path("planar_hand"))
    s = scene.formulation_parameters.get("object_mass_scale", 1.0)
    result = run(plan_file, example_path("planar_hand"), "--substeps", N, "--scales", "1,0.5")
    assert result.returncode == 0, result.stderr
    row = rows(result.stdout)
    rest, fall = row[(1.0, 1)], row[(1.0, 2)]
    assert rest[0] == pytest.approx(0.0, abs=1e-6)  # the ball on the ground stays
    assert rest[2] == pytest.approx(2.0, rel=1e-6)  # the plan's own end: 2 m up
    assert fall[0] == pytest.approx(H**2 * G / s, rel=1e-5)
    assert fall[2] == pytest.approx(0.0, abs=1e-6 * fall[0])
    assert fall[4] == pytest.approx(H**2 * G * abs((N + 1) / (2 * N) - 1 / s), rel=1e-5)
    assert fall[1] == fall[3] == fall[5] == 0.0  # a planar ball that falls does not turn
    relative = abs((N + 1) / (2 * N) - 1 / s) * s
    assert re.search(r"^alpha 1: 1 of 2 steps move the objects \(0 regrasps skipped, 0 failed\); "
                     r"median relative error against the model at h/10: the planner's step "
                     r"\S+ \(position\) n/a \(rotation\), the plant (\S+) \(position\) n/a",
                     result.stdout, re.M), result.stdout
    plant = float(re.search(r"^alpha 1:.*the plant (\S+) \(position\)", result.stdout,
                            re.M).group(1))
    assert plant == pytest.approx(relative, rel=1e-2)  # printed to 3 significant digits
    # α scales a command that is zero here: the same fall, and at α < 1 the model's own step.
    assert row[(0.5, 2)][0] == pytest.approx(fall[0], rel=1e-9)
    assert row[(0.5, 2)][2] == pytest.approx(0.0, abs=1e-6 * fall[0])


def test_the_reference_simulators_mass_scale_rule_is_divided_at_h_over_n(tmp_path):
    """A system file with unactuated_mass_scale c_u: s = min_j h² K_j / (c_u λ_max(M_u)) is
    divided by N through c_u/N. The ball (0.1 kg, so λ_max(M_u) = 0.1 kg; K = 10 N·m/rad, c_u =
    5, g = 10 m/s²) falls h² g / s = c_u λ_max g / K = 0.5 m in one step of h, as at h/N."""
    system, _, _ = fingers_ball(tmp_path)
    scene = qd.load_scene(str(system))
    up = scene.q0.copy()
    up[scene.q_slice("ball")][2] += 2.0
    plan = qd.Trajectory(scene, h=H, formulation="qp")
    command = scene.q0[scene.q_a_slice]
    plan.append(up, command)  # step 2 starts 2 m up, and ends where the model's step of h does
    plan.append(qd.Stepper(scene, h=H).step(up, command).q_next, command)
    path = tmp_path / "fall.json"
    plan.save(path)
    result = run(path, system, "--substeps", N)
    assert result.returncode == 0, result.stderr
    g, k, c_u, mass = 10.0, 10.0, 5.0, 0.1
    fall = rows(result.stdout)[(1.0, 2)]
    assert fall[0] == pytest.approx(c_u * mass * g / k, rel=1e-5)
    assert fall[2] == pytest.approx(0.0, abs=1e-6 * fall[0])
    assert fall[4] == pytest.approx(abs(H**2 * g * (N + 1) / (2 * N) - fall[0]), rel=1e-5)


def test_bad_options_are_refused_with_what_is_wrong(plan_file):
    scene = example_path("planar_hand")
    for arguments, message in ((("--substeps", 1), "--substeps must be >= 2"),
                               (("--scales", "1,x"), "expected numbers"),
                               (("--scales", "0"), "each must be in (0, 1]"),
                               (("--package", "nofolder"), "expected NAME=DIR")):
        result = run(plan_file, scene, *arguments)
        assert result.returncode != 0 and message in result.stderr, (arguments, result.stderr)
    missing = run(plan_file.parent / "missing.json", scene)
    assert missing.returncode != 0 and "missing.json" in missing.stderr, missing.stderr
