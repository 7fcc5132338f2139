#include "quasidyn/solvers/lemke.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <sstream>
#include <stdexcept>

namespace quasidyn {
namespace {

// Pivots between two refactorisations of the basis.
constexpr int kRefactorInterval = 50;

void Require(bool condition, const std::string& what) {
  if (!condition) throw std::invalid_argument("LCP (Lemke): " + what);
}

std::string VariableName(int variable, int n) {
  if (variable < n) return "w[" + std::to_string(variable) + "]";
  if (variable < 2 * n) return "z[" + std::to_string(variable - n) + "]";
  return "z0 (artificial)";
}

}  // namespace

// Column of the entering variable in the tableau [I, −M, −d] (Cottle, Pang & Stone, eq.
// (4.4.2): w − M z − d z0 = q), premultiplied by B⁻¹.
void LemkeSolver::EnteringColumn(const LcpProblem& problem, int variable) {
  const int n = static_cast<int>(problem.q.size());
  if (variable < n) {
    column_ = basis_inverse_.col(variable);
  } else if (variable < 2 * n) {
    column_.noalias() = -basis_inverse_ * problem.M.col(variable - n);
  } else {
    column_ = -basis_inverse_.rowwise().sum();
  }
}

// Lexicographic minimum-ratio test (Cottle, Pang & Stone §4.9): among rows with a_i > 0 pick
// the lexicographic minimum of (B⁻¹q, B⁻¹)_i / a_i, column by column, keeping ties.
int LemkeSolver::LexicographicMinimumRow(double threshold, double tie_tolerance) {
  candidates_.clear();
  for (int i = 0; i < column_.size(); ++i) {
    if (column_[i] > threshold) candidates_.push_back(i);
  }
  if (candidates_.empty()) return -1;
  const int n = static_cast<int>(column_.size());
  for (int j = -1; j < n && candidates_.size() > 1; ++j) {
    // Basic values are >= 0 in exact arithmetic; rounding can leave −1e-17 where a value is
    // degenerate (0), which must tie with the other zeros rather than win the test.
    const auto ratio = [&](int i) {
      return (j < 0 ? std::max(basic_values_[i], 0.0) : basis_inverse_(i, j)) / column_[i];
    };
    double best = std::numeric_limits<double>::infinity();
    for (int i : candidates_) best = std::min(best, ratio(i));
    survivors_.clear();
    for (int i : candidates_) {
      if (ratio(i) <= best + tie_tolerance * std::max(1.0, std::abs(best))) {
        survivors_.push_back(i);
      }
    }
    candidates_.swap(survivors_);
    if (j < 0) {
      // Among rows tied on the ratio itself, let z0 leave: that ends the method at once.
      for (int i : candidates_) {
        if (basis_[i] == 2 * n) return i;
      }
    }
  }
  return candidates_.front();
}

// Recomputes B⁻¹ and B⁻¹q from the basic variables' columns of [I, −M, −d] by LU with
// partial pivoting, discarding the rounding that rank-one updates accumulate over many pivots
// (the product-form update's drift, Chvátal, "Linear Programming", 1983, ch. 24). False when
// B is numerically singular.
bool LemkeSolver::Refactor(const LcpProblem& problem) {
  const int n = static_cast<int>(problem.q.size());
  basis_matrix_.resize(n, n);
  for (int row = 0; row < n; ++row) {
    const int variable = basis_[row];
    if (variable < n) {
      basis_matrix_.col(row) = Eigen::VectorXd::Unit(n, variable);
    } else if (variable < 2 * n) {
      basis_matrix_.col(row) = -problem.M.col(variable - n);
    } else {
      basis_matrix_.col(row).setConstant(-1.0);
    }
  }
  basis_lu_.compute(basis_matrix_);
  if (!(std::abs(basis_lu_.determinant()) > 0)) return false;
  basis_inverse_ = basis_lu_.inverse();
  // One step of iterative refinement of B x = q (Higham, "Accuracy and Stability of
  // Numerical Algorithms", 2002, ch. 12).
  basic_values_ = basis_lu_.solve(problem.q);
  basic_values_ += basis_lu_.solve(problem.q - basis_matrix_ * basic_values_);
  return basis_inverse_.allFinite() && basic_values_.allFinite();
}

void LemkeSolver::Pivot(int row, int entering) {
  const double pivot = column_[row];
  basic_values_[row] /= pivot;
  basis_inverse_.row(row) /= pivot;
  for (int i = 0; i < column_.size(); ++i) {
    if (i == row || column_[i] == 0.0) continue;
    basic_values_[i] -= column_[i] * basic_values_[row];
    basis_inverse_.row(i) -= column_[i] * basis_inverse_.row(row);
  }
  basis_[row] = entering;
}

LcpResult LemkeSolver::SolveOnce(const LcpProblem& problem, const LemkeSettings& settings,
                                 double pivot_tolerance) {
  const int n = static_cast<int>(problem.q.size());
  Require(problem.M.rows() == n && problem.M.cols() == n,
          "M must be n × n with n = size of q = " + std::to_string(n));
  Require(problem.M.allFinite() && problem.q.allFinite(), "M and q must be finite");
  Require(settings.max_pivots >= 0, "max_pivots must be >= 0");
  Require(settings.pivot_tolerance > 0 && settings.pivot_tolerance <= 1e-3,
          "pivot_tolerance must be in (0, 1e-3]");
  Require(settings.tie_tolerance >= 0 && settings.tie_tolerance <= 1e-3,
          "tie_tolerance must be in [0, 1e-3]");
  Require(settings.residual_tolerance > 0 && settings.residual_tolerance <= 1e-3,
          "residual_tolerance must be in (0, 1e-3]");
  Require(settings.inaccurate_tolerance >= settings.residual_tolerance &&
              settings.inaccurate_tolerance < 1,
          "inaccurate_tolerance must be in [residual_tolerance, 1)");
  const int max_pivots = settings.max_pivots > 0 ? settings.max_pivots : 50 * (n + 1);

  basis_inverse_.setIdentity(n, n);
  basic_values_ = problem.q;
  column_.resize(n);
  basis_.resize(n);
  for (int i = 0; i < n; ++i) basis_[i] = i;

  LcpResult result;
  SolverStatus status = SolverStatus::kMaxIterations;
  int pivots = 0;
  if (n == 0 || problem.q.minCoeff() >= 0) {
    status = SolverStatus::kSolved;  // z = 0, w = q
  } else {
    // First pivot: z0 enters, the row of the most negative q_i leaves (ties: lexicographic
    // rule on (q_i, e_iᵀ), which keeps the basis lexicographically feasible).
    column_.setConstant(-1.0);
    const double q_min = problem.q.minCoeff();
    int row = -1;
    for (int i = 0; i < n; ++i) {
      if (problem.q[i] <= q_min + settings.tie_tolerance * std::max(1.0, std::abs(q_min))) {
        row = i;  // among ties, the largest index is the lexicographic minimum of e_iᵀ / 1
      }
    }
    int entering = 2 * n;
    Pivot(row, entering);
    pivots = 1;
    int leaving = row;  // w_row left the basis
    while (true) {
      entering = leaving < n ? leaving + n : leaving - n;  // complement of the leaving variable
      if (pivots >= max_pivots) break;
      EnteringColumn(problem, entering);
      const double threshold = pivot_tolerance * std::max(1.0, column_.lpNorm<Eigen::Infinity>());
      row = LexicographicMinimumRow(threshold, settings.tie_tolerance);
      if (row < 0) {
        status = SolverStatus::kInfeasible;
        result.message = "secondary ray: entering variable " + VariableName(entering, n) +
                         " is unbounded after " + std::to_string(pivots) +
                         " pivots (LCP infeasible, or M not copositive-plus)";
        break;
      }
      leaving = basis_[row];
      Pivot(row, entering);
      ++pivots;
      if (pivots % kRefactorInterval == 0 && !Refactor(problem)) {
        status = SolverStatus::kNumericalFailure;
        result.message = "basis matrix numerically singular after " + std::to_string(pivots) +
                         " pivots (entering " + VariableName(entering, n) + ")";
        break;
      }
      if (leaving == 2 * n) {
        status = SolverStatus::kSolved;
        break;
      }
    }
    if (status == SolverStatus::kMaxIterations) {
      result.message = "pivot limit " + std::to_string(max_pivots) + " reached";
    }
  }

  result.z = Eigen::VectorXd::Zero(n);
  result.w = Eigen::VectorXd::Zero(n);
  if (status == SolverStatus::kSolved) {
    if (pivots == 0) {
      result.w = problem.q;
    } else if (!Refactor(problem)) {  // the final basis, solved afresh
      status = SolverStatus::kNumericalFailure;
      result.message =
          "final basis matrix numerically singular after " + std::to_string(pivots) + " pivots";
    } else {
      // Non-basic variables are 0; the basic z's value, then w = Mz + q exactly as defined.
      for (int i = 0; i < n; ++i) {
        const int variable = basis_[i];
        if (variable >= n && variable < 2 * n) result.z[variable - n] = basic_values_[i];
      }
      result.w.noalias() = problem.M * result.z;
      result.w += problem.q;
    }
  }
  result.info.iterations = pivots;
  if (n > 0) {
    result.info.primal_residual =
        (result.w - problem.M * result.z - problem.q).lpNorm<Eigen::Infinity>();
    result.info.dual_residual = std::max({0.0, -result.z.minCoeff(), -result.w.minCoeff()});
    result.info.complementarity_gap = result.w.cwiseProduct(result.z).cwiseAbs().sum();
  }
  if (status == SolverStatus::kSolved && n > 0) {
    // Honest status: check the returned pair, in units of w, against the scale
    // ‖q‖∞ + ‖M‖∞‖z‖∞ of the terms of w = Mz + q.
    const double scale = problem.q.lpNorm<Eigen::Infinity>() +
                         problem.M.lpNorm<Eigen::Infinity>() * result.z.lpNorm<Eigen::Infinity>();
    const double z_scale = std::max(result.z.lpNorm<Eigen::Infinity>(), 1e-300);
    // Complementarity per pair: min(w_i, z_i·‖w‖/‖z‖) must vanish; use |w_i z_i| / ‖z‖∞.
    const double complementarity = result.w.cwiseProduct(result.z).cwiseAbs().maxCoeff() / z_scale;
    const double violation =
        std::max({result.info.primal_residual, -result.w.minCoeff(),
                  -result.z.minCoeff() * problem.M.lpNorm<Eigen::Infinity>(), complementarity});
    if (!(violation <= settings.residual_tolerance * scale)) {
      const bool loose = violation <= settings.inaccurate_tolerance * scale;
      status = loose ? SolverStatus::kSolvedInaccurate : SolverStatus::kNumericalFailure;
      std::ostringstream message;
      message << (loose ? "inaccurate" : "rejected") << " solution after " << pivots
              << " pivots: violation " << violation << " of w = Mz + q, z >= 0, w >= 0, "
              << "w∘z = 0 exceeds " << settings.residual_tolerance << " × scale " << scale;
      result.message = message.str();
    }
  }
  result.status = status;
  return result;
}

LcpResult LemkeSolver::Solve(const LcpProblem& problem, const LemkeSettings& settings) {
  const auto start_time = std::chrono::steady_clock::now();
  // On contact LCPs M = J P⁻¹ Jᵀ has rank <= n_v < n, and a pivot entry that is 0 in exact
  // arithmetic can come out as 1e-8·‖a‖ after a few dozen pivots; pivoting on it makes B
  // nearly singular and the method ends on a false ray or a wrong "solution" (caught by the
  // final check). So an unsuccessful run is repeated with the pivot tolerance raised 100-fold
  // (up to 1e-3), keeping the best outcome: solved, then solved_inaccurate, then the first.
  LcpResult best = SolveOnce(problem, settings, settings.pivot_tolerance);
  int total_pivots = best.info.iterations;
  for (double tolerance = 100 * settings.pivot_tolerance;
       best.status != SolverStatus::kSolved && best.status != SolverStatus::kMaxIterations &&
       tolerance <= 1e-3 * (1 + 1e-9);
       tolerance *= 100) {
    LcpResult retry = SolveOnce(problem, settings, tolerance);
    total_pivots += retry.info.iterations;
    if (retry.status == SolverStatus::kSolved || (retry.status == SolverStatus::kSolvedInaccurate &&
                                                  best.status != SolverStatus::kSolvedInaccurate)) {
      best = std::move(retry);
    }
  }
  best.info.iterations = total_pivots;
  best.info.solve_time_seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start_time).count();
  return best;
}

LcpResult Solve(const LcpProblem& problem, const LemkeSettings& settings) {
  LemkeSolver solver;
  return solver.Solve(problem, settings);
}

}  // namespace quasidyn
