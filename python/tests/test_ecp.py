"""The ecp formulation (Xie & Chakraborty: one equivalent contact point per pair, docs/ecp.md)
from Python: the state (q, v), the applied impulse as the command u, the ECP and its torsional
moment in the contacts, rollouts of the examples, the linearisation's B = d(q+, v+)/du against
finite differences, and what it refuses."""

import numpy as np
import pytest

import quasidyn
from conftest import example_path

MU, G, H = 0.12, 9.8, 0.01


@pytest.fixture(scope="module")
def cube():
    return quasidyn.load_scene(example_path("ecp_cube_sliding"))


def test_a_step_of_the_sliding_cube(cube):
    stepper = quasidyn.Stepper(cube)
    assert stepper.formulation == "ecp" and stepper.has_velocity
    q0, v0 = stepper.initial_state()
    np.testing.assert_array_equal(v0, [4, 3, 0, 0, 0, 0])  # the scene's initial_velocity
    u = stepper.scheduled_command(H, q0, v=v0)
    np.testing.assert_array_equal(u, np.zeros(6))  # no impulse, no external force
    result = stepper.step(q0, u, v=v0)
    assert result.ok, result.message
    # Sliding: the friction impulse μ m g h opposes the velocity (backward Euler).
    np.testing.assert_allclose(result.v_next[:3], (5 - MU * G * H) * np.array([0.8, 0.6, 0]),
                               atol=1e-8)
    [contact] = result.contacts
    # The ECP 0.06 m ahead of the centre of the bottom face, on the plane, no torsion.
    np.testing.assert_allclose(contact.point - result.q_next[:3], [0.048, 0.036, -0.5], atol=1e-7)
    assert contact.normal_impulse == pytest.approx(G * H, rel=1e-8)
    assert contact.torsional_impulse == pytest.approx(0.0, abs=1e-9)


def test_an_applied_impulse_is_the_command(cube):
    stepper = quasidyn.Stepper(cube)
    q0, v0 = stepper.initial_state()
    push = np.array([0.5, 0, 0, 0, 0, 0])  # 0.5 N·s along x on the 1 kg cube
    free = stepper.step(q0, np.zeros(6), v=v0)
    pushed = stepper.step(q0, push, v=v0)
    assert pushed.ok
    assert pushed.v_next[0] - free.v_next[0] == pytest.approx(0.5, abs=1e-3)
    with pytest.raises(ValueError, match="n_v,u"):
        stepper.step(q0, np.zeros(3), v=v0)
    with pytest.raises(ValueError, match="v"):
        stepper.step(q0, np.zeros(6))


def test_the_spinning_cylinder_carries_a_torsional_moment():
    scene = quasidyn.load_scene(example_path("ecp_cylinder_rolling"))
    traj = quasidyn.rollout(scene, steps=50)
    assert traj.completed, traj.message
    assert traj.formulation == "ecp" and traj.nu == 6
    moments = [step.contacts[0].torsional_moment for step in traj.steps]
    assert all(m != 0 for m in moments[:10])  # it spins at first: torsional friction
    for step in traj.steps:  # the ECP on the plane, on the contact line under the axis
        [contact] = step.contacts
        assert abs(contact.point[2]) < 1e-8
        assert contact.torsional_moment * scene.time_step == pytest.approx(
            contact.torsional_impulse, rel=1e-12)


def test_trajectory_files_keep_the_torsion_and_the_command(tmp_path):
    scene = quasidyn.load_scene(example_path("ecp_cube_toppling"))
    traj = quasidyn.rollout(scene, duration=1.1)
    assert traj.completed, traj.message
    for name in ("t.json", "t.npz"):
        traj.save(str(tmp_path / name))
        back = quasidyn.load_trajectory(str(tmp_path / name))
        assert back.nu == 6 and len(back) == len(traj)
        np.testing.assert_array_equal(back.u, traj.u)
        np.testing.assert_array_equal(back.v, traj.v)
    # The impulse at t = 1 s is the command of the step that starts then (k = 101).
    np.testing.assert_allclose(traj.u[100], [0.7071067811865476, -0.7071067811865476, 0,
                                             0.5, 0.5, 0])
    assert not np.any(traj.u[:100])


def test_linearize_b_against_finite_differences(cube):
    stepper = quasidyn.Stepper(cube)
    q0, v0 = stepper.initial_state()
    u = np.array([0.01, -0.02, 0.0, 0.0, 0.0, 0.003])
    lin = quasidyn.Linearizer(cube).linearize(q0, u, v=v0)
    assert lin.ok, lin.message
    nx = cube.nq + cube.nv
    assert lin.A.shape == (nx, nx) and lin.B.shape == (nx, 6)
    eps = 1e-6
    for j in range(6):
        du = np.zeros(6)
        du[j] = eps
        plus = stepper.step(q0, u + du, v=v0)
        minus = stepper.step(q0, u - du, v=v0)
        column = (np.concatenate([plus.q_next, plus.v_next]) -
                  np.concatenate([minus.q_next, minus.v_next])) / (2 * eps)
        np.testing.assert_allclose(lin.B[:, j], column, atol=1e-5)


def test_robots_and_planar_scenes_are_refused(gripper):
    with pytest.raises(ValueError, match="the ecp formulation needs a 3D scene"):
        quasidyn.Stepper(gripper, formulation="ecp")
    box_turning = quasidyn.load_scene(example_path("box_turning"))  # 3D, a robot pusher
    with pytest.raises(ValueError, match="robots are not part of the ecp formulation"):
        quasidyn.Stepper(box_turning, formulation="ecp")
