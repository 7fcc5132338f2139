#include "quasidyn/solvers/lcp_basis_guess.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <string>

#include "quasidyn/common/argument_check.h"
#include "quasidyn/solvers/gauss_jordan_inverse.h"

namespace quasidyn {
namespace {

// A basis whose smallest LU pivot is below this fraction of its largest is treated as singular
// (its solution would carry the data's rounding amplified beyond the acceptance tolerance).
constexpr double kSingularPivotRatio = 1e-12;

}  // namespace

void LcpBasisGuess::Setup(int n, double residual_tolerance) {
  QUASIDYN_CHECK_ARGUMENT(n >= 0, "LcpBasisGuess::Setup", "n must be >= 0");
  QUASIDYN_CHECK_ARGUMENT(residual_tolerance > 0 && residual_tolerance <= 1e-3,
                          "LcpBasisGuess::Setup", "residual_tolerance must be in (0, 1e-3]");
  n_ = n;
  tolerance_ = residual_tolerance;
  // Each buffer keeps its largest size (only the leading n × n block and n entries are used),
  // so a Setup for a size met before, or a smaller one, allocates nothing.
  if (basis_.rows() < n) basis_.resize(n, n);
  for (Eigen::VectorXd* v : {&column_, &pivots_, &x_})
    if (v->size() < n) v->resize(n);
  if (row_of_pivot_.size() < n) row_of_pivot_.resize(n);
}

bool LcpBasisGuess::Solve(const LcpView& problem, const std::vector<char>& z_basic,
                          LcpResult* result) {
  QUASIDYN_CHECK_ARGUMENT(n_ >= 0, "LcpBasisGuess::Solve", "call Setup first");
  CheckSize("LcpBasisGuess::Solve", "q", problem.q.size(), n_, "the size given to Setup");
  CheckSize("LcpBasisGuess::Solve", "z_basic", static_cast<Eigen::Index>(z_basic.size()), n_,
            "the size given to Setup");
  const auto start_time = std::chrono::steady_clock::now();
  result->status = SolverStatus::kNotRun;
  const int n = n_;
  if (n == 0) return false;
  for (int i = 0; i < n; ++i) {
    if (z_basic[i]) {
      basis_.col(i).head(n) = -problem.M.col(i);
    } else {
      basis_.col(i).head(n).setZero();
      basis_(i, i) = 1.0;
    }
  }
  // A singular (or nearly singular) basis cannot be trusted: let Lemke's method decide.
  if (!InvertInPlace(n, &basis_, &row_of_pivot_, &column_, &pivots_)) return false;
  const auto pivots = pivots_.head(n);
  if (!(pivots.minCoeff() > kSingularPivotRatio * pivots.maxCoeff())) return false;
  auto x = x_.head(n);
  x.noalias() = basis_.topLeftCorner(n, n) * problem.q;
  if (!x.allFinite()) return false;
  Eigen::VectorXd& z = result->z;
  Eigen::VectorXd& w = result->w;
  z.setZero(n);
  for (int i = 0; i < n; ++i)
    if (z_basic[i]) z[i] = x[i];
  const double M_norm = problem.M.lpNorm<Eigen::Infinity>();
  const double scale = problem.q.lpNorm<Eigen::Infinity>() + M_norm * z.lpNorm<Eigen::Infinity>();
  const double allowed = tolerance_ * scale;
  if (-z.minCoeff() * std::max(1.0, M_norm) > allowed) return false;
  z = z.cwiseMax(0.0);
  w.noalias() = problem.M * z;
  w += problem.q;
  const double z_scale = std::max(z.lpNorm<Eigen::Infinity>(), 1e-300);
  const double complementarity = w.cwiseProduct(z).cwiseAbs().maxCoeff() / z_scale;
  if (-w.minCoeff() > allowed || complementarity > allowed) return false;
  result->status = SolverStatus::kSolved;
  result->message.clear();
  result->z_basic = z_basic;
  result->info = LemkeInfo();
  result->info.residual = 0.0;  // w = Mz + q by construction
  result->info.sign_violation = std::max(0.0, -w.minCoeff());
  result->info.complementarity = w.cwiseProduct(z).cwiseAbs().sum();
  result->info.solve_time_seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start_time).count();
  return true;
}

}  // namespace quasidyn
