#include "quasidyn/control/smoothed_linearizer.h"

#include <algorithm>
#include <cmath>
#include <utility>

#include "quasidyn/common/argument_check.h"

namespace quasidyn {

const char* SmoothingMethodName(SmoothingMethod method) {
  return method == SmoothingMethod::kLogBarrier ? "log-barrier" : "randomized";
}

SmoothingMethod ParseSmoothingMethod(const std::string& name) {
  if (name == "log-barrier") return SmoothingMethod::kLogBarrier;
  if (name == "randomized") return SmoothingMethod::kRandomized;
  ThrowInvalidArgument("ParseSmoothingMethod",
                       "unknown smoothing '" + name + "' (expected log-barrier or randomized)");
}

void ValidateSmoothingSchedule(const SmoothingSchedule& s) {
  constexpr const char* kWhere = "SmoothingSchedule";
  auto finite_positive = [](double x) { return std::isfinite(x) && x > 0.0; };
  QUASIDYN_CHECK_ARGUMENT(finite_positive(s.kappa_start), kWhere, "kappa_start must be > 0");
  QUASIDYN_CHECK_ARGUMENT(std::isfinite(s.kappa_growth) && s.kappa_growth >= 1.0, kWhere,
                          "kappa_growth must be >= 1");
  QUASIDYN_CHECK_ARGUMENT(std::isfinite(s.kappa_max) && s.kappa_max >= s.kappa_start, kWhere,
                          "kappa_max must be >= kappa_start");
  QUASIDYN_CHECK_ARGUMENT(finite_positive(s.std_start), kWhere, "std_start must be > 0");
  QUASIDYN_CHECK_ARGUMENT(s.std_decay > 0.0 && s.std_decay <= 1.0, kWhere,
                          "std_decay must be in (0, 1]");
  QUASIDYN_CHECK_ARGUMENT(finite_positive(s.std_min) && s.std_min <= s.std_start, kWhere,
                          "std_min must be in (0, std_start]");
  QUASIDYN_CHECK_ARGUMENT(s.samples >= 1, kWhere, "samples must be >= 1");
  QUASIDYN_CHECK_ARGUMENT(s.threads >= 1, kWhere, "threads must be >= 1");
}

double SmoothingParameter(const SmoothingSchedule& s, int iteration) {
  QUASIDYN_CHECK_ARGUMENT(iteration >= 0, "SmoothingParameter", "iteration must be >= 0");
  if (s.method == SmoothingMethod::kLogBarrier) {
    return std::min(s.kappa_start * std::pow(s.kappa_growth, iteration), s.kappa_max);
  }
  return std::max(s.std_start * std::pow(s.std_decay, iteration), s.std_min);
}

namespace {

LinearizationOptions BarrierOptions(double kappa) {
  LinearizationOptions options;
  options.method = LinearizationMethod::kLogBarrier;
  options.kappa = kappa;
  options.warm_start = true;
  return options;
}

StepLinearization Taken(Linearization l) {
  StepLinearization out;
  out.status = l.status;
  out.message = std::move(l.message);
  out.q_next = std::move(l.x_next.q);
  out.A = std::move(l.A);
  out.B = std::move(l.B);
  return out;
}

}  // namespace

SmoothedLinearizer::SmoothedLinearizer(std::shared_ptr<const StepModel> exact,
                                       const SmoothingSchedule& schedule)
    : exact_(std::move(exact)), schedule_(schedule) {
  constexpr const char* kWhere = "SmoothedLinearizer";
  QUASIDYN_CHECK_ARGUMENT(exact_ != nullptr, kWhere, "the model is null");
  QUASIDYN_CHECK_ARGUMENT(exact_->capabilities().state == StateKind::kConfiguration, kWhere,
                          "the optimiser's states are configurations; " +
                              exact_->formulation().name + " has a state of " +
                              StateKindName(exact_->capabilities().state));
  ValidateSmoothingSchedule(schedule_);
  if (schedule_.method == SmoothingMethod::kLogBarrier) {
    // Made now, so that a formulation without log-barrier smoothing is refused here.
    const double kappa = SmoothingParameter(schedule_, 0);
    barrier_.emplace(kappa, std::make_unique<Linearizer>(*exact_, BarrierOptions(kappa)));
  } else {
    LinearizationOptions options;
    options.method = LinearizationMethod::kRandomized;
    options.randomized.samples = schedule_.samples;
    options.randomized.u_std = schedule_.std_start;
    options.randomized.seed = schedule_.seed;
    options.threads = schedule_.threads;
    randomized_ = std::make_unique<Linearizer>(*exact_, options);
  }
}

StepLinearization SmoothedLinearizer::Linearize(const Eigen::VectorXd& q, const Eigen::VectorXd& u,
                                                int iteration) {
  return LinearizeWith(q, u, SmoothingParameter(schedule_, iteration));
}

StepLinearization SmoothedLinearizer::LinearizeWith(const Eigen::VectorXd& q,
                                                    const Eigen::VectorXd& u, double parameter) {
  const State x{q, Eigen::VectorXd()};
  if (schedule_.method == SmoothingMethod::kRandomized) {
    RandomizedSmoothingSettings settings = randomized_->options().randomized;
    settings.u_std = parameter;
    randomized_->SetRandomized(settings);
    return Taken(randomized_->Linearize(x, u));
  }
  auto it = barrier_.find(parameter);
  if (it == barrier_.end())
    it = barrier_
             .emplace(parameter, std::make_unique<Linearizer>(*exact_, BarrierOptions(parameter)))
             .first;
  return Taken(it->second->Linearize(x, u));
}

}  // namespace quasidyn
