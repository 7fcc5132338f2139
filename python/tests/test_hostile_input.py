"""Misuse from Python: no crash, no silent cast, one error policy.

Caller bugs (wrong size, NaN/Inf, complex or non-numeric arrays, a NaN time) raise; a step
whose numerics fail returns a status (test_step.py)."""

import numpy as np
import pytest

import quasidyn


def test_command_at_nan_raises_instead_of_reading_out_of_bounds(gripper):
    with pytest.raises(ValueError, match="Scene.command_at: t must not be NaN"):
        gripper.command_at(float("nan"))
    np.testing.assert_array_equal(gripper.command_at(float("inf")), gripper.command_at(10.0))
    np.testing.assert_array_equal(gripper.command_at(-float("inf")), gripper.command_at(-1.0))


def test_complex_arrays_are_rejected_not_cast_to_real(gripper):
    stepper = quasidyn.Stepper(gripper)
    q = gripper.q0.astype(complex)
    u = gripper.command_at(gripper.time_step)
    with pytest.raises(TypeError, match="complex"):
        stepper.step(q, u)
    with pytest.raises(TypeError, match="complex"):
        stepper.step(gripper.q0, u + 1j)
    with pytest.raises(TypeError, match="complex"):
        quasidyn.Linearizer(gripper).linearize(q, u)
    with pytest.raises(TypeError, match="complex"):
        quasidyn.BatchLinearizer(gripper).linearize(q[None, :], u[None, :])
    with pytest.raises(TypeError, match="complex"):
        quasidyn.contacts(gripper, q)
    with pytest.raises(TypeError, match="real numbers"):
        stepper.step(np.array(["a"] * gripper.nq), u)
    # Integers are real numbers.
    assert stepper.step(gripper.q0, u).ok
    assert quasidyn.contacts(gripper, np.zeros(gripper.nq, dtype=int)) is not None


@pytest.mark.parametrize("bad", [float("nan"), float("inf")])
def test_non_finite_input_raises_value_error_in_every_entry_point(gripper, bad):
    q = gripper.q0.copy()
    q[0] = bad
    u = gripper.command_at(gripper.time_step)
    with pytest.raises(ValueError):
        quasidyn.Stepper(gripper).step(q, u)
    with pytest.raises(ValueError):
        quasidyn.Linearizer(gripper).linearize(q, u)
    with pytest.raises(ValueError):
        quasidyn.BatchLinearizer(gripper).linearize(q[None, :], u[None, :])


@pytest.mark.parametrize("formulation", quasidyn.FORMULATIONS)
def test_finite_input_that_overflows_is_a_status_as_in_rollout(gripper, formulation):
    # A robot position of -1e308 overflows in the cost, K_a (u - q_a) = inf: the step returns
    # numerical_failure and keeps q (the numerical outcome of finite input), as rollout and the
    # CLI report a failed step; only non-finite or wrongly sized input raises.
    if formulation == "halm-posa":
        pytest.skip("halm-posa steps planar scenes seen from above only (test_halm_posa.py)")
    if formulation == "ecp":
        pytest.skip("ecp steps 3D objects driven by impulses, no robots (test_ecp.py)")
    q = gripper.q0.copy()
    q[gripper.nq_u] = -1e308
    stepper = quasidyn.Stepper(gripper, formulation=formulation)
    result = stepper.step(q, gripper.command_at(gripper.time_step), v=stepper.initial_state()[1])
    assert not result.ok
    assert result.status == "numerical_failure", result.message
    assert "overflowed" in result.message
    np.testing.assert_array_equal(result.q_next, q)
