#include "quasidyn/linearization/linearization_settings.h"

#include "quasidyn/common/argument_check.h"

namespace quasidyn {

const SettingsSchema<LinearizationOptions>& LinearizationSettingsSchema() {
  static const SettingsSchema<LinearizationOptions>* const schema = [] {
    using O = LinearizationOptions;
    using R = RandomizedSmoothingSettings;
    auto* s = new SettingsSchema<O>(
        "linearization",
        "the lineariser's A = ∂x⁺/∂x and B = ∂x⁺/∂u of a step: `quasidyn linearize`, "
        "quasidyn.Linearizer and BatchLinearizer (docs/gradients.md)");
    s->Choice("method", &O::method,
              {LinearizationMethod::kExact, LinearizationMethod::kLogBarrier,
               LinearizationMethod::kRandomized},
              LinearizationMethodName)
        .Noun("method")
        .Doc(
            "implicit differentiation of the step's program (exact) or of its log-barrier "
            "smoothing (log-barrier), or randomized smoothing of the step (randomized); "
            "`quasidyn linearize` takes log-barrier for a log-barrier formulation");
    s->Number("kappa", &O::kappa)
        .Unit("1/(N·m)")
        .Within(kKappaRange)
        .Doc(
            "log-barrier: the smoothed program's weight κ (unset: the formulation's; the command "
            "line's and Python's formulation keyword kappa)");
    s->Field("samples", &O::randomized, &R::samples)
        .AtLeast(1)
        .Doc("randomized: samples N (zeroth order: more successful ones than fitted directions)");
    s->Field("std", &O::randomized, &R::u_std)
        .Name("u_std")
        .Flag("std")
        .Unit("m or rad")
        .AtLeast(0)
        .Doc("randomized: standard deviation σ_u of the samples' u, per entry");
    s->Field("std_q", &O::randomized, &R::q_std)
        .Name("q_std")
        .Flag("std_q")
        .Unit("m or rad")
        .AtLeast(0)
        .Doc("randomized: standard deviation σ_q of the samples' q along its tangent space");
    s->Field("seed", &O::randomized, &R::seed)
        .AtLeast(0)
        .Doc("randomized: the samples' seed (sample i depends on the seed and i only)");
    s->Choice("estimator", &O::estimator,
              {RandomizedEstimator::kFirstOrder, RandomizedEstimator::kZerothOrder},
              RandomizedEstimatorName)
        .Noun("estimator")
        .Doc(
            "randomized: the mean of the samples' gradients (first-order, bundled) or the "
            "least-squares fit of their steps (zeroth-order, needs std > 0)");
    s->Integer("threads", &O::threads)
        .AtLeast(1)
        .Doc("threads of a batch (and of a randomized point's samples)");
    s->Number("contact_tolerance", &O::contact_tolerance)
        .Unit("m")
        .AtLeast(0)
        .Doc(
            "ε of the linearised step's contact query, larger than the scene's to let the "
            "gradients see contacts further away (unset: the scene's)");
    return s;
  }();
  return *schema;
}

std::optional<SettingsProblem> CheckLinearizationOptions(const LinearizationOptions& options) {
  if (std::optional<SettingsProblem> p = CheckSettingsBlock(LinearizationSettingsSchema(), options))
    return p;
  if (options.method == LinearizationMethod::kRandomized &&
      options.estimator == RandomizedEstimator::kZerothOrder &&
      options.mode != GradientMode::kNone && !(options.randomized.u_std > 0))
    return SettingsProblem{"std", "must be > 0 for the zeroth-order estimator (got " +
                                      NumberText(options.randomized.u_std) + ")"};
  return std::nullopt;
}

}  // namespace quasidyn
