"""Side files (docs/qsim-files.md, "Side files"): a small YAML file that names an unchanged
system file of the reference quasistatic simulator (`base:`) and adds the start q0 and a
`planning:` block. The system here is written by the test (a pusher on a prismatic joint and a
free ball, no gravity); it loads through quasidyn.load_scene and the command line, `plan` finds
a path on it, `optimize --initial plan.json` and `track` run on the plan, and every error names
the side file and the line."""

import json
import subprocess

import numpy as np
import pytest

import quasidyn
import qsim_push_system

# The ball from the origin to y = 0.04 (its orientation free: rotation weight 0); the pusher
# starts 0.02 m from it. q = (ball x, y, z, qw, qx, qy, qz; pusher y).
SIDE = """base: package://qd_side/q_sys/push.yml
initial:
  pusher: [0.08]
  ball: [0, 0, 0, 1, 0, 0, 0]
planning:
  goal: [0, 0.04, 0, 1, 0, 0, 0]
  goal_tolerance: 0.01
  goal_weights: {rotation: 0}
  bounds: {lower: [-0.01, -0.02, -0.01], upper: [0.01, 0.1, 0.01]}
  p_grasp: 0
  step_size: 0.05
  limits: {max_nodes: 400, time_limit: 60}
"""


@pytest.fixture
def models(tmp_path, monkeypatch):
    """The system's package (qd_side) with its system file in q_sys/, and a folder for side
    files elsewhere: the side file finds the system through the package, as a user's would find
    the simulator's models/."""
    monkeypatch.delenv("ROS_PACKAGE_PATH", raising=False)
    package = tmp_path / "qsim_models"
    qsim_push_system.write_push_system(package, "qd_side", ball_mu=0.5,
                                       system=package / "q_sys" / "push.yml")
    (tmp_path / "mine").mkdir()
    return tmp_path


def side_file(models, text=SIDE, name="push_plan.yaml"):
    path = models / "mine" / name
    path.write_text(text)
    return path


def load(path, models):
    return quasidyn.load_scene(path, packages={"qd_side": str(models / "qsim_models")})


def test_a_side_file_gives_the_system_its_start_and_planning_block(models):
    base = load(models / "qsim_models" / "q_sys" / "push.yml", models)
    scene = load(side_file(models), models)
    assert scene.nq == base.nq == 8
    np.testing.assert_array_equal(scene.q0, [0, 0, 0, 1, 0, 0, 0, 0.08])
    assert not np.array_equal(base.q0, scene.q0)  # the system's own q0 is not the side file's
    assert scene.source_file.endswith("push_plan.yaml")
    # The rest is the system's: the same parity-mode conventions and time step.
    assert scene.conventions == base.conventions and scene.time_step == base.time_step
    # A flat q0 (objects first, then robots) is the same start.
    flat = SIDE.replace("initial:\n  pusher: [0.08]\n  ball: [0, 0, 0, 1, 0, 0, 0]\n",
                        "initial: [0, 0, 0, 1, 0, 0, 0, 0.08]\n")
    np.testing.assert_array_equal(load(side_file(models, flat, "flat.yaml"), models).q0, scene.q0)
    # A model it does not name keeps the system's start.
    only_pusher = SIDE.replace("  ball: [0, 0, 0, 1, 0, 0, 0]\n", "")
    partial = load(side_file(models, only_pusher, "partial.yaml"), models)
    np.testing.assert_array_equal(partial.q0[:7], base.q0[:7])
    assert partial.q0[7] == 0.08


def test_python_plans_on_a_side_file(models):
    """quasidyn.plan takes the goal and settings of the side file's block; the system alone has
    no region to sample (nor a goal)."""
    with pytest.raises(ValueError, match=r"planning.bounds: missing"):
        quasidyn.plan(load(models / "qsim_models" / "q_sys" / "push.yml", models),
                      [0, 0.04, 0, 1, 0, 0, 0])
    scene = load(side_file(models), models)
    plan = quasidyn.plan(scene)
    assert plan.found
    # The path ends within the block's tolerance of the goal (rotation weight 0: positions).
    assert np.linalg.norm(plan.path_q[-1][:3] - [0, 0.04, 0]) <= 0.01
    np.testing.assert_array_equal(plan.path_q[0], scene.q0)


@pytest.mark.parametrize("text, where, message", [
    (SIDE.replace("  ball: [0, 0, 0, 1, 0, 0, 0]", "  bal: [0, 0, 0, 1, 0, 0, 0]"),
     r"push_plan.yaml:4: initial.bal", r"no model named 'bal' in the scene \(did you mean 'ball'\?\)"),
    (SIDE.replace("  pusher: [0.08]", "  pusher: [0.08, 0.1]"),
     r"push_plan.yaml:3: initial.pusher", r"must have 1 numbers for pusher, got 2"),
    (SIDE.replace("  ball: [0, 0, 0, 1, 0, 0, 0]", "  ball: [0, 0, 0, 2, 0, 0, 0]"),
     r"push_plan.yaml:4: initial.ball", r"quaternion"),
    (SIDE.replace("initial:\n  pusher: [0.08]\n  ball: [0, 0, 0, 1, 0, 0, 0]\n",
                  "initial: [0, 0, 0, 1, 0, 0, 0]\n"),
     r"push_plan.yaml:2: initial", r"must have n_q = 8 numbers \(objects first, then robots: "
                                   r"ball 7, pusher 1\), got 7"),
    (SIDE.replace("q_sys/push.yml", "q_sys/pusch.yml"),
     r"push_plan.yaml:1: base", r"the base scene file is not found"),
    (SIDE.replace("base: package://qd_side/q_sys/push.yml", "base: ../push.yml"),
     r"push_plan.yaml:1: base", r"the base scene file is not found: .*relative paths start at "
                                r"the side file's folder"),
    (SIDE + "planing: {}\n", r"push_plan.yaml:13: planing", r"unknown key"),
    (SIDE.replace("goal: [0, 0.04, 0, 1, 0, 0, 0]", "goal: [0, 0.04, 0]"),
     r"push_plan.yaml:6: planning.goal", r"expected n_q,u = 7 numbers"),
])
def test_errors_name_the_side_file_and_the_line(models, text, where, message):
    with pytest.raises(quasidyn.SceneError, match=where + ".*" + message):
        load(side_file(models, text), models)


def test_the_base_resolves_against_the_side_file_folder(models):
    relative = SIDE.replace("package://qd_side/q_sys/push.yml", "../qsim_models/q_sys/push.yml")
    scene = load(side_file(models, relative), models)
    assert scene.nq == 8 and scene.q0[7] == 0.08


def test_a_side_file_of_a_side_file_is_refused(models):
    side_file(models)
    with pytest.raises(quasidyn.SceneError, match=r"outer.yaml:1: base: the base is itself a side file"):
        load(side_file(models, "base: push_plan.yaml\n", "outer.yaml"), models)


def run(cli, models, *arguments):
    package = "qd_side=" + str(models / "qsim_models")
    return subprocess.run([cli, *arguments, "--package", package], capture_output=True,
                          text=True, cwd=models / "mine")


def test_plan_optimize_and_track_on_a_side_file(models, cli):
    """`plan SIDE_FILE` finds a path with the side file's start and block; the plan names the
    side file, so `optimize --initial plan.json` (the goal from the block) and `track plan.json`
    load it again with the same start; `convert` writes it as a scene file."""
    if cli is None:
        pytest.skip("needs the quasidyn command line (QUASIDYN_CLI, set by ctest)")
    side_file(models)
    planned = run(cli, models, "plan", "push_plan.yaml", "--out", "plan.json")
    assert planned.returncode == 0, planned.stderr
    plan = json.loads((models / "mine" / "plan.json").read_text())
    assert plan["plan"]["status"] == "found"
    assert plan["scene"]["file"] == "push_plan.yaml"
    np.testing.assert_array_equal(plan["q0"], [0, 0, 0, 1, 0, 0, 0, 0.08])
    optimized = run(cli, models, "optimize", "push_plan.yaml", "--initial", "plan.json",
                    "--iterations", "2", "--out", "optimized.json")
    assert optimized.returncode == 0, optimized.stderr
    assert "final object err" in optimized.stdout
    tracked = run(cli, models, "track", "plan.json", "--plant-scene", "push_plan.yaml",
                  "--substeps", "2", "--out", "tracked.json")
    assert tracked.returncode == 0, tracked.stderr
    assert (models / "mine" / "tracked.json").exists()
    # `convert` writes the system with the side file's start and block: a scene file that plans
    # the same.
    converted = run(cli, models, "convert", "push_plan.yaml", "--out", "converted.yaml")
    assert converted.returncode == 0, converted.stderr
    scene = load(models / "mine" / "converted.yaml", models)
    np.testing.assert_array_equal(scene.q0, [0, 0, 0, 1, 0, 0, 0, 0.08])
    again = run(cli, models, "plan", "converted.yaml", "--out", "plan2.json")
    assert again.returncode == 0, again.stderr
    tree = json.loads((models / "mine" / "plan2.json").read_text())["plan"]["tree"]
    assert tree["q"] == plan["plan"]["tree"]["q"]  # the same settings and seed: the same tree
    # A side file's conventions are written in place of the system's parity mode.
    side_file(models, SIDE + "conventions: {joint_limits: enforced}\n", "limited.yaml")
    converted = run(cli, models, "convert", "limited.yaml", "--out", "limited_scene.yaml")
    assert converted.returncode == 0, converted.stderr
    text = (models / "mine" / "limited_scene.yaml").read_text()
    assert "  joint_limits: enforced\n" in text and "  quaternion_update: first_order\n" in text
    assert "  joint_limits: ignored\n" in (models / "mine" / "converted.yaml").read_text()
    # Without --goal and without a planning block, optimize says what it needs.
    no_block = SIDE[:SIDE.index("planning:")]
    side_file(models, no_block, "start_only.yaml")
    refused = run(cli, models, "optimize", "start_only.yaml", "--out", "o.json")
    assert refused.returncode != 0
    assert "--goal is required: the scene start_only.yaml has no planning: block" in refused.stderr
    # The unchanged base is an input of the run: no output may overwrite it.
    base = models / "qsim_models" / "q_sys" / "push.yml"
    original = base.read_bytes()
    over = run(cli, models, "convert", "push_plan.yaml", "--out", str(base))
    assert over.returncode != 0
    assert "the base of" in over.stderr and "may not overwrite an input" in over.stderr
    assert base.read_bytes() == original
    # The side file's errors are the command line's too, at the file and line.
    side_file(models, SIDE.replace("pusher: [0.08]", "pusha: [0.08]"), "bad.yaml")
    bad = run(cli, models, "info", "bad.yaml")
    assert bad.returncode != 0
    assert "bad.yaml:3: initial.pusha: no model named 'pusha'" in bad.stderr
