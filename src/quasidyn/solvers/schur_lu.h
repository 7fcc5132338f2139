#pragma once
// LU factorisation of a square submatrix M(K, K) of a small dense n × n matrix
// M = diag(r) G + diag(a) given by G and the optional row scales r and diagonal a (the
// Fischer–Burmeister Newton matrix from the Jacobian, mixed_ncp_newton.h), K = `keep` (the
// unknowns that remain after the caller has taken out rows of M that are multiples of a unit
// row), partitioned after its first k rows and columns,
//
//   M(K, K) = [A B]   A: k × k (invertible; in the ECP step, the bodies' velocity block),
//             [C D],
//
// by eliminating the leading block first: A = P_A L_A U_A, X = A⁻¹B, and the Schur complement
// S = D − C X = P_S L_S U_S (Golub & Van Loan, "Matrix Computations", 4th ed., §3.2.10 (block LU)
// and Alg. 3.4.1 (partial pivoting, the outer-product form) for A and S). M(K, K) x = b is then
// A x_1 = b_1, S x_2 = b_2 − C x_1, x_1 −= X x_2. Columns of B that are zero give zero columns of
// X and leave S's column equal to D's: they cost nothing; nor does an update by a zero entry of
// the factor (the multiplier or the pivot row), so the sparsity of M is used as it comes.
//
// Pivoting is restricted to within A and within S, so when A is (numerically) singular, or S's
// pivots fail the test below, Factor falls back to partial pivoting over the whole of M(K, K).
// k = 0 is the plain LU with partial pivoting throughout.
//
// Singularity test: min |pivot| > singular_pivot_ratio · max |pivot| over every pivot of the
// factorisation used and the caller's own (the unit rows it took out), all finite: the test of
// the solver's dense LU (mixed_ncp_newton.h).
//
// When A is block diagonal (below) and S has at most kPaddedRows rows (padded_lu.h), C and S
// are kept with their columns padded to kPaddedRows entries and S is factorised by
// FactorisePadded: every update is a whole padded column, without data-dependent loop lengths.
// The arithmetic on the matrix's entries is the same; the factor differs from the general path's
// only in the order of the operations (rounding). The padded path keeps S's rows in the order the
// last factorisation of the same kept unknowns ended with (its pivot rows first), across calls:
// partial pivoting then finds its pivots in place, without row interchanges, and picks the same
// pivot rows as from any other order except among exactly equal entries.
//
// Resize may allocate; Factor and Solve do not.

#include <Eigen/Core>
#include <array>
#include <vector>

#include "quasidyn/solvers/padded_lu.h"

namespace quasidyn {

class SchurLu {
 public:
  // When k is a multiple of kBodyBlock and A is zero outside its diagonal blocks of that size
  // (the ECP step: one 6 × 6 velocity block per body), A⁻¹ is formed block by block (fixed-size
  // LU with partial pivoting, its pivots in the test below) and applied as matrix–vector
  // products, instead of substitutions with A's factor. A block whose first three rows are
  // [I 0] exactly (a body's linear momentum rows) is inverted through its trailing 3 × 3 block
  // Y, [[I, 0], [X, Y]]⁻¹ = [[I, 0], [−Y⁻¹X, Y⁻¹]], with Y's pivots and the unit ones.
  static constexpr int kBodyBlock = 6;

  // Sizes the storage for submatrices of n × n matrices whose first k unknowns are eliminated
  // first (0 <= k <= n; std::invalid_argument otherwise).
  void Resize(int n, int k);
  int size() const { return n_; }
  int leading() const { return k_; }

  // Factorises M(keep, keep), M = diag(row_scale) G + diag(diagonal) (G: size() × size();
  // row_scale, diagonal: size() entries each, or null for ones and zeros; keep: increasing
  // indices whose first k are 0, …, k − 1). `pivot_lo`, `pivot_hi`: the smallest and largest
  // |pivot| of the rows the caller took out (+∞ and 0 when none). False when the test above
  // fails (the factor is then unusable).
  bool Factor(const Eigen::MatrixXd& G, const double* row_scale, const double* diagonal,
              const std::vector<int>& keep, double singular_pivot_ratio, double pivot_lo,
              double pivot_hi);
  // Whether the last Factor fell back to pivoting over the whole submatrix.
  bool full_pivoting() const { return full_; }
  // Whether the last Factor found A block diagonal and formed its blocks' inverses.
  bool block_inverse() const { return blocks_; }
  // Whether the last Factor took the padded path (A block diagonal, S at most kPaddedRows rows).
  bool padded() const { return padded_; }

  // x = M(keep, keep)⁻¹ b with the last successful factorisation; b and x of keep.size() entries
  // in keep's order (x may be b).
  void Solve(const double* b, double* x) const;
  // Factor, then Solve(b, x) when it succeeds: the same factor and the same x (the same
  // operations in the same order), but on the padded path with S of fewer than kPaddedRows rows
  // the right side's Schur part b_2 − C x_1 is eliminated as an extra column of S, so its
  // forward substitution runs within S's column updates rather than as a chain of its own.
  bool FactorSolve(const Eigen::MatrixXd& G, const double* row_scale, const double* diagonal,
                   const std::vector<int>& keep, double singular_pivot_ratio, double pivot_lo,
                   double pivot_hi, const double* b, double* x);

 private:
  // In-place LU with partial pivoting of the m × m matrix at `a` (column-major, leading dimension
  // m); its row interchanges into `perm`. Updates *lo, *hi with the smallest and largest |pivot|.
  static void Factorise(double* a, int m, int* perm, double* lo, double* hi);
  // The general path (C, X, S unpadded; A by its blocks' inverses or by its LU); false when a
  // pivot test fails.
  bool FactorGeneral(const Eigen::MatrixXd& G, const double* row_scale, const double* diagonal,
                     const int* K, int m, double singular_pivot_ratio, double* lo, double* hi);
  // Factor's body; with x (b on entry, keep.size() entries) set, the padded path with m <
  // kPaddedRows also solves (x then holds the solution and *solved is set).
  bool FactorWith(const Eigen::MatrixXd& G, const double* row_scale, const double* diagonal,
                  const std::vector<int>& keep, double singular_pivot_ratio, double pivot_lo,
                  double pivot_hi, double* x, bool* solved);
  // The padded path: A block diagonal (its blocks gathered into a_), S of m <= kPaddedRows
  // rows; false when a pivot test fails. With x set and m < kPaddedRows, x := M(K, K)⁻¹ x too.
  bool FactorPadded(const Eigen::MatrixXd& G, const double* row_scale, const double* diagonal,
                    const int* K, int m, double singular_pivot_ratio, double* lo, double* hi,
                    double* x);
  // The padded solve's end: x_1 −= X x_2 and x_2 = w (x_2 = S⁻¹(b_2 − C x_1) in w, S's order
  // being the kept unknowns' own after the back substitution).
  void FinishPadded(const double* w, double* x) const;
  // A⁻¹ block by block into inverse_ (A block diagonal); updates *lo, *hi with the blocks' pivots.
  void InvertBlocks(double* lo, double* hi);
  // One block's inverse (row-major `a`) into `out` (column-major), its pivots into *lo, *hi;
  // false when a pivot is zero or not finite. The first when the block's leading rows are [I 0].
  static bool InvertUnitLeadingBlock(const double (*a)[kBodyBlock], double* out, double* lo,
                                     double* hi);
  static bool InvertBlockGaussJordan(double (*a)[kBodyBlock], double* out, double* lo, double* hi);
  // x := A⁻¹ x (k entries) with the last factorisation of A.
  void SolveLeading(double* x) const;
  // x := M⁻¹ x with the factor of Factorise (size m, leading dimension m).
  static void Substitute(const double* lu, int m, const int* perm, double* x);
  // out[i] = M(K[i], column) for i < count, M as in Factor; `at`: the i with K[i] == column
  // (where the diagonal is added), −1 when there is none.
  static void Gather(const Eigen::MatrixXd& G, const double* row_scale, const double* diagonal,
                     const int* K, int count, int column, int at, double* out);

  int n_ = 0, k_ = 0;
  int r_ = 0;  // keep.size() of the last Factor
  bool full_ = false;
  bool blocks_ = false;  // A block diagonal: inverse_ holds its blocks' inverses
  bool padded_ = false;  // the padded path: C, S and L in c_padded_, s_padded_, lower_padded_
  // A's factor (k × k), X = A⁻¹B (k × m), C (m × k), S's factor (m × m), the whole factor (r × r),
  // column-major with leading dimension their row count.
  std::vector<double> a_, x_, c_, s_, whole_;
  std::vector<double> inverse_;  // (kBodyBlock × kBodyBlock per block, column-major, consecutive)
  // The padded path (padded_lu.h): C (k columns), S's factor and L's multipliers (kPaddedRows
  // columns each), every column kPaddedRows entries.
  std::vector<double> c_padded_, s_padded_, lower_padded_;
  // The padded path's row order of C and S (FactorPadded): S's row i is the kept unknown
  // order_[i] (of its m), for the kept unknowns order_rows_ (order_size_ of them, −1 none); the
  // order the last factorisation ended with, next_order_.
  std::array<int, kPaddedRows> order_{}, next_order_{}, order_rows_{};
  int order_size_ = -1;
  std::vector<int> perm_a_, perm_s_, perm_whole_;
  std::vector<unsigned char> nonzero_;  // per column of B
  mutable std::vector<double> work_;    // (m)
  std::vector<double> leading_;         // (k) x_1 of FactorSolve's padded path
};

}  // namespace quasidyn
