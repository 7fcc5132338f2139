"""The second-order formulations (stewart-trinkle, anitescu) from Python: a state (q, v) in
Stepper.step, rollout and Trajectory, their files, their linearisation, and the arguments they
refuse (docs/python.md, "Second-order time stepping")."""

import numpy as np
import pytest

import quasidyn
from conftest import example_path

G = 9.81

BLOCK = """
name: block
dimension: 2
time_step: 0.01
contact_tolerance: 0.01
formulation: {type: stewart-trinkle}
environment:
  - {name: ground, type: half_space, friction: 0.5}
objects:
  - name: box
    joint: planar
    body: {mass: 1, inertia: from_shapes,
           shapes: [{type: box, size: [0.1, 0.1, 0.1], friction: 0.5}]}
    initial: [0, 0.05, 0]
    initial_velocity: [0.8, 0, 0]
"""


@pytest.fixture(scope="module")
def block():
    return quasidyn.load_scene_from_string(BLOCK, "block")


@pytest.mark.parametrize("formulation", quasidyn.SECOND_ORDER_FORMULATIONS)
def test_step_takes_and_returns_the_velocity(block, formulation):
    stepper = quasidyn.Stepper(block, formulation=formulation)
    assert stepper.has_velocity
    q0, v0 = stepper.initial_state()
    np.testing.assert_array_equal(v0, [0.8, 0, 0])  # the scene's initial_velocity
    result = stepper.step(q0, np.zeros(0), v=v0)
    assert result.ok, result.message
    assert result.v_next.shape == (3,)
    np.testing.assert_array_equal(result.v_next, result.v)  # v⁺ = (q⁺ ⊖ q)/h
    np.testing.assert_allclose(result.q_next, q0 + block.time_step * result.v_next, atol=1e-15)
    # Coulomb friction decelerates the sliding block by μ g (backward Euler, Stewart–Trinkle;
    # the relaxation lifts it off instead, docs/formulations.md).
    if formulation == "stewart-trinkle":
        assert result.v_next[0] == pytest.approx(0.8 - 0.5 * G * block.time_step, abs=1e-9)
    # The momentum balance along the vertical: Σ c_n h = m (v⁺_y − v_y) + m g h (the weight
    # alone for Stewart–Trinkle, whose block stays down).
    impulse = sum(c.normal_impulse for c in result.contacts)
    assert impulse == pytest.approx(result.v_next[1] + G * block.time_step, rel=1e-6)


def test_the_velocity_is_required_by_second_order_and_refused_by_the_others(block):
    q0 = block.q0
    with pytest.raises(ValueError, match=r"^Stepper.step: v has size 0, expected n_v = 3"):
        quasidyn.Stepper(block, formulation="anitescu").step(q0, np.zeros(0))
    with pytest.raises(ValueError, match="v has size 2, expected n_v = 3"):
        quasidyn.Stepper(block).step(q0, np.zeros(0), v=np.zeros(2))
    with pytest.raises(ValueError, match="not finite"):
        quasidyn.Stepper(block).step(q0, np.zeros(0), v=np.array([np.nan, 0, 0]))
    with pytest.raises(ValueError, match="^Stepper.step: v must be empty: the quasi-dynamic model "
                       "has no velocity in its state"):
        quasidyn.Stepper(block, formulation="qp").step(q0, np.zeros(0), v=np.zeros(3))
    qp = quasidyn.Stepper(block, formulation="qp")
    assert not qp.has_velocity and qp.initial_state()[1] is None


def test_rollout_and_trajectory_hold_v(block, tmp_path):
    trajectory = quasidyn.rollout(block, steps=20)
    assert trajectory.completed, trajectory.message
    assert trajectory.formulation == "stewart-trinkle"
    np.testing.assert_array_equal(trajectory.v0, [0.8, 0, 0])
    assert trajectory.v.shape == (21, 3)  # v0, then after each step
    # Sliding, then stopped at step ⌈v0 / (h μ g)⌉ = 17.
    speeds = np.maximum(0.0, 0.8 - 0.5 * G * 0.01 * np.arange(0, 21))
    np.testing.assert_allclose(trajectory.v[:, 0], speeds, atol=1e-9)
    np.testing.assert_array_equal(trajectory.final_v, trajectory.v[-1])
    # Both file formats keep v; a quasi-dynamic trajectory has none.
    for name in ("run.json", "run.npz"):
        path = str(tmp_path / name)
        trajectory.save(path)
        loaded = quasidyn.load_trajectory(path)
        np.testing.assert_array_equal(loaded.v, trajectory.v)
        np.testing.assert_array_equal(loaded.v0, trajectory.v0)
    assert quasidyn.rollout(block, formulation="qp", steps=2).v.shape == (3, 0)
    # Another start: v0 given, or refused where the model has no velocity.
    still = quasidyn.rollout(block, steps=3, v0=np.zeros(3))
    np.testing.assert_allclose(still.v, np.zeros((4, 3)), atol=1e-12)
    with pytest.raises(ValueError, match="^rollout: v0 has size 3, expected the model's n_v of "
                       "its state = 0"):
        quasidyn.rollout(block, formulation="qp", steps=1, v0=np.zeros(3))


def test_rollout_gradients_are_those_of_the_state(block):
    trajectory = quasidyn.rollout(block, steps=3, gradients="a_and_b")
    assert trajectory.A.shape == (3, 6, 6) and trajectory.B.shape == (3, 6, 0)
    # While sliding: dv⁺/dv_x = 1 (the friction does not depend on the speed), dq⁺_x/dv_x = h.
    A = trajectory.A[0]
    assert A[3, 3] == pytest.approx(1.0, abs=1e-9)
    assert A[0, 3] == pytest.approx(0.01, abs=1e-9)


def test_trajectory_built_step_by_step_takes_v(block):
    stepper = quasidyn.Stepper(block)
    q, v = stepper.initial_state()
    trajectory = quasidyn.Trajectory(block)
    np.testing.assert_array_equal(trajectory.v0, v)
    for _ in range(3):
        result = stepper.step(q, np.zeros(0), v=v)
        trajectory.append(None, np.zeros(0), result)
        q, v = result.q_next, result.v_next
    np.testing.assert_array_equal(trajectory.final_v, v)
    with pytest.raises(ValueError, match="give v, or a result"):
        trajectory.append(q, np.zeros(0))
    qp = quasidyn.Trajectory(block, formulation="qp")
    assert qp.v0.shape == (0,)
    with pytest.raises(ValueError, match="v is for trajectories with velocities"):
        qp.append(q, np.zeros(0), v=v)


def test_linearizer_differentiates_the_state(block):
    linearizer = quasidyn.Linearizer(block)
    q, v = block.q0, np.array([0.8, 0.0, 0.0])
    lin = linearizer.linearize(q, np.zeros(0), v=v)
    assert lin.ok, lin.message
    assert lin.A.shape == (6, 6) and lin.v_next.shape == (3,)
    np.testing.assert_allclose(lin.v_next, quasidyn.Stepper(block).step(q, np.zeros(0), v=v).v_next)
    with pytest.raises(ValueError, match="^Linearizer.linearize: v has size 0, expected the "
                       "state's n_v = 3"):
        linearizer.linearize(q, np.zeros(0))
    with pytest.raises(ValueError, match=r"^BatchLinearizer.linearize: V\[0\] has size 0, "
                       "expected the state's n_v = 3"):
        quasidyn.BatchLinearizer(block).linearize(q[None, :], np.zeros((1, 0)))


def test_the_gripper_example_with_its_robot(gripper):
    """A robot with mass and (default, critically) damped impedance closes on the sphere."""
    for formulation in quasidyn.SECOND_ORDER_FORMULATIONS:
        trajectory = quasidyn.rollout(gripper, formulation=formulation, duration=0.24)
        assert trajectory.completed, trajectory.message
        assert trajectory.v.shape == (25, gripper.nv)
        assert max(len(c) for c in trajectory.contacts) == 3  # both fingers and the ground


def test_scene_exposes_v0_and_the_damping(block, gripper):
    np.testing.assert_array_equal(block.v0, [0.8, 0, 0])
    np.testing.assert_array_equal(gripper.v0, np.zeros(gripper.nv))  # none given: at rest
    # The gripper's default damping: critical for each joint's own inertia at q0,
    # 2·sqrt(K·M_jj) with K = 1000 N/m, M_yy = 0.3 kg (hand and both fingers), M_xx = 0.1 kg.
    np.testing.assert_allclose(gripper.actuated_damping,
                               2 * np.sqrt(1000 * np.array([0.3, 0.1, 0.1])), rtol=1e-12)
    assert block.actuated_damping.shape == (0,)


def test_scene_file_errors_name_the_line():
    bad = BLOCK.replace("initial_velocity: [0.8, 0, 0]", "initial_velocity: [0.8, 0]")
    with pytest.raises(quasidyn.SceneError, match=r"block:15: objects\[0\].initial_velocity"):
        quasidyn.load_scene_from_string(bad, "block")
    arm = quasidyn.load_scene(example_path("arm_cubes"))
    assert quasidyn.Stepper(arm, formulation="anitescu").has_velocity
