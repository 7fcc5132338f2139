#pragma once
// The objective shared by every convex formulation of one time step, in the velocity
// v = (q⁺ ⊖ q)/h (size n_v):
//
//   minimise ½ vᵀ P v − τ_hᵀ v,   P = blockdiag(s·M_u, h² K_a),
//   τ_h = [h τ_u ;  h K_a (u − q_a)]
//
// Pang & Tedrake 2021, eq. (10a) for the robots (impedances K_a pulling q_a toward the
// command u = q̄_a); the object block s·M_u is the quasi-dynamic regularisation of Pang, Suh,
// Yang & Tedrake, T-RO 2023 (s = QuasiDynamicCostParameters::object_mass_scale). Units: P v in N·s,
// the objective in N·m. Gravity: τ_u = Σ_b J_com,bᵀ m_b g over the objects' bodies (each
// object feels its own weight), plus the external generalized force τ_ext (Scene::
// external_force, or a step's own; the reference quasi-static simulator's tau_ext); robots are
// assumed gravity-compensated by their controllers, so τ_a = 0 and the impedance alone sets their
// motion.
//
// The joint-limit rows of the step (joint_limit_rows.h) are built with the cost: like τ_h's
// robot block they depend on q_a alone (no contact query), and every program reads both, so a
// formulation that takes this cost gets the limits from the same place.
//
// P is stored sparse (solvers/sparse_row_matrix.h, both triangles): M_u is block diagonal by
// object (an object's velocities couple to no other object's) and K_a is diagonal; entries
// that are exactly zero are not stored.

#include <Eigen/Core>

#include "quasidyn/dynamics/joint_limit_rows.h"
#include "quasidyn/kinematics/kinematics.h"
#include "quasidyn/solvers/sparse_row_matrix.h"

namespace quasidyn {

// What the cost takes besides the kinematics and the command: the time step h [s], finite and
// > 0, and the objects' mass scale s [-], finite and >= 0 (s = 1 is Mason's quasi-dynamics, the
// objects' momentum reset every step, T-RO 2023 §III-A, eq. (23b); s = 0 the pure quasistatic
// model of Pang & Tedrake 2021, well posed only when contacts hold every object). The
// formulations resolve s from their parameters (formulations/quasi_dynamic/).
struct QuasiDynamicCostParameters {
  double time_step = 0.01;
  double object_mass_scale = 1.0;
};

struct QuasiDynamicCost {
  SparseRowMatrix P;      // n_v × n_v, symmetric positive semidefinite
  Eigen::VectorXd tau_h;  // n_v [N·s]
  JointLimitRows limits;  // the step's joint-limit rows at q (joint_limit_rows.h)

  // Buffers of the build (kept so that a rebuild does not allocate).
  Eigen::MatrixXd mass_block;
  Eigen::Matrix3Xd point_jacobian;
  Eigen::VectorXd gravity_force;
};

// Rebuilds *cost at the configuration the kinematics was last updated to; u has size n_q,a
// (checked: std::invalid_argument for a wrong size or a NaN); actuated_stiffness is K_a
// (Scene::ActuatedStiffness(), size n_v,a). No heap allocation once the cost has been built
// for this scene.
void BuildQuasiDynamicCost(const Kinematics& kinematics, const Eigen::VectorXd& u,
                           const Eigen::VectorXd& actuated_stiffness,
                           const QuasiDynamicCostParameters& parameters, QuasiDynamicCost* cost);

// The same with τ_ext = external_force (size n_v,u [N, N·m], or empty for none) instead of
// the scene's; std::invalid_argument for a wrong size or a non-finite entry.
void BuildQuasiDynamicCost(const Kinematics& kinematics, const Eigen::VectorXd& u,
                           const Eigen::VectorXd& actuated_stiffness,
                           const Eigen::VectorXd& external_force,
                           const QuasiDynamicCostParameters& parameters, QuasiDynamicCost* cost);

// The same, allocating a new cost (for tests and one-off evaluations).
QuasiDynamicCost BuildQuasiDynamicCost(const Kinematics& kinematics, const Eigen::VectorXd& u,
                                       const QuasiDynamicCostParameters& parameters);

// The generalized gravity force on the objects, τ_u (size n_v,u) [N or N·m].
Eigen::VectorXd ObjectGravityForce(const Kinematics& kinematics);

// *tau (size n_v, objects' rows filled) += Σ_b J_com,bᵀ m_b g over the objects' bodies, on each
// body's chain columns (the others are zero); each entry ((J₀ f₀ + J₁ f₁) + J₂ f₂), f = m g.
// *J is a buffer (grown to 3 × MaxChainSize once).
void AddObjectGravityForce(const Kinematics& kinematics, Eigen::Matrix3Xd* J, Eigen::VectorXd* tau);

}  // namespace quasidyn
