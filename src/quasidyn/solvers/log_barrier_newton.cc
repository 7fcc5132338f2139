#include "quasidyn/solvers/log_barrier_newton.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <sstream>
#include <stdexcept>

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
}

// Phase 1 (Boyd & Vandenberghe §11.4.1): maximise the common margin −s over (x, s):
//   minimise s + ½ε(‖x‖² + s²)  s.t.  G x + h + s·1 >= 0,  (t_k + s, z_k) ∈ K_k,  s >= −1,
// with ε = 1e-8 keeping x bounded. Returns the margin −s and x.
double PhaseOne(const LogBarrierProblem& p, VectorXd& x) {
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
  const SocpResult r = quasidyn::Solve(phase_one);
  if (r.status != SolverStatus::kSolved && r.status != SolverStatus::kSolvedInaccurate) {
    return -kInfinity;
  }
  x = r.x.head(n);
  return -r.x[n];
}

}  // namespace

bool LogBarrierSolver::StrictlyFeasible(const LogBarrierProblem& p, const VectorXd& x) {
  if (p.G.rows() > 0) {
    linear_values_.noalias() = p.G * x;
    linear_values_ += p.h;
    if (!(linear_values_.minCoeff() > 0)) return false;
  }
  for (const auto& cone : p.cones) {
    auto u = cone_u_.head(cone.A.rows());
    u.noalias() = cone.A * x;
    u += cone.b;
    if (!(second_order_cone::InteriorMargin(u) > 0)) return false;
  }
  return true;
}

double LogBarrierSolver::MinimumMargin(const LogBarrierProblem& p, const VectorXd& x) {
  double margin = kInfinity;
  if (p.G.rows() > 0) {
    linear_values_.noalias() = p.G * x;
    linear_values_ += p.h;
    margin = linear_values_.minCoeff();
  }
  for (const auto& cone : p.cones) {
    auto u = cone_u_.head(cone.A.rows());
    u.noalias() = cone.A * x;
    u += cone.b;
    margin = std::min(margin, second_order_cone::InteriorMargin(u));
  }
  return margin;
}

double LogBarrierSolver::Objective(const LogBarrierProblem& p, double kappa, const VectorXd& x) {
  if (!StrictlyFeasible(p, x)) return kInfinity;
  double barrier = 0.0;
  if (p.G.rows() > 0) barrier += linear_values_.array().log().sum();  // set by StrictlyFeasible
  for (const auto& cone : p.cones) {
    auto u = cone_u_.head(cone.A.rows());
    u.noalias() = cone.A * x;
    u += cone.b;
    barrier += std::log(second_order_cone::JNorm2(u));
  }
  objective_scratch_.noalias() = p.Q * x;
  return 0.5 * x.dot(objective_scratch_) + p.b.dot(x) - barrier / kappa;
}

void LogBarrierSolver::GradientAndHessian(const LogBarrierProblem& p, double kappa,
                                          const VectorXd& x) {
  gradient_.noalias() = p.Q * x;
  gradient_ += p.b;
  hessian_ = p.Q;
  const double weight = 1.0 / kappa;
  if (p.G.rows() > 0) {
    linear_values_.noalias() = p.G * x;
    linear_values_ += p.h;
    // ∇(−log s_i) = −g_i / s_i,  ∇²(−log s_i) = g_i g_iᵀ / s_i².
    linear_inverse_ = linear_values_.cwiseInverse();
    gradient_.noalias() -= weight * p.G.transpose() * linear_inverse_;
    for (Eigen::Index i = 0; i < p.G.rows(); ++i) {
      const double inverse = linear_inverse_[i];
      hessian_.noalias() += (weight * inverse * inverse) * p.G.row(i).transpose() * p.G.row(i);
    }
  }
  for (const auto& cone : p.cones) {
    const Eigen::Index m = cone.A.rows();
    auto u = cone_u_.head(m);
    auto Ju = cone_Ju_.head(m);
    auto JA = cone_JA_.topRows(m);
    u.noalias() = cone.A * x;
    u += cone.b;
    Ju = u;
    Ju.tail(m - 1) *= -1.0;
    JA = cone.A;
    JA.bottomRows(m - 1) *= -1.0;
    const double psi = second_order_cone::JNorm2(u);
    // ψ = uᵀJu: ∇(−log ψ) = −2AᵀJu/ψ,  ∇²(−log ψ) = 4 AᵀJu uᵀJA/ψ² − 2 AᵀJA/ψ.
    cone_grad_.noalias() = JA.transpose() * u;  // = AᵀJu
    gradient_ -= (2.0 * weight / psi) * cone_grad_;
    hessian_.noalias() += (4.0 * weight / (psi * psi)) * cone_grad_ * cone_grad_.transpose();
    hessian_.noalias() -= (2.0 * weight / psi) * cone.A.transpose() * JA;
  }
}

// Cholesky of the Hessian. Barrier arguments near 0 (contacts at φ ≈ 1e-11 m give s_i ≈ 1e-9)
// add terms g_i g_iᵀ/(κ s_i²) some 1e16 times larger than Q, and the rounding of the
// factorisation (≈ ε·max H_jj) can then make a pivot non-positive although H ≻ 0. Then the
// factorisation is retried with H + δI, δ = 10^j · ε · max_j H_jj (j = 0, 1, …): a modified
// Newton step, still a descent direction (Nocedal & Wright, "Numerical Optimization", §3.4,
// Cholesky with added multiple of the identity). Returns false when no shift succeeds.
bool LogBarrierSolver::FactorHessian() {
  factor_.compute(hessian_);
  if (factor_.info() == Eigen::Success) return true;
  const double scale = hessian_.diagonal().cwiseAbs().maxCoeff();
  if (!std::isfinite(scale) || !hessian_.allFinite()) return false;
  double shift = std::numeric_limits<double>::epsilon() * std::max(scale, 1e-300);
  for (int attempt = 0; attempt < 20; ++attempt, shift *= 10.0) {
    shifted_hessian_ = hessian_;
    shifted_hessian_.diagonal().array() += shift;
    factor_.compute(shifted_hessian_);
    if (factor_.info() == Eigen::Success) return true;
  }
  return false;
}

SolverStatus LogBarrierSolver::Newton(const LogBarrierProblem& p, const LogBarrierSettings& s,
                                      double kappa, VectorXd& x, int& iterations,
                                      double& decrement) {
  for (int k = 0; k < s.max_newton_iterations; ++k) {
    GradientAndHessian(p, kappa, x);
    if (!FactorHessian()) return SolverStatus::kNumericalFailure;
    step_ = -factor_.solve(gradient_);
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
  Eigen::Index max_dim = 1;
  for (const auto& cone : problem.cones) max_dim = std::max(max_dim, cone.A.rows());
  gradient_.resize(n);
  step_.resize(n);
  trial_.resize(n);
  objective_scratch_.resize(n);
  linear_values_.resize(problem.G.rows());
  linear_inverse_.resize(problem.G.rows());
  cone_u_.resize(max_dim);
  cone_Ju_.resize(max_dim);
  cone_grad_.resize(n);
  cone_JA_.resize(max_dim, n);
  hessian_.resize(n, n);

  LogBarrierResult result;
  VectorXd& x = result.x;
  x = x_start.size() == n ? x_start : VectorXd::Zero(n);
  const bool start_is_feasible = StrictlyFeasible(problem, x);
  if (start_is_feasible && MinimumMargin(problem, x) < settings.centring_margin) {
    // Strictly feasible but nearly on a boundary (a contact at φ ≈ 0 with x = 0): the barrier
    // is badly scaled there and damped Newton needs many short steps. Start from the
    // phase-1 point instead when it is better centred.
    VectorXd centred = x;
    const double margin = PhaseOne(problem, centred);
    if (margin > MinimumMargin(problem, x) && StrictlyFeasible(problem, centred)) {
      result.used_phase_one = true;
      x = centred;
    }
  }
  if (!start_is_feasible) {
    result.used_phase_one = true;
    const double margin = PhaseOne(problem, x);
    if (!(margin > settings.feasibility_margin) || !StrictlyFeasible(problem, x)) {
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
  result.hessian.compute(hessian_);
  if (result.hessian.info() != Eigen::Success) status = SolverStatus::kNumericalFailure;
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
