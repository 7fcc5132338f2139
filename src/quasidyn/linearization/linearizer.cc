#include "quasidyn/linearization/linearizer.h"

#include <cmath>
#include <sstream>

#include "quasidyn/common/argument_check.h"
#include "quasidyn/formulations/registry.h"
#include "quasidyn/io/scene_edit.h"
#include "quasidyn/linearization/linearization_settings.h"

namespace quasidyn {
namespace {

constexpr const char* kWhere = "Linearizer";

std::string Number(double x) {
  std::ostringstream s;
  s << x;
  return s.str();
}

// The formulation whose model `method` differentiates for a step of `stepped` (its declared
// capabilities); std::invalid_argument naming the capability it lacks.
std::string DifferentiatedName(const FormulationInfo& stepped, LinearizationMethod method) {
  const FormulationCapabilities& can = stepped.capabilities;
  if (method == LinearizationMethod::kLogBarrier) {
    QUASIDYN_CHECK_ARGUMENT(!can.smoothed_linearization.empty(), kWhere,
                            stepped.name +
                                " has no log-barrier smoothing: its gradients are the exact ones "
                                "of its own program (use exact, or randomized smoothing)");
    return can.smoothed_linearization;
  }
  if (method == LinearizationMethod::kRandomized) {
    QUASIDYN_CHECK_ARGUMENT(can.state == StateKind::kConfiguration, kWhere,
                            "randomized smoothing perturbs q and u but not v: " + stepped.name +
                                " has a velocity state; use exact");
    // A barrier formulation's samples take the barrier's gradients.
    if (can.smoothed_linearization == stepped.name) return stepped.name;
  }
  QUASIDYN_CHECK_ARGUMENT(!can.exact_linearization.empty(), kWhere,
                          stepped.name + " declares no linearisation: " + can.no_gradient);
  return can.exact_linearization;
}

std::unique_ptr<BatchStepper> MakeBatch(ScenePtr scene, FormulationChoice choice,
                                        const FormulationInfo& stepped,
                                        const LinearizationOptions& options) {
  ValidateLinearizationOptions(options);
  choice.name = DifferentiatedName(stepped, options.method);
  if (options.method == LinearizationMethod::kLogBarrier && options.kappa)
    choice.parameters.Set("kappa", *options.kappa, ValueSource{"", 0, "kappa"});
  if (options.contact_tolerance)
    scene = std::make_shared<const Scene>(
        WithContactTolerance(*scene, *options.contact_tolerance, "contact_tolerance"));
  std::shared_ptr<const StepModel> model = MakeStepModel(std::move(scene), choice);
  QUASIDYN_CHECK_ARGUMENT(
      model->capabilities().differentiable(), kWhere,
      model->formulation().name + " has no derivative: " + model->capabilities().no_gradient);
  return std::make_unique<BatchStepper>(std::move(model), options.threads);
}

}  // namespace

const char* LinearizationMethodName(LinearizationMethod method) {
  switch (method) {
    case LinearizationMethod::kExact:
      return "exact";
    case LinearizationMethod::kLogBarrier:
      return "log-barrier";
    case LinearizationMethod::kRandomized:
      break;
  }
  return "randomized";
}

LinearizationMethod ParseLinearizationMethod(const std::string& name) {
  for (LinearizationMethod method : {LinearizationMethod::kExact, LinearizationMethod::kLogBarrier,
                                     LinearizationMethod::kRandomized})
    if (name == LinearizationMethodName(method)) return method;
  ThrowInvalidArgument("linearisation method",
                       "unknown method '" + name + "' (expected exact, log-barrier or randomized)");
}

const char* RandomizedEstimatorName(RandomizedEstimator estimator) {
  return estimator == RandomizedEstimator::kFirstOrder ? "first-order" : "zeroth-order";
}

RandomizedEstimator ParseRandomizedEstimator(const std::string& name) {
  for (RandomizedEstimator e :
       {RandomizedEstimator::kFirstOrder, RandomizedEstimator::kZerothOrder})
    if (name == RandomizedEstimatorName(e)) return e;
  ThrowInvalidArgument("estimator",
                       "unknown estimator '" + name + "' (expected first-order or zeroth-order)");
}

void ValidateLinearizationOptions(const LinearizationOptions& options) {
  if (const std::optional<SettingsProblem> p = CheckLinearizationOptions(options))
    settings_detail::ThrowSettingProblem(LinearizationSettingsSchema().block(), p->field,
                                         p->problem);
}

Linearizer::Linearizer(ScenePtr scene, const FormulationChoice& choice,
                       const LinearizationOptions& options)
    : options_(options) {
  QUASIDYN_CHECK_ARGUMENT(scene != nullptr, kWhere, "the scene is null");
  const FormulationPlugin& stepped = ChosenFormulation(*scene, choice);
  formulation_ = stepped.info.name;
  batch_ = MakeBatch(std::move(scene), choice, stepped.info, options_);
}

Linearizer::Linearizer(const StepModel& model, const LinearizationOptions& options)
    : options_(options), formulation_(model.formulation().name) {
  batch_ = MakeBatch(model.scene_ptr(), ChoiceOf(model), model.formulation(), options_);
}

std::string Linearizer::ProgramDescription() const {
  const StepModel& m = model();
  std::string program = m.formulation().title;
  if (const ParameterValue* kappa = m.parameters().Find("kappa"))
    program += ", kappa = " + Number(kappa->value(0, 0));
  return program;
}

std::string Linearizer::Description() const {
  const StepModel& m = model();
  const std::string program = ProgramDescription();
  if (options_.method != LinearizationMethod::kRandomized) {
    const bool smooth = m.capabilities().smoothed_linearization == m.formulation().name;
    return (smooth ? "implicit differentiation of the stationarity of the "
                   : "implicit differentiation of the optimality conditions of the ") +
           program;
  }
  const RandomizedSmoothingSettings& r = options_.randomized;
  return std::string(options_.estimator == RandomizedEstimator::kZerothOrder
                         ? "zeroth-order least-squares fit of the steps"
                         : "first-order (bundled) mean of the gradients") +
         " of the " + program + ", " + std::to_string(r.samples) + " samples, std u " +
         Number(r.u_std) + ", std q " + Number(r.q_std) + ", seed " + std::to_string(r.seed);
}

void Linearizer::SetRandomized(const RandomizedSmoothingSettings& settings) {
  LinearizationOptions options = options_;
  options.randomized = settings;
  ValidateLinearizationOptions(options);
  options_ = options;
}

void Linearizer::SetCancellation(const CancellationToken* token) { batch_->set_cancel(token); }

namespace {

// What a call returns for the point (x, u) it did not finish because its token was set.
Linearization InterruptedLinearization(const State& x) {
  Linearization out;
  out.message = "interrupted before this point was linearised";
  out.step_failed = true;
  out.x_next = x;
  return out;
}

}  // namespace

Linearization Linearizer::FromEvaluation(StepEvaluation e) const {
  Linearization out;
  out.x_next = e.result.next;  // x itself after a failed step
  out.velocity = e.result.velocity;
  if (!e.result.ok()) {
    out.status = e.result.status;
    out.message = e.result.message;
    out.step_failed = true;
    return out;
  }
  if (!e.derivatives.ok()) {
    out.status = e.derivatives.status;
    out.message = e.derivatives.message;
    return out;
  }
  out.status = e.result.status;
  out.A = std::move(e.derivatives.A);
  out.B = std::move(e.derivatives.B);
  out.active_rows = e.derivatives.active_rows;
  return out;
}

namespace {

Linearization FromSmoothed(const SmoothedLinearization& s) {
  Linearization out;
  out.status = s.status;
  out.message = s.message;
  out.x_next = State{s.q_next, Eigen::VectorXd()};
  out.A = s.A;
  out.B = s.B;
  out.A_standard_error = s.A_standard_error;
  out.B_standard_error = s.B_standard_error;
  out.samples_used = s.samples_used;
  out.samples_failed = s.samples_failed;
  out.first_failure = s.first_failure;
  return out;
}

}  // namespace

StepEvaluation EvaluationOf(const Linearization& linearization) {
  const Linearization& l = linearization;
  StepEvaluation e;
  e.result.next = l.x_next;
  e.result.velocity = l.velocity;
  if (l.step_failed) {
    e.result.status = l.status;
    e.result.message = l.message;
    return e;
  }
  e.result.status = l.ok() ? l.status : SolverStatus::kSolved;
  e.derivatives.status = l.ok() ? SolverStatus::kSolved : l.status;
  e.derivatives.message = l.message;
  e.derivatives.A = l.A;
  e.derivatives.B = l.B;
  e.derivatives.active_rows = l.active_rows;
  return e;
}

Linearization Linearizer::Randomized(const State& x, const Eigen::VectorXd& u) {
  if (Interrupted()) return InterruptedLinearization(x);
  Linearization out = FromSmoothed(
      options_.estimator == RandomizedEstimator::kZerothOrder
          ? ZerothOrderSmoothing(batch_.get(), x.q, u, options_.mode, options_.randomized)
          : FirstOrderSmoothing(batch_.get(), x.q, u, options_.mode, options_.randomized));
  // Samples skipped by the token would make an estimate of fewer samples: not the one asked for.
  if (Interrupted()) return InterruptedLinearization(x);
  return out;
}

GradientMode Linearizer::SampleMode() const {
  return options_.estimator == RandomizedEstimator::kZerothOrder ? GradientMode::kNone
                                                                 : options_.mode;
}

std::vector<Linearization> Linearizer::EvaluateSamples(const State& x, const Eigen::VectorXd& u,
                                                       int first, int count) {
  QUASIDYN_CHECK_ARGUMENT(options_.method == LinearizationMethod::kRandomized,
                          "Linearizer::EvaluateSamples", "needs the randomized method");
  const std::vector<StepPoint> points =
      SmoothingSamplePointRange(model().scene(), x.q, u, options_.randomized, first, count);
  std::vector<Linearization> out;
  out.reserve(points.size());
  for (StepEvaluation& e : batch_->Run(points, SampleMode()))
    out.push_back(FromEvaluation(std::move(e)));
  return out;
}

Linearization Linearizer::EstimateFromSamples(const State& x, const Eigen::VectorXd& u,
                                              const std::vector<Linearization>& samples) {
  QUASIDYN_CHECK_ARGUMENT(options_.method == LinearizationMethod::kRandomized,
                          "Linearizer::EstimateFromSamples", "needs the randomized method");
  std::vector<StepEvaluation> evaluations;
  evaluations.reserve(samples.size());
  for (const Linearization& l : samples) evaluations.push_back(EvaluationOf(l));
  if (options_.estimator == RandomizedEstimator::kFirstOrder)
    return FromSmoothed(FirstOrderEstimate(evaluations, options_.mode, options_.randomized));
  // The zeroth-order baseline f(q, u): one step, here (ZerothOrderSmoothing's point 0).
  const std::vector<StepEvaluation> baseline =
      batch_->Run({StepPoint{State{x.q, Eigen::VectorXd()}, u}}, GradientMode::kNone);
  return FromSmoothed(ZerothOrderEstimate(model().scene(), x.q, options_.mode, options_.randomized,
                                          baseline[0], evaluations));
}

Linearization Linearizer::Linearize(const State& x, const Eigen::VectorXd& u) {
  if (options_.method == LinearizationMethod::kRandomized) return Randomized(x, u);
  if (options_.warm_start) {
    const StepModel& m = model();
    if (sequential_ == nullptr) sequential_ = m.CreateData();
    m.Calc(x, u, sequential_.get());
    StepEvaluation e;
    e.result = sequential_->result;
    if (e.result.ok()) {
      m.CalcDiff(options_.mode, sequential_.get());
      e.derivatives = sequential_->derivatives;
    }
    return FromEvaluation(std::move(e));
  }
  std::vector<StepEvaluation> evaluations = batch_->Run({StepPoint{x, u}}, options_.mode);
  return FromEvaluation(std::move(evaluations[0]));
}

std::vector<Linearization> Linearizer::LinearizeBatch(const std::vector<StepPoint>& points,
                                                      const std::vector<std::uint64_t>& seeds) {
  std::vector<Linearization> out;
  out.reserve(points.size());
  if (options_.method == LinearizationMethod::kRandomized) {
    QUASIDYN_CHECK_ARGUMENT(seeds.empty() || seeds.size() == points.size(),
                            "Linearizer::LinearizeBatch",
                            "seeds has " + std::to_string(seeds.size()) + " entries for " +
                                std::to_string(points.size()) + " points");
    const RandomizedSmoothingSettings common = options_.randomized;
    for (size_t i = 0; i < points.size(); ++i) {
      if (!seeds.empty()) options_.randomized.seed = seeds[i];
      out.push_back(Randomized(points[i].x, points[i].u));
    }
    options_.randomized = common;
    return out;
  }
  for (StepEvaluation& e : batch_->Run(points, options_.mode))
    out.push_back(FromEvaluation(std::move(e)));
  return out;
}

}  // namespace quasidyn
