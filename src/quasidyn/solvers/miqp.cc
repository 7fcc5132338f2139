#include "quasidyn/solvers/miqp.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <ctime>
#include <memory>
#include <sstream>

#include "quasidyn/common/argument_check.h"

namespace quasidyn {
namespace {

using Eigen::VectorXd;

double Now() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

// CPU time of the calling thread [s] (POSIX).
double ThreadCpuNow() {
  timespec t{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) + 1e-9 * static_cast<double>(t.tv_nsec);
}

constexpr double kMiqpInfinity = std::numeric_limits<double>::infinity();
constexpr double kPseudoCostFloor = 1e-6;  // ε of the product score (header)

// Q with an explicit (possibly zero) diagonal entry in every row, so that a fixed variable's
// ½x_j² term has a place in the pattern.
SparseRowMatrix WithDiagonal(const SparseRowMatrix& Q) {
  SparseRowMatrix out(Q.cols());
  for (int r = 0; r < Q.rows(); ++r) {
    out.AppendRow();
    bool diagonal_done = false;
    for (int e = Q.row_start(r); e < Q.row_start(r + 1); ++e) {
      const int col = Q.column(e);
      if (!diagonal_done && col >= r) {
        if (col != r) out.Append(r, 0.0);
        diagonal_done = true;
      }
      out.Append(col, Q.value(e));
    }
    if (!diagonal_done) out.Append(r, 0.0);
  }
  return out;
}

void CopyValues(const SparseRowMatrix& from, SparseRowMatrix* to) {
  std::copy(from.value_data(), from.value_data() + from.nonZeros(), to->value_data());
}

}  // namespace

// One node of the tree: the fixings of the binaries, its lower bound (its parent's until it is
// solved), and what its parent's relaxation gave (for the pseudo-costs and the warm start).
struct MiqpSolver::Node {
  std::vector<signed char> fixing;
  double bound = -kMiqpInfinity;
  int depth = 0;
  int branch = -1;                          // the binary fixed last (position), −1 at the root
  int direction = 0;                        // 0 down, 1 up
  double fraction = 0;                      // f⁻ or f⁺ of that binary at the parent
  std::shared_ptr<const QpWarmStart> warm;  // the parent's answer
};

void ValidateMiqpSettings(const MiqpSettings& s) {
  constexpr const char* kWhere = "MiqpSettings";
  CheckNonNegative(kWhere, "absolute_gap_tolerance", s.absolute_gap_tolerance);
  CheckNonNegative(kWhere, "relative_gap_tolerance", s.relative_gap_tolerance);
  QUASIDYN_CHECK_ARGUMENT(s.integrality_tolerance > 0 && s.integrality_tolerance < 0.5, kWhere,
                          "integrality_tolerance must be in (0, 0.5)");
  CheckNonNegative(kWhere, "rounding_tolerance", s.rounding_tolerance);
  QUASIDYN_CHECK_ARGUMENT(s.node_limit > 0, kWhere, "node_limit must be > 0");
  QUASIDYN_CHECK_ARGUMENT(s.time_limit_seconds > 0, kWhere, "time_limit_seconds must be > 0");
  QUASIDYN_CHECK_ARGUMENT(s.rounding_frequency >= 0, kWhere, "rounding_frequency must be >= 0");
  QUASIDYN_CHECK_ARGUMENT(s.strong_branching_candidates >= 0, kWhere,
                          "strong_branching_candidates must be >= 0");
  QUASIDYN_CHECK_ARGUMENT(s.strong_branching_reliability >= 0, kWhere,
                          "strong_branching_reliability must be >= 0");
  QUASIDYN_CHECK_ARGUMENT(s.strong_branching_depth >= 0, kWhere,
                          "strong_branching_depth must be >= 0");
  ValidateQpSettings(s.qp);
}

void MiqpSolver::Setup(const MiqpProblem& problem, const MiqpSettings& settings) {
  constexpr const char* kWhere = "MiqpSolver::Setup";
  ValidateMiqpSettings(settings);
  const int n = problem.continuous.Q.rows();
  for (size_t k = 0; k < problem.binaries.size(); ++k) {
    const int j = problem.binaries[k];
    QUASIDYN_CHECK_ARGUMENT(j >= 0 && j < n, kWhere,
                            "binaries[" + std::to_string(k) + "] = " + std::to_string(j) +
                                " is not a variable index in [0, n = " + std::to_string(n) + ")");
    QUASIDYN_CHECK_ARGUMENT(
        k == 0 || j > problem.binaries[k - 1], kWhere,
        "binaries must be strictly increasing (entry " + std::to_string(k) + ")");
  }
  const int nb = static_cast<int>(problem.binaries.size());
  QUASIDYN_CHECK_ARGUMENT(problem.fixed.empty() || static_cast<int>(problem.fixed.size()) == nb,
                          kWhere,
                          "fixed has size " + std::to_string(problem.fixed.size()) +
                              ", expected 0 or the number of binaries " + std::to_string(nb));
  for (size_t k = 0; k < problem.fixed.size(); ++k) {
    QUASIDYN_CHECK_ARGUMENT(problem.fixed[k] >= -1 && problem.fixed[k] <= 1, kWhere,
                            "fixed[" + std::to_string(k) + "] must be −1 (free), 0 or 1");
  }
  QUASIDYN_CHECK_ARGUMENT(std::isfinite(problem.objective_offset), kWhere,
                          "objective_offset is not finite");
  problem_ = problem;
  settings_ = settings;
  n_ = n;
  binary_of_.assign(n, -1);
  for (int k = 0; k < nb; ++k) binary_of_[problem.binaries[k]] = k;

  // The root QP: the problem's rows, then x_j >= 0 and −x_j >= −1 per binary.
  base_ = QpProblem();
  base_.Q = WithDiagonal(problem.continuous.Q);
  base_.c = problem.continuous.c;
  base_.G = problem.continuous.G.rows() > 0 ? problem.continuous.G : SparseRowMatrix(n);
  base_.h = problem.continuous.h;
  const int m0 = base_.G.rows();
  m_ = m0;
  base_.h.conservativeResize(m0 + 2 * nb);
  bound_row_.resize(nb);
  for (int k = 0; k < nb; ++k) {
    bound_row_[k] = m0 + 2 * k;
    base_.G.AppendRow();
    base_.G.Append(problem.binaries[k], 1.0);
    base_.G.AppendRow();
    base_.G.Append(problem.binaries[k], -1.0);
    base_.h[m0 + 2 * k] = 0.0;
    base_.h[m0 + 2 * k + 1] = -1.0;
  }
  base_.A = problem.continuous.A;
  base_.b = problem.continuous.b;
  node_ = base_;
  qp_.Setup(base_, settings.qp);  // validates the problem data
  BuildColumnLists();
  x_hat_.resize(n);
  rounded_.resize(n);
  gx_.resize(base_.G.rows());
  activity_.resize(base_.G.rows());
  ax_.resize(base_.A.rows());
  for (int d = 0; d < 2; ++d) {
    pseudo_.sum[d].assign(nb, 0.0);
    pseudo_.count[d].assign(nb, 0);
  }
  result_ = MiqpResult();
  ready_ = true;
}

void MiqpSolver::BuildColumnLists() {
  for (auto* lists : {&g_column_, &a_column_, &q_row_, &q_column_}) lists->assign(n_, {});
  q_diagonal_.assign(n_, -1);
  const auto collect = [](const SparseRowMatrix& M, std::vector<std::vector<Entry>>* columns,
                          std::vector<int>* entries) {
    entries->assign(M.rows(), 0);
    for (int r = 0; r < M.rows(); ++r) {
      for (int e = M.row_start(r); e < M.row_start(r + 1); ++e) {
        ++(*entries)[r];
        (*columns)[M.column(e)].push_back({e, r});
      }
    }
  };
  collect(base_.G, &g_column_, &g_entries_);
  collect(base_.A, &a_column_, &a_entries_);
  g_free_.resize(g_entries_.size());
  a_free_.resize(a_entries_.size());
  const SparseRowMatrix& Q = base_.Q;
  for (int r = 0; r < Q.rows(); ++r) {
    for (int e = Q.row_start(r); e < Q.row_start(r + 1); ++e) {
      const int col = Q.column(e);
      if (col == r) {
        q_diagonal_[r] = e;
        continue;
      }
      q_row_[r].push_back({e, col});
      q_column_[col].push_back({e, r});
    }
  }
  value_.resize(n_);
  lower_.resize(n_);
  upper_.resize(n_);
  lower_row_.resize(n_);
  upper_row_.resize(n_);
  equality_row_.resize(n_);
  implied_.reserve(n_);
}

double MiqpSolver::Objective(const VectorXd& x) const {
  // ½xᵀQx + cᵀx with the problem's own Q (base_.Q adds only zero entries).
  double quadratic = 0.0;
  const SparseRowMatrix& Q = base_.Q;
  for (int r = 0; r < Q.rows(); ++r) {
    double row = 0.0;
    for (int e = Q.row_start(r); e < Q.row_start(r + 1); ++e) row += Q.value(e) * x[Q.column(e)];
    quadratic += x[r] * row;
  }
  return 0.5 * quadratic + base_.c.dot(x);
}

void MiqpSolver::Substitute(int j, double v) {
  value_[j] = v;
  for (const Entry& e : q_row_[j]) {
    if (std::isnan(value_[e.other])) node_.c[e.other] += base_.Q.value(e.index) * v;
    node_.Q.value(e.index) = 0.0;
  }
  for (const Entry& e : q_column_[j]) node_.Q.value(e.index) = 0.0;
  node_.Q.value(q_diagonal_[j]) = 1.0;  // ½x_j² − v x_j: x_j = v, decoupled
  node_.c[j] = -v;
  for (const Entry& e : g_column_[j]) {
    node_.h[e.other] -= base_.G.value(e.index) * v;
    node_.G.value(e.index) = 0.0;
    --g_free_[e.other];
  }
  for (const Entry& e : a_column_[j]) {
    node_.b[e.other] -= base_.A.value(e.index) * v;
    node_.A.value(e.index) = 0.0;
    --a_free_[e.other];
  }
}

// The free entry of a row with exactly one (entry index, column), or (−1, −1).
static std::pair<int, int> FreeEntry(const SparseRowMatrix& M, int row, const VectorXd& value) {
  for (int e = M.row_start(row); e < M.row_start(row + 1); ++e) {
    if (std::isnan(value[M.column(e)])) return {e, M.column(e)};
  }
  return {-1, -1};
}

bool MiqpSolver::ApplyFixing(const std::vector<signed char>& fixing) {
  CopyValues(base_.Q, &node_.Q);
  CopyValues(base_.G, &node_.G);
  CopyValues(base_.A, &node_.A);
  node_.c = base_.c;
  node_.h = base_.h;
  node_.b = base_.b;
  std::copy(g_entries_.begin(), g_entries_.end(), g_free_.begin());
  std::copy(a_entries_.begin(), a_entries_.end(), a_free_.begin());
  value_.setConstant(std::numeric_limits<double>::quiet_NaN());
  implied_.clear();
  const int nb = static_cast<int>(fixing.size());
  for (int k = 0; k < nb; ++k) {
    if (fixing[k] >= 0) Substitute(problem_.binaries[k], fixing[k]);
  }
  // Node presolve (header): rows left with one free variable bound it; a variable whose bounds
  // meet is fixed and substituted too, so that the node's QP keeps a strict interior (a big-M
  // pair γ >= 0, γ <= M·0 would otherwise leave it none). Repeated until nothing changes.
  const double tolerance = settings_.qp.absolute_tolerance;
  for (int pass = 0; pass < n_ + 1; ++pass) {
    lower_.setConstant(-kMiqpInfinity);
    upper_.setConstant(kMiqpInfinity);
    for (size_t i = 0; i < g_free_.size(); ++i) {
      if (g_free_[i] != 1) continue;
      const auto [e, j] = FreeEntry(node_.G, static_cast<int>(i), value_);
      const double a = node_.G.value(e);
      if (a == 0.0) continue;
      const double bound = node_.h[i] / a;
      if (a > 0 && bound > lower_[j]) {
        lower_[j] = bound;
        lower_row_[j] = static_cast<int>(i);
      } else if (a < 0 && bound < upper_[j]) {
        upper_[j] = bound;
        upper_row_[j] = static_cast<int>(i);
      }
    }
    const int before = static_cast<int>(implied_.size());
    for (size_t i = 0; i < a_free_.size(); ++i) {
      if (a_free_[i] != 1) continue;
      const auto [e, j] = FreeEntry(node_.A, static_cast<int>(i), value_);
      const double a = node_.A.value(e);
      if (a == 0.0 || !std::isnan(value_[j])) continue;
      const double v = node_.b[i] / a;
      const double scale = std::max(1.0, std::abs(v));
      if (v < lower_[j] - tolerance * scale || v > upper_[j] + tolerance * scale) return false;
      equality_row_[j] = static_cast<int>(i);
      implied_.push_back({j, true});
      Substitute(j, v);
    }
    for (int j = 0; j < n_; ++j) {
      if (!std::isnan(value_[j]) || !std::isfinite(lower_[j]) || !std::isfinite(upper_[j]))
        continue;
      const double scale = std::max({1.0, std::abs(lower_[j]), std::abs(upper_[j])});
      if (lower_[j] > upper_[j] + tolerance * scale) return false;
      if (upper_[j] - lower_[j] > tolerance * scale) continue;
      double v = 0.5 * (lower_[j] + upper_[j]);
      if (binary_of_[j] >= 0) {  // a binary pinned by rows: 0 or 1, else no integer point
        if (std::abs(v - std::round(v)) > tolerance * scale) return false;
        v = std::round(v);
      }
      equality_row_[j] = -1;
      implied_.push_back({j, false});
      Substitute(j, v);
    }
    if (static_cast<int>(implied_.size()) == before) break;
  }
  // Rows left without a free variable are constants: checked here, then made harmless (a
  // slack of 1, a zero equality) so the interior point keeps a strictly positive slack.
  for (size_t i = 0; i < g_free_.size(); ++i) {
    if (g_free_[i] > 0) continue;
    if (node_.h[i] > tolerance * std::max(1.0, std::abs(base_.h[i]))) return false;
    node_.h[i] = -1.0;
  }
  for (size_t i = 0; i < a_free_.size(); ++i) {
    if (a_free_[i] > 0) continue;
    if (std::abs(node_.b[i]) > tolerance * std::max(1.0, std::abs(base_.b[i]))) return false;
    node_.b[i] = 0.0;
  }
  return true;
}

MiqpSolver::Relaxation MiqpSolver::SolveRelaxation(const std::vector<signed char>& fixing,
                                                   const QpWarmStart& warm) {
  Relaxation out;
  if (!ApplyFixing(fixing)) {
    out.status = SolverStatus::kInfeasible;
    return out;
  }
  qp_.UpdateValues(node_);
  const QpResult& r = qp_.Solve(warm);
  result_.info.qp_iterations += r.info.iterations;
  out.status = r.status;
  if (!Succeeded(r.status)) return out;
  x_hat_ = r.x;
  for (int j = 0; j < n_; ++j) {
    if (!std::isnan(value_[j])) x_hat_[j] = value_[j];
  }
  out.objective = Objective(x_hat_);
  node_.G.Multiply(x_hat_, &gx_);
  gx_ -= node_.h;
  out.bound = out.objective - r.z.dot(gx_);
  if (ax_.size() > 0) {
    node_.A.Multiply(x_hat_, &ax_);
    ax_ -= node_.b;
    out.bound -= r.y.dot(ax_);
  }
  return out;
}

bool MiqpSolver::Roundable(int j, const VectorXd& x) const {
  const double tolerance = settings_.rounding_tolerance;
  for (const double v : {0.0, 1.0}) {
    bool keeps_rows = true;
    for (const Entry& e : g_column_[j]) {
      const double h = base_.h[e.other];
      if (activity_[e.other] + base_.G.value(e.index) * (v - x[j]) <
          h - tolerance * std::max(1.0, std::abs(h))) {
        keeps_rows = false;
        break;
      }
    }
    if (keeps_rows) return true;
  }
  return false;
}

int MiqpSolver::ChooseBranch(const std::vector<signed char>& fixing, const VectorXd& x) {
  const int nb = static_cast<int>(fixing.size());
  const double tolerance = settings_.integrality_tolerance;
  double known_mean[2] = {1.0, 1.0};
  if (settings_.branching == BranchingRule::kPseudoCost) {
    for (int d = 0; d < 2; ++d) {
      double sum = 0;
      int count = 0;
      for (int k = 0; k < nb; ++k) {
        if (pseudo_.count[d][k] == 0) continue;
        sum += pseudo_.sum[d][k] / pseudo_.count[d][k];
        ++count;
      }
      if (count > 0) known_mean[d] = sum / count;
    }
  }
  // Candidates: the fractional binaries, those that no rounding can satisfy first (their rows
  // fail at x for both values); a binary that can be rounded alone is rounded by the heuristic
  // rather than branched on, when there is another choice.
  base_.G.Multiply(x, &activity_);
  candidates_.clear();
  int best = -1;
  double best_score = -1, best_fraction = -1;
  bool best_roundable = true;
  for (int k = 0; k < nb; ++k) {
    if (fixing[k] >= 0) continue;
    const int j = problem_.binaries[k];
    const double value = x[j];
    const double down = value, up = 1.0 - value;
    const double fraction = std::min(down, up);
    if (!(fraction > tolerance)) continue;
    const bool roundable = Roundable(j, x);
    if (roundable && !best_roundable) continue;
    double score = fraction;
    if (settings_.branching == BranchingRule::kPseudoCost) {
      double psi[2];
      for (int d = 0; d < 2; ++d) {
        psi[d] = pseudo_.count[d][k] > 0 ? pseudo_.sum[d][k] / pseudo_.count[d][k] : known_mean[d];
      }
      score = std::max(psi[0] * down, kPseudoCostFloor) * std::max(psi[1] * up, kPseudoCostFloor);
    }
    candidates_.push_back({k, score, roundable});
    const bool better = (!roundable && best_roundable) || score > best_score ||
                        (score == best_score && fraction > best_fraction);
    if (better) {
      best = k;
      best_score = score;
      best_fraction = fraction;
      best_roundable = roundable;
    }
  }
  return best;
}

int MiqpSolver::ReliabilityBranch(const std::vector<signed char>& fixing, const VectorXd& x,
                                  double parent_bound, int branch, double child_bound[2]) {
  child_bound[0] = child_bound[1] = -kMiqpInfinity;
  const bool roundable_class = std::all_of(candidates_.begin(), candidates_.end(),
                                           [](const Candidate& c) { return c.roundable; });
  // The candidates of the class ChooseBranch took, best pseudo-cost score first.
  order_.clear();
  for (size_t i = 0; i < candidates_.size(); ++i) {
    if (candidates_[i].roundable == roundable_class)
      order_.emplace_back(-candidates_[i].score, static_cast<int>(i));
  }
  std::sort(order_.begin(), order_.end());
  int best = branch, evaluated = 0;
  double best_score = -1;
  for (const auto& [unused, i] : order_) {
    const Candidate& c = candidates_[i];
    double score = c.score;
    const int k = c.binary;
    const bool reliable = std::min(pseudo_.count[0][k], pseudo_.count[1][k]) >=
                          settings_.strong_branching_reliability;
    if (!reliable && evaluated < settings_.strong_branching_candidates) {
      ++evaluated;
      const double value = x[problem_.binaries[k]];
      double gain[2], bounds[2];
      for (int d = 0; d < 2; ++d) {
        strong_fixing_ = fixing;
        strong_fixing_[k] = static_cast<signed char>(d);
        const Relaxation child = SolveRelaxation(strong_fixing_, QpWarmStart());
        ++result_.info.strong_branching_solves;
        if (child.status == SolverStatus::kInfeasible) {
          bounds[d] = kMiqpInfinity;
        } else if (Succeeded(child.status)) {
          bounds[d] = std::max(parent_bound, child.bound);
          const double fraction = d == 0 ? value : 1.0 - value;
          pseudo_.sum[d][k] += (bounds[d] - parent_bound) / fraction;
          ++pseudo_.count[d][k];
        } else {
          bounds[d] = parent_bound;  // no information
        }
        gain[d] = std::min(bounds[d], PruneThreshold()) - parent_bound;
      }
      const bool pruned[2] = {bounds[0] >= PruneThreshold(), bounds[1] >= PruneThreshold()};
      if (pruned[0] || pruned[1]) {  // a child needs no node: branch here (both: prune)
        child_bound[0] = bounds[0];
        child_bound[1] = bounds[1];
        return k;
      }
      score = std::max(gain[0], kPseudoCostFloor) * std::max(gain[1], kPseudoCostFloor);
      if (score > best_score) {
        best = k;
        best_score = score;
        child_bound[0] = bounds[0];
        child_bound[1] = bounds[1];
      }
      continue;
    }
    if (score > best_score) {
      best = k;
      best_score = score;
      child_bound[0] = child_bound[1] = -kMiqpInfinity;
    }
  }
  return best;
}

double MiqpSolver::GapScale(double upper) const {
  return std::max(1.0, std::abs(upper + problem_.objective_offset));
}

double MiqpSolver::PruneThreshold() const {
  const double upper = result_.objective;
  if (!std::isfinite(upper)) return kMiqpInfinity;
  return upper - std::max(settings_.absolute_gap_tolerance,
                          settings_.relative_gap_tolerance * GapScale(upper));
}

void MiqpSolver::AddImpliedBinaries(std::vector<signed char>* fixing) const {
  for (size_t k = 0; k < fixing->size(); ++k) {
    const double v = value_[problem_.binaries[k]];
    if ((*fixing)[k] < 0 && !std::isnan(v)) (*fixing)[k] = static_cast<signed char>(v);
  }
}

void MiqpSolver::OfferIncumbent(double objective, const VectorXd& x) {
  if (!(objective < result_.objective)) return;
  result_.objective = objective;
  result_.x = x;
  // Multipliers of the original rows: the QP's, plus those of the rows that pinned the
  // variables the node presolve substituted, which take up their stationarity residual
  // r_j = (Q x + c − Gᵀz − Aᵀy)_j (last pinned first: its rows hold only variables pinned
  // before it).
  VectorXd z = qp_.result().z, y = qp_.result().y;
  VectorXd residual, product;
  base_.Q.Multiply(x, &residual);
  residual += base_.c;
  base_.G.MultiplyTranspose(z, &product);
  residual -= product;
  if (y.size() > 0) {
    base_.A.MultiplyTranspose(y, &product);
    residual -= product;
  }
  for (auto it = implied_.rbegin(); it != implied_.rend(); ++it) {
    const int j = it->variable;
    if (binary_of_[j] >= 0) continue;
    const double r = residual[j];
    const bool equality = it->by_equality;
    const int row = equality ? equality_row_[j] : (r > 0 ? lower_row_[j] : upper_row_[j]);
    const SparseRowMatrix& M = equality ? base_.A : base_.G;
    double a = 0.0;
    for (int e = M.row_start(row); e < M.row_start(row + 1); ++e) {
      if (M.column(e) == j) a = M.value(e);
    }
    if (a == 0.0) continue;
    const double multiplier = r / a;
    (equality ? y : z)[row] += multiplier;
    for (int e = M.row_start(row); e < M.row_start(row + 1); ++e)
      residual[M.column(e)] -= multiplier * M.value(e);
  }
  result_.z = z.head(m_);
  result_.y = y;
  result_.has_solution = true;
  ++result_.info.incumbents;
}

void MiqpSolver::SolveLeaf(const std::vector<signed char>& fixing, const VectorXd& x) {
  QpWarmStart warm;
  if (settings_.warm_start) warm.x = x;
  const Relaxation leaf = SolveRelaxation(fixing, warm);
  ++result_.info.heuristic_solves;
  if (Succeeded(leaf.status)) OfferIncumbent(leaf.objective, x_hat_);
}

bool MiqpSolver::RoundingHeuristic(const std::vector<signed char>& fixing, const VectorXd& x) {
  const int nb = static_cast<int>(fixing.size());
  heuristic_fixing_ = fixing;
  rounded_ = x;
  order_.clear();
  for (int k = 0; k < nb; ++k) {
    const int j = problem_.binaries[k];
    if (fixing[k] >= 0) {
      rounded_[j] = fixing[k];
    } else {
      order_.emplace_back(-std::abs(x[j] - 0.5), k);
    }
  }
  std::sort(order_.begin(), order_.end());
  base_.G.Multiply(rounded_, &activity_);
  const double tolerance = settings_.rounding_tolerance;
  for (const auto& [unused, k] : order_) {
    const int j = problem_.binaries[k];
    const int nearest = x[j] >= 0.5 ? 1 : 0;
    bool placed = false;
    for (const int v : {nearest, 1 - nearest}) {
      const double delta = v - rounded_[j];
      bool keeps_rows = true;
      for (const Entry& e : g_column_[j]) {
        const double after = activity_[e.other] + base_.G.value(e.index) * delta;
        const double h = base_.h[e.other];
        if (after < h - tolerance * std::max(1.0, std::abs(h))) {
          keeps_rows = false;
          break;
        }
      }
      if (!keeps_rows) continue;
      for (const Entry& e : g_column_[j]) activity_[e.other] += base_.G.value(e.index) * delta;
      rounded_[j] = v;
      heuristic_fixing_[k] = static_cast<signed char>(v);
      placed = true;
      break;
    }
    if (!placed) return false;
  }
  const double before = result_.objective;
  SolveLeaf(heuristic_fixing_, rounded_);
  return result_.objective < before;
}

bool MiqpSolver::Presolve(std::vector<signed char>* fixing) {
  const int nb = static_cast<int>(fixing->size());
  const SparseRowMatrix& G = base_.G;
  VectorXd lower = VectorXd::Constant(n_, -kMiqpInfinity),
           upper = VectorXd::Constant(n_, kMiqpInfinity);
  for (int i = 0; i < G.rows(); ++i) {
    if (G.row_start(i + 1) - G.row_start(i) != 1) continue;
    const int e = G.row_start(i);
    const double a = G.value(e), bound = base_.h[i] / a;
    if (a > 0) lower[G.column(e)] = std::max(lower[G.column(e)], bound);
    if (a < 0) upper[G.column(e)] = std::min(upper[G.column(e)], bound);
  }
  for (int k = 0; k < nb; ++k) {
    const int j = problem_.binaries[k];
    if ((*fixing)[k] >= 0) lower[j] = upper[j] = (*fixing)[k];
    if (lower[j] > 1e-9) lower[j] = upper[j] = 1, (*fixing)[k] = 1;  // a row 1 <= x_j
    if (upper[j] < 1 - 1e-9) lower[j] = upper[j] = 0, (*fixing)[k] = 0;
  }
  for (int j = 0; j < n_; ++j) {
    if (lower[j] > upper[j] + 1e-9 * std::max(1.0, std::abs(upper[j]))) return false;
  }
  const int max_passes = 20;
  for (int pass = 0; pass < max_passes; ++pass) {
    bool changed = false;
    for (int i = 0; i < G.rows(); ++i) {
      const int begin = G.row_start(i), end = G.row_start(i + 1);
      if (end - begin < 2) continue;
      double largest = 0.0;  // largest activity over the bounds
      bool bounded = true;
      bool has_free_binary = false;
      for (int e = begin; e < end; ++e) {
        const double a = G.value(e);
        const int j = G.column(e);
        const double term = a > 0 ? a * upper[j] : a * lower[j];
        if (a == 0.0) continue;
        if (!std::isfinite(term)) {
          bounded = false;
          break;
        }
        largest += term;
        if (binary_of_[j] >= 0 && (*fixing)[binary_of_[j]] < 0) has_free_binary = true;
      }
      if (!bounded || !has_free_binary) continue;
      const double h = base_.h[i];
      const double slack = 1e-9 * std::max({1.0, std::abs(h), std::abs(largest)});
      for (int e = begin; e < end; ++e) {
        const int k = binary_of_[G.column(e)];
        if (k < 0 || (*fixing)[k] >= 0) continue;
        const double a = G.value(e);
        const double without = largest - std::max(a, 0.0);  // the binary's best term removed
        const bool zero_possible = without >= h - slack;
        const bool one_possible = without + a >= h - slack;
        if (!zero_possible && !one_possible) return false;
        if (zero_possible && one_possible) continue;
        const int v = one_possible ? 1 : 0;
        (*fixing)[k] = static_cast<signed char>(v);
        lower[G.column(e)] = upper[G.column(e)] = v;
        ++result_.info.presolve_fixed;
        changed = true;
        break;  // the row's largest activity changed: recompute it on the next pass
      }
    }
    if (!changed) break;
  }
  return true;
}

const MiqpResult& MiqpSolver::Solve(const std::vector<std::vector<signed char>>& guesses,
                                    const MiqpPseudoCosts* pseudo_costs) {
  constexpr const char* kWhere = "MiqpSolver::Solve";
  QUASIDYN_CHECK_ARGUMENT(ready_, kWhere, "call Setup first");
  for (size_t g = 0; g < guesses.size(); ++g) {
    QUASIDYN_CHECK_ARGUMENT(guesses[g].size() == problem_.binaries.size(), kWhere,
                            "guesses[" + std::to_string(g) + "] has size " +
                                std::to_string(guesses[g].size()) + ", expected the number of " +
                                "binaries " + std::to_string(problem_.binaries.size()));
    for (const signed char v : guesses[g]) {
      QUASIDYN_CHECK_ARGUMENT(v == 0 || v == 1, kWhere,
                              "guesses[" + std::to_string(g) + "] holds a value other than 0, 1");
    }
  }
  const int nb = static_cast<int>(problem_.binaries.size());
  if (pseudo_costs != nullptr) {
    for (int d = 0; d < 2; ++d) {
      const std::string name = d == 0 ? "down" : "up";
      QUASIDYN_CHECK_ARGUMENT(static_cast<int>(pseudo_costs->sum[d].size()) == nb &&
                                  static_cast<int>(pseudo_costs->count[d].size()) == nb,
                              kWhere,
                              "pseudo_costs' " + name +
                                  " sums and counts must have one entry per binary (" +
                                  std::to_string(nb) + ")");
      for (int k = 0; k < nb; ++k) {
        QUASIDYN_CHECK_ARGUMENT(std::isfinite(pseudo_costs->sum[d][k]) &&
                                    pseudo_costs->sum[d][k] >= 0 && pseudo_costs->count[d][k] >= 0,
                                kWhere,
                                "pseudo_costs' " + name + " entry " + std::to_string(k) +
                                    " must have a finite sum >= 0 and a count >= 0");
      }
    }
  }
  start_time_ = Now();
  const double start_cpu = ThreadCpuNow();
  result_ = MiqpResult();
  for (int d = 0; d < 2; ++d) {
    if (pseudo_costs != nullptr) {
      std::copy(pseudo_costs->sum[d].begin(), pseudo_costs->sum[d].end(), pseudo_.sum[d].begin());
      std::copy(pseudo_costs->count[d].begin(), pseudo_costs->count[d].end(),
                pseudo_.count[d].begin());
    } else {
      std::fill(pseudo_.sum[d].begin(), pseudo_.sum[d].end(), 0.0);
      std::fill(pseudo_.count[d].begin(), pseudo_.count[d].end(), 0);
    }
  }
  const auto finish = [this, start_cpu]() -> const MiqpResult& {
    result_.info.solve_time_seconds = Now() - start_time_;
    result_.info.cpu_seconds = ThreadCpuNow() - start_cpu;
    if (result_.has_solution) result_.objective += problem_.objective_offset;
    result_.best_bound += problem_.objective_offset;
    return result_;
  };

  auto root = std::make_unique<Node>();
  root->fixing = problem_.fixed.empty() ? std::vector<signed char>(nb, -1) : problem_.fixed;
  if (settings_.presolve && !Presolve(&root->fixing)) {
    result_.status = MiqpStatus::kInfeasible;
    result_.message = "presolve: the bounds of the rows with one variable contradict a row";
    return finish();
  }

  for (const std::vector<signed char>& guess : guesses) {
    heuristic_fixing_ = guess;
    for (int k = 0; k < nb; ++k) {
      if (root->fixing[k] >= 0) heuristic_fixing_[k] = root->fixing[k];
    }
    SolveLeaf(heuristic_fixing_, VectorXd::Zero(n_));
  }
  if (result_.has_solution)
    result_.info.guess_objective = result_.objective + problem_.objective_offset;

  // Open nodes, smallest bound first (deeper first on ties).
  const auto worse = [](const std::unique_ptr<Node>& a, const std::unique_ptr<Node>& b) {
    return a->bound != b->bound ? a->bound > b->bound : a->depth < b->depth;
  };
  std::vector<std::unique_ptr<Node>> open;  // a heap under `worse`
  const auto push = [&](std::unique_ptr<Node> node) {
    open.push_back(std::move(node));
    std::push_heap(open.begin(), open.end(), worse);
  };
  double pruned_bound = kMiqpInfinity;  // smallest bound of the nodes pruned by bound or dropped
  MiqpStatus stop = MiqpStatus::kOptimal;
  std::unique_ptr<Node> current = std::move(root);
  while (true) {
    if (!current) {
      if (open.empty()) break;
      std::pop_heap(open.begin(), open.end(), worse);
      current = std::move(open.back());
      open.pop_back();
    }
    if (current->bound >= PruneThreshold()) {
      pruned_bound = std::min(pruned_bound, current->bound);
      current.reset();
      continue;
    }
    if (result_.info.nodes + result_.info.strong_branching_solves >= settings_.node_limit) {
      stop = MiqpStatus::kNodeLimit;
      break;
    }
    if (Now() - start_time_ >= settings_.time_limit_seconds) {
      stop = MiqpStatus::kTimeLimit;
      break;
    }
    const QpWarmStart none;
    const QpWarmStart& warm = settings_.warm_start && current->warm ? *current->warm : none;
    const Relaxation relaxation = SolveRelaxation(current->fixing, warm);
    ++result_.info.nodes;
    result_.info.max_depth = std::max(result_.info.max_depth, current->depth);
    if (relaxation.status == SolverStatus::kInfeasible) {
      current.reset();
      continue;
    }
    if (!Succeeded(relaxation.status)) {
      // No bound from this node: its subtree keeps the parent's, and is branched blindly on its
      // first free binary (or dropped at a leaf, its bound kept in the gap).
      ++result_.info.failed_nodes;
      const auto free = std::find(current->fixing.begin(), current->fixing.end(), -1);
      if (free == current->fixing.end()) {
        pruned_bound = std::min(pruned_bound, current->bound);
        current.reset();
        continue;
      }
      for (const signed char v : {0, 1}) {
        auto child = std::make_unique<Node>(*current);
        child->fixing[free - current->fixing.begin()] = v;
        child->depth = current->depth + 1;
        child->branch = -1;
        child->warm.reset();
        push(std::move(child));
      }
      current.reset();
      continue;
    }
    if (current->branch >= 0) {
      const double gain = std::max(0.0, relaxation.bound - current->bound);
      pseudo_.sum[current->direction][current->branch] += gain / current->fraction;
      ++pseudo_.count[current->direction][current->branch];
    }
    const double bound = std::max(relaxation.bound, current->bound);
    if (bound >= PruneThreshold()) {
      pruned_bound = std::min(pruned_bound, bound);
      current.reset();
      continue;
    }
    AddImpliedBinaries(&current->fixing);
    auto answer = std::make_shared<QpWarmStart>();
    answer->x = qp_.result().x;
    answer->z = qp_.result().z;
    answer->y = qp_.result().y;
    int branch = ChooseBranch(current->fixing, answer->x);
    double child_bound[2] = {-kMiqpInfinity, -kMiqpInfinity};
    const bool strong = settings_.branching == BranchingRule::kPseudoCost &&
                        settings_.strong_branching_candidates > 0 &&
                        current->depth < settings_.strong_branching_depth;
    if (branch < 0) {
      // Integral relaxation: its binaries rounded and fixed give the subtree's best point.
      const bool complete =
          std::find(current->fixing.begin(), current->fixing.end(), -1) == current->fixing.end();
      if (complete) {
        OfferIncumbent(relaxation.objective, x_hat_);
      } else {
        for (int k = 0; k < nb; ++k) {
          if (current->fixing[k] < 0)
            current->fixing[k] = answer->x[problem_.binaries[k]] >= 0.5 ? 1 : 0;
        }
        SolveLeaf(current->fixing, answer->x);
      }
      current.reset();
      continue;
    }
    if (settings_.rounding_frequency > 0 && current->depth % settings_.rounding_frequency == 0)
      RoundingHeuristic(current->fixing, answer->x);
    if (bound >= PruneThreshold()) {  // the heuristic's incumbent may prune this node
      pruned_bound = std::min(pruned_bound, bound);
      current.reset();
      continue;
    }
    if (strong) branch = ReliabilityBranch(current->fixing, answer->x, bound, branch, child_bound);
    const double value = answer->x[problem_.binaries[branch]];
    std::unique_ptr<Node> children[2];
    for (int d = 0; d < 2; ++d) {
      children[d] = std::make_unique<Node>();
      children[d]->fixing = current->fixing;
      children[d]->fixing[branch] = static_cast<signed char>(d);
      children[d]->bound = std::max(bound, child_bound[d]);
      children[d]->depth = current->depth + 1;
      children[d]->branch = branch;
      children[d]->direction = d;
      children[d]->fraction = d == 0 ? value : 1.0 - value;
      children[d]->warm = answer;
    }
    const int first = value >= 0.5 ? 1 : 0;
    push(std::move(children[1 - first]));
    if (settings_.dive) {
      current = std::move(children[first]);
    } else {
      push(std::move(children[first]));
      current.reset();
    }
  }

  // The global bound: the open nodes' (and the one stopped at), the pruned ones', U.
  double best_bound = std::min(pruned_bound, result_.objective);
  if (current) best_bound = std::min(best_bound, current->bound);
  for (const std::unique_ptr<Node>& node : open) best_bound = std::min(best_bound, node->bound);
  result_.best_bound = best_bound;
  if (result_.has_solution) {
    result_.gap = std::max(0.0, result_.objective - best_bound);
    result_.relative_gap = result_.gap / GapScale(result_.objective);
  }
  std::ostringstream message;
  if (stop != MiqpStatus::kOptimal) {
    result_.status = stop;
    message << (stop == MiqpStatus::kNodeLimit ? "node limit " : "time limit ")
            << (stop == MiqpStatus::kNodeLimit ? std::to_string(settings_.node_limit)
                                               : NumberText(settings_.time_limit_seconds) + " s")
            << " reached; "
            << (result_.has_solution ? "best solution's gap " + NumberText(result_.gap)
                                     : std::string("no integer point found"));
  } else if (result_.has_solution) {
    const double tolerance =
        std::max(settings_.absolute_gap_tolerance,
                 settings_.relative_gap_tolerance * GapScale(result_.objective));
    result_.status = result_.gap <= tolerance + 1e-12 * GapScale(result_.objective)
                         ? MiqpStatus::kOptimal
                         : MiqpStatus::kNumericalFailure;
    if (result_.status == MiqpStatus::kNumericalFailure)
      message << result_.info.failed_nodes << " node relaxations failed; the best solution's gap "
              << NumberText(result_.gap) << " exceeds the tolerance";
  } else if (result_.info.failed_nodes > 0) {
    result_.status = MiqpStatus::kNumericalFailure;
    message << result_.info.failed_nodes
            << " node relaxations failed and no integer point was found";
  } else {
    result_.status = MiqpStatus::kInfeasible;
    message << "every node's relaxation is infeasible: no integer point satisfies the "
               "constraints";
  }
  result_.message = message.str();
  return finish();
}

MiqpResult Solve(const MiqpProblem& problem, const MiqpSettings& settings) {
  MiqpSolver solver;
  solver.Setup(problem, settings);
  return solver.Solve();
}

}  // namespace quasidyn
