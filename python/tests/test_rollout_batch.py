"""quasidyn.rollout_batch: B rollouts on C++ threads as stacked arrays, each rollout bitwise the
one quasidyn.rollout returns, for every thread count; bad shapes and NaN named with their index
(docs/python.md, "Batched rollouts")."""

import threading
import time

import numpy as np
import pytest

import quasidyn
from conftest import example_path

B, N = 5, 10


@pytest.fixture(scope="module")
def starts(gripper):
    """B starts (the sphere raised by b mm) and B command sequences around the schedule."""
    rng = np.random.default_rng(7)
    q0s = np.tile(gripper.q0, (B, 1))
    q0s[:, 1] += 1e-3 * np.arange(B)
    schedule = np.array([gripper.command_at((k + 1) * gripper.time_step) for k in range(N)])
    Us = schedule[None] + 0.002 * rng.standard_normal((B, N, gripper.nq_a))
    return q0s, Us


def assert_batch_is_the_serial_rollouts(batch, serial, gradients):
    assert len(batch) == len(serial)
    for b, single in enumerate(serial):
        n = single.steps_done
        np.testing.assert_array_equal(batch.q[b, 0], single.q0)
        np.testing.assert_array_equal(batch.q[b, :n + 1], single.q)  # the same rows, q0 first
        np.testing.assert_array_equal(batch.u[b, :n], single.u)
        np.testing.assert_array_equal(batch.momentum_force[b, :n], single.momentum_force)
        if gradients != "none":
            np.testing.assert_array_equal(batch.B[b, :n], single.B)
        if gradients == "a_and_b":
            np.testing.assert_array_equal(batch.A[b, :n], single.A)
        assert batch.completed[b] == single.completed and batch.steps_done[b] == n
        assert batch.status[b] == single.status and batch.message[b] == single.message
        # The contacts and their forces, through rollout b's Trajectory.
        np.testing.assert_array_equal(batch[b].q, single.q)
        for step, other in zip(batch[b].steps, single.steps, strict=True):
            assert [(c.shape_a, c.shape_b) for c in step.contacts] == \
                [(c.shape_a, c.shape_b) for c in other.contacts]
            for c, d in zip(step.contacts, other.contacts):
                np.testing.assert_array_equal(c.force, d.force)
                np.testing.assert_array_equal(c.normal_impulse, d.normal_impulse)


@pytest.mark.parametrize("threads", [1, 2, 3])
def test_a_batch_is_bitwise_the_serial_rollouts_for_every_thread_count(gripper, starts,
                                                                      threads):
    q0s, Us = starts
    serial = [quasidyn.rollout(gripper, q0s[b], Us[b], gradients="a_and_b") for b in range(B)]
    batch = quasidyn.rollout_batch(gripper, q0s, Us, threads=threads, gradients="a_and_b")
    assert batch.threads == threads
    assert batch.q.shape == (B, N + 1, gripper.nq) and batch.u.shape == (B, N, gripper.nq_a)
    assert batch.A.shape == (B, N, gripper.nq, gripper.nq)
    assert batch.B.shape == (B, N, gripper.nq, gripper.nq_a)
    assert batch.completed.dtype == bool and batch.completed.all()
    np.testing.assert_array_equal(batch.u, Us)  # the commands as given
    np.testing.assert_array_equal(batch.times, gripper.time_step * np.arange(N + 1))
    assert_batch_is_the_serial_rollouts(batch, serial, "a_and_b")


def test_the_schedule_from_many_starts_and_one_start_with_many_commands(gripper, starts):
    q0s, Us = starts
    scheduled = quasidyn.rollout_batch(gripper, q0s, steps=N, threads=2, formulation="socp")
    serial = [quasidyn.rollout(gripper, q0, steps=N, formulation="socp") for q0 in q0s]
    assert_batch_is_the_serial_rollouts(scheduled, serial, "none")
    from_q0 = quasidyn.rollout_batch(gripper, Us=Us, threads=2)  # every rollout from scene.q0
    serial = [quasidyn.rollout(gripper, None, U) for U in Us]
    assert_batch_is_the_serial_rollouts(from_q0, serial, "none")
    with pytest.raises(ValueError, match="RolloutBatch.A: not computed"):
        from_q0.A


def test_second_order_batches_take_v0s(starts):
    scene = quasidyn.load_scene(example_path("planar_gripper"))
    q0s, Us = starts
    rng = np.random.default_rng(1)
    v0s = 0.01 * rng.standard_normal((B, scene.nv))
    batch = quasidyn.rollout_batch(scene, q0s, Us[:, :4], threads=2,
                                   formulation="stewart-trinkle", v0s=v0s)
    serial = [quasidyn.rollout(scene, q0s[b], Us[b, :4], formulation="stewart-trinkle",
                               v0=v0s[b]) for b in range(B)]
    assert_batch_is_the_serial_rollouts(batch, serial, "none")
    assert batch.v.shape == (B, 5, scene.nv)
    np.testing.assert_array_equal(batch.v[:, 0], v0s)
    for b in range(B):
        np.testing.assert_array_equal(batch.v[b], serial[b].v)


def test_bad_shapes_and_values_are_named_with_their_index(gripper, starts):
    q0s, Us = starts
    with pytest.raises(ValueError, match=r"^rollout_batch: q0s must have shape \(B, n_q\), "
                                         r"got \(6,\)"):
        quasidyn.rollout_batch(gripper, gripper.q0, Us)
    with pytest.raises(ValueError, match=r"^rollout_batch: Us must have shape \(B, N, nu\)"):
        quasidyn.rollout_batch(gripper, q0s, Us[0])
    with pytest.raises(ValueError, match=r"one row per rollout .*q0s 5, Us 4"):
        quasidyn.rollout_batch(gripper, q0s, Us[:4])
    with pytest.raises(ValueError, match=r"give q0s .* or Us"):
        quasidyn.rollout_batch(gripper)
    bad = Us.copy()
    bad[3, 7, 1] = np.nan
    with pytest.raises(ValueError,
                       match=r"^rollout_batch: Us\[3\]\[7\]\[1\] is not finite \(nan\)$"):
        quasidyn.rollout_batch(gripper, q0s, bad, threads=2)
    bad = q0s.copy()
    bad[2, 4] = np.inf
    with pytest.raises(ValueError, match=r"^rollout_batch: q0s\[2\]\[4\] is not finite \(inf\)$"):
        quasidyn.rollout_batch(gripper, bad, Us)
    with pytest.raises(ValueError, match=r"^rollout_batch: q0s\[0\] has size 5, expected n_q = 6"):
        quasidyn.rollout_batch(gripper, q0s[:, :5], Us)
    with pytest.raises(ValueError, match=r"^rollout_batch: Us\[0\] has 2 columns, expected "
                                         r"n_q,a = 3"):
        quasidyn.rollout_batch(gripper, q0s, Us[:, :, :2])
    with pytest.raises(ValueError, match=r"^rollout_batch: threads must be >= 1 \(got 0\)"):
        quasidyn.rollout_batch(gripper, q0s, Us, threads=0)
    with pytest.raises(ValueError, match=r"give Us or steps/duration, not both"):
        quasidyn.rollout_batch(gripper, q0s, Us, steps=3)
    with pytest.raises(TypeError, match="complex"):
        quasidyn.rollout_batch(gripper, q0s, Us.astype(complex))


def test_an_empty_batch_and_zero_steps(gripper, starts):
    q0s, Us = starts
    empty = quasidyn.rollout_batch(gripper, q0s[:0], Us[:0])
    assert len(empty) == 0 and empty.q.shape == (0, N + 1, gripper.nq)
    none = quasidyn.rollout_batch(gripper, q0s, Us[:, :0])
    assert none.q.shape == (B, 1, gripper.nq) and none.completed.all()
    np.testing.assert_array_equal(none.q[:, 0], q0s)


def test_other_python_threads_run_during_a_batch(gripper, starts):
    """The batch runs without the GIL: a Python thread keeps ticking while it runs.

    Holding the GIL, the call would let no other Python thread run between entering and leaving
    it (a tick or two at most, at a thread switch just before the call). The test counts the
    ticks inside the call, not the longest pause between ticks: on the shared machine the
    scheduler may pause the ticking thread for a while, which says nothing about the GIL."""
    q0s, Us = starts
    many_q0s = np.repeat(q0s, 400, axis=0)  # 20000 steps: a few tenths of a second
    many_Us = np.repeat(Us, 400, axis=0)
    started, outcome, inside = threading.Event(), [], []

    def batch():
        started.set()
        try:
            entered = time.perf_counter()
            outcome.append(quasidyn.rollout_batch(gripper, many_q0s, many_Us, threads=1))
            inside.extend([entered, time.perf_counter()])
        except Exception as e:  # reported below: an exception in a thread would be lost
            outcome.append(e)

    worker = threading.Thread(target=batch)
    worker.start()
    started.wait()
    ticks = []
    while worker.is_alive():
        ticks.append(time.perf_counter())
        time.sleep(0.001)
    worker.join()
    assert isinstance(outcome[0], quasidyn.RolloutBatch), outcome[0]
    assert outcome[0].completed.all()
    entered, left = inside
    ticks_inside = sum(entered < t < left for t in ticks)
    assert ticks_inside >= 10, (ticks_inside, len(ticks), left - entered)
