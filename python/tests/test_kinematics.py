"""forward_kinematics, mass_matrix, integrate and contacts, checked by hand on the gripper."""

import numpy as np
import pytest

import quasidyn

SPHERE_MASS = 1.019367991845056  # kg


def test_forward_kinematics_places_the_bodies_of_q0(gripper):
    poses = quasidyn.forward_kinematics(gripper, gripper.q0)
    assert set(poses) == set(gripper.body_names)
    np.testing.assert_array_equal(poses["world"], np.eye(4))
    np.testing.assert_allclose(poses["sphere"][:3, 3], [0.0, 0.1, 0.0], atol=1e-15)
    # The hand is at y = 0.1; each finger slides along x on it.
    np.testing.assert_allclose(poses["gripper/left_finger"][:3, 3], [-0.116, 0.1, 0.0], atol=1e-15)
    np.testing.assert_allclose(poses["gripper/right_finger"][:3, 3], [0.116, 0.1, 0.0], atol=1e-15)


def test_forward_kinematics_rotates_the_sphere_by_theta(gripper):
    q = gripper.q0.copy()
    q[2] = np.pi / 2
    rotation = quasidyn.forward_kinematics(gripper, q)["sphere"][:3, :3]
    np.testing.assert_allclose(rotation, [[0, -1, 0], [1, 0, 0], [0, 0, 1]], atol=1e-15)


def test_mass_matrix_holds_the_masses_each_joint_moves(gripper):
    M = quasidyn.mass_matrix(gripper, gripper.q0)
    assert M.shape == (6, 6)
    assert M[0, 0] == pytest.approx(SPHERE_MASS) and M[1, 1] == pytest.approx(SPHERE_MASS)
    # y moves the hand and both fingers (0.1 kg each); x_left and x_right one finger each.
    np.testing.assert_allclose(np.diag(M)[3:], [0.3, 0.1, 0.1], rtol=1e-14)
    np.testing.assert_allclose(M, M.T, atol=0)


def test_integrate_is_linear_for_planar_and_prismatic_joints(gripper):
    v = np.arange(1.0, 7.0)
    np.testing.assert_allclose(quasidyn.integrate(gripper, gripper.q0, v, 0.5),
                               gripper.q0 + 0.5 * v, atol=1e-15)


def test_contacts_at_q0_have_hand_computed_phi_and_jacobians(gripper):
    found = {frozenset((c.shape_a, c.shape_b)): c for c in quasidyn.contacts(gripper, gripper.q0)}
    assert len(found) == 3
    ground = found[frozenset(("sphere/disk", "world/ground"))]
    assert ground.phi == pytest.approx(0.0, abs=1e-12)
    # φ = y_sphere − r when A is the disk (dφ/dv = e_y of the sphere), the opposite sign else.
    sign = 1.0 if ground.shape_a == "sphere/disk" else -1.0
    np.testing.assert_allclose(ground.J_n, sign * np.array([0, 1, 0, 0, 0, 0.0]), atol=1e-12)
    np.testing.assert_allclose(ground.normal, [0, sign, 0], atol=1e-12)
    assert ground.friction == 0.5
    assert ground.J_n.shape == (6,) and ground.J_t.shape == (1, 6)
    assert ground.rays.shape == (3, 2) and ground.J_d.shape == (2, 6)
    for c in found.values():
        if c is ground:
            continue
        assert c.phi == pytest.approx(0.006, abs=1e-12)  # 0.116 − 0.01 − 0.1
        assert "sphere/disk" in (c.shape_a, c.shape_b)
        np.testing.assert_allclose(np.linalg.norm(c.normal), 1.0, rtol=1e-14)


def test_contacts_reject_a_wrong_q(gripper):
    with pytest.raises(ValueError, match="q has size 7, expected n_q = 6"):
        quasidyn.contacts(gripper, np.zeros(7))
    with pytest.raises(ValueError, match="not finite"):
        quasidyn.forward_kinematics(gripper, np.full(6, np.nan))
