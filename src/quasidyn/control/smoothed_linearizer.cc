#include "quasidyn/control/smoothed_linearizer.h"

#include <algorithm>
#include <cmath>
#include <utility>

#include "quasidyn/common/argument_check.h"
#include "quasidyn/stepping/formulation_table.h"
#include "quasidyn/stepping/randomized_smoothing.h"

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

SmoothedLinearizer::SmoothedLinearizer(std::shared_ptr<const StepModel> exact,
                                       const SmoothingSchedule& schedule)
    : exact_(std::move(exact)), schedule_(schedule) {
  constexpr const char* kWhere = "SmoothedLinearizer";
  QUASIDYN_CHECK_ARGUMENT(exact_ != nullptr, kWhere, "the model is null");
  QUASIDYN_CHECK_ARGUMENT(exact_->state_v_size() == 0, kWhere,
                          "only models without a velocity state (quasi-dynamic) are supported");
  ValidateSmoothingSchedule(schedule_);
  const FormulationType type = exact_->settings().type;
  if (schedule_.method == SmoothingMethod::kLogBarrier) {
    DifferentiatedFormulation(type, GradientMethod::kLogBarrier);  // throws for halm-posa
  } else {
    FormulationSettings settings = exact_->settings();
    settings.type = DifferentiatedFormulation(type, GradientMethod::kExact);
    batch_ = std::make_unique<BatchStepper>(MakeStepModel(exact_->scene_ptr(), settings),
                                            schedule_.threads);
  }
}

StepLinearization SmoothedLinearizer::Linearize(const Eigen::VectorXd& q, const Eigen::VectorXd& u,
                                                int iteration) {
  return LinearizeWith(q, u, SmoothingParameter(schedule_, iteration));
}

StepLinearization SmoothedLinearizer::LinearizeWith(const Eigen::VectorXd& q,
                                                    const Eigen::VectorXd& u, double parameter) {
  StepLinearization out;
  if (schedule_.method == SmoothingMethod::kRandomized) {
    RandomizedSmoothingSettings settings;
    settings.samples = schedule_.samples;
    settings.u_std = parameter;
    settings.seed = schedule_.seed;
    SmoothedLinearization s =
        FirstOrderSmoothing(batch_.get(), q, u, GradientMode::kAAndB, settings);
    out.status = s.status;
    out.message = std::move(s.message);
    out.q_next = std::move(s.q_next);
    out.A = std::move(s.A);
    out.B = std::move(s.B);
    return out;
  }
  auto it = barrier_.find(parameter);
  if (it == barrier_.end()) {
    FormulationSettings settings = exact_->settings();
    settings.type = DifferentiatedFormulation(settings.type, GradientMethod::kLogBarrier);
    settings.kappa = parameter;
    BarrierModel entry;
    entry.model = MakeStepModel(exact_->scene_ptr(), settings);
    entry.data = entry.model->CreateData();
    it = barrier_.emplace(parameter, std::move(entry)).first;
  }
  const StepModel& model = *it->second.model;
  StepData* data = it->second.data.get();
  model.Calc(State{q, Eigen::VectorXd()}, u, data);
  if (!data->result.ok()) {
    out.status = data->result.status;
    out.message = data->result.message;
    return out;
  }
  model.CalcDiff(GradientMode::kAAndB, data);
  out.status = data->derivatives.status;
  out.message = data->derivatives.message;
  out.q_next = data->result.next.q;
  out.A = data->derivatives.A;
  out.B = data->derivatives.B;
  return out;
}

}  // namespace quasidyn
