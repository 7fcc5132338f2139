"""Ctrl-C during a long library call (docs/python.md, "Interrupting a long call"): a
KeyboardInterrupt delivered to the main thread while rollout_batch or plan runs without the GIL
stops the call at its next step or iteration and raises KeyboardInterrupt; the library stays
usable, a following call giving what a fresh one gives. Times are measured against the call's
own uninterrupted duration, never against a number of seconds."""

import _thread
import threading
import time

import numpy as np
import pytest

import quasidyn
from conftest import example_path


def interrupted_after(call, delay):
    """Runs call() with a KeyboardInterrupt sent to the main thread after `delay` seconds; returns
    the seconds from the interrupt to the call's end (it must raise KeyboardInterrupt)."""
    sent, ended = [], []

    def interrupt():
        sent.append(time.perf_counter())
        _thread.interrupt_main()

    def run():
        try:
            call()
        finally:
            ended.append(time.perf_counter())

    timer = threading.Timer(delay, interrupt)
    timer.start()
    try:
        with pytest.raises(KeyboardInterrupt):
            run()
            # A call that returned before the interrupt: it lands here (checked below).
            timer.join()
            time.sleep(0.5)
    finally:
        timer.cancel()
    assert sent and ended[0] >= sent[0], "the call ended before the interrupt was sent"
    return ended[0] - sent[0]


def assert_stops_soon(call, duration, tries=3):
    """Interrupts call() a tenth into its uninterrupted `duration` and asserts it returns within a
    fifth of that duration: within a step, point or iteration (and a poll of interruptible_call.h),
    far sooner than it would have ended. The latency is the call's own plus whatever the machine's
    other work adds (CI runs two tests at once on two cores), never less: the shortest of up to
    `tries` interruptions is the call's, and a call that does not stop (latency near 0.9 duration)
    fails every try."""
    latencies = []
    for _ in range(tries):
        latencies.append(interrupted_after(call, duration / 10))
        print(f"latency {latencies[-1]:.4f} s of {duration:.3f} s")
        if latencies[-1] <= duration / 5:
            return
    assert min(latencies) <= duration / 5, (latencies, duration)


def timed(call):
    start = time.perf_counter()
    result = call()
    return result, time.perf_counter() - start


@pytest.fixture(scope="module")
def hand():
    return quasidyn.load_scene(example_path("planar_hand"))


def test_a_long_rollout_batch_returns_soon_after_ctrl_c_and_the_next_call_works(hand):
    # 8 rollouts of 12000 steps each, the fingers closing on the ball.
    rng = np.random.default_rng(3)
    held = np.tile(hand.q0[-hand.nq_a:], (8, 12000, 1))
    Us = held + 0.01 * rng.standard_normal((8, 1, hand.nq_a))

    def batch():
        return quasidyn.rollout_batch(hand, Us=Us, threads=2)

    fresh, duration = timed(batch)
    assert fresh.completed.all()
    assert_stops_soon(batch, duration)
    again = batch()
    np.testing.assert_array_equal(again.q, fresh.q)
    np.testing.assert_array_equal(again.u, fresh.u)
    assert again.completed.all()


def test_a_long_plan_returns_soon_after_ctrl_c_and_the_next_plan_is_the_same():
    scene = quasidyn.load_scene(example_path("planar_pushing"))
    unreachable = [0.0, 0.05, 1.5708]  # tests/cli/plan.sh: not reached in thousands of nodes
    small = quasidyn.plan(scene, unreachable, max_nodes=200)
    big, duration = timed(lambda: quasidyn.plan(scene, unreachable, max_nodes=6000))
    assert not big.found and len(big.tree_q) == 6000
    assert_stops_soon(lambda: quasidyn.plan(scene, unreachable, max_nodes=6000), duration)
    again = quasidyn.plan(scene, unreachable, max_nodes=200)
    assert again.status == small.status == "not_found"
    np.testing.assert_array_equal(again.tree_q, small.tree_q)
    np.testing.assert_array_equal(again.path_q, small.path_q)


def sized_to_last(seconds, make_call, size):
    """make_call(n) with n grown from `size` until the call takes at least `seconds` (whatever the
    machine's speed or load, so that a 20 ms poll is a small part of it); the call and its time."""
    for _ in range(12):  # up to 2^12 times the first size: a fast idle machine needs ~7 tries
        call = make_call(size)
        result, duration = timed(call)
        if duration >= seconds:
            return call, result, duration
        size = int(size * min(2.0, 1.5 * seconds / max(duration, 1e-3)))
    raise AssertionError(f"the call never took {seconds} s (size {size})")


def test_a_long_batch_linearization_returns_soon_after_ctrl_c_and_the_next_is_the_same(hand):
    # Points near the hand's start, exact A and B of each on 2 threads, as many as take 1 s.
    rng = np.random.default_rng(5)
    batch = quasidyn.BatchLinearizer(hand, threads=2)

    def make(n):
        Q = np.tile(hand.q0, (n, 1))
        U = np.tile(hand.q0[-hand.nq_a:], (n, 1)) + 0.01 * rng.standard_normal((n, hand.nq_a))
        return lambda: (Q, U, batch.linearize(Q, U))

    call, (Q, U, fresh), duration = sized_to_last(1.0, make, 2000)
    assert fresh.ok.all()
    print(f"{len(Q)} points")
    assert_stops_soon(call, duration)
    again = batch.linearize(Q, U)
    np.testing.assert_array_equal(again.A, fresh.A)
    np.testing.assert_array_equal(again.B, fresh.B)


def test_a_long_randomized_smoothing_returns_soon_after_ctrl_c_and_the_next_is_the_same(hand):
    batch = quasidyn.BatchLinearizer(hand, threads=2)
    u = hand.q0[-hand.nq_a:]

    def make(samples):
        return lambda: batch.smooth_first_order(hand.q0, u, samples=samples, u_std=0.01, seed=4)

    smooth, fresh, duration = sized_to_last(1.0, make, 2000)
    assert_stops_soon(smooth, duration)
    again = smooth()
    np.testing.assert_array_equal(again.A, fresh.A)
    np.testing.assert_array_equal(again.B, fresh.B)


def test_a_long_optimization_returns_soon_after_ctrl_c_and_the_next_is_the_same(hand):
    goal = hand.q0[:3] + np.array([0.0, 0.0, 0.5])

    def make(horizon):  # the work of an iteration grows with the horizon (its rollout and QP)
        opt = quasidyn.TrajectoryOptimizer(hand, goal, horizon=horizon, iterations=30, h=0.1,
                                           object_weight=np.array([10.0, 10.0, 1.0]))
        u0 = np.tile(hand.q0[3:] + np.array([0.0, 0.2, 0.0, -0.2]), (horizon, 1))
        return lambda: opt.optimize(hand.q0, u0)

    optimize, fresh, duration = sized_to_last(1.0, make, 60)
    assert_stops_soon(optimize, duration)
    again = optimize()
    np.testing.assert_array_equal(again["u"], fresh["u"])
    assert again["best_cost"] == fresh["best_cost"]
