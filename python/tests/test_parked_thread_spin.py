"""quasidyn.set_parked_thread_spin: how long a batch's other worker threads spin after a call
(common/parallel_for.h, SetParkedThreadSpin). A choice of speed only: the batches give bitwise
the same results whatever the spin; a spin outside 0 to 1 s is refused, naming the function."""

import numpy as np
import pytest

import quasidyn


DEFAULT_SPIN_US = 4000  # kDefaultParkedThreadSpin (common/parallel_for.h)


@pytest.fixture
def restore_spin():
    yield
    quasidyn.set_parked_thread_spin(DEFAULT_SPIN_US)


def test_the_spin_is_four_milliseconds_by_default_and_reads_back(restore_spin):
    assert quasidyn.parked_thread_spin() == DEFAULT_SPIN_US
    quasidyn.set_parked_thread_spin(20000)
    assert quasidyn.parked_thread_spin() == 20000
    quasidyn.set_parked_thread_spin(0)
    assert quasidyn.parked_thread_spin() == 0


@pytest.mark.parametrize("microseconds", [-1, 1000001])
def test_a_spin_outside_zero_to_one_second_is_refused(restore_spin, microseconds):
    expected = rf"^set_parked_thread_spin: spin must be 0 to 1000000 µs \(got {microseconds} µs\)$"
    with pytest.raises(ValueError, match=expected):
        quasidyn.set_parked_thread_spin(microseconds)
    assert quasidyn.parked_thread_spin() == DEFAULT_SPIN_US


def test_a_batch_is_bitwise_the_same_with_and_without_the_spin(gripper, restore_spin):
    rng = np.random.default_rng(11)
    q0s = np.tile(gripper.q0, (6, 1))
    q0s[:, 1] += 1e-3 * rng.random(6)
    quasidyn.set_parked_thread_spin(0)
    blocked = quasidyn.rollout_batch(gripper, q0s, steps=8, threads=2)
    quasidyn.set_parked_thread_spin(20000)
    spinning = [quasidyn.rollout_batch(gripper, q0s, steps=8, threads=2) for _ in range(3)]
    for batch in spinning:
        np.testing.assert_array_equal(batch.q, blocked.q)
        np.testing.assert_array_equal(batch.momentum_force, blocked.momentum_force)
