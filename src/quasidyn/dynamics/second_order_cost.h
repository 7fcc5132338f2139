#pragma once
// The objective of the second-order (velocity-level) time step of Stewart & Trinkle 1996 and
// Anitescu & Potra 1997 (the notes' eqs. (1)–(2), ../shared/papers/2d-frictional-contact-model-
// and-mpc-notes.txt) in the form every convex program of quasidyn minimises
// (quasi_dynamic_cost.h), ½ v⁺ᵀ P v⁺ − τ_hᵀ v⁺ over the velocity v⁺ at the end of the step:
//
//   M(q)(v⁺ − v) = h (τ_app − C(q, v) v − ∇V(q) + τ_ext) + J_nᵀ c_n + J_dᵀ β,   q⁺ = q ⊕ h v⁺,
//
// with M(q) the mass matrix of objects AND robots (kinematics.h), C(q, v) v the velocity-product
// force (coriolis_force.h), −∇V the objects' weight, τ_ext the objects' external force
// (Scene::external_force) and, on the robots, the impedance's torque with its stiffness and
// damping taken at the END of the step (implicit Euler; the talk's impulse–momentum form takes
// the spring at the end and writes the damping as hD v^a without saying which end: ours):
//
//   τ_a = K_a (u − q_a⁺) − D_a v_a⁺,   q_a⁺ = q_a + h v_a⁺   ⇒   τ_a = K_a (u − q_a) − (D_a + h
//   K_a) v_a⁺,
//
// so the contact-free part is stationary for
//
//   P = M̂ = M(q) + blockdiag(0, h D_a + h² K_a),
//   τ_h = M(q) v + h (τ_g,u + τ_ext − C(q, v) v) + h K_a (u − q_a).
//
// M̂ is positive definite whenever every object has a positive mass matrix (objects' bodies
// have mass > 0 and SPD inertia, scene_builder.cc), even with massless robot links (URDF links
// without <inertial>): M_a ⪰ 0 and h² K_a ≻ 0 (K_a > 0). Large gains stay stable
// (implicit in K and D). Gravity: the objects feel it; the robots are gravity-compensated by
// their controllers, as in the quasi-dynamic models (τ_g,a = 0). Units: P [kg, kg·m²; robots
// N·s²/m or N·m·s²/rad], τ_h [N·s].
//
// P is stored sparse (both triangles), block diagonal by instance (every instance is its own
// kinematic tree, so M couples no two instances); every entry of an instance's block is stored,
// exact zeros included, so that the pattern does not change from one step to the next.

#include <Eigen/Core>
#include <vector>

#include "quasidyn/dynamics/quasi_dynamic_cost.h"
#include "quasidyn/kinematics/coriolis_force.h"
#include "quasidyn/kinematics/kinematics.h"

namespace quasidyn {

// The pieces of the build a step model reuses (what the contacts balance, the derivatives).
struct SecondOrderCostWorkspace {
  std::vector<Eigen::MatrixXd> mass_blocks;  // M_i(q) per instance (n_v,i × n_v,i)
  Eigen::VectorXd coriolis_force;            // C(q, v) v (n_v) [N, N·m]
  Eigen::VectorXd gravity_force;             // τ_g with the objects' rows filled (n_v)
  CoriolisWorkspace coriolis;
  Eigen::Matrix3Xd point_jacobian;
};

// D_a (size n_v,a) [N·s/m or N·m·s/rad]: each actuated joint's Joint::damping, or when unset
// the critical damping of the joint's own inertia at the configuration `kinematics` was last
// updated to (the scene's q0 for a step model), D = 2·sqrt(K·M_jj): a joint alone, its other
// joints held, is then a critically damped oscillator x'' + (D/M_jj) x' + (K/M_jj) x = 0 (no
// overshoot, the fastest settling without it); D = 0 where M_jj = 0 (a massless link).
Eigen::VectorXd ActuatedDamping(const Kinematics& kinematics);

// ActuatedDamping at the scene's q0, the damping a second-order step model takes (and a tracker
// or a controller that must match it: control/plan_tracking.cc, control/contact_mpc.cc).
Eigen::VectorXd ActuatedDampingAtStart(const ScenePtr& scene);

// Rebuilds *cost (its P and tau_h) at the configuration the kinematics was last updated to,
// for the velocity v (size n_v) at the start of the step, the command u = q̄_a (size n_q,a),
// K_a and D_a (size n_v,a), τ_ext (size n_v,u, or empty for none) and the time step h [s] > 0.
// std::invalid_argument for a wrong size or a non-finite v, u or τ_ext. No heap allocation once
// built for this scene.
void BuildSecondOrderCost(const Kinematics& kinematics, const Eigen::VectorXd& v,
                          const Eigen::VectorXd& u, const Eigen::VectorXd& actuated_stiffness,
                          const Eigen::VectorXd& actuated_damping,
                          const Eigen::VectorXd& external_force, double time_step,
                          SecondOrderCostWorkspace* workspace, QuasiDynamicCost* cost);

// M(q) w (size n_v) from the workspace's blocks of the last build (w of size n_v), into *out.
void MassTimes(const Scene& scene, const SecondOrderCostWorkspace& workspace,
               const Eigen::VectorXd& w, Eigen::VectorXd* out);

}  // namespace quasidyn
