#include "quasidyn/solvers/mixed_ncp_newton.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <utility>

#include "quasidyn/common/argument_check.h"

namespace quasidyn {

namespace {

constexpr char kWhere[] = "MixedNcpSolver";

double SecondsSince(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace

double FischerBurmeister(double a, double b) {
  const double r = std::hypot(a, b);
  const double sum = a + b;
  // (a + b − r)(a + b + r) = 2ab: no cancellation when a + b > 0.
  if (sum > 0.0) return 2.0 * a * b / (sum + r);
  return sum - r;
}

void ValidateMixedNcpSettings(const MixedNcpSettings& s) {
  QUASIDYN_CHECK_ARGUMENT(s.max_iterations > 0, kWhere, "max_iterations must be > 0");
  CheckPositive(kWhere, "tolerance", s.tolerance);
  QUASIDYN_CHECK_ARGUMENT(
      std::isfinite(s.inaccurate_tolerance) && s.inaccurate_tolerance >= s.tolerance, kWhere,
      "inaccurate_tolerance must be finite and >= tolerance");
  QUASIDYN_CHECK_ARGUMENT(s.armijo_fraction > 0.0 && s.armijo_fraction < 0.5, kWhere,
                          "armijo_fraction must lie in (0, 0.5)");
  QUASIDYN_CHECK_ARGUMENT(s.backtrack_factor > 0.0 && s.backtrack_factor < 1.0, kWhere,
                          "backtrack_factor must lie in (0, 1)");
  QUASIDYN_CHECK_ARGUMENT(s.max_backtracks > 0, kWhere, "max_backtracks must be > 0");
  QUASIDYN_CHECK_ARGUMENT(s.nonmonotone_memory >= 1, kWhere, "nonmonotone_memory must be >= 1");
  CheckPositive(kWhere, "descent_rho", s.descent_rho);
  QUASIDYN_CHECK_ARGUMENT(std::isfinite(s.descent_power) && s.descent_power > 2.0, kWhere,
                          "descent_power must be finite and > 2");
  QUASIDYN_CHECK_ARGUMENT(s.stall_ratio > 0.0 && s.stall_ratio < 1.0, kWhere,
                          "stall_ratio must lie in (0, 1)");
  QUASIDYN_CHECK_ARGUMENT(s.stall_window >= 1, kWhere, "stall_window must be >= 1");
  QUASIDYN_CHECK_ARGUMENT(s.singular_pivot_ratio >= 0.0 && s.singular_pivot_ratio < 1.0, kWhere,
                          "singular_pivot_ratio must lie in [0, 1)");
  CheckNonNegative(kWhere, "stationarity_tolerance", s.stationarity_tolerance);
  QUASIDYN_CHECK_ARGUMENT(s.stagnation_window >= 1, kWhere, "stagnation_window must be >= 1");
  QUASIDYN_CHECK_ARGUMENT(s.stagnation_tolerance >= 0.0 && s.stagnation_tolerance < 1.0, kWhere,
                          "stagnation_tolerance must lie in [0, 1)");
}

void MixedNcpSolver::Setup(const std::vector<NcpKind>& kinds, const MixedNcpSettings& settings) {
  ValidateMixedNcpSettings(settings);
  settings_ = settings;
  kinds_ = kinds;
  n_ = static_cast<int>(kinds.size());
  for (Eigen::VectorXd* v :
       {&z_, &F_, &phi_, &gradient_, &d_, &trial_z_, &trial_F_, &trial_phi_, &rhs_, &best_z_,
        &best_F_, &best_phi_, &result_.z, &result_.F, &result_.phi}) {
    v->setZero(n_);
  }
  for (Eigen::MatrixXd* m : {&J_, &H_, &normal_, &trial_J_, &best_J_}) m->setZero(n_, n_);
  lu_ = Eigen::PartialPivLU<Eigen::MatrixXd>(n_);
  normal_lu_ = Eigen::PartialPivLU<Eigen::MatrixXd>(n_);
  merits_.assign(static_cast<std::size_t>(settings.max_iterations) + 1, 0.0);
  best_merits_.assign(merits_.size(), 0.0);
  result_.status = SolverStatus::kNotRun;
  result_.message.reserve(256);
}

double MixedNcpSolver::Merit(const Eigen::VectorXd& z, const Eigen::VectorXd& F,
                             Eigen::VectorXd* phi) const {
  for (int i = 0; i < n_; ++i) {
    (*phi)[i] = kinds_[i] == NcpKind::kFree ? F[i] : FischerBurmeister(z[i], F[i]);
  }
  return 0.5 * phi->squaredNorm();
}

void MixedNcpSolver::PhiJacobian() {
  static const double kOrigin = 1.0 - 1.0 / std::sqrt(2.0);
  for (int i = 0; i < n_; ++i) {
    if (kinds_[i] == NcpKind::kFree) {
      H_.row(i) = J_.row(i);
      continue;
    }
    const double r = std::hypot(z_[i], F_[i]);
    const double da = r > 0.0 ? 1.0 - z_[i] / r : kOrigin;
    const double db = r > 0.0 ? 1.0 - F_[i] / r : kOrigin;
    H_.row(i) = db * J_.row(i);
    H_(i, i) += da;
  }
}

bool MixedNcpSolver::NewtonDirection() {
  if (n_ == 0) return false;
  lu_.compute(H_);
  const auto pivots = lu_.matrixLU().diagonal().cwiseAbs();
  const double largest = pivots.maxCoeff();
  if (!(largest > 0.0) || !(pivots.minCoeff() > settings_.singular_pivot_ratio * largest)) {
    return false;
  }
  rhs_ = -phi_;
  d_.noalias() = lu_.solve(rhs_);
  if (!d_.allFinite()) return false;
  const double norm = d_.norm();
  return gradient_.dot(d_) <= -settings_.descent_rho * std::pow(norm, settings_.descent_power);
}

bool MixedNcpSolver::MinNewtonDirection() {
  if (n_ == 0) return false;
  // The semismooth Newton step of the min reformulation min(z_i, F_i) = 0 (Facchinei & Pang
  // 2003, §9.1.4, the direction of their minFBLSA), whose rows switch between z_i = 0 and
  // F_i = 0 like an active set.
  for (int i = 0; i < n_; ++i) {
    if (kinds_[i] == NcpKind::kComplementarity && z_[i] <= F_[i]) {
      normal_.row(i).setZero();
      normal_(i, i) = 1.0;
      rhs_[i] = -z_[i];
    } else {
      normal_.row(i) = J_.row(i);
      rhs_[i] = -F_[i];
    }
  }
  normal_lu_.compute(normal_);
  const auto pivots = normal_lu_.matrixLU().diagonal().cwiseAbs();
  const double largest = pivots.maxCoeff();
  if (!(largest > 0.0) || !(pivots.minCoeff() > settings_.singular_pivot_ratio * largest)) {
    return false;
  }
  d_.noalias() = normal_lu_.solve(rhs_);
  if (!d_.allFinite()) return false;
  return gradient_.dot(d_) < 0.0;  // a descent direction of the Fischer–Burmeister merit
}

bool MixedNcpSolver::LevenbergMarquardtDirection() {
  if (n_ == 0) return false;
  normal_.noalias() = H_.transpose().lazyProduct(H_);
  const double largest = normal_.diagonal().maxCoeff();
  if (!(largest > 0.0) || !std::isfinite(largest)) return false;
  const double mu = std::clamp(phi_.norm(), 1e-12, 1.0);
  normal_.diagonal().array() += mu * largest;
  normal_lu_.compute(normal_);
  rhs_ = -gradient_;
  d_.noalias() = normal_lu_.solve(rhs_);
  return d_.allFinite();
}

bool MixedNcpSolver::LineSearch(MixedNcpFunction& function, double reference) {
  const double slope = gradient_.dot(d_);
  if (!(slope < 0.0)) return false;
  double t = 1.0;
  for (int b = 0; b <= settings_.max_backtracks; ++b) {
    trial_z_ = z_ + t * d_;
    ++result_.info.function_evaluations;
    if (function.Evaluate(trial_z_, &trial_F_, &trial_J_) && trial_F_.allFinite()) {
      const double merit = Merit(trial_z_, trial_F_, &trial_phi_);
      // The non-monotone reference admits the full step only; a shortened one must decrease Ψ.
      const double against = b == 0 ? reference : merit_;
      if (merit <= against + settings_.armijo_fraction * t * slope) {
        std::swap(z_, trial_z_);
        std::swap(F_, trial_F_);
        std::swap(phi_, trial_phi_);
        std::swap(J_, trial_J_);
        merit_ = merit;
        last_step_ = t;
        if (merit_ < best_merit_) {  // the best iterate so far, returned if later ones are worse
          best_merit_ = merit_;
          best_z_ = z_;
          best_F_ = F_;
          best_phi_ = phi_;
          best_J_ = J_;
        }
        return true;
      }
    }
    t *= settings_.backtrack_factor;
    ++result_.info.line_search_steps;
  }
  return false;
}

void MixedNcpSolver::Finish(SolverStatus status, const char* why) {
  if (status != SolverStatus::kSolved && best_merit_ < merit_) {  // return the best iterate
    z_ = best_z_;
    F_ = best_F_;
    phi_ = best_phi_;
    J_ = best_J_;
    merit_ = best_merit_;
    const double residual = n_ > 0 ? phi_.lpNorm<Eigen::Infinity>() : 0.0;
    if (residual <= settings_.inaccurate_tolerance) status = SolverStatus::kSolvedInaccurate;
  }
  if (J_.allFinite() && z_.allFinite() && F_.allFinite()) PhiJacobian();  // H at the returned z
  result_.status = status;
  result_.z = z_;
  result_.F = F_;
  result_.phi = phi_;
  result_.info.merit = merit_;
  result_.info.residual = n_ > 0 ? phi_.lpNorm<Eigen::Infinity>() : 0.0;
  result_.worst_index = -1;
  if (n_ > 0) phi_.cwiseAbs().maxCoeff(&result_.worst_index);
  result_.message.clear();
  if (status == SolverStatus::kSolved) return;
  result_.message = std::string("mixed NCP (semismooth Newton, Fischer-Burmeister): ") + why +
                    " after " + std::to_string(result_.info.iterations) +
                    " iterations; |Phi|_inf = " + NumberText(result_.info.residual);
  if (result_.worst_index >= 0) {
    result_.message +=
        " at index " + std::to_string(result_.worst_index) +
        (kinds_[result_.worst_index] == NcpKind::kFree ? " (equation)" : " (complementarity)");
  }
}

void MixedNcpSolver::PhiParameterJacobian(const Eigen::MatrixXd& dF_dp,
                                          Eigen::MatrixXd* dPhi_dp) const {
  QUASIDYN_CHECK_ARGUMENT(
      dF_dp.rows() == n_ && dPhi_dp->rows() == n_ && dPhi_dp->cols() == dF_dp.cols(),
      "MixedNcpSolver::PhiParameterJacobian", "sizes do not match");
  static const double kOrigin = 1.0 - 1.0 / std::sqrt(2.0);
  for (int i = 0; i < n_; ++i) {
    double db = 1.0;
    if (kinds_[i] == NcpKind::kComplementarity) {
      const double r = std::hypot(z_[i], F_[i]);
      db = r > 0.0 ? 1.0 - F_[i] / r : kOrigin;
    }
    dPhi_dp->row(i) = db * dF_dp.row(i);
  }
}

const MixedNcpResult& MixedNcpSolver::Solve(MixedNcpFunction& function, const Eigen::VectorXd& z0) {
  const auto start = std::chrono::steady_clock::now();
  QUASIDYN_CHECK_ARGUMENT(n_ >= 0, "MixedNcpSolver::Solve", "call Setup first");
  CheckVector("MixedNcpSolver::Solve", "z0", z0, n_, "n");
  result_.info = MixedNcpInfo{};
  best_merit_ = std::numeric_limits<double>::infinity();
  z_ = z0;
  ++result_.info.function_evaluations;
  if (!function.Evaluate(z_, &F_, &J_) || !F_.allFinite() || !J_.allFinite()) {
    merit_ = std::numeric_limits<double>::infinity();
    phi_.setConstant(std::numeric_limits<double>::quiet_NaN());
    Finish(SolverStatus::kNumericalFailure, "F or its Jacobian cannot be evaluated at z0");
    result_.info.solve_time_seconds = SecondsSince(start);
    return result_;
  }
  merit_ = Merit(z_, F_, &phi_);
  best_merit_ = merit_;
  best_z_ = z_;
  best_F_ = F_;
  best_phi_ = phi_;
  best_J_ = J_;
  int levenberg_marquardt_left = 0;
  for (int k = 0;; ++k) {
    merits_[k] = merit_;
    if (k == 0) best_merits_[0] = best_merit_;
    const double residual = n_ > 0 ? phi_.lpNorm<Eigen::Infinity>() : 0.0;
    if (residual <= settings_.tolerance) {
      Finish(SolverStatus::kSolved, "");
      break;
    }
    if (k == settings_.max_iterations) {
      Finish(residual <= settings_.inaccurate_tolerance ? SolverStatus::kSolvedInaccurate
                                                        : SolverStatus::kMaxIterations,
             "iteration limit reached");
      break;
    }
    PhiJacobian();
    if (!H_.allFinite()) {
      Finish(SolverStatus::kNumericalFailure, "the Jacobian is not finite");
      break;
    }
    gradient_.noalias() = H_.transpose() * phi_;
    const double stationarity = n_ > 0 ? gradient_.lpNorm<Eigen::Infinity>() : 0.0;
    if (stationarity <= settings_.stationarity_tolerance * std::max(1.0, residual)) {
      if (residual <= settings_.inaccurate_tolerance) {
        Finish(SolverStatus::kSolvedInaccurate, "the merit is stationary");
      } else {
        Finish(SolverStatus::kInfeasible,
               "stopped at a stationary point of the merit that is not a solution (the problem "
               "may have none here)");
      }
      break;
    }
    // Non-monotone reference: the largest of the last M merits.
    double reference = merit_;
    for (int j = std::max(0, k - settings_.nonmonotone_memory + 1); j <= k; ++j) {
      reference = std::max(reference, merits_[j]);
    }
    bool moved = false;
    const int gradient_steps_before = result_.info.gradient_steps;
    const int lm_steps_before = result_.info.levenberg_marquardt_steps;
    const int min_steps_before = result_.info.min_newton_steps;
    if (levenberg_marquardt_left == 0 && NewtonDirection() && LineSearch(function, reference)) {
      ++result_.info.newton_steps;
      moved = true;
    }
    if (!moved && MinNewtonDirection() && LineSearch(function, merit_)) {
      ++result_.info.min_newton_steps;
      moved = true;
    }
    if (!moved && LevenbergMarquardtDirection() && LineSearch(function, merit_)) {
      ++result_.info.levenberg_marquardt_steps;
      moved = true;
    }
    if (!moved) {
      d_ = -gradient_;
      if (LineSearch(function, merit_)) {
        ++result_.info.gradient_steps;
        moved = true;
      }
    }
    if (!moved) {
      if (residual <= settings_.inaccurate_tolerance) {
        Finish(SolverStatus::kSolvedInaccurate, "no direction decreases the merit any further");
      } else {
        Finish(SolverStatus::kInfeasible,
               "no direction decreases the merit (a stationary point of the merit that is not a "
               "solution: the problem may have none here)");
      }
      break;
    }
    ++result_.info.iterations;
    if (settings_.trace) {
      MixedNcpTrace trace;
      trace.iteration = result_.info.iterations;
      trace.direction = result_.info.gradient_steps > gradient_steps_before ? "gradient"
                        : result_.info.levenberg_marquardt_steps > lm_steps_before
                            ? "levenberg-marquardt"
                        : result_.info.min_newton_steps > min_steps_before ? "min-newton"
                                                                           : "newton";
      trace.step = last_step_;
      trace.merit = merit_;
      trace.residual = n_ > 0 ? phi_.lpNorm<Eigen::Infinity>() : 0.0;
      if (n_ > 0) phi_.cwiseAbs().maxCoeff(&trace.worst_index);
      trace.z = &z_;
      settings_.trace(trace);
    }
    if (levenberg_marquardt_left > 0) --levenberg_marquardt_left;
    const int window = settings_.stall_window;
    if (k + 1 >= window && merit_ > settings_.stall_ratio * merits_[k + 1 - window]) {
      levenberg_marquardt_left = window;
    }
    const double residual_now = n_ > 0 ? phi_.lpNorm<Eigen::Infinity>() : 0.0;
    best_merits_[k + 1] = best_merit_;
    const int span = settings_.stagnation_window;
    if (k + 1 >= span && residual_now > settings_.tolerance &&
        best_merits_[k + 1 - span] - best_merit_ <=
            settings_.stagnation_tolerance * best_merits_[k + 1 - span]) {
      Finish(residual_now <= settings_.inaccurate_tolerance ? SolverStatus::kSolvedInaccurate
                                                            : SolverStatus::kInfeasible,
             "the merit stagnates (a local minimum of the merit that is not a solution: the "
             "problem may have none here)");
      break;
    }
  }
  result_.info.solve_time_seconds = SecondsSince(start);
  return result_;
}

}  // namespace quasidyn
