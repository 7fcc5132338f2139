#include "quasidyn/solvers/log_barrier_newton.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <sstream>

#include "quasidyn/common/argument_check.h"
#include "quasidyn/solvers/constraint_blocks.h"
#include "quasidyn/solvers/problem_value_checks.h"
#include "quasidyn/solvers/second_order_cone.h"

namespace quasidyn {
namespace {

using Eigen::MatrixXd;
using Eigen::VectorXd;
constexpr double kInfinity = std::numeric_limits<double>::infinity();

void ValidateProblem(const char* where, const LogBarrierProblem& p) {
  const int n = p.Q.rows();
  CheckShape(where, "Q", p.Q, n, n);
  CheckSize(where, "c", p.c.size(), n, "n");
  if (p.G.rows() > 0) CheckShape(where, "G", p.G, p.G.rows(), n);
  CheckSize(where, "h", p.h.size(), p.G.rows(), "rows of G");
  if (p.A.rows() > 0) CheckShape(where, "A", p.A, p.A.rows(), n);
  CheckSize(where, "b", p.b.size(), p.A.rows(), "rows of A");
  CheckConeDims(where, p.cone_dims, p.A.rows());
  CheckProblemValuesFinite(where, p);
  CheckPositive(where, "kappa", p.kappa);
}

// Appends the row `r` of `from` to `to` with the extra entry (column n) = `last`.
void AppendRowWithLastColumn(const SparseRowMatrix& from, int r, int n, double last,
                             SparseRowMatrix* to) {
  to->AppendRow();
  for (int k = from.row_start(r); k < from.row_start(r + 1); ++k)
    to->Append(from.column(k), from.value(k));
  to->AppendNonZero(n, last);
}

}  // namespace

void ValidateLogBarrierSettings(const LogBarrierSettings& s) {
  constexpr const char* kWhere = "LogBarrierSettings";
  CheckPositive(kWhere, "decrement_tolerance", s.decrement_tolerance);
  QUASIDYN_CHECK_ARGUMENT(s.max_newton_iterations > 0, kWhere, "max_newton_iterations must be > 0");
  QUASIDYN_CHECK_ARGUMENT(s.armijo_fraction > 0 && s.armijo_fraction < 0.5, kWhere,
                          "armijo_fraction must be in (0, 0.5)");
  QUASIDYN_CHECK_ARGUMENT(s.backtrack_factor > 0 && s.backtrack_factor < 1, kWhere,
                          "backtrack_factor must be in (0, 1)");
  QUASIDYN_CHECK_ARGUMENT(s.max_backtracks > 0, kWhere, "max_backtracks must be > 0");
  CheckPositive(kWhere, "initial_kappa", s.initial_kappa);
  QUASIDYN_CHECK_ARGUMENT(s.kappa_growth > 1, kWhere, "kappa_growth must be > 1");
  CheckNonNegative(kWhere, "feasibility_margin", s.feasibility_margin);
  // +infinity is allowed: every start is replaced by the phase-1 point.
  QUASIDYN_CHECK_ARGUMENT(
      s.centring_margin >= 0, kWhere,
      "centring_margin must be >= 0 (got " + NumberText(s.centring_margin) + ")");
  CheckPositive(kWhere, "shift_margin", s.shift_margin);
  QUASIDYN_CHECK_ARGUMENT(s.shift_reduction > 0 && s.shift_reduction < 1, kWhere,
                          "shift_reduction must be in (0, 1)");
  QUASIDYN_CHECK_ARGUMENT(s.max_shift_iterations > 0, kWhere, "max_shift_iterations must be > 0");
  QUASIDYN_CHECK_ARGUMENT(s.sparse_min_variables >= 0, kWhere, "sparse_min_variables must be >= 0");
  QUASIDYN_CHECK_ARGUMENT(s.sparse_max_density >= 0 && s.sparse_max_density <= 1, kWhere,
                          "sparse_max_density must be in [0, 1]");
}

void LogBarrierSolver::Setup(const LogBarrierProblem& problem, const LogBarrierSettings& settings) {
  ValidateLogBarrierSettings(settings);
  ValidateProblem("LogBarrierSolver::Setup", problem);
  settings_ = settings;
  CopyConeProblem(problem, &problem_, &storage_);  // onto the last one's storage
  problem_.kappa = problem.kappa;
  const int n = problem.Q.rows();
  // Through the pool (sized_storage_pool.h): a Setup on sizes met before (contacts that come and
  // go along a rollout) allocates nothing.
  for (VectorXd* v : {&gradient_, &step_, &trial_, &objective_scratch_, &start_, &centred_, &zero_})
    storage_.Resize(v, n);
  zero_.setZero();
  Stack();
  normal_.Setup(problem_.Q, A_, offset_, dim_,
                SparsePathRule{settings.sparse_min_variables, settings.sparse_max_density});
  // A result not yet solved, on the storage of the last one (the message's capacity kept).
  result_.status = SolverStatus::kNotRun;
  result_.message.clear();
  result_.objective = 0.0;
  result_.info = LogBarrierInfo();
  storage_.Resize(&result_.x, n);
  ready_ = true;
}

bool LogBarrierSolver::SamePattern(const LogBarrierProblem& p) const {
  return ready_ && SameConePattern(p, problem_);
}

void LogBarrierSolver::UpdateValues(const LogBarrierProblem& problem) {
  QUASIDYN_CHECK_ARGUMENT(SamePattern(problem), "LogBarrierSolver::UpdateValues",
                          "the problem has other sizes or sparsity patterns than at Setup; call "
                          "Setup");
  ValidateProblem("LogBarrierSolver::UpdateValues", problem);
  problem_.Q = problem.Q;  // same sizes: storage reused
  problem_.c = problem.c;
  problem_.G = problem.G;
  problem_.h = problem.h;
  problem_.A = problem.A;
  problem_.b = problem.b;
  problem_.kappa = problem.kappa;
  Stack();
  normal_.UpdateValues(problem_.Q, A_);
}

void LogBarrierSolver::Stack() {
  linear_rows_ = problem_.G.rows();
  const int max_dim =
      StackConstraintBlocks(problem_.G, problem_.h, problem_.A, problem_.b, problem_.cone_dims,
                            problem_.Q.rows(), &A_, &b_, &offset_, &dim_, &storage_);
  const int rows = A_.rows();
  storage_.Resize(&u_, rows);
  storage_.Resize(&dual_, rows);
  storage_.Resize(&weights_, rows, max_dim);
}

// Phase 1 (Boyd & Vandenberghe §11.4.1): maximise the common margin −s over (x, s):
//   minimise s + ½ε(‖x‖² + s²)  s.t.  G x − h + s·1 >= 0,  (t_k + s, z_k) ∈ K_k,  s >= −1,
// with ε = 1e-8 keeping x bounded. Returns the margin −s and x.
double LogBarrierSolver::PhaseOne(VectorXd& x) {
  const LogBarrierProblem& p = problem_;
  const int n = p.Q.rows();
  SocpProblem& phase_one = phase_one_;
  phase_one.Q.Reset(n + 1);
  for (int j = 0; j <= n; ++j) {
    phase_one.Q.AppendRow();
    phase_one.Q.Append(j, 1e-8);
  }
  phase_one.c.setZero(n + 1);
  phase_one.c[n] = 1.0;
  const int rows = p.G.rows();
  phase_one.G.Reset(n + 1);
  for (int i = 0; i < rows; ++i) AppendRowWithLastColumn(p.G, i, n, 1.0, &phase_one.G);
  phase_one.G.AppendRow();
  phase_one.G.Append(n, 1.0);
  storage_.Resize(&phase_one.h, rows + 1);
  phase_one.h.head(rows) = p.h;
  phase_one.h[rows] = -1.0;
  phase_one.A.Reset(n + 1);
  for (int k = 0, row = 0; k < static_cast<int>(p.cone_dims.size()); ++k) {
    for (int r = 0; r < p.cone_dims[k]; ++r, ++row)
      AppendRowWithLastColumn(p.A, row, n, r == 0 ? 1.0 : 0.0, &phase_one.A);
  }
  storage_.Resize(&phase_one.b, p.b.size());
  phase_one.b = p.b;
  phase_one.cone_dims = p.cone_dims;
  // Only x and the margin are used: the SOCP's polish (exact zero duals) is not needed.
  SocpSettings settings;
  settings.polish.enabled = false;
  if (phase_one_solver_.SamePattern(phase_one)) {
    phase_one_solver_.UpdateValues(phase_one);
  } else {
    phase_one_solver_.Setup(phase_one, settings);
  }
  const SocpResult& r = phase_one_solver_.Solve();
  if (!Succeeded(r.status)) return -kInfinity;
  x = r.x.head(n);
  return -r.x[n];
}

void LogBarrierSolver::AddOffset() {
  u_ += b_;
  if (shift_ == 0.0) return;
  for (const int o : offset_) u_[o] += shift_;  // a linear row's argument, or a cone's t
}

bool LogBarrierSolver::StrictlyFeasible(const VectorXd& x) {
  normal_.MultiplyA(x, &u_);
  AddOffset();
  for (size_t k = 0; k < dim_.size(); ++k) {
    if (!(second_order_cone::InteriorMargin(u_.segment(offset_[k], dim_[k])) > 0)) return false;
  }
  return true;
}

double LogBarrierSolver::MinimumMargin(const VectorXd& x) {
  normal_.MultiplyA(x, &u_);
  AddOffset();
  return MarginOfArguments();
}

double LogBarrierSolver::MarginOfArguments() const {
  double margin = kInfinity;
  for (size_t k = 0; k < dim_.size(); ++k) {
    margin = std::min(margin, second_order_cone::InteriorMargin(u_.segment(offset_[k], dim_[k])));
  }
  return margin;
}

double LogBarrierSolver::Objective(double kappa, const VectorXd& x) {
  if (!StrictlyFeasible(x)) return kInfinity;  // sets u_
  double barrier = 0.0;
  for (int i = 0; i < linear_rows_; ++i) barrier += std::log(u_[i]);
  for (size_t k = linear_rows_; k < dim_.size(); ++k) {
    barrier += std::log(second_order_cone::JNorm2(u_.segment(offset_[k], dim_[k])));
  }
  normal_.MultiplyQ(x, &objective_scratch_);
  return 0.5 * x.dot(objective_scratch_) + problem_.c.dot(x) - barrier / kappa;
}

// With w = 1/κ, per block the derivatives of the barrier term −w·log(·) in its argument u:
//   linear row   −w log s:   gradient −w/s,            Hessian w/s²;
//   cone         −w log ψ, ψ = uᵀJu:  gradient −2w Ju/ψ,  Hessian w(4 Ju uᵀJ/ψ² − 2J/ψ),
// so ∇f = Qx + c − Aᵀ dual and ∇²f = Q + Aᵀ blockdiag(weights) A (chain rule, u = A x + b).
void LogBarrierSolver::Gradient(double kappa, const VectorXd& x, bool hessian) {
  const double w = 1.0 / kappa;
  normal_.MultiplyA(x, &u_);
  AddOffset();
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
  normal_.MultiplyQ(x, &gradient_);
  gradient_ += problem_.c;
  normal_.MultiplyAt(dual_, &step_);
  gradient_ -= step_;
  if (hessian) normal_.Assemble(weights_, 0.0);
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

SolverStatus LogBarrierSolver::Newton(double kappa, VectorXd& x, int& iterations, double& decrement,
                                      int max_iterations) {
  const LogBarrierSettings& s = settings_;
  for (int k = 0; k < max_iterations; ++k) {
    Gradient(kappa, x, true);
    if (!FactorHessian()) return SolverStatus::kNumericalFailure;
    normal_.Solve(gradient_, &step_);
    step_ = -step_;
    const double slope = gradient_.dot(step_);  // = −λ² (with the shifted H when shifted)
    if (!step_.allFinite() || !(slope <= 0)) return SolverStatus::kNumericalFailure;
    decrement = -0.5 * slope;
    const bool last = decrement <= s.decrement_tolerance;
    // Backtracking (Boyd & Vandenberghe, Algorithm 9.2); infinity outside the domain.
    const double f = Objective(kappa, x);
    double alpha = 1.0;
    int backtracks = 0;
    for (;; ++backtracks) {
      trial_ = x + alpha * step_;
      const double f_trial = Objective(kappa, trial_);
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

// The shifted start (phase 1 on the problem itself): every barrier argument is offset by σ >= 0,
//   linear row  G_i x − h_i + σ,   cone  (t_k + σ, z_k)
// (the cone's axis moved by σ: its margin t − ‖z‖ grows by σ), starting from
// σ_0 = shift_margin − (smallest margin at x), so that x is σ_0-feasible and no argument is
// below shift_margin. Each iteration is one damped Newton step on f with the shifted barrier,
// then σ ← max(0, σ − θ ν) with ν the smallest shifted argument at the new x: every shifted
// argument stays >= (1 − θ)ν > 0, so x stays inside the shifted domain. At σ = 0 the point is
// strictly feasible for the problem itself (margin >= (1 − θ)ν) and the Newton steps so far
// were on f plus a vanishing offset, so the start is near the minimiser. This is the
// "shifted barrier" of R. Polyak, "Modified barrier functions (theory and methods)", Math.
// Programming 54 (1992), with the shift driven to zero instead of updated by multipliers;
// its schedule θ and σ_0 are not stated there; ours: the settings' defaults. False (σ not at
// 0 within max_shift_iterations, or not on pace to be, or a failed Newton step): x is then not
// to be used.
bool LogBarrierSolver::ShiftedStart(double kappa, VectorXd& x, int& iterations) {
  const LogBarrierSettings& s = settings_;
  shift_ = 0.0;
  shift_ = std::max(0.0, s.shift_margin - MinimumMargin(x));
  double decrement = 0.0;
  bool reached = false;
  for (int k = 0; k < s.max_shift_iterations && !reached; ++k) {
    const SolverStatus status = Newton(kappa, x, iterations, decrement, 1);
    if (status != SolverStatus::kSolved && status != SolverStatus::kMaxIterations) break;
    const double pace = s.shift_reduction * MinimumMargin(x);  // the largest safe decrease
    shift_ = std::max(0.0, shift_ - pace);
    reached = shift_ == 0.0;
    // At this pace σ would not reach 0 within the remaining steps: the shifted minimiser
    // has an argument far below σ (a heavily loaded contact), so σ_0 was too large for this
    // problem; stop early and leave it to the SOCP.
    if (!reached && shift_ > pace * (s.max_shift_iterations - k - 1)) break;
  }
  shift_ = 0.0;
  return reached && StrictlyFeasible(x);
}

// Names the barrier with the smallest argument at the phase-1 point x.
std::string LogBarrierSolver::InfeasibilityMessage(double margin, const VectorXd& x) {
  std::ostringstream message;
  message << "no strictly feasible point (phase-1 margin " << margin << "); ";
  normal_.MultiplyA(x, &u_);
  u_ += b_;
  double worst = kInfinity;
  std::string name = "none";
  for (int k = 0; k < static_cast<int>(dim_.size()); ++k) {
    const double value = second_order_cone::InteriorMargin(u_.segment(offset_[k], dim_[k]));
    if (value < worst) {
      worst = value;
      name = k < linear_rows_ ? "linear barrier row " + std::to_string(k)
                              : "cone barrier " + std::to_string(k - linear_rows_);
    }
  }
  message << "most violated: " << name << " (value " << worst << ")";
  return message.str();
}

const LogBarrierResult& LogBarrierSolver::Solve(const VectorXd& x_start) {
  QUASIDYN_CHECK_ARGUMENT(ready_, "LogBarrierSolver::Solve", "call Setup first");
  hessian_factored_ = false;  // the Newton steps below factorise other matrices in normal_
  const auto start_time = std::chrono::steady_clock::now();
  const LogBarrierProblem& problem = problem_;
  const LogBarrierSettings& settings = settings_;
  const Eigen::Index n = problem.Q.rows();
  if (x_start.size() != 0) CheckVector("LogBarrierSolver::Solve", "x_start", x_start, n, "n");
  LogBarrierResult& result = result_;
  result.status = SolverStatus::kNotRun;
  result.message.clear();
  result.objective = 0.0;
  result.info = LogBarrierInfo();
  result.info.used_sparse_path = normal_.sparse();
  VectorXd& x = result.x;
  // Start: of the cheap candidates x_start, the previous minimiser and 0, the strictly feasible
  // one with the lowest f (for a self-concordant f, the number of damped Newton steps is
  // bounded by a multiple of κ(f(x0) − f*), Boyd & Vandenberghe §9.6.4).
  if (x_start.size() == n) {
    x = x_start;
  } else {
    x.setZero();
  }
  double best = kInfinity, best_margin = -kInfinity;
  const auto consider = [&](const VectorXd& candidate, bool previous) {
    const double value = Objective(problem.kappa, candidate);
    if (value < best) {
      best = value;
      x = candidate;
      result.info.used_previous_solution = previous;
    }
    // None strictly feasible: the least violated one is the shifted start's (u_ holds its
    // barrier arguments: Objective computed them).
    if (std::isfinite(best)) return;
    const double margin = MarginOfArguments();
    if (margin > best_margin) {
      best_margin = margin;
      x = candidate;
    }
  };
  if (x_start.size() == n) consider(x_start, false);
  if (settings.use_previous_solution && has_previous_x_ && previous_x_.size() == n)
    consider(previous_x_, true);
  consider(zero_, false);
  bool start_is_feasible = std::isfinite(best);
  int iterations = 0;  // Newton steps, the shifted start's included
  bool centred = start_is_feasible && MinimumMargin(x) >= settings.centring_margin;
  if (!centred && settings.shifted_start && std::isfinite(settings.centring_margin)) {
    centred_ = x;
    if (ShiftedStart(problem.kappa, centred_, iterations)) {
      x = centred_;
      start_is_feasible = centred = true;
      result.info.used_phase_one = result.info.used_shifted_start = true;
      result.info.used_previous_solution = false;
    }
  }
  if (start_is_feasible && !centred) {
    // Strictly feasible but nearly on a boundary (a contact at φ ≈ 0 with x = 0): the barrier
    // is badly scaled there and damped Newton needs many short steps. Start from the
    // phase-1 point instead when it is better centred.
    centred_ = x;
    result.info.used_phase_one_socp = true;
    const double margin = PhaseOne(centred_);
    if (margin > MinimumMargin(x) && StrictlyFeasible(centred_)) {
      result.info.used_phase_one = true;
      result.info.used_previous_solution = false;
      x = centred_;
    }
  }
  if (!start_is_feasible) {
    result.info.used_phase_one = result.info.used_phase_one_socp = true;
    const double margin = PhaseOne(x);
    if (!(margin > settings.feasibility_margin) || !StrictlyFeasible(x)) {
      result.status = SolverStatus::kInfeasible;
      result.message = InfeasibilityMessage(margin, x);
      result.info.newton_iterations = iterations;
      result.info.solve_time_seconds =
          std::chrono::duration<double>(std::chrono::steady_clock::now() - start_time).count();
      return result;
    }
  }

  double decrement = 0.0;
  start_ = x;
  SolverStatus status =
      Newton(problem.kappa, x, iterations, decrement, settings.max_newton_iterations);
  if (status != SolverStatus::kSolved) {
    // Continuation: κ_j = initial_kappa · growth^j below κ, then κ itself.
    result.info.used_continuation = true;
    x = start_;
    for (double kappa = settings.initial_kappa;; kappa *= settings.kappa_growth) {
      const double stage = std::min(kappa, problem.kappa);
      status = Newton(stage, x, iterations, decrement, settings.max_newton_iterations);
      if (stage == problem.kappa || !Succeeded(status)) break;
    }
  }
  // The Hessian (and gradient) at the returned x must be positive definite.
  if (!FactorHessianAtSolution()) status = SolverStatus::kNumericalFailure;
  if (Succeeded(status)) {
    previous_x_ = x;  // on its last storage: a cleared solution keeps it
    has_previous_x_ = true;
  }
  if (status != SolverStatus::kSolved) {
    result.message = std::string(ToString(status)) +
                     " (Newton decrement² / 2 = " + std::to_string(decrement) + ")";
  }
  result.status = status;
  result.objective = Objective(problem.kappa, x);
  result.info.newton_iterations = iterations;
  result.info.gradient_norm = gradient_.lpNorm<Eigen::Infinity>();
  result.info.decrement = decrement;
  result.info.solve_time_seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start_time).count();
  return result;
}

bool LogBarrierSolver::FactorHessianAtSolution() {
  QUASIDYN_CHECK_ARGUMENT(ready_, "LogBarrierSolver::FactorHessianAtSolution",
                          "call Setup and Solve first");
  Gradient(problem_.kappa, result_.x, true);
  hessian_factored_ = normal_.Factorize();
  return hessian_factored_;
}

void LogBarrierSolver::SolveWithHessian(const VectorXd& rhs, VectorXd* out) {
  QUASIDYN_CHECK_ARGUMENT(hessian_factored_, "LogBarrierSolver::SolveWithHessian",
                          "no factorised Hessian (FactorHessianAtSolution failed or was not run)");
  CheckSize("LogBarrierSolver::SolveWithHessian", "rhs", rhs.size(), normal_.size(), "n");
  QUASIDYN_CHECK_ARGUMENT(out != &rhs, "LogBarrierSolver::SolveWithHessian", "out must not be rhs");
  normal_.Solve(rhs, out);
}

LogBarrierResult Solve(const LogBarrierProblem& problem, const LogBarrierSettings& settings,
                       const VectorXd& x_start) {
  LogBarrierSolver solver;
  solver.Setup(problem, settings);
  return solver.Solve(x_start);
}

}  // namespace quasidyn
