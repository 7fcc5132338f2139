#pragma once
// The velocity-product (Coriolis, centrifugal and gyroscopic) generalized force C(q, v) v of a
// Scene's kinematic forest, exactly, by one recursive Newton–Euler pass with zero acceleration
// (Featherstone, "Rigid Body Dynamics Algorithms", 2008, §5.3, the bias force of the RNEA with
// q̈ = 0), written in world-frame vectors:
//
//   per joint j (parent body P, child body C, parents first; world: all zero), with the
//   joint's relative angular velocity w and the velocity u of C's origin relative to a frame
//   fixed in P (world vectors, linear in v_j: revolute w = a θ̇, u = 0; prismatic w = 0,
//   u = a ḋ; planar w = e_z θ̇, u = e_x ẋ + e_y ẏ; floating w = R_WJ ω, u = R_WJ ṗ; a, e the
//   joint frame's axes, which turn with P) and r = o_C − o_P:
//     ω_C = ω_P + w,    α_C = α_P + ω_P × w,
//     a_C = a_P + α_P × r + ω_P × (ω_P × r) + 2 ω_P × u
//   (α, a: the angular acceleration and the acceleration of the origin at v̇ = 0, i.e. J̇ v);
//   per body b of mass m, inertia I_W (world, about its com c = com_W − o_b):
//     a_com = a_b + α_b × c + ω_b × (ω_b × c),
//     C(q, v) v = Σ_b J_com,bᵀ (m a_com) + J_ω,bᵀ (I_W α_b + ω_b × I_W ω_b)
//
// (Kane's equations: M v̇ + C(q, v) v = τ with M = Σ_b m J_comᵀ J_com + J_ωᵀ I_W J_ω as in
// Kinematics::MassMatrix). For a floating body the last term is the gyroscopic ω × I_W ω of
// Euler's equations in the world frame. Checks (coriolis_force_test.cc): vᵀ C v = ½ vᵀ Ṁ v
// (energy conservation of the free motion, any joints) and, where q̇ = v (no floating joint),
// C v = Ṁ v − ½ ∂(vᵀ M v)/∂q (Lagrange's equations), both against finite differences of M.
//
// Units: v [m/s, rad/s] (model/scene.h conventions, floating (ṗ, ω) in the world), the force
// [N, N·m].

#include <Eigen/Core>
#include <vector>

#include "quasidyn/kinematics/kinematics.h"

namespace quasidyn {

// The recursion's buffers, sized once per scene (no heap allocation after the first call).
struct CoriolisWorkspace {
  std::vector<Eigen::Vector3d> angular_velocity;                           // ω_b per body
  std::vector<Eigen::Vector3d> angular_acceleration, origin_acceleration;  // α_b, a_b per body
  Eigen::Matrix3Xd point_jacobian, rotational_jacobian;                    // a body's chain columns
};

// *force (resized to n_v) = C(q, v) v at the configuration `kinematics` was last updated to,
// for v of size n_v (finite; std::invalid_argument otherwise). Bodies of zero mass and inertia
// contribute nothing.
void CoriolisForce(const Kinematics& kinematics, const Eigen::VectorXd& v,
                   CoriolisWorkspace* workspace, Eigen::VectorXd* force);

// The same, allocating (tests and one-off evaluations).
Eigen::VectorXd CoriolisForce(const Kinematics& kinematics, const Eigen::VectorXd& v);

}  // namespace quasidyn
