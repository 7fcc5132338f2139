"""One Scene shared by 8 Python threads at once: each thread makes what the public API asks for
from it (a Stepper, a Linearizer, a BatchLinearizer) and steps, linearises, smooths, rolls out
(quasidyn.rollout) and rolls out a batch (quasidyn.rollout_batch) with them, the GIL released
around the C++ work; every answer is bitwise the one the same work gave serially beforehand."""

import numpy as np

import quasidyn as qd
from thread_runner import run_in_threads

THREADS = 8
ROUNDS = 2  # every thread runs its work this many times, all threads at once
STEPS = 4   # per rollout
POINTS = 3  # per batch


def inputs(scene, i):
    """Thread i's points: the scene's q0, the sphere raised (i + p) * 0.1 mm, and the schedule's
    commands scaled by 1 + i / 100; its command sequence for the rollouts."""
    Q = np.tile(scene.q0, (POINTS, 1))
    Q[:, 1] += 1e-4 * (i + np.arange(POINTS))
    schedule = np.array([scene.command_at((k + 1) * scene.time_step) for k in range(STEPS)])
    U = schedule * (1.0 + 0.01 * i)
    return Q, U


def work(scene, i):
    """Everything thread i computes, as (name, array) pairs in the order it computes them."""
    Q, U = inputs(scene, i)
    answers = []
    stepper = qd.Stepper(scene)
    for p in range(POINTS):
        answers.append((f"step {p} q_next", stepper.step(Q[p], U[p]).q_next))
    linearizer = qd.Linearizer(scene)
    for p in range(POINTS):
        one = linearizer.linearize(Q[p], U[p])
        answers += [(f"linearize {p} q_next", one.q_next), (f"linearize {p} A", one.A),
                    (f"linearize {p} B", one.B)]
    batch = qd.BatchLinearizer(scene, threads=2)
    linearized = batch.linearize(Q, U[:POINTS])
    answers += [("batch q_next", linearized.q_next), ("batch A", linearized.A),
                ("batch B", linearized.B)]
    smoothed = batch.smooth_first_order(Q[0], U[0], samples=8, u_std=0.002, seed=i)
    answers += [("smoothed q_next", smoothed.q_next), ("smoothed A", smoothed.A),
                ("smoothed B", smoothed.B)]
    trajectory = qd.rollout(scene, Q[0], U, gradients="a_and_b")
    answers += [("rollout q", trajectory.q), ("rollout A", trajectory.A),
                ("rollout B", trajectory.B)]
    rollouts = qd.rollout_batch(scene, Q, np.stack([U] * POINTS), threads=2, gradients="a_and_b")
    answers += [("rollout_batch q", rollouts.q), ("rollout_batch A", rollouts.A),
                ("rollout_batch B", rollouts.B)]
    return answers


def first_difference(got, expected):
    """The name of the first answer whose name, dtype, shape or bytes differ; None if none."""
    if len(got) != len(expected):
        return "the number of answers"
    for (name, a), (expected_name, b) in zip(got, expected):
        a, b = np.asarray(a), np.asarray(b)
        if name != expected_name or a.dtype != b.dtype or a.shape != b.shape or \
                a.tobytes() != b.tobytes():
            return expected_name
    return None


def test_eight_threads_step_linearise_and_roll_out_one_scene_bitwise_as_serially(gripper):
    serial = [work(gripper, i) for i in range(THREADS)]
    # All threads inside the library at once, each running its work ROUNDS times.
    results = run_in_threads(THREADS, ROUNDS, lambda i: work(gripper, i), together=True)
    for i in range(THREADS):
        for r in range(ROUNDS):
            assert first_difference(results[i][r], serial[i]) is None, \
                f"thread {i}, round {r}: {first_difference(results[i][r], serial[i])}"
    # Each thread's inputs differ from the others', and so do its answers: the check above can
    # fail.
    assert first_difference(serial[1], serial[0]) is not None


def test_the_comparison_sees_one_bit_of_one_number():
    answers = [("a", np.ones((2, 2))), ("b", np.zeros(3))]
    assert first_difference(answers, [(n, a.copy()) for n, a in answers]) is None
    changed = [("a", np.ones((2, 2))), ("b", np.zeros(3))]
    changed[0][1][1, 1] = np.nextafter(1.0, 2.0)
    assert first_difference(changed, answers) == "a"
    changed = [("a", np.ones((2, 2))), ("b", np.array([0.0, 0.0, -0.0]))]
    assert first_difference(changed, answers) == "b"
    assert first_difference(answers[:1], answers) == "the number of answers"
    assert first_difference([("a", np.ones((2, 2))), ("b", np.zeros((1, 3)))], answers) == "b"
