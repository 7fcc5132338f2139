#pragma once
// A block factor P = Cᵀ C of a symmetric positive-definite matrix P (n × n), C = Lᵀ with
// L = blockdiag(L_1, …, L_k) lower triangular, P_b = L_b L_bᵀ the dense Cholesky factor
// (Golub & Van Loan, "Matrix Computations", 4th ed., §4.2) of each diagonal block P_b of the
// finest partition of 0 … n−1 into contiguous index ranges that P couples only within. The
// sensitivities of the step (qp_gradient.h) work in the velocities whitened by it, x = C v,
// where the cost ½ vᵀ P v becomes ½ |x|².
//
// The step's P = blockdiag(s·M_u, h²K_a) (step_data_derivative.h) has blocks of one object
// instance's velocities (6 for a free box) and single robot joints, so every solve below
// costs O(Σ_b n_b²) per column instead of the O(n²) of one dense Cholesky factor. A P that
// couples everything is one block: the factor is then the dense Cholesky factor, still exact.

#include <Eigen/Cholesky>
#include <Eigen/Core>
#include <vector>

#include "quasidyn/gradients/kept_capacity_matrix.h"
#include "quasidyn/solvers/sparse_row_matrix.h"

namespace quasidyn {

class PositiveDefiniteFactor {
 public:
  // Factors P (square, symmetric: only its lower triangle is read). Returns false, and the
  // factor must not be used, when P is empty, has a NaN or Inf entry, or is not numerically
  // positive definite: a pivot L_ii² at or below 1e-12 × max_i |P_ii| (the threshold of a
  // dense Cholesky test of the same matrix). Throws std::invalid_argument when P is not
  // square.
  bool Factor(const Eigen::MatrixXd& P);

  int size() const { return size_; }
  // The blocks, a run of consecutive 1 × 1 blocks counted as one.
  int block_count() const { return block_count_; }

  // C⁻ᵀ B = L⁻¹ B (B: n × c). With B = Gᵀ its columns w_j satisfy |w_j|² = g_j P⁻¹ g_jᵀ.
  Eigen::MatrixXd SolveTranspose(const Eigen::MatrixXd& B) const;
  // B ← C⁻ᵀ B in place (no allocation).
  void SolveTransposeInPlace(Eigen::MatrixXd* B) const;

  // The quadratic forms g_j P⁻¹ g_jᵀ = Σ_b |L_b⁻¹ g_j,b|² of the rows g_j of G (m × n), each
  // over the blocks the row touches only (a pyramid row of the step touches two bodies).
  Eigen::VectorXd InverseQuadraticForms(const Eigen::MatrixXd& G) const;

  // The whitened rows w_j = C⁻ᵀ g_jᵀ = L⁻¹ g_jᵀ of every row g_j of G (m × n), sparse: row j
  // keeps the entries of the dense blocks it touches and, in a run of 1 × 1 blocks (a diagonal
  // stretch of P, e.g. the step's cubes and robot joints), its own entries only (a pyramid row
  // of the step touches two bodies, so w_j has about a dozen entries), in CSR form: entries
  // start[j] … start[j + 1] − 1 of index (ascending) and value. |w_j|² = g_j P⁻¹ g_jᵀ, and C⁻ᵀ G_𝒜ᵀ
  // G_𝒜 C⁻¹ = Σ_{j∈𝒜} w_j w_jᵀ.
  struct SparseRows {
    std::vector<int> start;  // m + 1
    std::vector<int> index;
    std::vector<double> value;
    double SquaredNorm(int row) const;
    std::vector<char> touches;  // scratch of WhitenRows
  };
  void WhitenRows(Eigen::Ref<const Eigen::MatrixXd> G, SparseRows* out) const;
  // The same from G's non-zeros by row (the values bitwise those of the dense form: a row's
  // block segment holds its entries and zeros, then the same substitution).
  void WhitenRows(const SparseRowMatrix& G, SparseRows* out) const;

  // C⁻¹ X = L⁻ᵀ X (X: n × c), so C⁻¹ C⁻ᵀ B = P⁻¹ B.
  Eigen::MatrixXd Solve(const Eigen::MatrixXd& X) const;
  // X ← C⁻¹ X in place (no allocation).
  void SolveInPlace(Eigen::MatrixXd* X) const;

 private:
  // A diagonal block stands for a run of consecutive 1 × 1 blocks (L = diag(√P_ii)): one
  // vectorisable scaling instead of one block each.
  struct Block {
    int start = 0, size = 0;
    bool diagonal = false;
    // Both keep the storage of their largest use (a block's size follows the coupling of the
    // step's H, which changes with the sliding cones: kept_capacity_matrix.h).
    KeptCapacityMatrix L;  // lower Cholesky factor of P's diagonal block (lower triangle only)
    std::vector<double> inverse_diagonal;  // 1 / L_ii (its first `size` entries)
  };
  static void ForwardSubstitute(const Block& b, double* x);
  static void BackSubstitute(const Block& b, double* x);

  Block& NextBlock();  // blocks_[block_count_++], reusing an element's storage

  int size_ = 0;
  std::vector<Block> blocks_;  // the first block_count_ are the factor's
  int block_count_ = 0;
  std::vector<int> reach_;            // scratch of Factor
  std::vector<int> block_of_column_;  // the block of each column
  int widest_block_ = 1;              // the largest size of a block that is not a run
};

// g (P + δI)⁻¹ gᵀ for every row g of G (m × n), δ = 1e-12·max(1, max_i P_ii): the Delassus
// entries of a P that is not positive definite (object_mass_scale = 0), by a dense LDLᵀ.
Eigen::VectorXd RegularizedInverseQuadraticForms(const Eigen::MatrixXd& P,
                                                 const Eigen::MatrixXd& G);

}  // namespace quasidyn
