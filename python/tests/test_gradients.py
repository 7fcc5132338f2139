"""quasidyn.Linearizer and quasidyn.BatchLinearizer (python/src/gradients_bindings.cc): shapes,
B against a central finite difference of Stepper.step, errors, thread-count and seed
determinism."""

import numpy as np
import pytest

import quasidyn
qd = quasidyn  # the public package: the gradient classes are re-exported there

# The planar gripper with both fingers touching the sphere (finger faces at ±0.11 m, radius
# 0.1 m + half finger width 0.01 m) and commanded 0.01 m further in: both fingers squeeze.
Q_SQUEEZE = np.array([0.0, 0.1, 0.0, 0.1, -0.11, 0.11])
U_SQUEEZE = np.array([0.1, -0.1, 0.1])


def test_shapes_in_every_mode(gripper):
    linearizer = qd.Linearizer(gripper)
    nq, nqa = len(gripper.q0), len(U_SQUEEZE)
    full = linearizer.linearize(Q_SQUEEZE, U_SQUEEZE)  # defaults: a_and_b, exact
    assert full.ok, full.message
    assert full.q_next.shape == (nq,) and full.A.shape == (nq, nq) and full.B.shape == (nq, nqa)
    b_only = linearizer.linearize(Q_SQUEEZE, U_SQUEEZE, gradients="b_only")
    assert b_only.A.shape == (0, 0) and b_only.B.shape == (nq, nqa)
    none = linearizer.linearize(Q_SQUEEZE, U_SQUEEZE, gradients="none")
    assert none.A.shape == (0, 0) and none.B.shape == (0, 0)
    barrier = linearizer.linearize(Q_SQUEEZE, U_SQUEEZE, method="log-barrier")
    assert barrier.ok and barrier.B.shape == (nq, nqa)
    # Every mode solves the same step.
    np.testing.assert_array_equal(b_only.q_next, full.q_next)
    np.testing.assert_array_equal(none.q_next, full.q_next)


def scheduled_state(scene, steps):
    """(q, u) after `steps` QP steps of the scene's own command schedule."""
    stepper = quasidyn.Stepper(scene, formulation="qp")
    q, h = scene.q0.copy(), scene.time_step
    for k in range(steps):
        result = stepper.step(q, scene.command_at((k + 1) * h))
        assert result.ok, result.message
        q = result.q_next
    return q, scene.command_at((steps + 1) * h)


def test_b_matches_a_central_difference_of_step(gripper):
    """B = ∂q⁺/∂u against (step(u + δe_j) − step(u − δe_j)) / 2δ, after 15 steps of the
    schedule (the hand pulls the squeezed sphere down). The step is piecewise smooth and this
    point is inside one piece, so the difference has no truncation error beyond O(δ²)·curvature;
    its noise is the solver's accuracy (tolerance 1e-9, quasi_dynamic_qp.h) divided by
    δ = 1e-4: 1e-5, the tolerance used."""
    q, u = scheduled_state(gripper, 15)
    result = qd.Linearizer(gripper).linearize(q, u, gradients="b_only")
    assert result.ok, result.message
    stepper = quasidyn.Stepper(gripper, formulation="qp")
    delta = 1e-4
    columns = []
    for e in np.eye(len(u)):
        plus, minus = stepper.step(q, u + delta * e), stepper.step(q, u - delta * e)
        assert plus.ok and minus.ok
        columns.append((plus.q_next - minus.q_next) / (2 * delta))
    np.testing.assert_allclose(result.B, np.column_stack(columns), rtol=0, atol=1e-5)
    # Not trivially zero: the object and the robot respond to the command here.
    assert np.abs(result.B[:3, :]).max() > 0.01 and np.abs(result.B[3:, :]).max() > 0.1


def test_errors_name_the_python_function_and_argument(gripper):
    linearizer = qd.Linearizer(gripper)
    with pytest.raises(ValueError, match="Linearizer.linearize: gradients must be .* 'magic'"):
        linearizer.linearize(Q_SQUEEZE, U_SQUEEZE, gradients="magic")
    with pytest.raises(ValueError,
                       match="^Linearizer.linearize: linearization.method: unknown method 'fd'"):
        linearizer.linearize(Q_SQUEEZE, U_SQUEEZE, method="fd")
    with pytest.raises(ValueError, match="^Linearizer.linearize: q has size 4, expected n_q = 6"):
        linearizer.linearize(Q_SQUEEZE[:4], U_SQUEEZE)
    with pytest.raises(ValueError, match=r"^Linearizer.linearize: u\[1\] is not finite"):
        linearizer.linearize(Q_SQUEEZE, np.array([0.1, np.nan, 0.1]))
    with pytest.raises(ValueError, match=r"^Linearizer: h must lie within \[1e-06, 10\] s, got -1$"):
        qd.Linearizer(gripper, h=-1.0)
    with pytest.raises(ValueError,
                       match=r"^BatchLinearizer: linearization.threads: must be >= 1 \(got 0\)"):
        qd.BatchLinearizer(gripper, threads=0)
    with pytest.raises(ValueError, match="rows"):
        qd.BatchLinearizer(gripper).linearize(np.zeros((2, 6)), np.zeros((3, 3)))
    with pytest.raises(ValueError, match=r"^BatchLinearizer.linearize: Q\[0\] has size 5"):
        qd.BatchLinearizer(gripper).linearize(np.zeros((2, 5)), np.zeros((2, 3)))
    # The old spelling of the method is not accepted: one spelling, the command line's.
    with pytest.raises(ValueError, match="'log_barrier'"):
        linearizer.linearize(Q_SQUEEZE, U_SQUEEZE, method="log_barrier")


def test_linearization_keywords_are_the_linearization_blocks(gripper):
    """The linearisers' keywords are the settings of the block `linearization`, declared once:
    their defaults, ranges and messages are the schema's (docs/gradients.md, "Settings")."""
    specs = {s["name"]: s for s in qd._quasidyn._settings()["linearization"]["settings"]}
    assert specs["samples"]["default"] == "100" and specs["u_std"]["default"] == "0.01"
    assert specs["u_std"]["path"] == "std" and specs["q_std"]["path"] == "std_q"
    batch = qd.BatchLinearizer(gripper)
    # A keyword of the block that the call does not take, and one of no block: TypeError.
    with pytest.raises(TypeError,
                       match="smooth_first_order: unexpected keyword argument 'estimator'"):
        batch.smooth_first_order(Q_SQUEEZE, U_SQUEEZE, estimator="zeroth-order")
    with pytest.raises(TypeError,
                       match=r"unexpected keyword argument 'sample' \(did you mean 'samples'\?\)"):
        batch.smooth_first_order(Q_SQUEEZE, U_SQUEEZE, sample=3)
    with pytest.raises(TypeError, match="keyword 'samples' cannot take a str"):
        batch.smooth_first_order(Q_SQUEEZE, U_SQUEEZE, samples="3")
    with pytest.raises(TypeError, match="unexpected keyword argument 'samples'"):
        qd.Linearizer(gripper).linearize(Q_SQUEEZE, U_SQUEEZE, samples=3)
    # A value out of range: the schema's message, named by the Python function.
    with pytest.raises(ValueError, match=r"^BatchLinearizer.smooth_first_order: "
                                         r"linearization.samples: must be >= 1 \(got 0\)$"):
        batch.smooth_first_order(Q_SQUEEZE, U_SQUEEZE, samples=0)
    with pytest.raises(ValueError,
                       match=r"^BatchLinearizer.smooth_zeroth_order: "
                             r"linearization.std: must be >= 0 \[m or rad\] \(got -1\)$"):
        batch.smooth_zeroth_order(Q_SQUEEZE, U_SQUEEZE, u_std=-1.0)
    with pytest.raises(ValueError, match="linearization.std: must be > 0 for the zeroth-order"):
        batch.smooth_zeroth_order(Q_SQUEEZE, U_SQUEEZE, gradients="b_only", u_std=0.0)
    with pytest.raises(ValueError, match="linearization.estimator: unknown estimator 'third'"):
        batch.smoothing_samples(Q_SQUEEZE, U_SQUEEZE, 0, 1, estimator="third")
    # None keeps the default: equal to not giving it.
    a = batch.smooth_first_order(Q_SQUEEZE, U_SQUEEZE, gradients="b_only", samples=4, seed=None)
    b = batch.smooth_first_order(Q_SQUEEZE, U_SQUEEZE, gradients="b_only", samples=4)
    np.testing.assert_array_equal(a.B, b.B)


def batch_points():
    rng = np.random.default_rng(5)
    Q = np.tile(Q_SQUEEZE, (6, 1))
    U = U_SQUEEZE + 0.005 * rng.standard_normal((6, 3))
    return Q, U


def test_batch_is_identical_for_one_and_two_threads_and_to_single_calls(gripper):
    Q, U = batch_points()
    one = qd.BatchLinearizer(gripper, threads=1).linearize(Q, U)
    two = qd.BatchLinearizer(gripper, threads=2).linearize(Q, U)
    single = qd.Linearizer(gripper)
    assert len(one) == len(two) == len(Q)
    for i, (a, b) in enumerate(zip(one, two)):
        assert a.status == b.status, i
        np.testing.assert_array_equal(a.q_next, b.q_next)
        np.testing.assert_array_equal(a.A, b.A)
        np.testing.assert_array_equal(a.B, b.B)
        c = single.linearize(Q[i], U[i])
        np.testing.assert_array_equal(a.B, c.B)


@pytest.mark.parametrize("estimator", ["smooth_first_order", "smooth_zeroth_order"])
def test_randomized_gradients_repeat_for_equal_seeds(gripper, estimator):
    batch = qd.BatchLinearizer(gripper, threads=2)
    kwargs = dict(gradients="b_only", samples=20, u_std=0.002)
    a = getattr(batch, estimator)(Q_SQUEEZE, U_SQUEEZE, seed=7, **kwargs)
    b = getattr(batch, estimator)(Q_SQUEEZE, U_SQUEEZE, seed=7, **kwargs)
    c = getattr(batch, estimator)(Q_SQUEEZE, U_SQUEEZE, seed=8, **kwargs)
    assert a.ok, a.message
    assert a.B.shape == (6, 3) and a.B_standard_error.shape == (6, 3)
    assert a.samples_used + a.samples_failed == 20
    np.testing.assert_array_equal(a.B, b.B)
    np.testing.assert_array_equal(a.q_next, b.q_next)
    assert not np.array_equal(a.B, c.B)  # another seed, other samples
    with pytest.raises(ValueError):
        getattr(batch, estimator)(Q_SQUEEZE, U_SQUEEZE, samples=0)
