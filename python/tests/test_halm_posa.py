"""The halm-posa formulation (Halm & Posa 2018) from Python: stepping with the schedule's
velocity command, rollouts, A and B, a squeeze without solution, and the scenes it refuses."""

import numpy as np
import pytest

import quasidyn
from conftest import SOURCE_DIR, example_path


def disk(name="symmetric_push.yaml"):
    return quasidyn.load_scene(str(SOURCE_DIR / "examples" / "disk_pushing" / name))


def test_the_scheduled_velocity_moves_a_free_finger_exactly():
    scene = disk()
    stepper = quasidyn.Stepper(scene, formulation="halm-posa")
    assert stepper.formulation == "halm-posa"
    u = stepper.scheduled_command(scene.time_step, scene.q0)
    np.testing.assert_allclose(u, [0, -1, 0, -1], atol=1e-12)  # m/s, 10 m in 10 s
    result = stepper.step(scene.q0, u)
    assert result.ok, result.message
    np.testing.assert_allclose(result.q_next[3:], scene.command_at(scene.time_step), atol=1e-12)
    np.testing.assert_allclose(result.q_next[:3], scene.q0[:3], atol=0)  # not yet in contact


def test_rollout_pushes_the_disk_and_matches_the_command_line(cli, tmp_path):
    scene = disk()
    trajectory = quasidyn.rollout(scene)
    assert trajectory.completed and trajectory.formulation == "halm-posa"
    assert trajectory.q[-1][1] < -5.5  # the disk pushed from y = 3 m
    if cli is None:
        pytest.skip("the command line is not available")
    import json
    import subprocess
    out = tmp_path / "disk.json"
    subprocess.run([cli, "simulate", str(SOURCE_DIR / "examples" / "disk_pushing" / "symmetric_push.yaml"), "--quiet", "--out", str(out)],
                   check=True, capture_output=True)
    steps = json.load(open(out))["steps"]
    np.testing.assert_allclose(steps[-1]["q"], trajectory.q[-1], atol=1e-12)


def test_linearization_of_a_push_has_a_and_b():
    scene = disk("asymmetric_push.yaml")
    stepper = quasidyn.Stepper(scene, formulation="halm-posa")
    trajectory = quasidyn.rollout(scene, steps=150)
    q = trajectory.q[-1]
    u = stepper.scheduled_command(151 * scene.time_step, q)
    linearizer = quasidyn.Linearizer(scene)
    lin = linearizer.linearize(q, u)
    assert lin.ok, lin.message
    assert lin.A.shape == (7, 7) and lin.B.shape == (7, 4)
    assert np.all(np.isfinite(lin.A)) and np.all(np.isfinite(lin.B))
    # Central differences of the step along u (the step is an LCP solved to rounding).
    eps = 1e-6
    B = np.column_stack([
        (stepper.step(q, u + eps * e).q_next - stepper.step(q, u - eps * e).q_next) / (2 * eps)
        for e in np.eye(4)])
    np.testing.assert_allclose(lin.B, B, atol=1e-6 * max(1, np.abs(B).max()))


def test_a_squeeze_under_perfect_velocity_control_is_a_status_not_an_exception():
    scene = disk("wall_push.yaml")
    trajectory = quasidyn.rollout(scene, steps=120)  # the scene's c = 0.01: rolls on
    assert trajectory.completed
    perfect = quasidyn.load_scene_from_string(
        open(SOURCE_DIR / "examples" / "disk_pushing" / "wall_push.yaml").read().replace(
            "c: 0.01", "c: 0"), "wall")
    stopped = quasidyn.rollout(perfect, steps=120)
    assert not stopped.completed and stopped.status == "infeasible"
    assert "disk/rim" in stopped.message and len(stopped.steps) == 93


def test_scenes_it_does_not_model_raise_value_error():
    with pytest.raises(ValueError, match="gravity"):
        quasidyn.Stepper(quasidyn.load_scene(example_path("planar_gripper")),
                         formulation="halm-posa")
    with pytest.raises(ValueError, match="planar"):
        quasidyn.Stepper(quasidyn.load_scene(example_path("arm_cubes")), formulation="halm-posa")
