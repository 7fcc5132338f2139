#include "quasidyn/solvers/log_barrier_newton.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <sstream>
#include <stdexcept>

#include "quasidyn/solvers/constraint_blocks.h"
#include "quasidyn/solvers/second_order_cone.h"

namespace quasidyn {
namespace {

using Eigen::MatrixXd;
using Eigen::VectorXd;
constexpr double kInfinity = std::numeric_limits<double>::infinity();

void Require(bool condition, const std::string& what) {
  if (!condition) throw std::invalid_argument("log-barrier: " + what);
}

void Validate(const LogBarrierProblem& p, const LogBarrierSettings& s, const VectorXd& x0) {
  const Eigen::Index n = p.Q.rows();
  Require(p.Q.cols() == n, "Q must be square");
  Require(p.b.size() == n, "b must have size n = " + std::to_string(n));
  Require(p.G.rows() == p.h.size(), "h must have one entry per row of G");
  Require(p.G.rows() == 0 || p.G.cols() == n, "G must have n columns");
  Require(p.Q.allFinite() && p.b.allFinite() && p.G.allFinite() && p.h.allFinite(),
          "Q, b, G and h must be finite");
  for (size_t k = 0; k < p.cones.size(); ++k) {
    const std::string name = "cones[" + std::to_string(k) + "]";
    Require(p.cones[k].A.rows() >= 1 && p.cones[k].A.cols() == n,
            name + ".A must be (m_k × n) with m_k >= 1");
    Require(p.cones[k].b.size() == p.cones[k].A.rows(), name + ".b must have m_k entries");
    Require(p.cones[k].A.allFinite() && p.cones[k].b.allFinite(), name + " must be finite");
  }
  Require(std::isfinite(p.kappa) && p.kappa > 0, "kappa must be finite and > 0");
  Require(s.decrement_tolerance > 0, "decrement_tolerance must be > 0");
  Require(s.max_newton_iterations > 0, "max_newton_iterations must be > 0");
  Require(s.armijo_fraction > 0 && s.armijo_fraction < 0.5, "armijo_fraction must be in (0,0.5)");
  Require(s.backtrack_factor > 0 && s.backtrack_factor < 1, "backtrack_factor must be in (0,1)");
  Require(s.max_backtracks > 0, "max_backtracks must be > 0");
  Require(s.initial_kappa > 0, "initial_kappa must be > 0");
  Require(s.kappa_growth > 1, "kappa_growth must be > 1");
  Require(s.feasibility_margin >= 0, "feasibility_margin must be >= 0");
  Require(s.centring_margin >= 0, "centring_margin must be >= 0");
  Require(x0.size() == 0 || (x0.size() == n && x0.allFinite()), "x_start must be finite, size n");
  Require(s.sparse_min_variables >= 0, "sparse_min_variables must be >= 0");
  Require(s.sparse_max_density >= 0 && s.sparse_max_density <= 1,
          "sparse_max_density must be in [0,1]");
}

}  // namespace

// Phase 1 (Boyd & Vandenberghe §11.4.1): maximise the common margin −s over (x, s):
//   minimise s + ½ε(‖x‖² + s²)  s.t.  G x + h + s·1 >= 0,  (t_k + s, z_k) ∈ K_k,  s >= −1,
// with ε = 1e-8 keeping x bounded. Returns the margin −s and x.
double LogBarrierSolver::PhaseOne(const LogBarrierProblem& p, VectorXd& x) {
  const Eigen::Index n = p.Q.rows();
  SocpProblem phase_one;
  phase_one.Q = 1e-8 * MatrixXd::Identity(n + 1, n + 1);
  phase_one.c = VectorXd::Unit(n + 1, n);
  const Eigen::Index rows = p.G.rows();
  phase_one.G = MatrixXd::Zero(rows + 1, n + 1);
  phase_one.h.resize(rows + 1);
  if (rows > 0) phase_one.G.topLeftCorner(rows, n) = p.G;
  phase_one.G.col(n).setOnes();
  phase_one.h.head(rows) = -p.h;
  phase_one.h[rows] = -1.0;
  for (const auto& cone : p.cones) {
    SecondOrderConeConstraint shifted{MatrixXd::Zero(cone.A.rows(), n + 1), cone.b};
    shifted.A.leftCols(n) = cone.A;
    shifted.A(0, n) = 1.0;
    phase_one.cones.push_back(shifted);
  }
  const SocpResult r = phase_one_solver_.Solve(phase_one);
  if (r.status != SolverStatus::kSolved && r.status != SolverStatus::kSolvedInaccurate) {
    return -kInfinity;
  }
  x = r.x.head(n);
  return -r.x[n];
}

void LogBarrierSolver::Stack(const LogBarrierProblem& p, const LogBarrierSettings& settings) {
  const Eigen::Index n = p.Q.rows();
  linear_rows_ = static_cast<int>(p.G.rows());
  const int max_dim = StackConstraintBlocks(p.G, p.h, 1.0, p.cones, n, &A_, &b_, &offset_, &dim_);
  const int rows = static_cast<int>(A_.rows());
  u_.resize(rows);
  dual_.resize(rows);
  weights_.resize(rows, max_dim);
  normal_.Setup(p.Q, A_, offset_, dim_,
                SparsePathRule{settings.sparse_min_variables, settings.sparse_max_density});
}

bool LogBarrierSolver::StrictlyFeasible(const VectorXd& x) {
  normal_.MultiplyA(x, u_);
  u_ += b_;
  for (size_t k = 0; k < dim_.size(); ++k) {
    if (!(second_order_cone::InteriorMargin(u_.segment(offset_[k], dim_[k])) > 0)) return false;
  }
  return true;
}

double LogBarrierSolver::MinimumMargin(const VectorXd& x) {
  normal_.MultiplyA(x, u_);
  u_ += b_;
  double margin = kInfinity;
  for (size_t k = 0; k < dim_.size(); ++k) {
    margin = std::min(margin, second_order_cone::InteriorMargin(u_.segment(offset_[k], dim_[k])));
  }
  return margin;
}

double LogBarrierSolver::Objective(const LogBarrierProblem& p, double kappa, const VectorXd& x) {
  if (!StrictlyFeasible(x)) return kInfinity;  // sets u_
  double barrier = 0.0;
  for (int i = 0; i < linear_rows_; ++i) barrier += std::log(u_[i]);
  for (size_t k = linear_rows_; k < dim_.size(); ++k) {
    barrier += std::log(second_order_cone::JNorm2(u_.segment(offset_[k], dim_[k])));
  }
  normal_.MultiplyQ(x, objective_scratch_);
  return 0.5 * x.dot(objective_scratch_) + p.b.dot(x) - barrier / kappa;
}

// With w = 1/κ, per block the derivatives of the barrier term −w·log(·) in its argument u:
//   linear row   −w log s:   gradient −w/s,            Hessian w/s²;
//   cone         −w log ψ, ψ = uᵀJu:  gradient −2w Ju/ψ,  Hessian w(4 Ju uᵀJ/ψ² − 2J/ψ),
// so ∇f = Qx + b − Aᵀ dual and ∇²f = Q + Aᵀ blockdiag(weights) A (chain rule, u = A x + b).
void LogBarrierSolver::GradientAndHessian(const LogBarrierProblem& p, double kappa,
                                          const VectorXd& x) {
  const double w = 1.0 / kappa;
  normal_.MultiplyA(x, u_);
  u_ += b_;
  for (int i = 0; i < linear_rows_; ++i) {
    const double inverse = 1.0 / u_[i];
    dual_[i] = w * inverse;
    weights_(i, 0) = w * inverse * inverse;
  }
  for (size_t k = linear_rows_; k < dim_.size(); ++k) {
    const int o = offset_[k], m = dim_[k];
    const auto u = u_.segment(o, m);
    auto y = dual_.segment(o, m);
    auto M = weights_.block(o, 0, m, m);
    const double psi = second_order_cone::JNorm2(u);
    y = u;  // Ju
    y.tail(m - 1) *= -1.0;
    M.noalias() = (4.0 * w / (psi * psi)) * y * y.transpose();
    M.diagonal().array() -= 2.0 * w / psi;  // −2wJ/ψ: J = diag(1, −I)
    M.diagonal().tail(m - 1).array() += 4.0 * w / psi;
    y *= 2.0 * w / psi;
  }
  normal_.MultiplyQ(x, gradient_);
  gradient_ += p.b;
  normal_.MultiplyAt(dual_, step_);
  gradient_ -= step_;
  normal_.Assemble(weights_, 0.0);
}

// Cholesky of the Hessian. Barrier arguments near 0 (contacts at φ ≈ 1e-11 m give s_i ≈ 1e-9)
// add terms g_i g_iᵀ/(κ s_i²) some 1e16 times larger than Q, and the rounding of the
// factorisation (≈ ε·max H_jj) can then make a pivot non-positive although H ≻ 0. Then the
// factorisation is retried with H + δI, δ = 10^j · ε · max_j H_jj (j = 0, 1, …): a modified
// Newton step, still a descent direction (Nocedal & Wright, "Numerical Optimization", §3.4,
// Cholesky with added multiple of the identity). Returns false when no shift succeeds.
bool LogBarrierSolver::FactorHessian() {
  if (normal_.Factorize()) return true;
  const double scale = normal_.MaxAbsDiagonal();
  if (!std::isfinite(scale)) return false;
  double shift = std::numeric_limits<double>::epsilon() * std::max(scale, 1e-300);
  for (int attempt = 0; attempt < 20; ++attempt, shift *= 10.0) {
    normal_.Assemble(weights_, shift);
    if (normal_.Factorize()) return true;
  }
  return false;
}

SolverStatus LogBarrierSolver::Newton(const LogBarrierProblem& p, const LogBarrierSettings& s,
                                      double kappa, VectorXd& x, int& iterations,
                                      double& decrement) {
  for (int k = 0; k < s.max_newton_iterations; ++k) {
    GradientAndHessian(p, kappa, x);
    if (!FactorHessian()) return SolverStatus::kNumericalFailure;
    normal_.Solve(gradient_, step_);
    step_ = -step_;
    const double slope = gradient_.dot(step_);  // = −λ² (with the shifted H when shifted)
    if (!step_.allFinite() || !(slope <= 0)) return SolverStatus::kNumericalFailure;
    decrement = -0.5 * slope;
    const bool last = decrement <= s.decrement_tolerance;
    // Backtracking (Boyd & Vandenberghe, Algorithm 9.2); infinity outside the domain.
    const double f = Objective(p, kappa, x);
    double alpha = 1.0;
    int backtracks = 0;
    for (;; ++backtracks) {
      trial_ = x + alpha * step_;
      const double f_trial = Objective(p, kappa, trial_);
      if (f_trial <= f + s.armijo_fraction * alpha * slope || (last && std::isfinite(f_trial))) {
        break;
      }
      if (backtracks >= s.max_backtracks) break;
      alpha *= s.backtrack_factor;
    }
    ++iterations;
    if (backtracks >= s.max_backtracks) {
      // No decrease: at the limits of floating point the decrement is tiny.
      return decrement <= 1e3 * s.decrement_tolerance ? SolverStatus::kSolvedInaccurate
                                                      : SolverStatus::kMaxIterations;
    }
    x = trial_;
    if (last) return SolverStatus::kSolved;
  }
  return SolverStatus::kMaxIterations;
}

LogBarrierResult LogBarrierSolver::Solve(const LogBarrierProblem& problem,
                                         const LogBarrierSettings& settings,
                                         const VectorXd& x_start) {
  const auto start_time = std::chrono::steady_clock::now();
  Validate(problem, settings, x_start);
  const Eigen::Index n = problem.Q.rows();
  gradient_.resize(n);
  step_.resize(n);
  trial_.resize(n);
  objective_scratch_.resize(n);
  Stack(problem, settings);

  LogBarrierResult result;
  result.used_sparse_path = normal_.sparse();
  VectorXd& x = result.x;
  // Start: of the cheap candidates x_start, the previous minimiser and 0, the strictly feasible
  // one with the lowest f (for a self-concordant f, the number of damped Newton steps is
  // bounded by a multiple of κ(f(x0) − f*), Boyd & Vandenberghe §9.6.4).
  x = x_start.size() == n ? x_start : VectorXd::Zero(n);
  double best = kInfinity;
  const auto consider = [&](const VectorXd& candidate, bool previous) {
    const double value = Objective(problem, problem.kappa, candidate);
    if (value < best) {
      best = value;
      x = candidate;
      result.used_previous_solution = previous;
    }
  };
  if (x_start.size() == n) consider(x_start, false);
  if (settings.use_previous_solution && previous_x_.size() == n) consider(previous_x_, true);
  consider(VectorXd::Zero(n), false);
  const bool start_is_feasible = std::isfinite(best);
  if (start_is_feasible && MinimumMargin(x) < settings.centring_margin) {
    // Strictly feasible but nearly on a boundary (a contact at φ ≈ 0 with x = 0): the barrier
    // is badly scaled there and damped Newton needs many short steps. Start from the
    // phase-1 point instead when it is better centred.
    VectorXd centred = x;
    const double margin = PhaseOne(problem, centred);
    if (margin > MinimumMargin(x) && StrictlyFeasible(centred)) {
      result.used_phase_one = true;
      result.used_previous_solution = false;
      x = centred;
    }
  }
  if (!start_is_feasible) {
    result.used_phase_one = true;
    const double margin = PhaseOne(problem, x);
    if (!(margin > settings.feasibility_margin) || !StrictlyFeasible(x)) {
      // Name the barrier with the smallest argument at the phase-1 point.
      std::ostringstream message;
      message << "no strictly feasible point (phase-1 margin " << margin << "); ";
      double worst = kInfinity;
      std::string name = "none";
      for (Eigen::Index i = 0; i < problem.G.rows(); ++i) {
        const double value = problem.G.row(i).dot(x) + problem.h[i];
        if (value < worst) {
          worst = value;
          name = "linear barrier row " + std::to_string(i);
        }
      }
      for (size_t k = 0; k < problem.cones.size(); ++k) {
        const VectorXd u = problem.cones[k].A * x + problem.cones[k].b;
        const double value = second_order_cone::InteriorMargin(u);
        if (value < worst) {
          worst = value;
          name = "cone barrier " + std::to_string(k);
        }
      }
      message << "most violated: " << name << " (value " << worst << ")";
      result.status = SolverStatus::kInfeasible;
      result.message = message.str();
      result.info.solve_time_seconds =
          std::chrono::duration<double>(std::chrono::steady_clock::now() - start_time).count();
      return result;
    }
  }

  int iterations = 0;
  double decrement = 0.0;
  const VectorXd feasible_start = x;
  SolverStatus status = Newton(problem, settings, problem.kappa, x, iterations, decrement);
  if (status != SolverStatus::kSolved) {
    // Continuation: κ_j = initial_kappa · growth^j below κ, then κ itself.
    result.used_continuation = true;
    x = feasible_start;
    for (double kappa = settings.initial_kappa;; kappa *= settings.kappa_growth) {
      const double stage = std::min(kappa, problem.kappa);
      status = Newton(problem, settings, stage, x, iterations, decrement);
      if (stage == problem.kappa ||
          (status != SolverStatus::kSolved && status != SolverStatus::kSolvedInaccurate)) {
        break;
      }
    }
  }
  // Hessian (and gradient) at the returned x.
  GradientAndHessian(problem, problem.kappa, x);
  normal_.ToDense(dense_hessian_);
  result.hessian.compute(dense_hessian_);
  if (result.hessian.info() != Eigen::Success) status = SolverStatus::kNumericalFailure;
  if (status == SolverStatus::kSolved || status == SolverStatus::kSolvedInaccurate) {
    previous_x_ = x;
  }
  if (status != SolverStatus::kSolved) {
    result.message = std::string(ToString(status)) +
                     " (Newton decrement² / 2 = " + std::to_string(decrement) + ")";
  }
  result.status = status;
  result.objective = Objective(problem, problem.kappa, x);
  result.info.iterations = iterations;
  result.info.dual_residual = gradient_.lpNorm<Eigen::Infinity>();
  result.info.complementarity_gap = decrement;
  result.info.solve_time_seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start_time).count();
  return result;
}

LogBarrierResult Solve(const LogBarrierProblem& problem, const LogBarrierSettings& settings,
                       const VectorXd& x_start) {
  LogBarrierSolver solver;
  return solver.Solve(problem, settings, x_start);
}

}  // namespace quasidyn
