"""rollout and Trajectory: the same numbers as the C++ stepper loop and the command line,
trajectory files, and the gripper's forces of Fig. 2 (Pang & Tedrake 2021, §V-A)."""

import errno
import json
import os
import resource
import signal
import subprocess

import numpy as np
import pytest

import quasidyn
from conftest import example_path, why_cannot_step


@pytest.fixture(scope="module")
def gripper_rollout(gripper):
    return quasidyn.rollout(gripper, formulation="qp")  # to the schedule's end, t = 0.24 s


def test_rollout_runs_the_schedule_to_its_end(gripper, gripper_rollout):
    traj = gripper_rollout
    assert traj.completed and traj.status in ("solved", "solved_inaccurate")
    assert traj.message == "" and traj.formulation == "qp" and traj.time_step == 0.01
    assert len(traj) == traj.steps_requested == 24  # 0.24 s / 0.01 s
    # States: the start then one row per step; commands: one row per step.
    assert traj.times.shape == (25,) and traj.q.shape == (25, 6) and traj.u.shape == (24, 3)
    np.testing.assert_allclose(traj.times, 0.01 * np.arange(0, 25), rtol=1e-15)
    for k, t in enumerate(traj.times[1:]):  # u[k]: the step from row k to row k + 1, at its end
        np.testing.assert_array_equal(traj.u[k], gripper.command_at(t))
    np.testing.assert_array_equal(traj.q0, gripper.q0)
    np.testing.assert_array_equal(traj.q[0], gripper.q0)
    np.testing.assert_array_equal(traj.final_q, traj.q[-1])
    assert traj.coordinate_names == gripper.coordinate_names


def test_rollout_is_the_stepper_loop_number_for_number(gripper, gripper_rollout):
    stepper = quasidyn.Stepper(gripper, formulation="qp")
    q = gripper.q0.copy()
    for k, step in enumerate(gripper_rollout.steps, start=1):
        result = stepper.step(q, gripper.command_at(k * gripper.time_step))
        q = result.q_next.copy()
        np.testing.assert_array_equal(q, step.q)
        assert len(result.contacts) == len(step.contacts)
        for a, b in zip(result.contacts, step.contacts):
            assert (a.shape_a, a.shape_b, a.normal_force) == (b.shape_a, b.shape_b, b.normal_force)


def test_rollout_matches_the_command_line(tmp_path, gripper_rollout, cli):
    if cli is None:
        pytest.skip("QUASIDYN_CLI not set (ctest sets it)")
    out = tmp_path / "cli.json"
    subprocess.run([cli, "simulate", example_path("planar_gripper"), "--formulation", "qp",
                    "--quiet", "--out", str(out)], check=True, capture_output=True)
    from_cli = quasidyn.load_trajectory(str(out))
    assert len(from_cli) == len(gripper_rollout)
    np.testing.assert_array_equal(from_cli.q, gripper_rollout.q)
    np.testing.assert_array_equal(from_cli.u, gripper_rollout.u)


def test_the_fingers_squeeze_with_k_times_the_commanded_penetration(gripper_rollout):
    # From t = 0.08 s the finger centres are commanded to x = ∓0.100, so their inner faces
    # (half width 0.01 m) to ∓0.090, 0.01 m inside the sphere (surface at ∓0.1): held at the
    # surface, each finger pushes with K·0.01 = 1000 N/m · 0.01 m = 10 N while friction holds
    # the sphere (until t = 0.13 s, the scene file's comment).
    for step in gripper_rollout.steps:
        if not 0.09 <= step.t <= 0.12:
            continue
        fingers = [c for c in step.contacts if "world/ground" not in (c.shape_a, c.shape_b)
                   and c.normal_force > 0]
        assert len(fingers) == 2, step.t
        for c in fingers:
            assert c.normal_force == pytest.approx(10.0, rel=1e-3), step.t


def test_save_and_load_round_trip_bit_for_bit(tmp_path, gripper_rollout):
    path = str(tmp_path / "traj.json")
    gripper_rollout.save(path, indent=2)
    back = quasidyn.load_trajectory(path)
    np.testing.assert_array_equal(back.q, gripper_rollout.q)
    np.testing.assert_array_equal(back.times, gripper_rollout.times)
    assert back.to_json() == gripper_rollout.to_json()
    first = back.steps[5].contacts[0]
    original = gripper_rollout.steps[5].contacts[0]
    np.testing.assert_array_equal(first.friction_force, original.friction_force)


def test_save_json_into_a_missing_folder_names_the_path_and_the_reason(tmp_path,
                                                                       gripper_rollout):
    path = tmp_path / "missing" / "traj.json"
    with pytest.raises(RuntimeError) as error:
        gripper_rollout.save(str(path))
    assert str(path) in str(error.value)
    assert os.strerror(errno.ENOENT) in str(error.value)
    assert not (tmp_path / "missing").exists()


def test_a_save_json_that_fails_midway_keeps_the_previous_file(tmp_path, gripper_rollout):
    path = tmp_path / "traj.json"
    path.write_text("previous")
    # The file may not grow past 1 KiB: write(2) fails midway with EFBIG, as on a full disk
    # (SIGXFSZ ignored so that the error is reported instead of the signal ending Python).
    previous_handler = signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
    soft, hard = resource.getrlimit(resource.RLIMIT_FSIZE)
    resource.setrlimit(resource.RLIMIT_FSIZE, (1024, hard))
    try:
        with pytest.raises(RuntimeError, match="traj.json"):
            gripper_rollout.save(str(path))
    finally:
        resource.setrlimit(resource.RLIMIT_FSIZE, (soft, hard))
        signal.signal(signal.SIGXFSZ, previous_handler)
    assert path.read_text() == "previous"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["traj.json"]  # no temporary file


def test_save_json_refuses_an_empty_path(gripper_rollout):
    with pytest.raises(ValueError, match="empty"):
        gripper_rollout.save("")


def test_loading_a_missing_trajectory_names_the_path(tmp_path):
    with pytest.raises(RuntimeError, match="missing.json"):
        quasidyn.load_trajectory(str(tmp_path / "missing.json"))


def test_a_time_written_as_nan_is_refused_naming_the_file_and_the_step(tmp_path, gripper_rollout):
    path = tmp_path / "traj.json"
    gripper_rollout.save(str(path))
    data = json.loads(path.read_text())
    data["steps"][2]["t"] = "NaN"
    path.write_text(json.dumps(data))
    k = data["steps"][2]["k"]
    with pytest.raises(ValueError, match=rf"traj.json: steps\[2\] \(k = {k}\)\.t: must be a finite"):
        quasidyn.load_trajectory(str(path))


@pytest.mark.parametrize("formulation", quasidyn.FORMULATIONS)
def test_every_formulation_rolls_out_the_gripper(gripper, formulation):
    why = why_cannot_step(gripper, formulation)
    if why:
        pytest.skip(why)  # halm-posa (test_halm_posa.py) and ecp (test_ecp.py)
    traj = quasidyn.rollout(gripper, formulation=formulation, duration=0.1)
    assert traj.completed, traj.message
    assert len(traj) == 10 and traj.formulation == formulation


def test_steps_and_duration_choose_the_step_count(gripper):
    assert len(quasidyn.rollout(gripper, steps=3)) == 3
    assert len(quasidyn.rollout(gripper, duration=0.05, h=0.02)) == 3  # ⌈0.05 / 0.02⌉
    with pytest.raises(ValueError, match="not both"):
        quasidyn.rollout(gripper, steps=3, duration=0.1)
    with pytest.raises(ValueError, match=r"^rollout: rollout\.steps: must be >= 0 \(got -1\)$"):
        quasidyn.rollout(gripper, steps=-1)
    with pytest.raises(ValueError, match="^rollout: rollout.duration: must be finite$"):
        quasidyn.rollout(gripper, duration=float("nan"))


def test_the_rollout_blocks_keywords(gripper):
    """steps, duration and gradients are the rollout block's settings (docs/python.md): checked
    with the schema's message, refused by name when unknown, None meaning not given."""
    assert len(quasidyn.rollout(gripper, steps=2, duration=None, gradients=None)) == 2
    assert quasidyn.rollout(gripper, steps=2, gradients="b_only").B.shape[0] == 2
    with pytest.raises(ValueError, match=r"^rollout: rollout\.duration: must be >= 0 \[s\] "
                                         r"\(got -1\)$"):
        quasidyn.rollout(gripper, duration=-1.0)
    with pytest.raises(ValueError, match=r"^rollout: rollout\.gradients: unknown gradients 'A' "
                                         r"\(none, b_only, a_and_b\)$"):
        quasidyn.rollout(gripper, steps=2, gradients="A")
    with pytest.raises(ValueError, match=r"^rollout_batch: rollout\.steps: must be >= 0"):
        quasidyn.rollout_batch(gripper, steps=-3)
    with pytest.raises(ValueError, match="rollout.duration: give steps or duration, not both"):
        quasidyn.rollout_batch(gripper, steps=3, duration=0.1)
    with pytest.raises(TypeError, match=r"^rollout: unexpected keyword argument 'stepz' "
                                        r"\(did you mean 'steps'\?\)"):
        quasidyn.rollout(gripper, stepz=3)
    with pytest.raises(TypeError, match="unexpected keyword argument 'every'"):
        quasidyn.rollout(gripper, steps=2, every=2)  # a trajectory file's: Trajectory.save
    with pytest.raises(TypeError, match="keyword 'steps' cannot take a float"):
        quasidyn.rollout_batch(gripper, steps=2.5)
    # The formulation's parameters still pass by key beside the settings.
    assert len(quasidyn.rollout(gripper, steps=2, formulation="log-barrier", kappa=200.0)) == 2
