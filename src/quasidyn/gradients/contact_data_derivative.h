#pragma once
// Derivatives of the contact and cost data of one time step along the tangent directions of
// q, CONTRACTED with a fixed velocity v and a fixed impulse λ, which is all that implicit
// differentiation of the step's optimality conditions needs (qp_gradient.h,
// log_barrier_gradient.h, socp_gradient.h, log_barrier_cone_gradient.h):
//
//   the contact rows J_c,i = [J_n,i; J_t,i] ((1 + n_t) × n_v, contact/contact_set.h) stacked
//   contact-major into J_c (r × n_v, r = Σ_i (1 + n_t)), λ stacked the same way [N·s],
//
//   d_phi(i, k)          = ∂φ_i/∂ε_k                     [m]
//   d_Jc_v(:, k)         = ∂(J_c(q) v)/∂ε_k      (v fixed) [m/s]
//   d_JcT_lambda(:, k)   = ∂(J_c(q)ᵀ λ)/∂ε_k     (λ fixed) [N·s]
//   d_P_v(:, k)          = ∂(P(q) v)/∂ε_k        (v fixed) [N·s]   (quasi_dynamic_cost.h)
//   d_tau_h(:, k)        = ∂τ_h(q, u)/∂ε_k               [N·s]
//
// where ε_k moves q along the tangent direction k: q(ε) = q ⊕ ε e_k (kinematics.h,
// IntegrateConfiguration), k = 0 … n_v − 1. The pyramid rows of eq. (10) (Pang & Tedrake
// 2021) are G_i = R_i J_c,i with the constant matrix R_i = [1, μ_i cos θ_j, μ_i sin θ_j]_j
// (contact/friction_cone.h), so d(G v) = R d(J_c v) and d(Gᵀβ) = d(J_cᵀ Rᵀβ): the same
// contractions serve the pyramid and the exact cone.
//
// Every q-dependence is included: normals, tangents and witness points move (∂J/∂q), the
// mass matrix and gravity torques change, and q_a enters τ_h. The contact set is that of q:
// contacts are matched at nearby configurations by geometry pair and nearest witness points;
// when a contact of q has no match the derivative does not exist as computed: the
// differentiation returns false with a message naming the contact and its pair.
//
// How each term is computed (contact_data_derivative.cc):
//  * exact zeros: a direction k moves only the bodies below its joint; contacts of two bodies
//    that do not move, and object bodies that do not move, contribute nothing to column k;
//  * analytic: ∂τ_h,a/∂ε_k = −h K_a e_k for the robots' directions (τ_h,a = h K_a (u − q_a));
//  * the geometry of each pair with a moved body, once per pair: the derivatives of its
//    contacts' witness points, normals and φ along every direction that moves it, from the
//    relative motion of its two bodies plus their exact common rigid motion: in closed form for
//    rounded cores (rounded_pair_derivative.h), box pairs (polytope_pair_derivative.h, q's
//    features held fixed) and polytopes on a half-space, each on every direction's own twist
//    (no basis of the span, since 2026-11-26); otherwise central differences (step data_step) of
//    the pair's manifold (pair_motion_derivative.h: 2 manifold queries per relative direction, at
//    most 6 directions, 3 planar);
//  * closed forms for the moved terms (no perturbed kinematics): moving along k carries the
//    subtree below k's joint rigidly by the spatial twist S_k, so a velocity column c below it
//    turns with ∂S_c/∂ε_k = [S_k, S_c] (chain_kinematics.h Bracket, TwistMovedBy); with the
//    contacts' ∂φ, ∂p_A, ∂p_B, ∂n from the pair step above and the tangents' derivative
//    (tangent_basis_derivative.h), ∂φ, ∂(J_c v) and ∂(J_cᵀλ) follow by the product rule
//    (AddContactRates in the .cc: normals turn, tangents turn with them, witness points slide:
//    ∂J/∂q in full; AddPlanarContactRates on the 3 nonzero components of a planar scene's
//    twists, ω_z, v_x, v_y), and the moved object bodies' s·M_b v and h τ_b likewise (orientation-
//    dependent inertia, gravity lever arm). dφ is the pair's own derivative rather than J_n e_k:
//    the two agree for vertex–face and smooth contact, but not for manifold points clipped on
//    an edge, which slide. (Before 2026-11-26 these terms were central differences, step
//    data_step, through the poses at q ⊕ ±data_step e_k; the closed forms agree with them to
//    their round-off, ε_machine/data_step relative.)
// Where the geometry is not differentiable (boxes resting face on face, whose normal is either
// box's face normal once they tilt) the result is the convention of pair_motion_derivative.h:
// finite and deterministic, not a derivative.

#include <Eigen/Core>
#include <memory>
#include <string>

#include "quasidyn/common/outcome.h"
#include "quasidyn/contact/contact_model.h"
#include "quasidyn/contact/contact_set.h"
#include "quasidyn/dynamics/quasi_dynamic_cost.h"
#include "quasidyn/gradients/chain_kinematics.h"

namespace quasidyn {

struct StepDataContraction {
  Eigen::MatrixXd d_phi;         // n_c × n_v
  Eigen::MatrixXd d_Jc_v;        // r × n_v
  Eigen::MatrixXd d_JcT_lambda;  // n_v × n_v
  Eigen::MatrixXd d_P_v;         // n_v × n_v
  Eigen::MatrixXd d_tau_h;       // n_v × n_v
};

// Rows of contact i in J_c: 1 + n_t (n_t = 1 planar, 2 in 3D). Offsets are the prefix sums.
int ContactRows(const Scene& scene);

// The stacked J_c (r × n_v) of a contact set.
Eigen::MatrixXd StackedContactJacobian(const ContactSet& contacts);

// `contacts` is the contact set at q (e.g. a step's, ContactData::contacts() after
// ContactModel::Compute(q)); the model's geometry is only queried at perturbed poses. v (n_v)
// and lambda (r) are held fixed; u (n_q,a). data_step > 0 [m or rad] is the finite-difference
// step where one is used. Writes *out; a failure (common/outcome.h) saying which contact when
// a contact of q has no match at a perturbed configuration or a perturbed query fails.
// Throws std::invalid_argument for sizes that do not match or a bad data_step.
Outcome DifferentiateStepData(const ContactModel& model,
                              const QuasiDynamicCostParameters& cost_parameters,
                              const Eigen::VectorXd& q, const Eigen::VectorXd& u,
                              const ContactSet& contacts, const Eigen::VectorXd& v,
                              const Eigen::VectorXd& lambda, double data_step,
                              StepDataContraction* out);

// The work buffers of DifferentiateStepData (the contacts grouped by pair, what each joint
// moves, the pairs' motion derivatives, the perturbed contacts), kept by a caller from one
// call to the next so that a call reuses their storage. One per thread; opaque.
class StepDataDerivativeBuffers {
 public:
  StepDataDerivativeBuffers();
  ~StepDataDerivativeBuffers();
  StepDataDerivativeBuffers(StepDataDerivativeBuffers&&) noexcept;
  StepDataDerivativeBuffers& operator=(StepDataDerivativeBuffers&&) noexcept;

  struct Impl;  // contact_data_derivative.cc
  std::unique_ptr<Impl> impl;
};

// The same with the chain kinematics of the model's scene and the work buffers supplied by the
// caller (ChainKinematics(model.scene_ptr()), StepDataDerivativeBuffers(), both kept from one
// call to the next so that a call builds neither): the kinematics' configuration is set to q
// here.
Outcome DifferentiateStepData(const ContactModel& model,
                              const QuasiDynamicCostParameters& cost_parameters,
                              const Eigen::VectorXd& q, const Eigen::VectorXd& u,
                              const ContactSet& contacts, const Eigen::VectorXd& v,
                              const Eigen::VectorXd& lambda, double data_step,
                              ChainKinematics* kinematics, StepDataDerivativeBuffers* buffers,
                              StepDataContraction* out);

}  // namespace quasidyn
