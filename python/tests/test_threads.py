"""One Stepper, Linearizer or BatchLinearizer shared by several Python threads: the bindings
release the GIL, and each object's mutex (python/src/bindings.h) makes the threads take turns,
so every thread gets bitwise the result a single thread gets."""

import numpy as np

import quasidyn as qd
import thread_runner

# Both fingers squeeze the sphere of the planar gripper (as in test_gradients.py).
Q_SQUEEZE = np.array([0.0, 0.1, 0.0, 0.1, -0.11, 0.11])
U_SQUEEZE = np.array([0.1, -0.1, 0.1])
THREADS = 4
CALLS = 100


def run_in_threads(work):
    """work(i) for i in 0..THREADS-1, each on its own thread, CALLS times; the results by i."""
    return thread_runner.run_in_threads(THREADS, CALLS, work)


def commands():
    rng = np.random.default_rng(3)
    return [U_SQUEEZE + 0.002 * rng.standard_normal(3) for _ in range(THREADS)]


def assert_every_thread_matches(fresh, compute):
    """compute(obj, i) on one object shared by THREADS threads equals compute on a fresh
    object per i, bit for bit, in every one of the CALLS repetitions."""
    reference = [compute(fresh(), i) for i in range(THREADS)]
    shared = fresh()
    results = run_in_threads(lambda i: compute(shared, i))
    for i in range(THREADS):
        for value in results[i]:
            np.testing.assert_array_equal(value, reference[i])


def test_a_shared_stepper_gives_each_thread_the_single_thread_result(gripper):
    us = commands()
    assert_every_thread_matches(lambda: qd.Stepper(gripper),
                                lambda s, i: s.step(Q_SQUEEZE, us[i]).q_next.copy())


def test_a_shared_linearizer_gives_each_thread_the_single_thread_gradients(gripper):
    us = commands()
    assert_every_thread_matches(lambda: qd.Linearizer(gripper),
                                lambda s, i: s.linearize(Q_SQUEEZE, us[i]).A.copy())


def test_a_shared_batch_smooths_the_same_in_every_thread(gripper):
    assert_every_thread_matches(
        lambda: qd.BatchLinearizer(gripper, threads=2),
        lambda s, i: s.smooth_first_order(Q_SQUEEZE, U_SQUEEZE, gradients="b_only", samples=10,
                                          u_std=0.002, seed=i).B.copy())
