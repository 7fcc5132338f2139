#pragma once
// The up-looking sparse LDLᵀ of Eigen's SimplicialLDLT (Davis, "Algorithm 849: A concise sparse
// Cholesky factorization package", ACM TOMS 31(4), 2005, with AMD ordering) for the normal
// matrices of the solvers in this folder, which factorise matrices of one pattern many times
// (every interior-point iteration, every step with the same contact pairs).
//
// Analyze (allocates) runs Eigen's ordering and symbolic analysis, builds the pattern of
// P A Pᵀ with where each stored entry of A goes in it, and runs the symbolic part of the
// factorisation once: for each row k of L, the columns i of its non-zeros in the order the
// elimination-tree walk visits them (Davis 2005, §2) and the slot of L(k, i) in L's storage.
// A factorisation then does only the arithmetic: no tree walk, no copy of A, no heap
// allocation. Every floating-point operation is Eigen's, in Eigen's order, so factors and
// solutions are equal, bit for bit, to SimplicialLDLT::compute / solve on the same matrix
// (preordered_ldlt_test.cc).

#include <Eigen/SparseCholesky>
#include <Eigen/SparseCore>
#include <vector>

namespace quasidyn {

class PreorderedLdlt : public Eigen::SimplicialLDLT<Eigen::SparseMatrix<double>, Eigen::Lower> {
 public:
  using Matrix = Eigen::SparseMatrix<double>;  // column-major, lower triangle used

  // Ordering (AMD), elimination tree, the pattern of the factor of `lower` (its lower
  // triangle, compressed) and the row patterns of L; the map of its entries into P A Pᵀ.
  // Allocates. When `lower` stores the entries of the matrix analysed last, in the same order
  // (IsAnalyzedPattern), the analysis is kept as it is: it depends on the pattern only, so
  // factors and solutions stay bitwise those of a fresh analysis.
  void Analyze(const Matrix& lower);
  // True when `lower` has the entries of the last analysed matrix at the same storage indices
  // (checked entry by entry against the map into P A Pᵀ: a search of one short column per
  // entry, no allocation).
  bool IsAnalyzedPattern(const Matrix& lower) const;

  // LDLᵀ of a matrix with the pattern given to Analyze (the same stored entries, any values).
  // False when a pivot is zero, negative or not a number (the matrix is not numerically
  // positive definite). No heap allocation.
  bool Factorize(const Matrix& lower);
  // LDLᵀ of a quasi-definite matrix [K Aᵀ; A −E] (K, E positive definite; Vanderbei 1995: an
  // LDLᵀ exists for every symmetric ordering) on the analysed pattern, with dynamic
  // regularisation: a pivot of the first `positive` original rows must be > threshold, of the
  // others < −threshold; one that is not (rounding, when the interior point's weights span many
  // orders of magnitude) becomes ±replacement. Returns the number of pivots replaced, or −1
  // when a pivot is not finite. SolveInto then solves with the regularised factor (callers
  // refine against the true matrix). No heap allocation.
  int FactorizeQuasiDefinite(const Matrix& lower, int positive, double threshold,
                             double replacement);

  // out = A⁻¹ rhs with the last factorisation (out must not be rhs): P b, L⁻¹, D⁻¹, L⁻ᵀ, Pᵀ as
  // Eigen's solve. No heap allocation once out has the size.
  void SolveInto(const Eigen::VectorXd& rhs, Eigen::VectorXd* out);

 private:
  // The numeric factorisation of `lower`'s values; pivot(k, d) returns the pivot to keep for
  // row k (permuted order) given the computed d, or a NaN to stop with failure.
  template <typename Pivot>
  bool FactorizeWith(const Matrix& lower, const Pivot& pivot);

  int size_ = 0;
  bool analyzed_ = false;
  Matrix permuted_;                // upper triangle of P A Pᵀ (its pattern is used)
  std::vector<int> source_index_;  // per stored entry of permuted_: its index in A's values
  std::vector<int> permutation_;   // P's indices: (P b)[permutation_[i]] = b[i]
  // Row k of L: its columns row_entry_[row_begin_[k] … row_begin_[k + 1]) in the order of the
  // elimination-tree walk, and the slot of each entry in L's storage.
  std::vector<int> row_begin_, row_entry_, row_slot_;
  Eigen::VectorXd diagonal_, inverse_diagonal_;  // D and its entries' reciprocals
  Eigen::VectorXd y_, work_;                     // the dense row of the factorisation; a solve's
  Eigen::VectorXd sign_;  // FactorizeQuasiDefinite's expected pivot signs (permuted order)
};

}  // namespace quasidyn
