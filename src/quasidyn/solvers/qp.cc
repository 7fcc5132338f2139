#include "quasidyn/solvers/qp.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <sstream>
#include <stdexcept>
#include <string>
#include <type_traits>

#include "quasidyn/common/all_finite.h"
#include "quasidyn/common/argument_check.h"
#include "quasidyn/solvers/interior_point_settings_check.h"
#include "quasidyn/solvers/problem_value_checks.h"
#include "quasidyn/solvers/small_dense_products.h"

namespace quasidyn {
namespace {

using Eigen::MatrixXd;
using Eigen::VectorXd;

double InfNorm(const VectorXd& v) { return v.size() > 0 ? v.lpNorm<Eigen::Infinity>() : 0.0; }

// The augmented system's refinement stops at a residual of this much of the right-hand side's
// largest entry [-]: a few units of rounding (ε ≈ 2.2e-16) of the sums of one row.
constexpr double kRefinedEnough = 1e-14;

// The top of an interior-point iteration, in one pass over the rows of G, one over the
// columns and (equality rows) one over the rows of A (at a planar hand's 7 variables and 6
// rows, the set-up of nine separate reductions costs more than their arithmetic; at the MIQP's
// 840 variables and 1,520 rows, the separate passes were a fifth of an iteration):
// r_p = (G x − s) − h, r_d = ((Q x + c) − Gᵀz) − Aᵀy and r_e = A x − b entry for entry as the
// vector expressions form them, and the ∞-norms the stopping tests take of them and of their
// terms. A maximum is exact in any order: the norms are those of lpNorm<Infinity> whenever every
// entry is finite; when one is not (overflow), every norm is NaN, so that no test passes on it.
// `iterate_finite`: x, s, z (and y) are finite.
struct IterationNorms {
  double r_p = 0, r_d = 0, Gx = 0, s = 0, h = 0, Qx = 0, c = 0, Gtz = 0;
  double r_e = 0, Ax = 0, b = 0, Aty = 0;  // equality rows (zero without)
  bool iterate_finite = true;
};

// The equality rows' part: p rows, Ax = A x, y their multipliers, Aty = Aᵀy (n); null without
// equality rows.
struct EqualityTerms {
  Eigen::Index p = 0;
  const double *Ax = nullptr, *b = nullptr, *y = nullptr, *Aty = nullptr;
  double* r_e = nullptr;
};

IterationNorms ResidualsAndNorms(Eigen::Index m, Eigen::Index n, const double* Gx, const double* s,
                                 const double* h, const double* z, const double* Qx,
                                 const double* c, const double* Gtz, const double* x, double* r_p,
                                 double* r_d, const EqualityTerms& equality = {}) {
  IterationNorms norm;
  // v − v is 0 for a finite v and NaN otherwise, and a NaN stays in a sum.
  double iterate_check = 0.0, term_check = 0.0;
  for (Eigen::Index i = 0; i < m; ++i) {
    const double r = (Gx[i] - s[i]) - h[i];
    r_p[i] = r;
    norm.r_p = std::max(norm.r_p, std::abs(r));
    norm.Gx = std::max(norm.Gx, std::abs(Gx[i]));
    norm.s = std::max(norm.s, std::abs(s[i]));
    norm.h = std::max(norm.h, std::abs(h[i]));
    iterate_check += (s[i] - s[i]) + (z[i] - z[i]);
    term_check += r - r;
  }
  // The columns' pass, with the equality rows' Aᵀy (kWithAty) or without (the same arithmetic
  // as a pass that never saw them).
  const auto columns_pass = [&](auto with_aty) {
    constexpr bool kWithAty = decltype(with_aty)::value;
    for (Eigen::Index j = 0; j < n; ++j) {
      double r = (Qx[j] + c[j]) - Gtz[j];
      if constexpr (kWithAty) r -= equality.Aty[j];
      r_d[j] = r;
      norm.r_d = std::max(norm.r_d, std::abs(r));
      norm.Qx = std::max(norm.Qx, std::abs(Qx[j]));
      norm.c = std::max(norm.c, std::abs(c[j]));
      norm.Gtz = std::max(norm.Gtz, std::abs(Gtz[j]));
      iterate_check += x[j] - x[j];
      term_check += (r - r) + (Qx[j] - Qx[j]) + (Gtz[j] - Gtz[j]);
      if constexpr (kWithAty) {
        norm.Aty = std::max(norm.Aty, std::abs(equality.Aty[j]));
        term_check += equality.Aty[j] - equality.Aty[j];
      }
    }
  };
  if (equality.p == 0) {
    columns_pass(std::false_type());
  } else {
    columns_pass(std::true_type());
    for (Eigen::Index i = 0; i < equality.p; ++i) {
      const double r = equality.Ax[i] - equality.b[i];
      equality.r_e[i] = r;
      norm.r_e = std::max(norm.r_e, std::abs(r));
      norm.Ax = std::max(norm.Ax, std::abs(equality.Ax[i]));
      norm.b = std::max(norm.b, std::abs(equality.b[i]));
      iterate_check += equality.y[i] - equality.y[i];
      term_check += r - r;
    }
  }
  norm.iterate_finite = iterate_check == 0.0;
  if (!(term_check == 0.0 && norm.iterate_finite)) {
    const double nan = std::numeric_limits<double>::quiet_NaN();
    norm = IterationNorms{
        nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, norm.iterate_finite};
  }
  return norm;
}

// Largest α >= 0 with v + α·dv >= 0 (infinity when no entry decreases): the smallest −v_i/dv_i
// over dv_i < 0. Without a branch per entry (dv's signs follow no pattern the predictor learns;
// the quotient is formed for every entry and kept only where dv_i < 0) and in four running
// minima, so that the divisions overlap; a minimum is exact in any order, so the value is that
// of the plain loop (a NaN quotient is skipped by both).
double MaxStepToBoundary(const VectorXd& v, const VectorXd& dv) {
  constexpr double kInfinity = std::numeric_limits<double>::infinity();
  const double* a = v.data();
  const double* d = dv.data();
  const Eigen::Index size = v.size();
  double lane[4] = {kInfinity, kInfinity, kInfinity, kInfinity};
  Eigen::Index i = 0;
  for (; i + 4 <= size; i += 4) {
    for (int k = 0; k < 4; ++k) {
      const double ratio = -a[i + k] / d[i + k];
      lane[k] = d[i + k] < 0.0 && ratio < lane[k] ? ratio : lane[k];
    }
  }
  for (; i < size; ++i) {
    const double ratio = -a[i] / d[i];
    lane[0] = d[i] < 0.0 && ratio < lane[0] ? ratio : lane[0];
  }
  return std::min(std::min(lane[0], lane[1]), std::min(lane[2], lane[3]));
}

// The values of the problem are finite (std::invalid_argument naming the first entry that is
// not). One pass without branches per entry first; the named checks only when it fails.
void ValidateValues(const char* where, const QpProblem& p) {
  if (AllFinite(p.Q.value_data(), p.Q.nonZeros()) && AllFinite(p.c.data(), p.c.size()) &&
      AllFinite(p.G.value_data(), p.G.nonZeros()) && AllFinite(p.h.data(), p.h.size()) &&
      AllFinite(p.A.value_data(), p.A.nonZeros()) && AllFinite(p.b.data(), p.b.size()))
    return;
  CheckProblemValuesFinite(where, p);
}

void ValidateProblem(const char* where, const QpProblem& p) {
  const int n = p.Q.rows();
  CheckShape(where, "Q", p.Q, n, n);
  CheckSize(where, "c", p.c.size(), n, "n");
  if (p.G.rows() > 0) CheckShape(where, "G", p.G, p.G.rows(), n);
  CheckSize(where, "h", p.h.size(), p.G.rows(), "rows of G");
  if (p.A.rows() > 0) CheckShape(where, "A", p.A, p.A.rows(), n);
  CheckSize(where, "b", p.b.size(), p.A.rows(), "rows of A");
  ValidateValues(where, p);
}

}  // namespace

void ValidateQpSettings(const QpSettings& s) {
  constexpr const char* kWhere = "QpSettings";
  CheckInteriorPointSettings(kWhere, s);
  CheckPositive(kWhere, "warm_start_min_value", s.warm_start_min_value);
  CheckPositive(kWhere, "equality_regularization", s.equality_regularization);
  ValidatePolishSettings(kWhere, s.polish);
}

void QpSolver::Setup(const QpProblem& problem, const QpSettings& settings) {
  ValidateQpSettings(settings);
  ValidateProblem("QpSolver::Setup", problem);
  settings_ = settings;
  const int n = problem.Q.rows();
  const int m = problem.G.rows();
  const int p = problem.A.rows();
  // The vectors of a new size through the pool (sized_storage_pool.h): a row count met before
  // allocates nothing; the copies below then keep their storage.
  storage_.Resize(&problem_.c, n);
  storage_.Resize(&problem_.h, m);
  storage_.Resize(&problem_.b, p);
  problem_ = problem;
  if (m == 0) problem_.G.Reset(n);
  if (p == 0) problem_.A.Reset(n);
  equalities_ = p > 0;
  const double density = static_cast<double>(problem.G.nonZeros() + problem.Q.nonZeros()) /
                         std::max<double>(1.0, static_cast<double>(m) * n + double(n) * n);
  sparse_ =
      equalities_ || (n >= settings.sparse_min_variables && density <= settings.sparse_max_density);
  small_ = !sparse_ && n <= kSmallDenseSize && m <= kSmallDenseSize;
  dense_by_rows_ = false;
  if (!sparse_ && !small_) {
    double row_work = 0.0;  // Σ_i k_i² / 2 (dense_by_rows_ in qp.h)
    for (int i = 0; i < m; ++i) {
      const double k = problem.G.row_start(i + 1) - problem.G.row_start(i);
      row_work += 0.5 * k * k;
    }
    dense_by_rows_ = kDenseKernelSpeedup * row_work < static_cast<double>(m) * n * n;
  }
  for (VectorXd* v :
       {&correction_, &residual_, &Qx_, &Gtz_, &r_d_, &rhs_, &dx_, &Aty_, &scratch_n_, &result_.x})
    storage_.Resize(v, n);
  for (VectorXd* v : {&weights_, &product_m_, &Gx_, &r_p_, &ds_, &dz_, &rc_, &scratch_, &Gdx_,
                      &result_.s, &result_.z})
    storage_.Resize(v, m);
  for (VectorXd* v : {&r_e_, &minus_r_e_, &Ax_, &dy_, &result_.y}) storage_.Resize(v, p);
  for (VectorXd* v : {&augmented_rhs_, &augmented_out_, &augmented_correction_,
                      &augmented_residual_, &augmented_product_})
    storage_.Resize(v, n + p);
  if (sparse_) {
    // No dense copy of G or Q here: its memory would grow with the square of the scene.
    const bool same_pattern = pattern_ready_ && problem_.G.SamePattern(pattern_G_) &&
                              problem_.Q.SamePattern(pattern_Q_) &&
                              problem_.A.SamePattern(pattern_A_);
    if (!same_pattern) BuildSparsePattern();
    CopySparseValues();
  } else {
    storage_.Resize(&dense_G_, m, n);
    storage_.Resize(&scaled_G_, m, n);
    problem_.G.ToDense(&dense_G_);
    problem_.Q.ToDense(&dense_Q_);
    reduced_.resize(n, n);
    small_factor_.Resize(small_ ? n : 0);
  }
  if (LendsNormalSystem()) {
    polish_.SetupLent(n, m);
  } else {
    polish_.Setup(problem_.Q, problem_.G,
                  SparsePathRule{settings.sparse_min_variables, settings.sparse_max_density});
  }
  // A fresh result, its vectors sized above (their storage kept).
  result_.status = SolverStatus::kNotRun;
  result_.message.clear();
  result_.objective = 0.0;
  result_.info = QpInfo();
  ready_ = true;
}

bool QpSolver::SamePattern(const QpProblem& p) const {
  const SparseRowMatrix& G = problem_.G;
  const bool same_G = p.G.rows() == 0 ? G.rows() == 0 : p.G.SamePattern(G);
  const bool same_A = p.A.rows() == 0 ? problem_.A.rows() == 0 : p.A.SamePattern(problem_.A);
  return ready_ && same_G && same_A && p.Q.SamePattern(problem_.Q) &&
         p.c.size() == problem_.c.size() && p.h.size() == problem_.h.size() &&
         p.b.size() == problem_.b.size();
}

void QpSolver::UpdateValues(const QpProblem& problem) {
  QUASIDYN_CHECK_ARGUMENT(SamePattern(problem), "QpSolver::UpdateValues",
                          "the problem has other sizes or sparsity patterns than at Setup; call "
                          "Setup");
  TakeValues(problem);
}

bool QpSolver::UpdateValuesIfSamePattern(const QpProblem& problem) {
  if (!SamePattern(problem)) return false;
  TakeValues(problem);
  return true;
}

void QpSolver::TakeValues(const QpProblem& problem) {
  ValidateValues("QpSolver::UpdateValues", problem);  // the shapes are Setup's (SamePattern)
  problem_.Q = problem.Q;                             // same sizes: storage reused
  problem_.c = problem.c;
  if (problem.G.rows() > 0) problem_.G = problem.G;
  problem_.h = problem.h;
  if (problem.A.rows() > 0) problem_.A = problem.A;
  problem_.b = problem.b;
  if (sparse_) {
    CopySparseValues();
  } else {
    problem_.G.ToDense(&dense_G_);
    problem_.Q.ToDense(&dense_Q_);
  }
  polish_.UpdateValues(problem_.Q, problem_.G);
}

void QpSolver::UpdateSettings(const QpSettings& settings) {
  ValidateQpSettings(settings);
  QUASIDYN_CHECK_ARGUMENT(settings.sparse_min_variables == settings_.sparse_min_variables &&
                              settings.sparse_max_density == settings_.sparse_max_density,
                          "QpSolver::UpdateSettings",
                          "the sparse-path rule can change only through Setup");
  settings_ = settings;
}

// The pattern of Q + Gᵀ diag(w) G (lower triangle), where each stored value of Q and each
// product G_ij G_ik lands in it, and its symbolic factorisation. Kept while G and Q keep
// their sparsity patterns (e.g. consecutive steps with the same contacts). When G's pattern
// changes but N's does not (the contacts change, the pairs of bodies they couple do not: N's
// pattern is Q's and, per row, the pairs of its columns), only G's rows are indexed again into
// the kept pattern (IndexEntries); the matrix N, the positions and the analysis stay. When the
// groups keep their columns too (a contact added to or gone from a pair of bodies in contact
// changes only a group's row count; Q's pattern changes with an exact zero of its inertia), the
// groups' places in N are kept and only Q's entries are looked up again.
void QpSolver::BuildSparsePattern() {
  const SparseRowMatrix& G = problem_.G;
  const SparseRowMatrix& Q = problem_.Q;
  const SparseRowMatrix& A = problem_.A;
  const int n = Q.rows();
  const int p = A.rows();
  BuildGroups();
  // Q's pattern may change too (its exact zeros are not stored: a body's world-frame inertia
  // when it is axis-aligned) while N's does not; Q's entries are indexed again as G's rows are.
  const bool may_keep =
      pattern_ready_ && p == 0 && pattern_A_.rows() == 0 && sparse_reduced_.rows() == n;
  if (may_keep && IndexEntries()) {
    pattern_G_ = G;
    pattern_Q_ = Q;
    return;
  }
  indexed_column_start_.clear();  // a new N: every group is indexed into it
  std::vector<Eigen::Triplet<double>>& pattern = triplets_;
  pattern.clear();
  for (int j = 0; j < n + p; ++j) pattern.emplace_back(j, j, 0.0);
  for (int i = 0; i < p; ++i) {
    for (int e = A.row_start(i); e < A.row_start(i + 1); ++e)
      pattern.emplace_back(n + i, A.column(e), 0.0);
  }
  for (int r = 0; r < n; ++r) {
    for (int e = Q.row_start(r); e < Q.row_start(r + 1); ++e) {
      if (Q.column(e) <= r) pattern.emplace_back(r, Q.column(e), 0.0);
    }
  }
  for (size_t g = 0; g + 1 < group_row_.size(); ++g) {
    const int i = group_row_[g];  // the group's columns are row i's
    for (int a = G.row_start(i); a < G.row_start(i + 1); ++a) {
      for (int b = G.row_start(i); b < G.row_start(i + 1); ++b) {
        if (G.column(a) < G.column(b)) continue;
        pattern.emplace_back(G.column(a), G.column(b), 0.0);
      }
    }
  }
  sparse_reduced_.resize(n + p, n + p);
  sparse_reduced_.setFromTriplets(pattern.begin(), pattern.end());
  sparse_reduced_.makeCompressed();
  positions_.Index(sparse_reduced_);
  const SparsePositions& position = positions_;
  diagonal_index_.resize(n);
  for (int j = 0; j < n; ++j) diagonal_index_[j] = position(j, j);
  // MultiplyReducedWithoutRegularization reads each column's diagonal as its first entry.
  for (int j = 0; j < n + p; ++j) {
    if (sparse_reduced_.innerIndexPtr()[sparse_reduced_.outerIndexPtr()[j]] != j)
      throw std::logic_error("QpSolver: column " + std::to_string(j) +
                             " of the reduced matrix does not start at its diagonal");
  }
  a_value_index_.clear();
  equality_diagonal_index_.clear();
  IndexEntries();  // every entry is in the pattern just built
  a_value_index_.clear();
  equality_diagonal_index_.clear();
  for (int i = 0; i < p; ++i) {
    for (int e = A.row_start(i); e < A.row_start(i + 1); ++e)
      a_value_index_.push_back(position(n + i, A.column(e)));
    equality_diagonal_index_.push_back(position(n + i, n + i));
  }
  sparse_factor_.Analyze(sparse_reduced_);
  pattern_G_ = G;
  pattern_Q_ = Q;
  pattern_A_ = A;
  pattern_ready_ = true;
}

// G's rows in groups of consecutive rows with the same columns.
void QpSolver::BuildGroups() {
  const SparseRowMatrix& G = problem_.G;
  group_row_.assign(1, 0);
  for (int i = 1; i <= G.rows(); ++i) {
    const int first = group_row_.back();
    const bool same =
        i < G.rows() &&
        G.row_start(i + 1) - G.row_start(i) == G.row_start(first + 1) - G.row_start(first) &&
        std::equal(&G.column_data()[G.row_start(i)], &G.column_data()[G.row_start(i + 1)],
                   &G.column_data()[G.row_start(first)]);
    if (!same) group_row_.push_back(i);
  }
  int widest = 0;
  for (size_t g = 0; g + 1 < group_row_.size(); ++g)
    widest = std::max(widest, G.row_start(group_row_[g] + 1) - G.row_start(group_row_[g]));
  group_values_.resize(widest);
}

bool QpSolver::SameGroupColumnsAsIndexed() const {
  const SparseRowMatrix& G = problem_.G;
  if (group_row_.size() != indexed_column_start_.size()) return false;
  for (size_t g = 0; g + 1 < group_row_.size(); ++g) {
    const int* columns = G.column_data() + G.row_start(group_row_[g]);
    const int width = G.row_start(group_row_[g] + 1) - G.row_start(group_row_[g]);
    if (width != indexed_column_start_[g + 1] - indexed_column_start_[g] ||
        !std::equal(columns, columns + width, indexed_columns_.data() + indexed_column_start_[g]))
      return false;
  }
  return true;
}

// Where Q's entries on or below the diagonal and each group's column pairs land in
// sparse_reduced_ (positions_ indexes it, diagonal_index_ is set), the pairs' entries' offsets
// within a row and the storage of the products. False when the diagonal, Q's entries and the
// groups' pairs are not exactly N's stored entries (one missing, or one stored that none
// reaches): N's pattern has changed.
bool QpSolver::IndexEntries() {
  const SparseRowMatrix& G = problem_.G;
  const SparseRowMatrix& Q = problem_.Q;
  const SparsePositions& position = positions_;
  const int entries = static_cast<int>(sparse_reduced_.nonZeros());
  // Each stored entry of N is counted once, when first reached, marked in N's values (scratch
  // until the next assembly, which starts by clearing them).
  double* reached_mark = sparse_reduced_.valuePtr();
  std::fill(reached_mark, reached_mark + entries, 0.0);
  int reached = 0;
  const auto reach = [&](int e) {
    if (reached_mark[e] != 0.0) return;
    reached_mark[e] = 1.0;
    ++reached;
  };
  for (const int e : diagonal_index_) reach(e);
  const bool groups_indexed = SameGroupColumnsAsIndexed();
  indexed_column_start_.clear();  // recorded again below once every index is in place
  q_entry_.clear();
  q_value_index_.clear();
  for (int r = 0; r < Q.rows(); ++r) {
    for (int k = Q.row_start(r); k < Q.row_start(r + 1); ++k) {
      if (Q.column(k) > r) continue;
      const int e = position.Find(r, Q.column(k));
      if (e < 0) return false;
      reach(e);
      q_entry_.push_back(k);
      q_value_index_.push_back(e);
    }
  }
  size_t gram_values = 0;
  if (groups_indexed) {  // the pairs and their places as they are; the products' storage sized
    for (const int e : gram_value_index_) reach(e);
    for (size_t g = 0; g + 1 < group_row_.size(); ++g)
      gram_values += static_cast<size_t>(group_pair_[g + 1] - group_pair_[g]) *
                     static_cast<size_t>(group_row_[g + 1] - group_row_[g]);
    gram_value_.resize(gram_values);
    return RecordIndexedGroups(reached);
  }
  gram_value_index_.clear();
  pair_entry_.clear();
  group_pair_.assign(1, 0);
  int most_pairs = 0;
  for (size_t g = 0; g + 1 < group_row_.size(); ++g) {
    const int i = group_row_[g];
    for (int a = G.row_start(i); a < G.row_start(i + 1); ++a) {
      for (int b = G.row_start(i); b < G.row_start(i + 1); ++b) {
        if (G.column(a) < G.column(b)) continue;
        const int e = position.Find(G.column(a), G.column(b));
        if (e < 0) return false;
        reach(e);
        gram_value_index_.push_back(e);
        pair_entry_.push_back(a - G.row_start(i));
        pair_entry_.push_back(b - G.row_start(i));
      }
    }
    group_pair_.push_back(static_cast<int>(gram_value_index_.size()));
    const int pairs = group_pair_[g + 1] - group_pair_[g];
    gram_values += static_cast<size_t>(pairs) * static_cast<size_t>(group_row_[g + 1] - i);
    most_pairs = std::max(most_pairs, pairs);
  }
  gram_value_.resize(gram_values);
  group_sum_.resize(most_pairs);
  return RecordIndexedGroups(reached);
}

// IndexEntries' end: false when the entries reached are not all of N's; otherwise the groups'
// columns are recorded for SameGroupColumnsAsIndexed.
bool QpSolver::RecordIndexedGroups(int reached) {
  const SparseRowMatrix& G = problem_.G;
  if (reached + static_cast<int>(a_value_index_.size() + equality_diagonal_index_.size()) !=
      static_cast<int>(sparse_reduced_.nonZeros()))
    return false;
  indexed_columns_.clear();
  indexed_column_start_.assign(1, 0);
  for (size_t g = 0; g + 1 < group_row_.size(); ++g) {
    indexed_columns_.insert(indexed_columns_.end(), G.column_data() + G.row_start(group_row_[g]),
                            G.column_data() + G.row_start(group_row_[g] + 1));
    indexed_column_start_.push_back(static_cast<int>(indexed_columns_.size()));
  }
  return true;
}

void QpSolver::CopySparseValues() {
  const SparseRowMatrix& G = problem_.G;
  double* out = gram_value_.data();
  for (size_t g = 0; g + 1 < group_row_.size(); ++g) {
    // Row by row, the pairs in order within a row (rows of a group store their columns alike).
    const int* entry = pair_entry_.data() + 2 * group_pair_[g];
    const int pairs = group_pair_[g + 1] - group_pair_[g];
    for (int r = group_row_[g]; r < group_row_[g + 1]; ++r) {
      const double* v = G.value_data() + G.row_start(r);
      for (int k = 0; k < pairs; ++k) *out++ = v[entry[2 * k]] * v[entry[2 * k + 1]];
    }
  }
}

// Factorises Q + Gᵀ diag(weights_) G + δI (Nocedal & Wright, eq. (16.62) after eliminating
// the slack and multiplier steps).
bool QpSolver::FactorReduced() {
  const double delta = settings_.kkt_regularization;
  if (small_) {
    AssembleSmall(weights_.data(), delta);
    return small_factor_.Factor(reduced_);
  }
  if (!sparse_) {
    if (dense_by_rows_) {
      AssembleDenseByRows(weights_.data(), delta);
    } else {
      scaled_G_.noalias() = weights_.asDiagonal() * dense_G_;
      reduced_ = dense_Q_;
      reduced_.noalias() += dense_G_.transpose() * scaled_G_;
      reduced_.diagonal().array() += delta;
    }
    dense_factor_.compute(reduced_);  // reads the lower triangle only
    return dense_factor_.info() == Eigen::Success;
  }
  AssembleSparse(weights_.data(), delta);
  if (!equalities_) return sparse_factor_.Factorize(sparse_reduced_);
  // Quasi-definite: pivots of signs (+, −). Late iterations make z/s span many orders of
  // magnitude and rounding can flip a tiny pivot's sign; such pivots are replaced (dynamic
  // regularisation, preordered_ldlt.h, with the thresholds of Clarabel's defaults: 1e-13 and
  // 2e-7) and SolveAugmented refines against the true matrix.
  return sparse_factor_.FactorizeQuasiDefinite(sparse_reduced_, static_cast<int>(problem_.Q.rows()),
                                               1e-13, 2e-7) >= 0;
}

void QpSolver::AssembleSmall(const double* weights, double regularization) {
  // The lower triangle only (the factorisation reads no more), in plain loops
  // (small_dense_products.h).
  SmallWeightedGram(dense_Q_, dense_G_, weights, regularization, &scaled_G_, &reduced_);
}

void QpSolver::AssembleDenseByRows(const double* weights, double regularization) {
  reduced_ = dense_Q_;
  const SparseRowMatrix& G = problem_.G;
  for (int i = 0; i < G.rows(); ++i) {
    const int begin = G.row_start(i), end = G.row_start(i + 1);
    for (int a = begin; a < end; ++a) {
      const int column = G.column(a);
      const double scaled = weights[i] * G.value(a);
      // Each pair once in the lower triangle (both orders when a row repeats a column, which
      // its square then needs).
      for (int b = begin; b < end; ++b)
        if (G.column(b) <= column) reduced_(column, G.column(b)) += scaled * G.value(b);
    }
  }
  reduced_.diagonal().array() += regularization;
}

void QpSolver::AssembleSparse(const double* weights, double regularization) {
  double* values = sparse_reduced_.valuePtr();
  std::fill(values, values + sparse_reduced_.nonZeros(), 0.0);
  for (size_t k = 0; k < q_value_index_.size(); ++k)
    values[q_value_index_[k]] += problem_.Q.value(q_entry_[k]);
  // Each entry of N receives its rows' terms in row order, as a row-by-row sum would; a
  // group's pairs are summed side by side (gram_value_ holds them row by row), which the
  // compiler vectorises.
  const double* gram = gram_value_.data();
  double* sum = group_sum_.data();
  for (size_t g = 0; g + 1 < group_row_.size(); ++g) {
    const int first = group_row_[g], rows = group_row_[g + 1] - first;
    const int* index = gram_value_index_.data() + group_pair_[g];
    const int pairs = group_pair_[g + 1] - group_pair_[g];
    for (int k = 0; k < pairs; ++k) sum[k] = values[index[k]];
    // Four rows per pass over the sums (each entry still adds its terms row after row): the
    // sums are loaded and stored once for four rows.
    int r = 0;
    for (; r + 4 <= rows; r += 4, gram += 4 * pairs) {
      const double w0 = weights[first + r], w1 = weights[first + r + 1],
                   w2 = weights[first + r + 2], w3 = weights[first + r + 3];
      const double *g0 = gram, *g1 = gram + pairs, *g2 = gram + 2 * pairs, *g3 = gram + 3 * pairs;
      for (int k = 0; k < pairs; ++k)
        sum[k] = (((sum[k] + w0 * g0[k]) + w1 * g1[k]) + w2 * g2[k]) + w3 * g3[k];
    }
    for (; r < rows; ++r, gram += pairs) {
      const double w = weights[first + r];
      for (int k = 0; k < pairs; ++k) sum[k] += w * gram[k];
    }
    for (int k = 0; k < pairs; ++k) values[index[k]] = sum[k];
  }
  for (const int index : diagonal_index_) values[index] += regularization;
  if (!equalities_) return;
  for (size_t k = 0; k < a_value_index_.size(); ++k)
    values[a_value_index_[k]] = problem_.A.value(static_cast<int>(k));
  for (const int index : equality_diagonal_index_)
    values[index] = -settings_.equality_regularization;
}

bool QpSolver::LendsNormalSystem() const { return (sparse_ || small_) && !equalities_; }

// The polish's normal matrix (polish_normal_system.h) as the interior point's reduced matrix
// (sparse_reduced_ or, on the small dense path, reduced_): its weights P/δ (one per row of G)
// in place of z/s, its δ_x in place of δ.
class QpSolver::LentNormalSystem final : public PolishNormalSystem {
 public:
  explicit LentNormalSystem(QpSolver* solver) : solver_(*solver) {}
  void Assemble(const Eigen::MatrixXd& weights, double regularization) override {
    // Column 0: one weight per row.
    if (solver_.sparse_) {
      solver_.AssembleSparse(weights.data(), regularization);
    } else {
      solver_.AssembleSmall(weights.data(), regularization);
    }
  }
  bool Factorize() override {
    // A non-finite entry of the lower triangle reaches a pivot, which DenseCholesky refuses.
    if (!solver_.sparse_) return solver_.small_factor_.Factor(solver_.reduced_);
    const Eigen::Map<const VectorXd> values(solver_.sparse_reduced_.valuePtr(),
                                            solver_.sparse_reduced_.nonZeros());
    return values.allFinite() && solver_.sparse_factor_.Factorize(solver_.sparse_reduced_);
  }
  void Solve(const VectorXd& rhs, VectorXd* out) override {
    if (solver_.sparse_) {
      solver_.sparse_factor_.SolveInto(rhs, out);
    } else {
      solver_.small_factor_.Solve(rhs, out);
    }
  }
  void MultiplyA(const VectorXd& x, VectorXd* out) const override { solver_.MultiplyG(x, *out); }
  void MultiplyAt(const VectorXd& y, VectorXd* out) const override { solver_.MultiplyGt(y, *out); }
  void MultiplyQ(const VectorXd& x, VectorXd* out) const override { solver_.MultiplyQ(x, *out); }

 private:
  QpSolver& solver_;
};

// The augmented system of the header (equality rows), then (refine) up to three steps of
// iterative refinement against the matrix without δ and δ_e.
void QpSolver::SolveAugmented(const VectorXd& rhs, const VectorXd& minus_r_e, VectorXd& dx,
                              VectorXd& minus_dy, bool refine) {
  const Eigen::Index n = rhs.size();
  const Eigen::Index p = minus_r_e.size();
  augmented_rhs_.head(n) = rhs;
  augmented_rhs_.tail(p) = minus_r_e;
  sparse_factor_.SolveInto(augmented_rhs_, &augmented_out_);
  // Iterative refinement against [Q + Gᵀ W G, Aᵀ; A, 0] (no δ, δ_e, dynamic pivots), its
  // product from the assembled matrix: up to three steps, while the residual falls by half and
  // is above the rounding of the right-hand side itself (kRefinedEnough of its largest entry:
  // a correction below it changes the solution by rounding only).
  const double enough = kRefinedEnough * InfNorm(augmented_rhs_);
  double last = std::numeric_limits<double>::infinity();
  for (int step = 0; refine && step < 3; ++step) {
    MultiplyReducedWithoutRegularization(augmented_out_, &augmented_product_);
    augmented_residual_ = augmented_rhs_ - augmented_product_;
    const double size = InfNorm(augmented_residual_);
    if (!(size < 0.5 * last) || size <= enough) break;
    last = size;
    sparse_factor_.SolveInto(augmented_residual_, &augmented_correction_);
    augmented_out_ += augmented_correction_;
  }
  dx = augmented_out_.head(n);
  minus_dy = augmented_out_.tail(p);
}

// Solves the reduced system, then (refine) one step of iterative refinement against the matrix
// without the regularisation δI.
void QpSolver::SolveReduced(const VectorXd& rhs, VectorXd& out, bool refine) {
  for (int pass = 0; pass < (refine ? 2 : 1); ++pass) {
    const VectorXd& target = pass == 0 ? rhs : residual_;
    if (sparse_) {
      sparse_factor_.SolveInto(target, &correction_);
    } else if (small_) {
      small_factor_.Solve(target, &correction_);
    } else {
      correction_ = dense_factor_.solve(target);
    }
    if (pass == 0) {
      out = correction_;
      if (!refine) break;
    } else {
      out += correction_;
      break;
    }
    if (sparse_ || small_) {
      MultiplyReducedWithoutRegularization(out, &residual_);
    } else {
      MultiplyG(out, product_m_);
      product_m_.array() *= weights_.array();
      MultiplyQ(out, residual_);
      if (dense_by_rows_) {
        problem_.G.MultiplyTransposeAdd(product_m_, &residual_);
      } else {
        residual_.noalias() += dense_G_.transpose() * product_m_;
      }
    }
    residual_ = rhs - residual_;
  }
}

// The residual of the refinement from the assembled matrix (its lower triangle, each
// off-diagonal entry used for both of its places) rather than from Q and G: on the sparse path N
// has a few hundred entries where G has thousands, on the small dense path n² where G has m n.
// With equality rows the matrix is the augmented one, [N + δI, Aᵀ; A, −δ_e I]: its product
// without δ and δ_e (the equality block's diagonal is then zero).
void QpSolver::MultiplyReducedWithoutRegularization(const VectorXd& x, VectorXd* y) const {
  const int variables = static_cast<int>(problem_.Q.rows());
  const double delta = settings_.kkt_regularization;
  const double equality_delta = -settings_.equality_regularization;
  y->setZero();
  // Column j's entries on and below the diagonal: (row, value) pairs from either storage.
  const auto add_column = [&](int j, const auto& for_each_entry) {
    const double xj = x[j];
    const double diagonal_delta = j < variables ? delta : equality_delta;
    double sum = 0.0;
    for_each_entry([&](int i, double value) {
      if (i == j) {
        sum += (value - diagonal_delta) * xj;
      } else {
        (*y)[i] += value * xj;
        sum += value * x[i];
      }
    });
    (*y)[j] += sum;
  };
  if (sparse_) {
    // Each column's first stored entry is its diagonal (BuildSparsePattern stores every
    // diagonal, rows sorted, lower triangle): taken before the loop, the loop has no test. The
    // sum starts with it, as add_column's does (0 + a = a), so the bits are the same.
    const int* outer = sparse_reduced_.outerIndexPtr();
    const int* inner = sparse_reduced_.innerIndexPtr();
    const double* value = sparse_reduced_.valuePtr();
    double* out = y->data();
    for (int j = 0; j < static_cast<int>(sparse_reduced_.cols()); ++j) {
      const double xj = x[j];
      double sum = (value[outer[j]] - (j < variables ? delta : equality_delta)) * xj;
      for (int e = outer[j] + 1; e < outer[j + 1]; ++e) {
        const int i = inner[e];
        out[i] += value[e] * xj;
        sum += value[e] * x[i];
      }
      out[j] += sum;
    }
    return;
  }
  const int n = static_cast<int>(reduced_.rows());
  for (int j = 0; j < n; ++j) {
    add_column(j, [&](const auto& visit) {
      for (int i = j; i < n; ++i) visit(i, reduced_(i, j));
    });
  }
}

// Products with G and Q on the path chosen at Setup: on the sparse path they touch only the
// non-zeros (a contact row couples at most two bodies).
namespace {

// One group of G's rows (rows [first, end), every one storing `width` values on the same
// columns, from values[start]) times x gathered into x_group; kWidth = width when the compiler
// may unroll by it (a free body's 6 velocities, a pair's 12, planar 3 and 6), 0 otherwise.
template <int kWidth>
void GroupTimes(const double* values, int width, int rows, const double* x_group, double* out) {
  const int w = kWidth > 0 ? kWidth : width;
  for (int r = 0; r < rows; ++r, values += w) {
    double sum = 0.0;
    for (int k = 0; k < w; ++k) sum += values[k] * x_group[k];
    out[r] = sum;
  }
}

// y_group += (the group's rows)ᵀ in, row by row.
template <int kWidth>
void GroupTransposeTimes(const double* values, int width, int rows, const double* in,
                         double* y_group) {
  if constexpr (kWidth > 0) {
    // The sums in a local array: nothing the rows read can alias it, so they stay in registers
    // across the rows (the same additions in the same order).
    double sum[kWidth];
    for (int k = 0; k < kWidth; ++k) sum[k] = y_group[k];
    for (int r = 0; r < rows; ++r, values += kWidth) {
      const double in_r = in[r];
      for (int k = 0; k < kWidth; ++k) sum[k] += values[k] * in_r;
    }
    for (int k = 0; k < kWidth; ++k) y_group[k] = sum[k];
  } else {
    for (int r = 0; r < rows; ++r, values += width) {
      const double in_r = in[r];
      for (int k = 0; k < width; ++k) y_group[k] += values[k] * in_r;
    }
  }
}

// f(std::integral_constant<int, W>) with W = width for the widths unrolled (1 … 16: a contact's
// rows span its two bodies' chains, 6 columns for a free box, 12 for two, 13 or 14 for a box
// and an arm's link), W = 0 (the width read at run time) for the others.
constexpr int kUnrolledWidths = 16;

template <typename F, int W = 1>
void WithUnrolledWidth(int width, const F& f) {
  if constexpr (W > kUnrolledWidths) {
    return f(std::integral_constant<int, 0>());
  } else {
    if (width == W) return f(std::integral_constant<int, W>());
    return WithUnrolledWidth<F, W + 1>(width, f);
  }
}

// f(first, rows, columns, values, width, unrolled) for each group of G's rows with the same
// columns (BuildGroups; group_row: each group's first row, then G's row count): its first row,
// its row count, its columns, its rows' values one row after the other, its width, and the
// width as WithUnrolledWidth passes it.
template <typename F>
void ForEachGroup(const SparseRowMatrix& G, const std::vector<int>& group_row, const F& f) {
  for (size_t g = 0; g + 1 < group_row.size(); ++g) {
    const int first = group_row[g], rows = group_row[g + 1] - first;
    const int start = G.row_start(first), width = G.row_start(first + 1) - start;
    const int* columns = G.column_data() + start;
    const double* values = G.value_data() + start;
    WithUnrolledWidth(width,
                      [&](auto unrolled) { f(first, rows, columns, values, width, unrolled); });
  }
}

}  // namespace

// G x group by group (BuildGroups): the group's entries of x gathered once, then each row's
// dot product over contiguous values, its terms in the order of SparseRowMatrix::Multiply's
// (the same bits).
void QpSolver::MultiplyGByGroups(const VectorXd& in, VectorXd& out) const {
  const SparseRowMatrix& G = problem_.G;
  if (out.size() != G.rows()) out.resize(G.rows());
  double* x = group_values_.data();
  ForEachGroup(
      G, group_row_,
      [&](int first, int rows, const int* columns, const double* values, int width, auto unrolled) {
        for (int k = 0; k < width; ++k) x[k] = in[columns[k]];
        GroupTimes<decltype(unrolled)::value>(values, width, rows, x, out.data() + first);
      });
}

// Gᵀ y group by group: the group's entries of the product so far gathered, each row's terms
// added in row order, then scattered back: each entry receives the terms of
// SparseRowMatrix::MultiplyTranspose in its order (the same bits).
void QpSolver::MultiplyGtByGroups(const VectorXd& in, VectorXd& out) const {
  const SparseRowMatrix& G = problem_.G;
  if (out.size() != G.cols()) out.resize(G.cols());
  out.setZero();
  double* y = group_values_.data();
  ForEachGroup(
      G, group_row_,
      [&](int first, int rows, const int* columns, const double* values, int width, auto unrolled) {
        for (int k = 0; k < width; ++k) y[k] = out[columns[k]];
        GroupTransposeTimes<decltype(unrolled)::value>(values, width, rows, in.data() + first, y);
        for (int k = 0; k < width; ++k) out[columns[k]] = y[k];
      });
}

void QpSolver::MultiplyG(const VectorXd& in, VectorXd& out) const {
  if (sparse_) {
    MultiplyGByGroups(in, out);
  } else if (small_) {
    out.resize(dense_G_.rows());
    SmallMultiply(dense_G_, in, &out);
  } else if (dense_by_rows_) {
    problem_.G.Multiply(in, &out);  // its few entries per row
  } else {
    out.noalias() = dense_G_ * in;
  }
}

void QpSolver::MultiplyGt(const VectorXd& in, VectorXd& out) const {
  if (sparse_) {
    MultiplyGtByGroups(in, out);
  } else if (small_) {
    out.resize(dense_G_.cols());
    SmallMultiplyTransposed(dense_G_, in, &out);
  } else if (dense_by_rows_) {
    problem_.G.MultiplyTranspose(in, &out);
  } else {
    out.noalias() = dense_G_.transpose() * in;
  }
}

void QpSolver::MultiplyQ(const VectorXd& in, VectorXd& out) const {
  // The small dense path too: Q of a step is block diagonal (a planar hand's 7 × 7 has 7 to 11
  // stored entries), and its rows' sums skip only exact zeros.
  if (sparse_ || small_) {
    problem_.Q.Multiply(in, &out);
  } else {
    out.noalias() = dense_Q_ * in;
  }
}

const QpResult& QpSolver::Solve(const QpWarmStart& warm_start) {
  QUASIDYN_CHECK_ARGUMENT(ready_, "QpSolver::Solve", "call Setup first");
  const auto start_time = std::chrono::steady_clock::now();
  const QpProblem& problem = problem_;
  const QpSettings& settings = settings_;
  const Eigen::Index n = problem.Q.rows();
  const Eigen::Index m = problem.G.rows();
  const Eigen::Index p = problem.A.rows();
  QUASIDYN_CHECK_ARGUMENT(warm_start.x.size() == 0 || warm_start.x.size() == n, "QpSolver::Solve",
                          "warm start x must be empty or have size n");
  QUASIDYN_CHECK_ARGUMENT(warm_start.z.size() == 0 || warm_start.z.size() == m, "QpSolver::Solve",
                          "warm start z must be empty or have size m");
  QUASIDYN_CHECK_ARGUMENT(warm_start.y.size() == 0 || warm_start.y.size() == p, "QpSolver::Solve",
                          "warm start y must be empty or have size p");
  QpResult& result = result_;
  result.status = SolverStatus::kNotRun;
  result.message.clear();
  result.info = QpInfo();
  result.info.used_sparse_path = sparse_;
  VectorXd& x = result.x;
  VectorXd& s = result.s;
  VectorXd& z = result.z;
  VectorXd& y = result.y;
  VectorXd &r_e = r_e_, &Ax = Ax_, &Aty = Aty_, &minus_dy = dy_;
  VectorXd &Qx = Qx_, &Gtz = Gtz_, &r_d = r_d_, &rhs = rhs_, &dx = dx_;
  VectorXd &Gx = Gx_, &r_p = r_p_, &ds = ds_, &dz = dz_, &rc = rc_, &scratch = scratch_;

  // Starting point. Cold: x0 = argmin ½xᵀQx + cᵀx + ½‖Gx − h‖² (a least-squares guess in the
  // spirit of Nocedal & Wright §16.6 "starting point"), s = max(|Gx0 − h|, 1), z = 1/s
  // (settings.balanced_start) or 1.
  const bool warm = warm_start.x.size() == n && n > 0;
  if (warm) {
    x = warm_start.x;
  } else if (n == 0) {
    x.setZero();
  } else {
    weights_.setOnes();
    if (FactorReduced()) {
      MultiplyGt(problem.h, rhs);
      rhs -= problem.c;
      if (equalities_) {
        SolveAugmented(rhs, problem.b, x, minus_dy);
      } else {
        SolveReduced(rhs, x);
      }
    } else {
      x.setZero();
    }
    if (!x.allFinite()) x.setZero();
  }
  if (warm && warm_start.y.size() == p) {
    y = warm_start.y;
  } else {
    y.setZero();
  }
  MultiplyG(x, Gx);
  if (warm) {
    double slack_floor = settings.warm_start_min_value;
    if (settings.scaled_warm_start_slack) {
      const double scale = std::max(InfNorm(Gx), InfNorm(problem.h));
      slack_floor =
          std::min(settings.warm_start_min_value,
                   std::max(settings.warm_start_min_value * scale, settings.absolute_tolerance));
    }
    s = (Gx - problem.h).cwiseMax(slack_floor);
    if (warm_start.z.size() == m) {
      z = warm_start.z.cwiseMax(settings.warm_start_min_value);
    } else {
      z.setOnes();
    }
  } else {
    s = (Gx - problem.h).cwiseAbs().cwiseMax(1.0);
    if (settings.balanced_start) {
      z = s.cwiseInverse();
    } else {
      z.setOnes();
    }
  }

  // Newton direction for right-hand side rc of the complementarity row Z Δs + S Δz = rc:
  //   (Q + Gᵀ Z S⁻¹ G) Δx = −r_d + Gᵀ S⁻¹ (rc − Z r_p),  Δs = G Δx + r_p,  Δz = S⁻¹(rc − Z Δs).
  const auto direction = [&](bool refine) {
    scratch = (rc.array() - z.array() * r_p.array()) / s.array();
    MultiplyGt(scratch, rhs);
    rhs -= r_d;
    if (equalities_) {
      minus_r_e_ = -r_e;
      SolveAugmented(rhs, minus_r_e_, dx, minus_dy, refine);
    } else {
      SolveReduced(rhs, dx, refine);
    }
    MultiplyG(dx, ds);
    if (refine) Gdx_ = ds;  // the corrector's G Δx: the next iterate's G x without a product
    ds += r_p;
    dz = (rc.array() - z.array() * ds.array()) / s.array();
  };

  const auto scaled_tolerance = [&](double factor, double scale) {
    return factor * (settings.absolute_tolerance + settings.relative_tolerance * scale);
  };
  double primal_scale = 0, dual_scale = 0, gap_scale = 0, gap = 0;
  // primal_residual = max(‖r_p‖∞, ‖r_e‖∞), dual_residual = ‖r_d‖∞.
  const auto converged = [&](double factor, double primal_residual, double dual_residual) {
    return primal_residual <= scaled_tolerance(factor, primal_scale) &&
           dual_residual <= scaled_tolerance(factor, dual_scale) &&
           gap <= scaled_tolerance(factor, gap_scale);
  };

  SolverStatus status = SolverStatus::kMaxIterations;
  int iteration = 0;
  for (;; ++iteration) {
    MultiplyQ(x, Qx);
    // G x is carried along (G x₀ before the loop, then G x += α G Δx with the corrector's G Δx):
    // one product with G fewer per iteration; the carried value differs from a fresh product
    // by rounding only (a few ulps per iteration, far below the stopping tolerances).
    MultiplyGt(z, Gtz);
    EqualityTerms equality;
    if (equalities_) {
      problem.A.Multiply(x, &Ax);
      problem.A.MultiplyTranspose(y, &Aty);
      equality = {p, Ax.data(), problem.b.data(), y.data(), Aty.data(), r_e.data()};
    }
    const IterationNorms norm =
        ResidualsAndNorms(m, n, Gx.data(), s.data(), problem.h.data(), z.data(), Qx.data(),
                          problem.c.data(), Gtz.data(), x.data(), r_p.data(), r_d.data(), equality);
    const double primal_residual = std::max(norm.r_p, norm.r_e);
    const double dual_residual = norm.r_d;
    const double Gtz_norm = norm.Gtz;
    primal_scale = std::max({norm.Gx, norm.s, norm.h, norm.Ax, norm.b});
    dual_scale = std::max({norm.Qx, norm.c, norm.Gtz, norm.Aty});
    const bool iterate_finite = norm.iterate_finite;
    gap = s.dot(z);
    result.objective = 0.5 * x.dot(Qx) + problem.c.dot(x);
    gap_scale = std::max(1.0, std::abs(result.objective));
    if (!iterate_finite) {
      status = SolverStatus::kNumericalFailure;
      result.message = "non-finite iterate";
      break;
    }
    if (converged(1.0, primal_residual, dual_residual)) {
      status = SolverStatus::kSolved;
      break;
    }
    if (!equalities_) {
      const double hz = problem.h.dot(z);
      if (m > 0 && hz > 0 && Gtz_norm <= settings.infeasibility_tolerance * hz) {
        status = SolverStatus::kInfeasible;
        break;
      }
    } else {
      // Gᵀz + Aᵀy only when the certificate's sign lets it decide.
      const double certificate = problem.h.dot(z) + problem.b.dot(y);
      if (certificate > 0) {
        scratch_n_ = Gtz + Aty;
        if (InfNorm(scratch_n_) <= settings.infeasibility_tolerance * certificate) {
          status = SolverStatus::kInfeasible;
          break;
        }
      }
    }
    if (iteration >= settings.max_iterations) break;

    weights_ = z.cwiseQuotient(s);
    if (!FactorReduced()) {
      // Rows whose slack has reached rounding while the dual residual has not converged give
      // weights z/s of 1e17 and more against Q's eigenvalues of 1e-4: N's condition exceeds
      // 1/ε and rounding makes a pivot negative (qsim's Allegro hand, two fingers touching:
      // the gap at 1e-12, ‖r_d‖ at 2e-8, stalled by the directions' rounding). Such an iterate
      // already meets the looser test of kSolvedInaccurate; it stops there and the polish
      // solves its active set's KKT system exactly (qp_polish.h), which upgrades the status
      // when its answer meets the tolerances. Capping the weights instead was tried: it ruins
      // the multipliers' step (‖r_d‖ 2e-8 → 65).
      if (converged(settings.inaccurate_factor, primal_residual, dual_residual)) {
        status = SolverStatus::kSolvedInaccurate;
        break;
      }
      status = SolverStatus::kNumericalFailure;
      result.message =
          "Cholesky factorisation of Q + Gᵀ diag(z/s) G failed (Q not PSD, or "
          "directions unbounded by the constraints)";
      break;
    }
    // Mehrotra predictor (affine-scaling) step: rc = −S Z 1.
    rc = -s.cwiseProduct(z);
    direction(false);
    const double mu = m > 0 ? gap / static_cast<double>(m) : 0.0;
    double alpha = std::min({1.0, MaxStepToBoundary(s, ds), MaxStepToBoundary(z, dz)});
    const double mu_affine =
        m > 0 ? (s + alpha * ds).dot(z + alpha * dz) / static_cast<double>(m) : 0.0;
    const double ratio = mu > 0 ? mu_affine / mu : 0.0;
    const double sigma = ratio * ratio * ratio;
    // Corrector: rc = −S Z 1 + σμ1 − ΔS_aff ΔZ_aff 1 (Nocedal & Wright, eq. (16.67)).
    rc.array() += sigma * mu - ds.array() * dz.array();  // ds, dz: the affine step's
    direction(true);
    alpha = std::min(1.0, settings.step_to_boundary *
                              std::min(MaxStepToBoundary(s, ds), MaxStepToBoundary(z, dz)));
    if (!(alpha > 1e-14)) {
      status = SolverStatus::kMaxIterations;
      result.message = "step length vanished";
      break;
    }
    x += alpha * dx;
    Gx += alpha * Gdx_;
    s += alpha * ds;
    z += alpha * dz;
    if (equalities_) y -= alpha * minus_dy;
  }

  result.info.iterations = iteration;
  result.info.primal_residual = std::max(InfNorm(r_p), InfNorm(r_e));
  result.info.dual_residual = InfNorm(r_d);
  result.info.complementarity_gap = gap;
  if (status == SolverStatus::kMaxIterations &&
      converged(settings.inaccurate_factor, result.info.primal_residual,
                result.info.dual_residual)) {
    status = SolverStatus::kSolvedInaccurate;
  }
  // A solve that stalls or fails while the multipliers diverge is usually infeasible with a
  // small margin, where hᵀz + bᵀy grows slower than z: the certificate scaled by the
  // multipliers' size (OSQP's test, Stellato et al. 2020 §3.4), ‖Gᵀz + Aᵀy‖∞ <= ε w and
  // hᵀz + bᵀy >= ε w with w = ‖(z, y)‖∞ and ε = infeasibility_tolerance, decides it.
  if ((status == SolverStatus::kMaxIterations || status == SolverStatus::kNumericalFailure) &&
      z.allFinite() && y.allFinite() && m + p > 0) {
    const double w = std::max(InfNorm(z), InfNorm(y));
    scratch_n_ = Gtz;
    if (equalities_) scratch_n_ += Aty;
    const double certificate = problem.h.dot(z) + (equalities_ ? problem.b.dot(y) : 0.0);
    const double epsilon = settings.infeasibility_tolerance;
    if (w > 0 && InfNorm(scratch_n_) <= epsilon * w && certificate >= epsilon * w) {
      status = SolverStatus::kInfeasible;
      result.message.clear();
    }
  }
  if (status != SolverStatus::kSolved && m > 0 && result.message.empty()) {
    Eigen::Index row = 0;
    const double violation = (problem.h - Gx).maxCoeff(&row);
    std::ostringstream message;
    if (status == SolverStatus::kInfeasible && equalities_) {
      message << "constraints G x >= h, A x = b are infeasible (Farkas certificate hᵀz + bᵀy = "
              << problem.h.dot(z) + problem.b.dot(y)
              << " > 0 with Gᵀz + Aᵀy ≈ 0); most violated: row " << row << " of G";
    } else if (status == SolverStatus::kInfeasible) {
      message << "constraints G x >= h are infeasible (Farkas certificate hᵀz = "
              << problem.h.dot(z) << " > 0 with Gᵀz ≈ 0); most violated: row " << row;
    } else {
      message << ToString(status) << " after " << iteration
              << " iterations; largest violation h - Gx at row " << row;
    }
    message << " (h - Gx = " << violation << ")";
    if (equalities_) message << "; ‖Ax − b‖∞ = " << InfNorm(r_e);
    result.message = message.str();
  } else if (status != SolverStatus::kSolved && equalities_ && result.message.empty()) {
    std::ostringstream message;
    if (status == SolverStatus::kInfeasible) {
      message << "equality rows A x = b are inconsistent (Farkas certificate bᵀy = "
              << problem.b.dot(y) << " > 0 with Aᵀy ≈ 0)";
    } else {
      message << ToString(status) << " after " << iteration
              << " iterations; ‖Ax − b‖∞ = " << InfNorm(r_e);
    }
    result.message = message.str();
  }
  result.status = status;
  if (Succeeded(status) && !equalities_) {
    LentNormalSystem lent(this);
    // The loop ends having formed r_d = Q x + c − Gᵀz at the returned (x, z) with the products
    // the lent system makes (MultiplyQ, MultiplyGt): the polish's residual of the interior
    // point's answer needs no products of its own with Q and Gᵀ.
    const bool lends = LendsNormalSystem();
    polish_.Polish(problem, settings.polish, &result, lends ? &lent : nullptr,
                   lends ? &r_d : nullptr);
    // An inaccurate stop whose polished answer meets the tolerances (its KKT residual, feasibility
    // and complementarity included, within the tightest of the three tests) is solved.
    const PolishInfo& polish = result.info.polish;
    if (status == SolverStatus::kSolvedInaccurate && polish.succeeded &&
        polish.residual_after <=
            scaled_tolerance(1.0, std::min({primal_scale, dual_scale, gap_scale}))) {
      result.status = SolverStatus::kSolved;
      result.message.clear();
    }
  }
  result.info.solve_time_seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start_time).count();
  return result;
}

QpResult Solve(const QpProblem& problem, const QpSettings& settings,
               const QpWarmStart& warm_start) {
  QpSolver solver;
  solver.Setup(problem, settings);
  return solver.Solve(warm_start);
}

}  // namespace quasidyn
