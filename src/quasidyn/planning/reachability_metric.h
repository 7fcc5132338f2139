#pragma once
// The reachability metric of RRT through contact (Pang, Suh, Yang & Tedrake, T-RO 2023; the
// talk "Planning and Control for Contact-rich Manipulation", Oct. 2022, slide "A distance metric
// that reflects contact dynamic reachability"): for a tree node q̄ with the robot command ū = q̄_a,
//
//   μ = f_ρ^u(q̄, ū),   B = B_ρ^u(q̄, ū)  (the object rows of ∂f_ρ/∂u, in the tangent space),
//   d(q; q̄) = ½ (q_u ⊖ μ)ᵀ (B Bᵀ + λ I)⁻¹ (q_u ⊖ μ),
//
// the (regularised) squared size of the smallest command change δu whose linearised motion
// μ ⊕ B δu reaches q_u: directions in B's range cost ‖δu‖², the others (q_u ⊖ μ)²/λ. ρ is the
// linearisation (model/planning_settings.h, ReachabilityMethod): exact, log-barrier (κ) or
// randomized smoothing (planning/node_linearizer.h computes μ and B).
//
// λ [(m or rad)²] > 0, default 1e-3 (PlanningSettings::regularization; why, measured against
// 1e-6, 1e-4 and 1e-2: docs/planning.md, "λ"): the object motion √λ ≈ 0.03 m (or rad) per unit
// of command that the metric grants in a direction B says the object cannot move, about what
// one extension moves an object in our examples. It keeps (B Bᵀ + λ I) positive definite where
// the object is out of contact (B = 0) and conditioned (cond <= 1 + ‖B‖²/λ ~ 1e3 for ‖B‖ ~ 1).
// The reference planner's 1e-6 makes every direction outside B's range a thousand times
// dearer, so samples go to nodes whose B points at them however far their μ, and nodes out of
// contact are never chosen (planar pushing then finds 1 goal in 20 seeds instead of 16).
//
// Weights (docs/planning.md, "The metric's weights"): the tangent space is measured in the goal
// distance's units, W = diag(w_p per position coordinate [1/m], w_r per rotation coordinate
// [1/rad]) (PlanningSettings::position_weight, rotation_weight; model/planning_settings.h), so
// that e = W (q_u ⊖ μ) and B_W = W B:
//
//   d(q; q̄) = ½ eᵀ (B_W B_Wᵀ + λ I)⁻¹ e = ½ (q_u ⊖ μ)ᵀ (B Bᵀ + λ W⁻²)⁻¹ (q_u ⊖ μ),
//
// and the extension's least squares weighs a centimetre against a radian as the goal does
// (w = 1, the default, is the unweighted metric above, bit for bit). Without them the hand's
// 16 commands spend each extension on rotation, whose radians dwarf its metres, and the ball is
// turned but left off its start (docs/planning.md, "3D: a 16-joint hand").
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
  // object rows B_u (n_q,u × n_q,a) of ∂f_ρ/∂u at μ, λ > 0 and the tangent weights W (size
  // n_v,u, each > 0 and finite; empty: all 1, see MetricWeights). Throws std::invalid_argument
  // on sizes, λ <= 0, weights <= 0 or non-finite entries.
  NodeReachability(const ObjectSpace& space, const Eigen::VectorXd& mu,
                   const Eigen::MatrixXd& raw_object_rows, double regularization,
                   const Eigen::VectorXd& weights = Eigen::VectorXd());

  // d(q; q̄) [-] for the object part of q (size >= n_q,u). `scratch` holds n_v,u doubles (no
  // allocation once sized).
  double Distance(const ObjectSpace& space, const Eigen::Ref<const Eigen::VectorXd>& q,
                  Eigen::VectorXd* scratch) const;

  // The regularised least-squares command change toward q (size >= n_q,u):
  //   δu = Bᵀ (B Bᵀ + λ I)⁻¹ (q_u ⊖ μ) = argmin ‖B δu − (q_u ⊖ μ)‖² + λ ‖δu‖²
  // (the push-through identity), size n_q,a, from the same factor.
  Eigen::VectorXd Command(const ObjectSpace& space,
                          const Eigen::Ref<const Eigen::VectorXd>& q) const;

  const Eigen::VectorXd& mu() const { return mu_; }            // the object part of μ (n_q,u)
  const Eigen::MatrixXd& B() const { return B_; }              // tangent rows W B (n_v,u × n_q,a)
  const Eigen::VectorXd& weights() const { return weights_; }  // W's diagonal (empty: 1)
  const Eigen::MatrixXd& factor_inverse() const { return factor_inverse_; }  // L⁻¹
  double regularization() const { return regularization_; }

 private:
  Eigen::VectorXd mu_;
  Eigen::MatrixXd B_;
  Eigen::MatrixXd factor_inverse_;
  Eigen::VectorXd weights_;
  double regularization_ = 0.0;
};

// The tangent weights W of the goal distance D (model/planning_settings.h): position_weight on
// each object's position coordinates, rotation_weight on its rotation coordinates (size n_v,u).
// A weight of 0 (a goal that ignores positions or rotations) is replaced by 1: the metric must
// still tell nodes apart in that direction. Empty when every weight is 1.
Eigen::VectorXd MetricWeights(const ObjectSpace& space, const PlanningSettings& settings);

}  // namespace quasidyn
