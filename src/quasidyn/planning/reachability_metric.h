#pragma once
// The reachability metric of RRT through contact (Pang, Suh, Yang & Tedrake, T-RO 2023; the
// talk "Planning and control through contact", 2022, slide "A distance metric that reflects
// contact dynamic reachability"): for a tree node q̄ with the robot command ū = q̄_a,
//
//   μ = f_ρ^u(q̄, ū),   B = B_ρ^u(q̄, ū)  (the object rows of ∂f_ρ/∂u, in the tangent space),
//   d(q; q̄) = ½ (q_u ⊖ μ)ᵀ (B Bᵀ + λ I)⁻¹ (q_u ⊖ μ),
//
// the (regularised) squared size of the smallest command change δu whose linearised motion
// μ ⊕ B δu reaches q_u: directions in B's range cost ‖δu‖², the others (q_u ⊖ μ)²/λ. ρ is the
// linearisation (model/planning_settings.h, ReachabilityMethod): exact, log-barrier (κ) or
// randomized smoothing (planning/node_linearizer.h computes μ and B).
//
// λ [(m or rad)²] > 0, default 1e-6 (the reference planner's value): the object motion
// √λ = 1 mm (or 1 mrad) per unit of command that the metric grants in a direction B says the
// object cannot move. It keeps (B Bᵀ + λ I) positive definite where the object is out of contact
// (B = 0) and conditioned (cond <= 1 + ‖B‖²/λ; ‖B‖ ~ 1 in our scenes gives ~1e6, far from
// losing digits in a Cholesky factor), and it is small next to the squared motions a step of
// the planner makes (step sizes 0.1–0.5 times ‖B‖ ~ 0.05–1 give 1e-4–0.25), so reachable
// directions are hardly changed while unreachable ones cost ~(motion)²/λ >> 1.
//
// Cost: the factor L Lᵀ = B Bᵀ + λ I is computed once, when the node is made, and the metric
// keeps L⁻¹ (lower triangular), so that d = ½ ‖L⁻¹ (q_u ⊖ μ)‖² is one small matrix-vector
// product per node: a nearest-node search over N nodes refactors nothing and costs
// N · (n_v,u² + the difference) flops.

#include <Eigen/Core>

#include "quasidyn/planning/object_space.h"

namespace quasidyn {

class NodeReachability {
 public:
  NodeReachability() = default;
  // From μ (size >= n_q,u: the object part is read; the full q⁺ of the linearisation), the raw
  // object rows B_u (n_q,u × n_q,a) of ∂f_ρ/∂u at μ and λ > 0. Throws std::invalid_argument on
  // sizes, λ <= 0 or non-finite entries.
  NodeReachability(const ObjectSpace& space, const Eigen::VectorXd& mu,
                   const Eigen::MatrixXd& raw_object_rows, double regularization);

  // d(q; q̄) [-] for the object part of q (size >= n_q,u). `scratch` holds n_v,u doubles (no
  // allocation once sized).
  double Distance(const ObjectSpace& space, const Eigen::Ref<const Eigen::VectorXd>& q,
                  Eigen::VectorXd* scratch) const;

  // The regularised least-squares command change toward q (size >= n_q,u):
  //   δu = Bᵀ (B Bᵀ + λ I)⁻¹ (q_u ⊖ μ) = argmin ‖B δu − (q_u ⊖ μ)‖² + λ ‖δu‖²
  // (the push-through identity), size n_q,a, from the same factor.
  Eigen::VectorXd Command(const ObjectSpace& space,
                          const Eigen::Ref<const Eigen::VectorXd>& q) const;

  const Eigen::VectorXd& mu() const { return mu_; }  // the object part of μ (n_q,u)
  const Eigen::MatrixXd& B() const { return B_; }    // tangent rows (n_v,u × n_q,a)
  const Eigen::MatrixXd& factor_inverse() const { return factor_inverse_; }  // L⁻¹
  double regularization() const { return regularization_; }

 private:
  Eigen::VectorXd mu_;
  Eigen::MatrixXd B_;
  Eigen::MatrixXd factor_inverse_;
  double regularization_ = 0.0;
};

}  // namespace quasidyn
