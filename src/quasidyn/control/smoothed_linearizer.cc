#include "quasidyn/control/smoothed_linearizer.h"

#include <algorithm>
#include <cmath>
#include <utility>

#include "quasidyn/common/argument_check.h"

namespace quasidyn {

const char* SmoothingMethodName(SmoothingMethod method) {
  return method == SmoothingMethod::kLogBarrier ? "log-barrier" : "randomized";
}

const SettingsSchema<SmoothingSchedule>& SmoothingScheduleSchema() {
  static const SettingsSchema<SmoothingSchedule>* const schema = [] {
    using S = SmoothingSchedule;
    auto* s = new SettingsSchema<S>(
        "smoothing",
        "the annealing schedule of the smoothed linearisations, κ_i = min(κ_0 γ^i, κ_max) or "
        "σ_i = max(σ_0 β^i, σ_min) at iteration i (docs/control.md, \"Smoothing schedule\")");
    s->Choice("method", &S::method, {SmoothingMethod::kLogBarrier, SmoothingMethod::kRandomized},
              SmoothingMethodName)
        .Name("smoothing")
        .Noun("smoothing")
        .Doc(
            "the linearisation: of the log-barrier program (κ), or randomized smoothing of the "
            "exact one (σ)");
    s->Number("kappa_start", &S::kappa_start)
        .Unit("1/(N·m)")
        .Within(kKappaRange)
        .Doc("log-barrier's weight κ_0 at iteration 0");
    s->Number("kappa_growth", &S::kappa_growth).AtLeast(1).Doc("κ's factor γ per iteration");
    s->Number("kappa_max", &S::kappa_max)
        .Unit("1/(N·m)")
        .Within(kKappaRange)
        .Doc("the largest κ, κ_max (>= kappa_start)");
    s->Number("std_start", &S::std_start)
        .Unit("m or rad")
        .Within(kSettingLengthRange)
        .Doc("randomized smoothing's standard deviation σ_0 on u at iteration 0");
    s->Number("std_decay", &S::std_decay).Above(0).AtMost(1).Doc("σ's factor β per iteration");
    s->Number("std_min", &S::std_min)
        .Unit("m or rad")
        .Within(kSettingLengthRange)
        .Doc("the smallest σ, σ_min (<= std_start)");
    s->Integer("samples", &S::samples).AtLeast(1).Doc("randomized: samples per linearisation");
    s->Integer("seed", &S::seed).AtLeast(0).Doc("randomized: the samples' seed");
    s->Integer("threads", &S::threads)
        .AtLeast(1)
        .Doc("randomized: threads of each linearisation's batch of samples");
    return s;
  }();
  return *schema;
}

std::optional<SettingsProblem> CheckSmoothingSchedule(const SmoothingSchedule& s) {
  if (std::optional<SettingsProblem> p = CheckSettingsBlock(SmoothingScheduleSchema(), s)) return p;
  if (s.kappa_max < s.kappa_start)
    return SettingsProblem{"kappa_max", "must be >= kappa_start = " + NumberText(s.kappa_start) +
                                            " (got " + NumberText(s.kappa_max) + ")"};
  if (s.std_min > s.std_start)
    return SettingsProblem{"std_min", "must be <= std_start = " + NumberText(s.std_start) +
                                          " (got " + NumberText(s.std_min) + ")"};
  return std::nullopt;
}

void ValidateSmoothingSchedule(const SmoothingSchedule& schedule) {
  if (const std::optional<SettingsProblem> p = CheckSmoothingSchedule(schedule))
    settings_detail::ThrowSettingProblem(SmoothingScheduleSchema().block(), p->field, p->problem);
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
