#pragma once
// The factor of a log-barrier step's Newton Hessian H (n_v × n_v, symmetric, positive definite at
// the barrier's minimiser: log_barrier_gradient.h, log_barrier_cone_gradient.h) for the
// sensitivities' n_v + n_q,a right-hand sides. H = P + Σ (a contact's rows)ᵀ (weights) (rows)
// couples only the bodies in contact (P is block diagonal by body), so from
// kSparseBarrierHessianSize velocities on it is factored as a sparse LDLᵀ in AMD order (Eigen's
// SimplicialLDLT; no pivoting, which a positive definite H does not need), whose solves touch the
// factor's non-zeros only: on arm_cubes (69 velocities) a few hundred entries below the diagonal
// against the 2,346 of a dense factor (docs/gradients.md, "Cost"). When the sparse factor meets a
// pivot <= 0 (H not positive definite), and for smaller H, the dense LDLᵀ with symmetric pivoting
// (Eigen::LDLT) is used, as before.
//
// The sparse path keeps its AMD ordering and symbolic analysis while H's pattern of non-zeros
// (lower triangle) is the same as the previous Compute's entry for entry (a step's contact graph
// usually persists from one step to the next, and a repeated CalcDiff has it unchanged): then
// only the numerical factorisation is redone, with the same ordering the analysis would give
// again, so the factor is the same. Its solve substitutes all right-hand sides together, row by
// row (x_i −= L_ij x_j on rows of n_rhs contiguous entries, in the order of Eigen's
// column-by-column substitution, so the same sums), instead of one right-hand side at a time.

#include <Eigen/Cholesky>
#include <Eigen/Core>
#include <Eigen/SparseCholesky>
#include <Eigen/SparseCore>
#include <vector>

namespace quasidyn {

// The sparse factor from this many velocities on (>= 1). The AMD ordering and the symbolic
// analysis are redone per call (a step's contact set changes the pattern); at 69 velocities they
// cost less than the dense factor's extra work, at the planar hand's 7–9 they would not.
inline constexpr int kSparseBarrierHessianSize = 40;
// Dense factors of at most this many velocities (the planar hand's 7–9) are solved column by
// column by substitution, without the set-up of Eigen's blocked triangular kernels (the same
// steps as Eigen::LDLT::solve, so the same x up to the order of the sums' roundings).
inline constexpr int kSmallBarrierHessianSize = 12;

class BarrierHessianFactor {
 public:
  // Factors H (square). require_positive: a dense pivot <= 0 is a failure too. Returns false
  // when H cannot be factored.
  bool Compute(const Eigen::MatrixXd& H, bool require_positive);
  // H⁻¹ rhs (rhs with H's rows); call after a successful Compute.
  Eigen::MatrixXd Solve(const Eigen::MatrixXd& rhs) const;
  // The same in place: *rhs becomes H⁻¹ rhs (the dense factor's no allocation).
  void SolveInPlace(Eigen::MatrixXd* rhs) const;
  bool sparse() const { return sparse_; }
  // Whether the last Compute reused the previous one's ordering and symbolic analysis.
  bool reused_pattern() const { return reused_pattern_; }

 private:
  using RowMajorMatrix = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
  // The non-zeros of H's lower triangle into entries_ (column-compressed).
  void LowerEntries(const Eigen::MatrixXd& H);
  void SolveSparseInPlace(Eigen::MatrixXd* rhs) const;

  bool sparse_ = false, reused_pattern_ = false;
  Eigen::SparseMatrix<double> entries_;               // H's non-zeros, lower triangle
  std::vector<int> analysed_outer_, analysed_inner_;  // the pattern sparse_factor_ analysed
  Eigen::VectorXd inverse_pivots_;                    // D⁻¹ of the sparse factor
  mutable RowMajorMatrix rows_;  // the sparse solve's right-hand sides, permuted, by row
  Eigen::SimplicialLDLT<Eigen::SparseMatrix<double>, Eigen::Lower, Eigen::AMDOrdering<int>>
      sparse_factor_;
  Eigen::LDLT<Eigen::MatrixXd> dense_factor_;
};

}  // namespace quasidyn
