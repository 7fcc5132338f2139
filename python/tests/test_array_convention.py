"""One layout for every stacked trajectory (docs/python.md, "Arrays of a trajectory"): state
arrays (times, q, v) have N + 1 rows from the start, per-step arrays (u, A, B, forces) N rows.
rollout, rollout_batch (B = 1), quasidyn.distributed.rollouts, a saved and reloaded file and a
plan's path give the same shapes and, for the same inputs, the same values bit for bit (each
runs the same steps: rollout_batch's rollout b is rollout's, distributed's is rollout_batch's,
the files round-trip doubles exactly)."""

import tempfile

import numpy as np
import pytest

import quasidyn
from conftest import example_path

N = 6  # steps
STATE_ARRAYS = ("q", "v")
STEP_ARRAYS = ("u", "momentum_force", "A", "B")


@pytest.fixture(scope="module")
def inputs(gripper):
    q0 = gripper.q0.copy()
    q0[gripper.q_a_slice] += [0.0, -0.001, 0.001]  # not the scene's own start
    U = np.array([gripper.command_at((k + 1) * gripper.time_step) for k in range(N)])
    return q0, U


@pytest.fixture(scope="module")
def single(gripper, inputs):
    q0, U = inputs
    return quasidyn.rollout(gripper, q0, U, gradients="a_and_b")


def assert_the_convention(arrays, q0, h, steps=N):
    """arrays: name -> array of one trajectory (no batch dimension)."""
    assert arrays["times"].shape == (steps + 1,)
    assert arrays["q"].shape[0] == steps + 1 and arrays["u"].shape[0] == steps
    assert arrays["times"][0] == 0.0
    np.testing.assert_array_equal(arrays["q"][0], q0)
    # t_k = k·h, each computed as k·h (not accumulated): exact.
    np.testing.assert_array_equal(arrays["times"], np.arange(steps + 1) * h)


def test_a_rollout_has_the_start_then_each_step(gripper, inputs, single):
    q0, U = inputs
    assert single.completed
    assert_the_convention({"times": single.times, "q": single.q, "u": single.u}, q0,
                          gripper.time_step)
    assert single.v.shape == (N + 1, 0)  # no velocity state (qp)
    np.testing.assert_array_equal(single.u, U)
    for name, width in (("q_u", gripper.nq_u), ("q_a", gripper.nq_a)):
        assert getattr(single, name).shape == (N + 1, width)
    assert single.instance_q("sphere").shape == (N + 1, 3)
    assert single.momentum_force.shape[0] == N and single.A.shape[0] == N
    assert single.B.shape[0] == N and len(single.steps) == len(single.contacts) == N
    # Row k and the step from it: q[k + 1] = step(q[k], u[k]), with A[k], B[k] at (q[k], u[k]).
    stepper = quasidyn.Stepper(gripper)
    linearizer = quasidyn.Linearizer(gripper)
    for k in range(N):
        np.testing.assert_array_equal(stepper.step(single.q[k], single.u[k]).q_next,
                                      single.q[k + 1])
        np.testing.assert_array_equal(single.steps[k].q, single.q[k + 1])
        np.testing.assert_array_equal(linearizer.linearize(single.q[k], single.u[k]).B,
                                      single.B[k])
    np.testing.assert_array_equal(single.final_q, single.q[-1])


def test_rollout_batch_of_one_is_the_rollout(gripper, inputs, single):
    q0, U = inputs
    batch = quasidyn.rollout_batch(gripper, q0[None], U[None], threads=1, gradients="a_and_b")
    np.testing.assert_array_equal(batch.times, single.times)
    for name in STATE_ARRAYS + STEP_ARRAYS:
        got, expected = getattr(batch, name), getattr(single, name)
        assert got.shape == (1,) + expected.shape, name
        np.testing.assert_array_equal(got[0], expected, err_msg=name)


def test_distributed_rollouts_are_the_rollout(gripper, inputs, single, tmp_path, monkeypatch):
    distributed = pytest.importorskip("distributed")
    import quasidyn.distributed as qd
    q0, U = inputs
    # In this process: one worker thread, no subprocesses (test_distributed.py runs real ones).
    # The worker's files (its space, the scene's shipped files) go to tmp_path, removed after.
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    with distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=False,
                                  dashboard_address=":0", local_directory=str(tmp_path)) \
            as cluster, distributed.Client(cluster) as client:
        runs = qd.rollouts(gripper, q0[None], U[None], client=client, chunk_size=1,
                           gradients="a_and_b", progress=False)
    np.testing.assert_array_equal(runs.times, single.times)
    for name in STATE_ARRAYS + ("u", "A", "B"):
        got, expected = np.asarray(runs.arrays[name][:]), getattr(single, name)
        assert got.shape == (1,) + expected.shape, name
        np.testing.assert_array_equal(got[0], expected, err_msg=name)


@pytest.mark.parametrize("name", ["run.json", "run.npz"])
def test_a_saved_file_reads_back_the_same_arrays(tmp_path, gripper, single, name):
    path = tmp_path / name
    single.save(path)
    back = quasidyn.load_trajectory(path)
    np.testing.assert_array_equal(back.times, single.times)
    for array in STATE_ARRAYS + STEP_ARRAYS:
        np.testing.assert_array_equal(getattr(back, array), getattr(single, array),
                                      err_msg=array)
    if name.endswith(".npz"):  # numpy alone reads the same rows
        raw = np.load(path)
        assert int(raw["format_version"]) == 2
        np.testing.assert_array_equal(raw["q"], single.q)
        np.testing.assert_array_equal(raw["t"], single.times)
        np.testing.assert_array_equal(raw["k"], np.arange(N + 1))
        np.testing.assert_array_equal(raw["u"], single.u)


def test_the_velocity_state_starts_at_v0(gripper, inputs):
    q0, U = inputs
    v0 = np.zeros(gripper.nv)
    v0[gripper.v_a_slice] = [0.0, 0.01, -0.01]
    traj = quasidyn.rollout(gripper, q0, U, formulation="anitescu", v0=v0)
    assert traj.completed, traj.message
    assert traj.v.shape == (N + 1, gripper.nv) and traj.q.shape == (N + 1, gripper.nq)
    np.testing.assert_array_equal(traj.v[0], v0)
    np.testing.assert_array_equal(traj.v[-1], traj.final_v)
    batch = quasidyn.rollout_batch(gripper, q0[None], U[None], formulation="anitescu",
                                   v0s=v0[None], threads=1)
    np.testing.assert_array_equal(batch.v[0], traj.v)


def test_a_plans_path_is_its_trajectory(tmp_path):
    pushing = quasidyn.load_scene(example_path("planar_pushing_top_down"))
    p = quasidyn.plan(pushing, seed=9)
    assert p.found
    n = len(p.path_edges)
    assert p.path_q.shape == (n + 1, pushing.nq) and p.path_u.shape == (n, pushing.nq_a)
    np.testing.assert_array_equal(p.path_q[0], pushing.q0)
    np.testing.assert_array_equal(p.path_q, p.trajectory.q)
    np.testing.assert_array_equal(p.path_u, p.trajectory.u)
    assert p.trajectory.times.shape == (n + 1,) and p.trajectory.times[0] == 0.0
    p.save_json(tmp_path / "plan.json")
    np.testing.assert_array_equal(quasidyn.load_trajectory(tmp_path / "plan.json").q, p.path_q)


def test_a_rollout_without_steps_is_its_start(gripper, inputs):
    q0, _ = inputs
    traj = quasidyn.rollout(gripper, q0, np.zeros((0, gripper.nq_a)))
    assert traj.q.shape == (1, gripper.nq) and traj.u.shape == (0, gripper.nq_a)
    np.testing.assert_array_equal(traj.q[0], q0)
    np.testing.assert_array_equal(traj.times, [0.0])
