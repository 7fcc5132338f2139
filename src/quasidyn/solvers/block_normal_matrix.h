#pragma once
// The normal (reduced) matrix of the interior-point and Newton methods in this folder,
//
//   N = Q + Σ_k A_kᵀ M_k A_k + δ I,
//
// where the constraint rows come in small blocks A_k (m_k rows: one friction cone, or one
// linear row) stacked into A, and each block has a symmetric m_k × m_k weight M_k (the
// Nesterov–Todd W_k⁻² of socp.h, the barrier Hessian block of log_barrier_newton.h).
//
// Two paths with the same interface, chosen by size in Setup:
//   dense   N formed with one product Aᵀ (blockdiag M) A, or, when the blocks touch few of
//           the columns (a contact couples at most two bodies), summed block by block into
//           its lower triangle (the cheaper by a count of multiply–adds, ChooseDenseAssembly);
//           factorised by Eigen::LLT, or by the plain loops of dense_cholesky.h up to
//           kSmallDenseSize variables;
//   sparse  only the entries of N that can be non-zero are stored (the lower triangle of the
//           pattern of Q plus, per block, every pair of the columns its rows touch — a contact
//           block touches the columns of at most two bodies), filled per block from a compact
//           dense copy of A_k, and factorised by a sparse LDLᵀ (preordered_ldlt.h). The
//           symbolic analysis is kept between Setup calls whose Q, A and blocks have the same
//           sparsity pattern, and N's pattern, positions and analysis also when Q, A or the
//           blocks change but every entry they add lands in the kept N and reaches all of it
//           (consecutive steps with the same coupled body pairs, contacts coming and going).
// Setup copies Q and A and may allocate; UpdateValues, Assemble, Factorize, Solve and the
// products do not.

#include <Eigen/Cholesky>
#include <Eigen/Core>
#include <Eigen/SparseCore>
#include <vector>

#include "quasidyn/solvers/dense_cholesky.h"
#include "quasidyn/solvers/polish_normal_system.h"
#include "quasidyn/solvers/preordered_ldlt.h"
#include "quasidyn/solvers/sparse_pattern.h"
#include "quasidyn/solvers/sparse_row_matrix.h"

namespace quasidyn {

// The sparse path is taken when n >= min_variables (>= 0) and the fraction of non-zeros of
// [Q; A] is <= max_density (in [0, 1]).
struct SparsePathRule {
  int min_variables = 40;
  double max_density = 0.5;
};

class BlockNormalMatrix final : public PolishNormalSystem {
 public:
  // Q (n × n) symmetric; A (rows × n) with block k the rows [offset[k], offset[k] + dim[k]),
  // the blocks covering A in order. Both are copied.
  void Setup(const SparseRowMatrix& Q, const SparseRowMatrix& A, const std::vector<int>& offset,
             const std::vector<int>& dim, const SparsePathRule& rule);
  // True when Q, A and the block sizes have the patterns of the last Setup, so UpdateValues
  // serves.
  bool SamePattern(const SparseRowMatrix& Q, const SparseRowMatrix& A,
                   const std::vector<int>& dim) const;
  // New values of Q and A with the patterns of the last Setup (throws std::invalid_argument
  // otherwise). No allocation.
  void UpdateValues(const SparseRowMatrix& Q, const SparseRowMatrix& A);

  bool sparse() const { return sparse_; }
  // The dense path sums N block by block (see the top of this file).
  bool dense_by_blocks() const { return dense_blocks_; }
  Eigen::Index size() const { return n_; }
  // Sparse path: how many Setup calls built N's pattern and analysed it (the others kept it).
  int pattern_builds() const { return pattern_builds_; }

  // Forms N with M_k = weights.block(offset[k], 0, dim[k], dim[k]) (weights has at least
  // max_k dim[k] columns; only the block's own square is read) and δ = regularization >= 0.
  void Assemble(const Eigen::MatrixXd& weights, double regularization) override;
  // Cholesky (dense) or LDLᵀ (sparse) of the assembled N; false when N is not numerically
  // positive definite (a failed or non-positive pivot) or not finite.
  bool Factorize() override;
  // *out = N⁻¹ rhs with the last factorisation (out must not be rhs).
  void Solve(const Eigen::VectorXd& rhs, Eigen::VectorXd* out) override;

  // Products on the chosen path: out = A x, out = Aᵀ y, out = Q x.
  void MultiplyA(const Eigen::VectorXd& x, Eigen::VectorXd* out) const override;
  void MultiplyAt(const Eigen::VectorXd& y, Eigen::VectorXd* out) const override;
  void MultiplyQ(const Eigen::VectorXd& x, Eigen::VectorXd* out) const override;
  // Ax = A x and Aty = Aᵀ y; on the sparse path in one pass over A's entries (bitwise the
  // separate products).
  void MultiplyBoth(const Eigen::VectorXd& x, Eigen::VectorXd* Ax, const Eigen::VectorXd& y,
                    Eigen::VectorXd* Aty) const;

  // max_j |N_jj| of the assembled N (0 for n = 0).
  double MaxAbsDiagonal() const;
  // The assembled N as a dense symmetric matrix (both triangles).
  void ToDense(Eigen::MatrixXd* out) const;

 private:
  void BuildBlockLayout();
  // repeats_previous_columns_ of the layout BuildBlockLayout made.
  void MarkBlocksThatRepeatTheirPredecessor();
  bool AppendPairsIfRepeated(size_t k, size_t* previous_pairs);
  bool RowsShareIncreasingColumns(int k) const;
  bool IndexIntoKeptPattern();
  void ChooseDenseAssembly();
  void BuildSparsePattern();
  void CopyBlockValues();
  void CopySparseValues();
  // values[pair…] += A_kᵀ M_k A_k over the blocks, pair after pair of each block's columns.
  void AddBlockProducts(const Eigen::MatrixXd& weights, const int* pair, double* values);

  bool sparse_ = false;
  Eigen::Index n_ = 0;
  std::vector<int> offset_, dim_;
  SparseRowMatrix Q_, A_;  // the data of the last Setup / UpdateValues
  // Dense path: Q and A as dense matrices (their products are Eigen's dense kernels).
  Eigen::MatrixXd dense_Q_, dense_A_, scaled_A_, dense_normal_;
  Eigen::LLT<Eigen::MatrixXd> dense_factor_;
  bool small_ = false;          // dense path with n <= kSmallDenseSize: plain loops
  DenseCholesky small_factor_;  // used instead of dense_factor_ when small_
  // Dense path by blocks (ChooseDenseAssembly): N's lower triangle summed per block from the
  // compact A_k below, at dense_pair_position_ (row + n · column); the products with A then
  // run on A_'s sparse rows, and dense_A_ and scaled_A_ are empty.
  bool dense_blocks_ = false;
  std::vector<int> dense_pair_position_;
  // Sparse path.
  Eigen::SparseMatrix<double> sparse_normal_;  // lower triangle of N
  PreorderedLdlt sparse_factor_;
  int pattern_builds_ = 0;
  bool pattern_ready_ = false;  // sparse_normal_, the positions and the analysis match the
                                // patterns of pattern_Q_, pattern_A_ and pattern_dim_
  SparseRowMatrix pattern_Q_, pattern_A_;
  std::vector<int> pattern_dim_;
  std::vector<int> q_entry_;     // the stored entries of Q on or below the diagonal
  std::vector<int> q_position_;  // where each goes in N
  std::vector<double> q_value_;  // its value
  std::vector<int> diagonal_position_;
  std::vector<int> block_column_begin_;  // block k's columns: block_columns_[begin_k … begin_k+1)
  std::vector<int> block_columns_;       // sorted columns touched by the block's rows
  std::vector<int> block_value_begin_;   // block k's compact A_k: m_k × c_k, column-major
  std::vector<char> same_row_columns_;   // per block: RowsShareIncreasingColumns
  std::vector<double> block_values_;
  std::vector<int> a_value_position_;   // per stored entry of A: its place in block_values_
  std::vector<int> pair_position_;      // per block, per column pair (i >= j): position in N
  std::vector<double> weighted_block_;  // scratch M_k A_k (max m × max c)
  // Scratch of BuildSparsePattern and IndexIntoKeptPattern, kept for its storage: per block,
  // whether its columns are the previous block's; the triplets of the pattern; the rows of
  // q_entry_.
  std::vector<char> repeats_previous_columns_;
  std::vector<Eigen::Triplet<double>> triplets_;
  SparsePositions positions_;  // where each entry of the pattern is stored
  std::vector<int> q_row_;
  std::vector<char> reached_;  // scratch of IndexIntoKeptPattern: the entries of N reached
};

}  // namespace quasidyn
