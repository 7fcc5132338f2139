#pragma once
// Convex quadratic program with linear inequality (and optional equality) constraints, solved
// by a primal-dual interior-point method with Mehrotra's predictor-corrector:
//
//   minimise   ½ xᵀ Q x + cᵀ x     subject to   G x >= h,   A x = b,
//
// the shape of the quasi-dynamic time step of Pang & Tedrake 2021, eq. (10) (x = v, the
// rows of G are (n_i + μ_i d_ij)ᵀ J_i and h_i = −φ_i / h).
//
// Method: Nocedal & Wright, "Numerical Optimization" (2nd ed.), §16.6, with slacks s = Gx − h
// and multipliers z (one per row of G). Each iteration solves the reduced (normal-equation)
// system (Q + Gᵀ diag(z/s) G) Δx = r by Cholesky, dense (Eigen::LLT; Gᵀ diag(z/s) G summed by
// G's rows, and G's products taken by its stored entries, where its rows touch few columns:
// dense_by_rows_ below) or sparse (an LDLᵀ whose
// symbolic analysis is kept while the reduced matrix's pattern is — it depends on Q and on the
// pairs of columns each row of G touches, so on the pairs of bodies in contact and not on the
// contacts' count or order: preordered_ldlt.h, BuildSparsePattern), see
// QpSettings::sparse_min_variables, then one step of iterative refinement whose residual is
// taken with the assembled matrix less δI (on the sparse and the small dense path; it has far
// fewer entries than G). The predictor's direction, which sets only a step length and σ, is
// not refined (on arm_cubes' steps the same iteration counts, one solve and one product with
// the reduced matrix fewer per iteration: docs/performance.md). The sparse path assembles Gᵀ
// diag(w) G by groups of consecutive rows with the same columns (a contact's pyramid edges), each
// entry receiving its rows' terms in row order. G x is not recomputed each iteration but carried
// by the corrector's G Δx (one product with G fewer per iteration: docs/performance.md).
//
// Equality rows (p > 0; the MIQP of miqp.h keeps an MPC's dynamics as equalities): with
// multipliers y, r_e = A x − b and r_d = Qx + c − Gᵀz − Aᵀy, the Newton step solves the
// quasi-definite system (Vanderbei, "Symmetric quasidefinite matrices", SIAM J. Optim. 5(1),
// 1995: an LDLᵀ exists for every symmetric ordering)
//   [ Q + Gᵀ diag(z/s) G + δI    Aᵀ   ] [ Δx  ]   [ rhs ]
//   [ A                        −δ_e I ] [ −Δy ] = [ −r_e ]
// by the sparse LDLᵀ (always the sparse path when p > 0; AMD order, and
// pivots of the wrong sign or below 1e-13 replaced by ±2e-7: preordered_ldlt.h), then up to
// three steps of iterative refinement against the matrix without δ, δ_e and the replaced
// pivots. The polish is not run when p > 0.
//
// Use (the set-up / solve split of OSQP): Setup(problem, settings) validates and may
// allocate; UpdateValues(problem) takes new values with the same sparsity pattern; Solve()
// does not allocate unless it fails (its message). The problem, settings and result types are
// in qp_problem.h (what a caller that holds no solver needs); this header is the solver and its
// workspace, internal to the library (not installed: cmake/PublicHeaders.cmake).

#include <Eigen/Cholesky>
#include <Eigen/Core>
#include <Eigen/SparseCore>
#include <string>
#include <vector>

#include "quasidyn/solvers/active_set_polish.h"
#include "quasidyn/solvers/dense_cholesky.h"
#include "quasidyn/solvers/preordered_ldlt.h"
#include "quasidyn/solvers/qp_polish.h"
#include "quasidyn/solvers/qp_problem.h"
#include "quasidyn/solvers/sized_storage_pool.h"
#include "quasidyn/solvers/solver_status.h"
#include "quasidyn/solvers/sparse_pattern.h"
#include "quasidyn/solvers/sparse_row_matrix.h"

namespace quasidyn {

class QpSolver {
 public:
  // Validates the problem and the settings (std::invalid_argument naming the field) and sizes
  // the workspace; keeps the sparse symbolic analysis when the pattern is that of an earlier
  // Setup.
  void Setup(const QpProblem& problem, const QpSettings& settings = {});
  // True when problem has the sizes and sparsity patterns of the last Setup.
  bool SamePattern(const QpProblem& problem) const;
  // New values, same patterns (throws std::invalid_argument otherwise, or on non-finite data).
  void UpdateValues(const QpProblem& problem);
  // UpdateValues when problem has the sizes and patterns of the last Setup (SamePattern, checked
  // once); false, with nothing changed, otherwise (the caller then calls Setup). Throws
  // std::invalid_argument on non-finite data, as UpdateValues does.
  bool UpdateValuesIfSamePattern(const QpProblem& problem);
  void UpdateSettings(const QpSettings& settings);

  // Solves the problem of the last Setup / UpdateValues, from warm_start when given (throws
  // std::invalid_argument when its sizes are wrong); never throws for an infeasible or
  // ill-posed problem.
  const QpResult& Solve(const QpWarmStart& warm_start = {});
  const QpResult& result() const { return result_; }
  const QpSettings& settings() const { return settings_; }

 private:
  // The reduced matrix lent to the polish (below).
  class LentNormalSystem;
  // The sparse and the small dense path without equality rows lend their reduced matrix.
  bool LendsNormalSystem() const;

  // UpdateValues once SamePattern(problem) holds.
  void TakeValues(const QpProblem& problem);
  void BuildSparsePattern();
  void BuildGroups();
  // Whether each group of G's rows has, in order, the columns of the group IndexEntries last
  // indexed (the row counts may differ): the groups' pairs and their places in N then hold.
  bool SameGroupColumnsAsIndexed() const;
  bool IndexEntries();
  bool RecordIndexedGroups(int reached);
  void CopySparseValues();
  bool FactorReduced();
  // Sparse path: the values of Q + Gᵀ diag(weights) G + δI (δ = regularization) into
  // sparse_reduced_, weights of size m (with equality rows, also A and −δ_e I).
  void AssembleSparse(const double* weights, double regularization);
  // Small dense path: the lower triangle of Q + Gᵀ diag(weights) G + δI into reduced_.
  void AssembleSmall(const double* weights, double regularization);
  // Dense path by rows (dense_by_rows_): the lower triangle of Q + Gᵀ diag(weights) G + δI into
  // reduced_, each row of G adding the products of its stored entries.
  void AssembleDenseByRows(const double* weights, double regularization);
  // refine = false: the first solve only (the predictor's direction, which sets a step length
  // and σ, not the iterate).
  void SolveReduced(const Eigen::VectorXd& rhs, Eigen::VectorXd& out, bool refine = true);
  // With equality rows: (Δx, −Δy) of the quasi-definite system (header) for the right-hand
  // side (rhs, −r_e); refine = false as in SolveReduced (the predictor's direction).
  void SolveAugmented(const Eigen::VectorXd& rhs, const Eigen::VectorXd& minus_r_e,
                      Eigen::VectorXd& dx, Eigen::VectorXd& minus_dy, bool refine = true);
  // y = (N − δI) x with N the assembled reduced matrix of the sparse or the small dense path
  // (sparse_reduced_ or reduced_, lower triangles), δ = kkt_regularization.
  void MultiplyReducedWithoutRegularization(const Eigen::VectorXd& x, Eigen::VectorXd* y) const;
  void MultiplyG(const Eigen::VectorXd& in, Eigen::VectorXd& out) const;
  void MultiplyGByGroups(const Eigen::VectorXd& in, Eigen::VectorXd& out) const;
  void MultiplyGtByGroups(const Eigen::VectorXd& in, Eigen::VectorXd& out) const;
  void MultiplyGt(const Eigen::VectorXd& in, Eigen::VectorXd& out) const;
  void MultiplyQ(const Eigen::VectorXd& in, Eigen::VectorXd& out) const;

  QpProblem problem_;
  bool equalities_ = false;  // p > 0: the augmented (quasi-definite) system, sparse path
  QpSettings settings_;
  QpResult result_;
  bool ready_ = false;
  bool sparse_ = false;
  // Dense path with n, m <= kSmallDenseSize: coefficient-wise products and a plain-loop
  // Cholesky factorisation and substitution (dense_cholesky.h), whose cost is the arithmetic
  // (the general kernels' set-up dominates at these sizes).
  bool small_ = false;
  // Dense path (not small): Gᵀ diag(z/s) G summed row by row over G's stored entries, Σ_i k_i²/2
  // multiply-adds for k_i entries in row i, when kDenseKernelSpeedup times that is below the
  // m n² of the product with the dense G (dense_cholesky.h; as BlockNormalMatrix::
  // ChooseDenseAssembly decides): a contact row touches two bodies' columns, a trust region's
  // box row one.
  bool dense_by_rows_ = false;
  DenseCholesky small_factor_;  // small dense path: the factor of reduced_
  Eigen::VectorXd weights_;     // z/s
  // G as a dense matrix: the products of the dense path, and the starting point's Gᵀh and
  // G x₀ on both paths.
  Eigen::MatrixXd dense_G_;
  Eigen::MatrixXd dense_Q_, scaled_G_, reduced_;  // dense path
  Eigen::LLT<Eigen::MatrixXd> dense_factor_;
  // Sparse path: the lower triangle of Q + Gᵀ diag(w) G and where each term lands in it.
  Eigen::SparseMatrix<double> sparse_reduced_;
  PreorderedLdlt sparse_factor_;
  bool pattern_ready_ = false;  // sparse_reduced_ and its analysis match pattern_G_, pattern_Q_
  SparseRowMatrix pattern_G_, pattern_Q_;
  std::vector<int> q_entry_;        // the stored entries of Q on or below the diagonal
  std::vector<int> q_value_index_;  // position of each in sparse_reduced_
  // G's rows in groups of consecutive rows with the same columns (a contact's pyramid edges):
  // group g holds rows [group_row_[g], group_row_[g + 1]) and the column pairs
  // [group_pair_[g], group_pair_[g + 1]) of gram_value_index_ (j >= k, in a row's storage
  // order); gram_value_ holds G_ij G_ik group by group, row by row, the pairs in order within
  // a row.
  std::vector<int> group_row_, group_pair_;
  std::vector<int> gram_value_index_;  // position of each pair's entry in sparse_reduced_
  std::vector<int> pair_entry_;  // per pair: its two entries' offsets within a row of the group
  std::vector<double> gram_value_;
  // The columns of the groups IndexEntries last indexed (group g's are
  // indexed_columns_[indexed_column_start_[g] … indexed_column_start_[g + 1])); empty when the
  // last IndexEntries failed.
  std::vector<int> indexed_columns_, indexed_column_start_;
  std::vector<double> group_sum_;  // FactorReduced's scratch: one group's pair sums
  // The products with G's scratch: one group's entries of x or of Gᵀy (the widest group's
  // size; const products write it, as the solver serves one thread at a time).
  mutable std::vector<double> group_values_;
  std::vector<int> diagonal_index_;  // position of each diagonal entry in sparse_reduced_
  // Scratch of BuildSparsePattern, kept for its storage: the pattern's triplets.
  std::vector<Eigen::Triplet<double>> triplets_;
  SparsePositions positions_;  // where each entry of the pattern is stored
  // With equality rows, sparse_reduced_ is the (n + p)² augmented matrix; where A's stored
  // entries and the −δ_e diagonal land in it.
  std::vector<int> a_value_index_, equality_diagonal_index_;
  SparseRowMatrix pattern_A_;
  Eigen::VectorXd augmented_rhs_, augmented_out_, augmented_correction_, augmented_residual_,
      augmented_product_;
  Eigen::VectorXd r_e_, minus_r_e_, Ax_, Aty_, dy_, scratch_n_;  // dy_ holds −Δy
  Eigen::VectorXd correction_, residual_, product_m_;
  Eigen::VectorXd Qx_, Gtz_, r_d_, rhs_, dx_;
  Eigen::VectorXd Gdx_;  // the corrector's G Δx (Solve carries G x by it)
  Eigen::VectorXd Gx_, r_p_, ds_, dz_, rc_, scratch_;
  // On the sparse path without equality rows the polish (qp_polish.h) borrows the interior
  // point's reduced matrix: its N = Q + Gᵀ diag(P/δ) G + δ_x I (every row of G a block) has the
  // pattern of Q + Gᵀ diag(z/s) G + δI, so it is assembled into sparse_reduced_ and factorised
  // by sparse_factor_ (whose values the interior point no longer needs once its iterations
  // end, and refills first in the next Solve), with no pattern, analysis or copy of Q and G of
  // its own. The small dense path lends reduced_ and small_factor_ alike (no dense copies of Q
  // and G in the polish). Elsewhere (the larger dense path) the polish has its own normal
  // matrix.
  QpPolish polish_;
  // The spare storage of the row-sized vectors and matrices above for other row counts
  // (sized_storage_pool.h): a Setup for a row count met before allocates nothing.
  SizedStoragePool storage_;
};

// Convenience: a fresh solver per call.
QpResult Solve(const QpProblem& problem, const QpSettings& settings = {},
               const QpWarmStart& warm_start = {});

}  // namespace quasidyn
