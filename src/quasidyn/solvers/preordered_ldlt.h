#pragma once
// Eigen's SimplicialLDLT (the up-looking LDLᵀ of Davis, "Algorithm 849: A concise sparse
// Cholesky factorization package", ACM TOMS 31(4), 2005, with AMD ordering) without heap
// allocation after its set-up, for the normal matrices of the solvers in this folder.
//
// Eigen's factorize(A) builds a temporary permuted copy P A Pᵀ of A on every call, and its
// solve() permutes its result in place through a temporary: both allocate. Here the pattern of
// P A Pᵀ is built once, in Analyze, together with where each stored entry of A goes in it; a
// factorisation copies the values there and runs Eigen's own numeric factorisation on it, and
// a solve runs Eigen's steps (P b, L⁻¹, D⁻¹, L⁻ᵀ, Pᵀ) into preallocated vectors. Every
// floating-point operation is Eigen's, in Eigen's order: factors and solutions are equal, bit
// for bit, to SimplicialLDLT::compute / solve on the same matrix.

#include <Eigen/SparseCholesky>
#include <Eigen/SparseCore>
#include <vector>

namespace quasidyn {

class PreorderedLdlt : public Eigen::SimplicialLDLT<Eigen::SparseMatrix<double>, Eigen::Lower> {
 public:
  using Matrix = Eigen::SparseMatrix<double>;  // column-major, lower triangle used

  // Ordering (AMD), elimination tree and the pattern of the factor of `lower` (its lower
  // triangle, compressed); the map of its entries into P A Pᵀ. Allocates.
  void Analyze(const Matrix& lower);

  // LDLᵀ of a matrix with the pattern given to Analyze (the same stored entries, any values).
  // False when a pivot is zero or negative (the matrix is not numerically positive
  // definite) or the factorisation fails. No heap allocation.
  bool Factorize(const Matrix& lower);
  // LDLᵀ of a quasi-definite matrix [K Aᵀ; A −E] (K, E positive definite; Vanderbei 1995: an
  // LDLᵀ exists for every symmetric ordering) by our own up-looking factorisation on the
  // analysed pattern, with dynamic regularisation: a pivot of the first `positive` original
  // rows must be > threshold, of the others < −threshold; one that is not (rounding, when the
  // interior point's weights span many orders of magnitude) becomes ±replacement. Returns the
  // number of pivots replaced, or −1 when a pivot is not finite. SolveInto then solves with the
  // regularised factor (callers refine against the true matrix). No heap allocation.
  int FactorizeQuasiDefinite(const Matrix& lower, int positive, double threshold,
                             double replacement);

  // out = A⁻¹ rhs with the last factorisation (out must not be rhs). No heap allocation once
  // out has the size.
  void SolveInto(const Eigen::VectorXd& rhs, Eigen::VectorXd* out);

 private:
  Matrix permuted_;                // upper triangle of P A Pᵀ
  std::vector<int> source_index_;  // per stored entry of permuted_: its index in A's values
  Eigen::VectorXd work_;
  // FactorizeQuasiDefinite's scratch: the dense row, the expected pivot signs (permuted order),
  // the row pattern stack and the visit tags.
  Eigen::VectorXd y_, sign_;
  std::vector<int> pattern_, tags_;
};

}  // namespace quasidyn
