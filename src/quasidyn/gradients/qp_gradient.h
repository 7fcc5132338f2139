#pragma once
// Exact sensitivities of the pyramid QP of Pang & Tedrake 2021, eq. (10), by implicit
// differentiation of its KKT conditions (Amos & Kolter, "OptNet", ICML 2017, §3; Nocedal &
// Wright, "Numerical Optimization", 2nd ed., §16.1 for the equality-constrained KKT system).
//
// With the data of step_data_derivative.h, the solution (v, β) satisfies on its active set 𝒜
//   P v − τ_h − G_𝒜ᵀ β_𝒜 = 0,     G_𝒜 v + o_𝒜 = 0,
// so, for a change dP, dτ_h, dG, do of the data,
//   [ P    G_𝒜ᵀ ] [  dv  ]   [ r₁ ]   [ dτ_h − dP v + dG_𝒜ᵀ β_𝒜 ]
//   [ G_𝒜  0    ] [ −dβ_𝒜 ] = [ r₂ ] = [ −do_𝒜 − dG_𝒜 v          ].
// With G = R J_c (step_data_derivative.h, ray_map) the data terms are the contractions of
// contact_data_derivative.h: dG_𝒜ᵀβ_𝒜 = d(J_cᵀλ) with λ = Rᵀβ_𝒜, dG v = R d(J_c v),
// do = R' dφ/h; for u only r₁ = ∂τ_h/∂u = [0; hK_a] is non-zero.
//
// Active set (documented choice). Row j is active when β_j d_j > s_j, where s_j = G_j v + o_j
// [m/s] is its slack and d_j = G_j P⁻¹ G_jᵀ [1/kg] its Delassus entry, so that β_j d_j is the
// velocity change the row's impulse causes by itself: the row is active when its impulse
// matters more than its gap. At a strictly complementary solution this is exact (one side is
// zero up to the solver tolerance). Where strict complementarity fails (β_j and s_j both ≈ 0,
// a mode switch) the rule still picks one side deterministically, and the result is the
// derivative of that branch (a one-sided derivative); nothing is averaged.
//
// Solve (factored once, then back-solves for all n_q,a + n_v right-hand sides). When P is
// positive definite (object_mass_scale > 0), in the velocities whitened by the sparse factor
// P = Cᵀ C (positive_definite_factor.h), x = C dv, the system is min ½|x|² − yᵀx s.t.
// Wᵀx = r₂ with y = C⁻ᵀr₁ and W = C⁻ᵀG_𝒜ᵀ (the range-space method, Nocedal & Wright §16.2,
// done in velocity space so its cost does not grow with |𝒜|, which exceeds n_v when boxes
// rest face on face). With M = W Wᵀ (n_v × n_v), M⁺ its pseudo-inverse and N an orthonormal
// basis of null(M) = range(W)^⊥,
//   x = N Nᵀ y + M⁺ W r₂ = x₀ + N Nᵀ (y − x₀),   x₀ any solution of M x₀ = W r₂,   dv = C⁻¹ x.
// M is factored by the diagonally pivoted LDLᵀ Π M Πᵀ = L D Lᵀ (Golub & Van Loan §4.2.9,
// rank-revealing for M ⪰ 0; pivots below 1e-10 × the largest are zero). The zero pivots k
// give null(M) exactly: M Πᵀ L⁻ᵀ e_k = Πᵀ L D e_k = 0, and a thin QR of these few vectors
// makes N orthonormal; x₀ = Πᵀ L⁻ᵀ D⁺ L⁻¹ Π W r₂. Only N (n_v × nullity) is dense work per
// right-hand side beyond two triangular solves, and for B (r₂ = 0) x = N Nᵀ y. The solves
// use only the leading block of L up to the last kept pivot (D⁺ is zero past it, so the rest
// of L⁻¹'s rows are discarded and L⁻ᵀ of a vector zero there stays zero there), and only the
// right-hand sides with r₂ ≠ 0 (the configuration directions).
// When G_𝒜 is rank deficient (more active pyramid rows than the velocities they constrain,
// e.g. a box flat on the ground: 16 rows on 6 velocities) the multipliers are not unique but
// dv is, and r₂ enters through its orthogonal projection onto range(G_𝒜): the active
// constraints hold in the least-squares sense when the perturbed ones are inconsistent.
// Deterministic and finite for every input.
// When P is singular (object_mass_scale = 0), the whole KKT matrix is solved by a complete
// orthogonal decomposition (Eigen::CompleteOrthogonalDecomposition, Golub & Van Loan §5.4.2)
// after a symmetric diagonal equilibration (minimum-norm least squares), slower (O((n+|𝒜|)³)).

#include <Eigen/Cholesky>
#include <Eigen/Core>
#include <Eigen/SparseCore>
#include <vector>

#include "quasidyn/gradients/contact_data_derivative.h"
#include "quasidyn/gradients/positive_definite_factor.h"
#include "quasidyn/gradients/step_data_derivative.h"
#include "quasidyn/gradients/velocity_gradient.h"

namespace quasidyn {

// Indices of the active rows by the rule above; beta and v from the QP solver. Throws
// std::invalid_argument for wrong sizes.
std::vector<int> ActivePyramidRows(const PyramidStepData& data, const Eigen::VectorXd& v,
                                   const Eigen::VectorXd& beta);

// The active set and the factored KKT system of one solved QP step. Usage
// (stepping/quasi_dynamic_derivatives.cc):
//   QpSensitivity s(&scene, h, &data, v, beta);
//   DifferentiateStepData(..., v, s.ActiveContactImpulse(), step, &d, &failure);
//   VelocityGradient g = s.Gradient(&d);          // or s.Gradient(nullptr) for B only
// Keeps the pointers to scene and data: the caller keeps both alive while it uses this object
// (a pointer, so that a temporary cannot be bound by mistake).
class QpSensitivity {
 public:
  // time_step h [s] > 0; v (n_v) and beta (m) from the QP solver. Throws
  // std::invalid_argument for wrong sizes or non-finite entries.
  QpSensitivity(const Scene* scene, double time_step, const PyramidStepData* data,
                const Eigen::VectorXd& v, const Eigen::VectorXd& beta);

  const std::vector<int>& active_rows() const { return active_; }
  // λ = Rᵀ β_𝒜 (size r, step_data_derivative.h ContactImpulseOf with β zero off 𝒜): the
  // impulse whose J_cᵀλ the A right-hand side needs.
  Eigen::VectorXd ActiveContactImpulse() const;
  // dv/du always; dv/dq when contraction is not null (made with v and ActiveContactImpulse()).
  VelocityGradient Gradient(const StepDataContraction* contraction) const;
  // dv for changes of the cost alone (r₂ = 0): the columns of r1 (n_v × c) are dτ_h − dP v
  // (e.g. ∂τ_h/∂v of the second-order step, dynamics/second_order_cost.h).
  Eigen::MatrixXd CostSensitivity(const Eigen::MatrixXd& r1) const;

 private:
  // r1: n_v × c; r2_transposed: c × |𝒜| (r₂ᵀ).
  Eigen::MatrixXd SolveRangeSpace(const Eigen::MatrixXd& r1,
                                  const Eigen::MatrixXd& r2_transposed) const;
  Eigen::MatrixXd SolveFullKkt(const Eigen::MatrixXd& r1, const Eigen::MatrixXd& r2_transposed,
                               int* rank) const;

  const Scene* scene_;
  double time_step_;
  const PyramidStepData* data_;
  Eigen::VectorXd beta_;
  std::vector<int> active_;
  PositiveDefiniteFactor::SparseRows whitened_;  // w_j = C⁻ᵀ g_jᵀ, every row (range space)
  int kkt_rank_ = 0;                             // n_v + rank(G_𝒜) on the range-space path
  bool range_space_ = false;  // P positive definite: the whitened velocity-space path
  PositiveDefiniteFactor P_factor_;
  int M_rank_ = 0;
  Eigen::LDLT<Eigen::MatrixXd> M_factor_;  // Π M Πᵀ = L D Lᵀ
  Eigen::VectorXd M_pivot_inverse_;        // D⁺: 1/D_i on the kept pivots, 0 on the zero ones
  int M_leading_block_ = 0;                // 1 + the index of the last kept pivot
  Eigen::MatrixXd N_;                      // orthonormal basis of null(M) (n_v × nullity)
};

}  // namespace quasidyn
