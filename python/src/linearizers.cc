#include "linearizers.h"

#include <stdexcept>
#include <string>

#include "quasidyn/formulations/registry.h"

namespace quasidyn::python {

Linearizers::Linearizers(ScenePtr scene, FormulationChoice choice,
                         std::optional<double> contact_tolerance, int threads)
    : scene_(std::move(scene)), choice_(std::move(choice)) {
  options_.contact_tolerance = contact_tolerance;
  options_.threads = threads;
  contact_tolerance_ =
      Get(LinearizationMethod::kExact, GradientMode::kAAndB).model().scene().contact_tolerance;
}

Linearizer& Linearizers::Get(LinearizationMethod method, GradientMode mode,
                             RandomizedEstimator estimator, bool barrier_samples) {
  std::unique_ptr<Linearizer>& linearizer =
      cache_[std::tuple(method, mode, estimator, barrier_samples)];
  if (!linearizer) {
    LinearizationOptions options = options_;
    options.method = method;
    options.mode = mode;
    options.estimator = estimator;
    FormulationChoice choice = choice_;
    if (barrier_samples) {  // the Linearizer samples a barrier formulation's own gradients
      const FormulationPlugin& plugin = ChosenFormulation(*scene_, choice_);
      if (plugin.info.capabilities.smoothed_linearization.empty())
        throw std::invalid_argument("method: " + plugin.info.name +
                                    " has no log-barrier smoothing (use 'exact')");
      choice.name = plugin.info.capabilities.smoothed_linearization;
    }
    linearizer = std::make_unique<Linearizer>(scene_, choice, options);
  }
  return *linearizer;
}

const char* const kLinearizerKeywordsDoc =
    "formulation: a name of quasidyn.formulations() (whose capabilities say which program each "
    "method differentiates: exact_linearization, smoothed_linearization); h: time step [s] > "
    "0; parameters: {key: value} of any formulation parameter; contact_tolerance: ε [m] >= 0 of "
    "the "
    "linearised step, larger than the scene's to let the gradients see contacts further away "
    "(docs/gradients.md, 'Gradients beyond the contact tolerance'; the log-barrier method "
    "feels them as forces at a distance). None takes the scene's value. Raises ValueError for "
    "an unknown formulation or parameter or a value out of range. ";

const char* const kLinearizerModeMethodDoc =
    "gradients: 'a_and_b' (A and B), 'b_only' (B only, cheaper), 'none' (the step only); "
    "method: 'exact' (implicit differentiation of the step's optimality conditions), "
    "'log-barrier' (the log-barrier smoothed step of the model's weight κ; Pang, Suh, Yang & "
    "Tedrake, "
    "T-RO 2023) or 'randomized' (the first-order estimate of smooth_first_order's defaults).";

}  // namespace quasidyn::python
