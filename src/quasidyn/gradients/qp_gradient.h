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
// do = R' dφ/h; for u only r₁ = ∂τ_h/∂u = [0; hK_a] is non-zero. An active joint-limit row l
// (dynamics/joint_limit_rows.h, G's last rows) is a constraint row like a contact's, with
// dG_l = 0 and do_l = G_l dε/h, so its r₂ is −G_l/h along the configuration directions.
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
// The problem in x splits into independent ones: M = Σ_{j∈𝒜} w_j w_jᵀ couples two whitened
// velocities only when one active row w_j has both (a pyramid row touches the velocities of
// its two bodies' chains), so the connected components of that graph (found by union–find
// over the rows' non-zero entries) are the diagonal blocks of M after a permutation, and each
// is solved alone, on the right-hand sides that are non-zero on it (a direction moves only the
// contacts of the bodies below its joint). A velocity no active row touches has x_i = y_i. On
// a scene of resting boxes this is a handful of blocks of one to three bodies' velocities
// instead of one n_v × n_v system. Per block, M_c is factored by the diagonally pivoted
// LDLᵀ Π M_c Πᵀ = L D Lᵀ (Golub & Van Loan §4.2.9, rank-revealing for M ⪰ 0; pivots below
// 1e-10 × the largest pivot of all blocks are zero, the threshold of one factorisation of the
// whole M, whose pivots are those of the blocks). The zero pivots k give null(M_c) exactly:
// M_c Πᵀ L⁻ᵀ e_k = Πᵀ L D e_k = 0, and Gram–Schmidt (twice) on these few makes N_c orthonormal;
// x₀ = Πᵀ L⁻ᵀ D⁺ L⁻¹ Π W r₂. Only N_c is dense work per right-hand side beyond two triangular
// solves, and for B (r₂ = 0) x = N Nᵀ y. The solves use only the leading block of L up to the
// last kept pivot (D⁺ is zero past it, so the rest of L⁻¹'s rows are discarded and L⁻ᵀ of a
// vector zero there stays zero there).
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
//   QpSensitivity s(&scene, h, &data, v, beta);   // or s.Compute(...) on a kept object
//   DifferentiateStepData(..., v, s.ActiveContactImpulse(), step, &d, &failure);
//   VelocityGradient g = s.Gradient(&d);          // or s.Gradient(nullptr) for B only
// Keeps the pointers to scene and data: the caller keeps both alive while it uses this object
// (a pointer, so that a temporary cannot be bound by mistake).
class QpSensitivity {
 public:
  QpSensitivity() = default;
  // time_step h [s] > 0; v (n_v) and beta (m) from the QP solver. Throws
  // std::invalid_argument for wrong sizes or non-finite entries.
  QpSensitivity(const Scene* scene, double time_step, const PyramidStepData* data,
                const Eigen::VectorXd& v, const Eigen::VectorXd& beta);
  // The same on this object, reusing its storage: a step with the sizes and active blocks of
  // the previous one allocates nothing here (CalcDiff keeps one object in its data).
  void Compute(const Scene* scene, double time_step, const PyramidStepData* data,
               const Eigen::VectorXd& v, const Eigen::VectorXd& beta);

  const std::vector<int>& active_rows() const { return active_; }
  // The independent blocks of the whitened system (header comment): their count and sizes.
  int block_count() const { return block_count_; }
  int block_size(int b) const { return static_cast<int>(blocks_[b].indices.size()); }
  // λ = Rᵀ β_𝒜 (size r, step_data_derivative.h ContactImpulseOf with β zero off 𝒜): the
  // impulse whose J_cᵀλ the A right-hand side needs.
  Eigen::VectorXd ActiveContactImpulse() const;
  // dv/du always; dv/dq when contraction is not null (made with v and ActiveContactImpulse()).
  VelocityGradient Gradient(const StepDataContraction* contraction) const;
  // The same into *out, reusing this object's work space and out's storage.
  void Gradient(const StepDataContraction* contraction, VelocityGradient* out);
  // dv for changes of the cost alone (r₂ = 0): the columns of r1 (n_v × c) are dτ_h − dP v
  // (e.g. ∂τ_h/∂v of the second-order step, dynamics/second_order_cost.h).
  Eigen::MatrixXd CostSensitivity(const Eigen::MatrixXd& r1) const;

 private:
  // One diagonal block of M (header comment).
  struct Block {
    std::vector<int> indices;  // its velocity indices, increasing
    std::vector<int> rows;     // its active rows, as positions in active_ (columns of r₂ᵀ)
    Eigen::MatrixXd W;         // W_c: the rows' w_j on the block's velocities (size × |rows|)
    Eigen::MatrixXd M;         // M_c = W_c W_cᵀ, lower triangle (size × size)
    Eigen::LDLT<Eigen::MatrixXd> factor;  // Π M_c Πᵀ = L D Lᵀ
    Eigen::VectorXd pivot_inverse;        // D⁺: 1/D_i on the kept pivots, 0 on the zero ones
    int rank = 0;
    int leading = 0;    // 1 + the index of the last kept pivot
    Eigen::MatrixXd N;  // orthonormal basis of null(M_c) (size × nullity)
  };
  // Buffers of the solve, kept between calls.
  struct Workspace {
    Eigen::MatrixXd r1, r2_transposed, x;
    std::vector<int> columns, y_only_columns;
    std::vector<char> r2_nonzero;
    Eigen::MatrixXd r2_block, y_block, x_block, z, null_coordinates;
  };

  void FindBlocks(int n);
  void FactorBlocks();
  // dv (n_v × c) into w->x from r₁ (n_v × c) and r₂ᵀ (r2_columns × |𝒜|; r₂ is zero in the
  // other columns, which come last).
  void SolveRangeSpace(const Eigen::MatrixXd& r1, const Eigen::MatrixXd& r2_transposed,
                       int r2_columns, Workspace* w) const;
  void SolveBlock(const Block& block, const Eigen::MatrixXd& r2_transposed, int r2_columns,
                  Workspace* w) const;
  Eigen::MatrixXd SolveFullKkt(const Eigen::MatrixXd& r1, const Eigen::MatrixXd& r2_transposed,
                               int* rank) const;
  void GradientInto(const StepDataContraction* contraction, Workspace* w,
                    VelocityGradient* out) const;

  const Scene* scene_ = nullptr;
  double time_step_ = 0.0;
  const PyramidStepData* data_ = nullptr;
  Eigen::VectorXd beta_;
  std::vector<int> active_;
  PositiveDefiniteFactor::SparseRows whitened_;  // w_j = C⁻ᵀ g_jᵀ, every row (range space)
  int kkt_rank_ = 0;                             // n_v + rank(G_𝒜) on the range-space path
  bool range_space_ = false;  // P positive definite: the whitened velocity-space path
  PositiveDefiniteFactor P_factor_;
  // The blocks of M: blocks_[0 … block_count_ − 1] (the vector keeps more, for reuse), and
  // per velocity its block (−1 when no active row touches it) and its place in it.
  std::vector<Block> blocks_;
  int block_count_ = 0;
  std::vector<int> block_of_, place_in_block_, union_parent_;
  std::vector<int> zero_pivots_;  // FactorBlocks' scratch: a block's zero pivots
  Eigen::VectorXd delassus_, slack_;
  Workspace workspace_;
};

}  // namespace quasidyn
