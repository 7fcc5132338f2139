#include "linearizers.h"

#include <stdexcept>
#include <string>

#include "quasidyn/formulations/registry.h"
#include "quasidyn/linearization/linearization_settings.h"
#include "setting_keywords.h"

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

namespace {

std::vector<SettingSpec> LinearizationSpecs(const std::vector<std::string>& names) {
  std::vector<SettingSpec> out;
  for (const SettingSpec& spec : LinearizationSettingsSchema().specs())
    for (const std::string& name : names)
      if (spec.name == name) out.push_back(spec);
  return out;
}

}  // namespace

LinearizationOptions LinearizationKeywords(const char* who, const pybind11::kwargs& kwargs,
                                           const std::vector<std::string>& names) {
  const std::vector<SettingSpec> specs = LinearizationSpecs(names);
  SettingOverrides overrides;
  RefuseUnknownKeywords(who, TakeSettingKeywords(who, specs, kwargs, &overrides), specs, {});
  LinearizationOptions options;
  Named(who, [&] { ApplySettingOverrides(LinearizationSettingsSchema(), overrides, &options); });
  return options;
}

std::string LinearizationKeywordsDoc(const std::vector<std::string>& names) {
  std::string list;
  for (size_t i = 0; i < names.size(); ++i) list += (i > 0 ? ", " : "") + names[i];
  return "Keywords (None keeps the default; quasidyn._settings()['linearization'] and "
         "docs/gradients.md list them with units, ranges and defaults): " +
         list + " " + SettingsDocMarker("linearization", names) +
         ". TypeError for another keyword or a value of the wrong type, ValueError naming the "
         "setting (e.g. 'linearization.samples: must be >= 1 (got 0)').";
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
