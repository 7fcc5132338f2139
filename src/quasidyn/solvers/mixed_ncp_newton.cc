#include "quasidyn/solvers/mixed_ncp_newton.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <string>
#include <utility>

#include "quasidyn/common/all_finite.h"
#include "quasidyn/common/argument_check.h"

namespace quasidyn {

namespace {

constexpr char kWhere[] = "MixedNcpSolver";

double SecondsSince(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

// ‖(a, b)‖₂: √(a² + b²) where the squares neither overflow nor underflow (|a|, |b| within
// [1e-150, 1e150], or zero), std::hypot's scaling otherwise.
double Radius(double a, double b) {
  const double big = std::max(std::abs(a), std::abs(b));
  const double small = std::min(std::abs(a), std::abs(b));
  if (big < 1e150 && (small == 0.0 || small > 1e-150)) return std::sqrt(a * a + b * b);
  return std::hypot(a, b);
}

}  // namespace

namespace {

// φ(a, b) from r = Radius(a, b): (a + b − r)(a + b + r) = 2ab, no cancellation when a + b > 0.
inline double FischerBurmeisterOfRadius(double a, double b, double r) {
  const double sum = a + b;
  if (sum > 0.0) return 2.0 * a * b / (sum + r);
  return sum - r;
}

}  // namespace

double FischerBurmeister(double a, double b) {
  return FischerBurmeisterOfRadius(a, b, Radius(a, b));
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
  QUASIDYN_CHECK_ARGUMENT(s.eliminated_leading >= 0, kWhere, "eliminated_leading must be >= 0");
  QUASIDYN_CHECK_ARGUMENT(s.switch_threshold >= 0.0, kWhere, "switch_threshold must be >= 0");
  QUASIDYN_CHECK_ARGUMENT(s.switch_rounds >= 1, kWhere, "switch_rounds must be >= 1");
  QUASIDYN_CHECK_ARGUMENT(s.switch_backtracks >= 0, kWhere, "switch_backtracks must be >= 0");
}

void MixedNcpSolver::Setup(const std::vector<NcpKind>& kinds, const MixedNcpSettings& settings) {
  ValidateMixedNcpSettings(settings);
  settings_ = settings;
  kinds_ = kinds;
  n_ = static_cast<int>(kinds.size());
  QUASIDYN_CHECK_ARGUMENT(settings.eliminated_leading <= n_, kWhere,
                          "eliminated_leading (" + std::to_string(settings.eliminated_leading) +
                              ") must be at most the number of unknowns (" + std::to_string(n_) +
                              ")");
  for (Eigen::VectorXd* v : {&newton_d_, &model_z_, &model_F_}) v->setZero(n_);
  for (Eigen::VectorXd* v :
       {&z_,        &F_,          &phi_,    &gradient_,    &d_,        &trial_z_,
        &trial_F_,  &trial_phi_,  &rhs_,    &da_,          &db_,       &pivot_,
        &reduced_,  &scaled_phi_, &best_z_, &best_F_,      &best_phi_, &result_.z,
        &result_.F, &result_.phi, &radius_, &trial_radius_}) {
    v->setZero(n_);
  }
  for (Eigen::MatrixXd* m : {&J_, &H_, &normal_, &trial_J_}) m->setZero(n_, n_);
  jacobian_current_ = phi_jacobian_current_ = false;
  contraction_ = std::numeric_limits<double>::infinity();
  contractions_.assign(static_cast<std::size_t>(settings.max_iterations) + 1,
                       std::numeric_limits<double>::infinity());
  for (int i = 0; i < settings.eliminated_leading; ++i) {
    QUASIDYN_CHECK_ARGUMENT(kinds_[i] == NcpKind::kFree, kWhere,
                            "the eliminated_leading unknowns must be free (unknown " +
                                std::to_string(i) + " is a complementarity)");
  }
  complementarity_.clear();
  for (int i = 0; i < n_; ++i) {
    if (kinds_[i] == NcpKind::kComplementarity) complementarity_.push_back(i);
  }
  // A free row's ∂φ/∂a, ∂φ/∂b are 0, 1 for good (PhiJacobian writes the complementarity rows).
  for (int i = 0; i < n_; ++i) {
    da_[i] = 0.0;
    db_[i] = 1.0;
  }
  lu_.Resize(n_, settings.eliminated_leading);
  unit_.assign(n_, 0);
  keep_.reserve(n_);
  normal_lu_ = Eigen::PartialPivLU<Eigen::MatrixXd>(n_);
  merits_.assign(static_cast<std::size_t>(settings.max_iterations) + 1, 0.0);
  best_merits_.assign(merits_.size(), 0.0);
  result_.status = SolverStatus::kNotRun;
  result_.message.reserve(256);
}

double MixedNcpSolver::Merit(const Eigen::VectorXd& z, const Eigen::VectorXd& F,
                             Eigen::VectorXd* phi, Eigen::VectorXd* radius) const {
  *phi = F;  // the free rows; the complementarity rows below
  for (const int i : complementarity_) {
    const double r = Radius(z[i], F[i]);
    (*radius)[i] = r;
    (*phi)[i] = FischerBurmeisterOfRadius(z[i], F[i], r);
  }
  return 0.5 * phi->squaredNorm();
}

void MixedNcpSolver::PhiJacobian() {
  // H = diag(∂φ/∂b) J + diag(∂φ/∂a): ∂φ/∂a, ∂φ/∂b here; H itself by PhiJacobianMatrix.
  // Free rows: 0 and 1, set by Setup.
  static const double kOrigin = 1.0 - 1.0 / std::sqrt(2.0);
  for (const int i : complementarity_) {
    const double r = radius_[i];  // Radius(z_i, F_i), kept by Merit with z_ and F_
    da_[i] = r > 0.0 ? 1.0 - z_[i] / r : kOrigin;
    db_[i] = r > 0.0 ? 1.0 - F_[i] / r : kOrigin;
  }
  phi_jacobian_current_ = false;
}

void MixedNcpSolver::PhiJacobianMatrix() {
  if (phi_jacobian_current_) return;
  for (int j = 0; j < n_; ++j) {
    double* h = H_.col(j).data();
    const double* J = J_.col(j).data();
    for (int i = 0; i < n_; ++i) h[i] = db_[i] * J[i];
    h[j] += da_[j];
  }
  phi_jacobian_current_ = true;
}

bool MixedNcpSolver::SolveWithUnitRows(const double* row_scale, const double* diagonal,
                                       const Eigen::MatrixXd* kept_factor_jacobian) {
  const bool factor = kept_factor_jacobian == nullptr;
  const Eigen::MatrixXd& G = factor ? J_ : *kept_factor_jacobian;
  if (factor) newton_factor_ = false;  // NewtonDirection sets it after its own factorisation
  // Rows i with unit_[i] are pivot_[i] e_iᵀ: d_i = rhs_i / pivot_i, and the other unknowns solve
  // M(K, K) d_K = rhs_K − Σ_i M(K, i) d_i over the rest K.
  keep_.clear();
  double lo = std::numeric_limits<double>::infinity(), hi = 0.0;
  for (int i = 0; i < n_; ++i) {
    if (!unit_[i]) {
      keep_.push_back(i);
      continue;
    }
    const double pivot = std::abs(pivot_[i]);
    lo = std::min(lo, pivot);
    hi = std::max(hi, pivot);
    d_[i] = pivot > 0.0 ? rhs_[i] / pivot_[i] : 0.0;
  }
  const int r = static_cast<int>(keep_.size());
  for (int j = 0; j < r; ++j) reduced_[j] = rhs_[keep_[j]];
  for (int i = 0; i < n_; ++i) {  // M(K, i) = diag(row_scale) J(K, i): i is not in K
    const double di = d_[i];
    if (!unit_[i] || di == 0.0) continue;
    const double* column = G.col(i).data();
    const int* K = keep_.data();
    double* w = reduced_.data();
    if (row_scale != nullptr) {
      for (int j = 0; j < r; ++j) w[j] -= row_scale[K[j]] * column[K[j]] * di;
    } else {  // 1.0 · J_ki: the same product
      for (int j = 0; j < r; ++j) w[j] -= column[K[j]] * di;
    }
  }
  // The right side is formed first: the padded factorisation eliminates it with S (schur_lu.h).
  if (!factor) {
    lu_.Solve(reduced_.data(), reduced_.data());
  } else if (!lu_.FactorSolve(J_, row_scale, diagonal, keep_, settings_.singular_pivot_ratio, lo,
                              hi, reduced_.data(), reduced_.data())) {
    return false;
  }
  for (int j = 0; j < r; ++j) d_[keep_[j]] = reduced_[j];
  return true;
}

bool MixedNcpSolver::NewtonDirection() {
  if (n_ == 0) return false;
  // Rows of H with ∂φ/∂b = 0 (z_i = 0 < F_i: an inactive complementarity) are ∂φ/∂a e_iᵀ.
  for (int i = 0; i < n_; ++i) {
    unit_[i] = kinds_[i] == NcpKind::kComplementarity && db_[i] == 0.0;
    pivot_[i] = da_[i];
  }
  rhs_ = -phi_;
  if (!SolveWithUnitRows(db_.data(), da_.data())) return false;  // H = diag(db) J + diag(da)
  newton_factor_ = true;  // lu_, unit_ and pivot_ hold H's system (for the chord step)
  if (!d_.allFinite()) return false;
  // ∇Ψᵀd = Φᵀ H d = −‖Φ‖² = −2Ψ for the solution d of H d = −Φ (De Luca et al., eq. (17)'s
  // left side without forming ∇Ψ).
  // ‖d‖^p <= ‖d‖² where ‖d‖ <= 1 (p > 2): the power is formed only when that bound fails.
  const double squared = d_.squaredNorm();
  const double rho = settings_.descent_rho;
  if (squared <= 1.0 && 2.0 * merit_ >= rho * squared) return true;
  return -2.0 * merit_ <= -rho * std::pow(std::sqrt(squared), settings_.descent_power);
}

void MixedNcpSolver::ModelFunction(const Eigen::VectorXd& d, Eigen::VectorXd* model) const {
  // F + J d on the complementarity rows only (the ones Crosses and SwitchedDirection read):
  // a dot product of J's row with d each.
  double* __restrict m = model->data();
  const double* __restrict dd = d.data();
  const double* __restrict f = F_.data();
  const double* __restrict J = J_.data();
  const int* rows = complementarity_.data();
  const int count = static_cast<int>(complementarity_.size()), n = n_;
  for (int c = 0; c < count; ++c) {
    const double* row = J + rows[c];
    double sum = f[rows[c]];
    for (int j = 0; j < n; ++j) sum += row[static_cast<std::ptrdiff_t>(j) * n] * dd[j];
    m[rows[c]] = sum;
  }
}

void MixedNcpSolver::NewtonModelFunction() {
  // Row i of the Newton system is ∂φ/∂b_i (J d)_i + ∂φ/∂a_i d_i = −Φ_i, so where ∂φ/∂b_i is not
  // small, (J d)_i = (−Φ_i − ∂φ/∂a_i d_i)/∂φ/∂b_i to the solve's rounding (a backward-stable LU's
  // residual, ε‖H‖‖d‖, over ∂φ/∂b_i <= 4 times that); elsewhere (an inactive row, ∂φ/∂b = 0, or
  // near it) J's row times d.
  constexpr double kFromSystem = 0.25;
  const int n = n_;
  for (const int i : complementarity_) {
    model_z_[i] = z_[i] + d_[i];
    if (db_[i] >= kFromSystem) {
      model_F_[i] = F_[i] + (-phi_[i] - da_[i] * d_[i]) / db_[i];
      continue;
    }
    const double* row = J_.data() + i;
    double sum = F_[i];
    for (int j = 0; j < n; ++j) sum += row[static_cast<std::ptrdiff_t>(j) * n] * d_[j];
    model_F_[i] = sum;
  }
}

bool MixedNcpSolver::Crosses(const Eigen::VectorXd& z, const Eigen::VectorXd& F) const {
  for (const int i : complementarity_) {
    if (std::min(z[i], F[i]) < -settings_.switch_threshold) return true;
  }
  return false;
}

bool MixedNcpSolver::SwitchedDirection() {
  // The min-Newton system (MinNewtonDirection) with its rows chosen at the model's point
  // (model_z_, model_F_) instead of z: z_i + d_i = 0 where model_z_i <= model_F_i, else
  // F_i + ∇F_i d = 0; the choice re-read from the new direction's model point until it repeats
  // (the linearised complementarity problem of a Josephy–Newton step solved by its active set,
  // at most switch_rounds solves). The Newton direction is kept in newton_d_.
  newton_d_ = d_;
  for (int round = 0; round < settings_.switch_rounds; ++round) {
    bool same = round > 0;
    for (int i = 0; i < n_; ++i) {
      const bool unit = kinds_[i] == NcpKind::kComplementarity && model_z_[i] <= model_F_[i];
      same = same && unit == static_cast<bool>(unit_[i]);
      unit_[i] = unit;
      pivot_[i] = 1.0;
      rhs_[i] = unit ? -z_[i] : -F_[i];
    }
    if (same) break;
    if (!SolveWithUnitRows(nullptr, nullptr) || !d_.allFinite()) {
      std::swap(d_, newton_d_);
      return false;
    }
    model_z_ = z_ + d_;
    ModelFunction(d_, &model_F_);
  }
  return true;
}

bool MixedNcpSolver::MinNewtonDirection() {
  if (n_ == 0) return false;
  // The semismooth Newton step of the min reformulation min(z_i, F_i) = 0 (Facchinei & Pang
  // 2003, §9.1.4, the direction of their minFBLSA), whose rows switch between z_i = 0 and
  // F_i = 0 like an active set.
  for (int i = 0; i < n_; ++i) {
    unit_[i] = kinds_[i] == NcpKind::kComplementarity && z_[i] <= F_[i];
    pivot_[i] = 1.0;
    rhs_[i] = unit_[i] ? -z_[i] : -F_[i];
  }
  if (!SolveWithUnitRows(nullptr, nullptr)) return false;  // J's rows where not e_iᵀ
  if (!d_.allFinite()) return false;
  return gradient_.dot(d_) < 0.0;  // a descent direction of the Fischer–Burmeister merit
}

bool MixedNcpSolver::LevenbergMarquardtDirection() {
  if (n_ == 0) return false;
  PhiJacobianMatrix();
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

double MixedNcpSolver::PredictedResidual(int iteration, double residual) const {
  // C of the full Newton step of the same index in the last solve where there was one (the
  // step NCPs of a run converge alike step by step), else the last observed C.
  const double contraction =
      std::isfinite(contractions_[iteration]) ? contractions_[iteration] : contraction_;
  return contraction * residual * residual;
}

bool MixedNcpSolver::ExpectedLast(int iteration, double residual) const {
  return PredictedResidual(iteration, residual) <= settings_.tolerance;
}

bool MixedNcpSolver::ChordExpected(int iteration, double before, double after) const {
  // The chord step's residual is about 2 r_{k+1}²/r_k (mixed_ncp_newton.h); within half the
  // tolerance, and not after the first step.
  return settings_.chord_steps && iteration >= 1 &&
         4.0 * after * after <= settings_.tolerance * before;
}

bool MixedNcpSolver::LineSearch(MixedNcpFunction& function, double reference, bool newton,
                                int iteration, int first_backtrack, int last_backtrack) {
  // The Newton direction's ∇Ψᵀd is −2Ψ (NewtonDirection); the others' from ∇Ψ.
  const double slope = newton ? -2.0 * merit_ : gradient_.dot(d_);
  if (!(slope < 0.0)) return false;
  const double residual = residual_;  // ‖Φ‖∞ at z_
  // The full Newton step is expected to end the iterations: F alone there.
  // So is a full Newton step expected to be followed by a chord step that ends them (the
  // chord step needs no J at its start).
  const double predicted = PredictedResidual(iteration, residual);
  const bool last = chord_ || (newton && (predicted <= settings_.tolerance ||
                                          (record_contraction_ && newton_factor_ &&
                                           ChordExpected(iteration, residual, predicted))));
  double t = 1.0;
  for (int b = 0; b < first_backtrack; ++b) t *= settings_.backtrack_factor;
  for (int b = first_backtrack; b <= last_backtrack; ++b) {
    trial_z_ = z_ + t * d_;
    ++result_.info.function_evaluations;
    // A shortened step is evaluated without the Jacobian (it is evaluated there if accepted).
    const bool with_jacobian = b == 0 && !last;
    if (function.Evaluate(trial_z_, &trial_F_, with_jacobian ? &trial_J_ : nullptr) &&
        trial_F_.allFinite()) {
      const double merit = Merit(trial_z_, trial_F_, &trial_phi_, &trial_radius_);
      // The non-monotone reference admits the full step only; a shortened one must decrease Ψ.
      const double against = b == 0 ? reference : merit_;
      if (merit <= against + settings_.armijo_fraction * t * slope) {
        std::swap(z_, trial_z_);
        std::swap(F_, trial_F_);
        std::swap(phi_, trial_phi_);
        std::swap(radius_, trial_radius_);
        if (with_jacobian) std::swap(J_, trial_J_);
        jacobian_current_ = with_jacobian;
        phi_jacobian_current_ = false;
        merit_ = merit;
        residual_ = n_ > 0 ? phi_.lpNorm<Eigen::Infinity>() : 0.0;
        last_step_ = t;
        if (newton && record_contraction_ && b == 0 && residual > 0.0) {
          contraction_ = residual_ / (residual * residual);
          contractions_[iteration] = contraction_;
        }
        // A full Newton step that came close: the chord step with this step's factor is
        // expected to end the iterations (mixed_ncp_newton.h).
        chord_ready_ = newton && record_contraction_ && !chord_ && newton_factor_ && b == 0 &&
                       ChordExpected(iteration, residual, residual_);
        // The best iterate so far, returned if later ones are worse. It is copied only when the
        // iterations leave it: the point just left is in the trial buffers after the swaps.
        if (merit_ < best_merit_) {
          best_merit_ = merit_;
          best_is_current_ = true;
        } else if (best_is_current_) {
          best_z_ = trial_z_;
          best_F_ = trial_F_;
          best_phi_ = trial_phi_;
          best_is_current_ = false;
        }
        return true;
      }
    }
    t *= settings_.backtrack_factor;
    ++result_.info.line_search_steps;
  }
  return false;
}

bool MixedNcpSolver::ChordStep(MixedNcpFunction& function, int iteration) {
  // d = −H⁻¹Φ(z) with H the last Newton system's (at the previous iterate, still factorised:
  // ∂φ/∂a, ∂φ/∂b and the unit rows are still that system's, PhiJacobian not yet called). Near a
  // solution, after a full Newton step that came close, Φ(z + d) = (I − H(z) H⁻¹) Φ(z) + O(‖Φ‖²),
  // with ‖H(z) − H‖ = O(‖Δz‖) small: the simplified (chord) Newton method (Ortega & Rheinboldt,
  // "Iterative Solution of Nonlinear Equations in Several Variables", 1970, §7.1), for the
  // price of a solve with the kept factor and one F.
  // That system's J: J_ unless the step to z_ evaluated J there (then it is in trial_J_).
  rhs_ = -phi_;
  const Eigen::MatrixXd& jacobian = jacobian_current_ ? trial_J_ : J_;
  if (!SolveWithUnitRows(db_.data(), da_.data(), &jacobian) || !d_.allFinite()) return false;
  // Its full step, evaluated without J, must decrease the merit: Ψ(z + d) <= (1 − 2σ) Ψ(z).
  chord_ = true;
  record_contraction_ = false;
  const bool moved = LineSearch(function, merit_, true, iteration, 0, 0);
  chord_ = false;
  record_contraction_ = true;
  return moved;
}

bool MixedNcpSolver::UpdateJacobian(MixedNcpFunction& function) {
  if (jacobian_current_) return true;
  ++result_.info.function_evaluations;
  // F again (the same F_: Evaluate computes it in the same way with or without J).
  if (!function.Evaluate(z_, &trial_F_, &J_)) return false;
  jacobian_current_ = true;
  phi_jacobian_current_ = false;
  return true;
}

bool MixedNcpSolver::EnsureJacobian(MixedNcpFunction& function) {
  QUASIDYN_CHECK_ARGUMENT(n_ >= 0, "MixedNcpSolver::EnsureJacobian", "call Setup first");
  if (!UpdateJacobian(function) || !AllFinite(J_.data(), J_.size())) return false;
  if (!phi_jacobian_current_) {
    PhiJacobian();
    PhiJacobianMatrix();
  }
  return true;
}

void MixedNcpSolver::Finish(SolverStatus status, const char* why) {
  // Return the best iterate (when it is not z_ itself, best_merit_ < merit_; when it is, they
  // are equal).
  if (status != SolverStatus::kSolved && best_merit_ < merit_) {
    z_ = best_z_;
    F_ = best_F_;
    phi_ = best_phi_;
    for (const int i : complementarity_) radius_[i] = Radius(z_[i], F_[i]);
    jacobian_current_ = phi_jacobian_current_ = false;
    merit_ = best_merit_;
    residual_ = n_ > 0 ? phi_.lpNorm<Eigen::Infinity>() : 0.0;
    if (residual_ <= settings_.inaccurate_tolerance) status = SolverStatus::kSolvedInaccurate;
  }
  // H at the returned z is formed by EnsureJacobian, when asked for (phi_jacobian_current_ is
  // false here unless it is already there).
  result_.status = status;
  result_.z = z_;
  result_.F = F_;
  result_.phi = phi_;
  result_.info.merit = merit_;
  result_.info.residual = residual_;
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
      const double r = Radius(z_[i], F_[i]);
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
  jacobian_current_ = phi_jacobian_current_ = false;
  // A non-finite entry of J is found where it is used: the Newton system's pivot test or its
  // direction's finiteness rejects it, and ∇Ψ, formed then, is not finite (below).
  if (!function.Evaluate(z_, &F_, &J_) || !F_.allFinite()) {
    merit_ = std::numeric_limits<double>::infinity();
    phi_.setConstant(std::numeric_limits<double>::quiet_NaN());
    for (const int i : complementarity_) radius_[i] = Radius(z_[i], F_[i]);  // kept with z_, F_
    residual_ = n_ > 0 ? phi_.lpNorm<Eigen::Infinity>() : 0.0;
    Finish(SolverStatus::kNumericalFailure, "F or its Jacobian cannot be evaluated at z0");
    result_.info.solve_time_seconds = SecondsSince(start);
    return result_;
  }
  jacobian_current_ = true;
  chord_ready_ = false;
  merit_ = Merit(z_, F_, &phi_, &radius_);
  residual_ = n_ > 0 ? phi_.lpNorm<Eigen::Infinity>() : 0.0;
  best_merit_ = merit_;
  best_is_current_ = true;
  int levenberg_marquardt_left = 0;
  for (int k = 0;; ++k) {
    merits_[k] = merit_;
    if (k == 0) best_merits_[0] = best_merit_;
    const double residual = residual_;
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
    // The chord step (ChordStep) after a full Newton step that ended just above the tolerance
    // (mixed_ncp_newton.h): no J, no factorisation; the usual iteration when it fails.
    const int chord_steps_before = result_.info.chord_steps;
    if (chord_ready_) {
      chord_ready_ = false;
      if (ChordStep(function, k)) ++result_.info.chord_steps;
    }
    const bool chord = result_.info.chord_steps > chord_steps_before;
    if (!chord && !UpdateJacobian(function)) {
      Finish(SolverStatus::kNumericalFailure, "the Jacobian cannot be evaluated at an iterate");
      break;
    }
    if (!chord) PhiJacobian();
    // Non-monotone reference: the largest of the last M merits.
    double reference = merit_;
    for (int j = std::max(0, k - settings_.nonmonotone_memory + 1); j <= k; ++j) {
      reference = std::max(reference, merits_[j]);
    }
    bool moved = chord;
    const int gradient_steps_before = result_.info.gradient_steps;
    const int lm_steps_before = result_.info.levenberg_marquardt_steps;
    const int min_steps_before = result_.info.min_newton_steps;
    const int switch_steps_before = result_.info.switch_steps;
    // The Newton step does not need ∇Ψ: its slope is −‖Φ‖² (below), and where H passes the
    // pivot test it is invertible, so ∇Ψ = HᵀΦ vanishes only at a solution.
    if (!moved && levenberg_marquardt_left == 0 && NewtonDirection()) {
      // The active-set switch (mixed_ncp_newton.h): the Newton step's linear model z + d,
      // F + J d, puts a complementarity pair well outside the quadrant; the switched direction
      // is tried first, with a short line search, then the Newton direction's own.
      // Not where the full step is expected to end the iterations (LineSearch).
      const bool switch_considered = !ExpectedLast(k, residual);
      if (switch_considered) NewtonModelFunction();
      if (switch_considered && Crosses(model_z_, model_F_) && SwitchedDirection()) {
        record_contraction_ = false;  // C belongs to the Newton step (LineSearch)
        if (LineSearch(function, merit_, true, k, 0, settings_.switch_backtracks)) {
          ++result_.info.switch_steps;
          moved = true;
        } else {
          std::swap(d_, newton_d_);
        }
        record_contraction_ = true;
      }
      if (!moved) moved = LineSearch(function, reference, true, k);
      if (moved) ++result_.info.newton_steps;
    }
    if (!moved) {
      // ∇Ψ = Hᵀ Φ = Jᵀ (∂φ/∂b ∘ Φ) + ∂φ/∂a ∘ Φ: not finite exactly when an entry of J is not
      // (Φ is finite, ∂φ/∂b in [0, 2]: inf·x and NaN·x are not finite for every x).
      scaled_phi_ = db_.cwiseProduct(phi_);
      gradient_.noalias() = J_.transpose() * scaled_phi_;
      gradient_ += da_.cwiseProduct(phi_);
      if (!gradient_.allFinite()) {
        Finish(SolverStatus::kNumericalFailure, "the Jacobian is not finite");
        break;
      }
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
    }
    if (!moved && MinNewtonDirection() && LineSearch(function, merit_, false, k)) {
      ++result_.info.min_newton_steps;
      moved = true;
    }
    if (!moved && LevenbergMarquardtDirection() && LineSearch(function, merit_, false, k)) {
      ++result_.info.levenberg_marquardt_steps;
      moved = true;
    }
    if (!moved) {
      d_ = -gradient_;
      if (LineSearch(function, merit_, false, k)) {
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
      trace.direction = chord                                                 ? "chord"
                        : result_.info.gradient_steps > gradient_steps_before ? "gradient"
                        : result_.info.levenberg_marquardt_steps > lm_steps_before
                            ? "levenberg-marquardt"
                        : result_.info.min_newton_steps > min_steps_before ? "min-newton"
                        : result_.info.switch_steps > switch_steps_before  ? "newton-switch"
                                                                           : "newton";
      trace.step = last_step_;
      trace.merit = merit_;
      trace.residual = residual_;
      if (n_ > 0) phi_.cwiseAbs().maxCoeff(&trace.worst_index);
      trace.z = &z_;
      settings_.trace(trace);
    }
    if (levenberg_marquardt_left > 0) --levenberg_marquardt_left;
    const int window = settings_.stall_window;
    if (k + 1 >= window && merit_ > settings_.stall_ratio * merits_[k + 1 - window]) {
      levenberg_marquardt_left = window;
    }
    const double residual_now = residual_;
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
