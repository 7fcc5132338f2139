#include "quasidyn/dynamics/formulation_settings.h"

#include <cmath>
#include <stdexcept>

#include "quasidyn/common/argument_check.h"

namespace quasidyn {

const char* FormulationName(FormulationType type) {
  switch (type) {
    case FormulationType::kQp:
      return "qp";
    case FormulationType::kSocp:
      return "socp";
    case FormulationType::kLogBarrierPyramid:
      return "log-barrier";
    case FormulationType::kLogBarrierCone:
      return "log-barrier-cone";
    case FormulationType::kLcp:
      return "lcp";
    case FormulationType::kHalmPosa:
      return "halm-posa";
  }
  return "unknown";
}

FormulationType ParseFormulation(const std::string& name) {
  for (FormulationType type :
       {FormulationType::kQp, FormulationType::kSocp, FormulationType::kLogBarrierPyramid,
        FormulationType::kLogBarrierCone, FormulationType::kLcp, FormulationType::kHalmPosa})
    if (name == FormulationName(type)) return type;
  throw std::invalid_argument(
      "unknown formulation '" + name +
      "' (expected qp, socp, log-barrier, log-barrier-cone, lcp or halm-posa)");
}

void ValidateFormulationSettings(const FormulationSettings& settings) {
  constexpr const char* kWhere = "formulation settings";
  CheckPositive(kWhere, "time step h", settings.time_step);
  CheckPositive(kWhere, "kappa", settings.kappa);
  CheckNonNegative(kWhere, "object_mass_scale", settings.object_mass_scale);
  CheckNonNegative(kWhere, "feedback scaling c", settings.feedback_scale);
  CheckNonNegative(kWhere, "tracking_gain", settings.command_tracking_gain);
  const std::string gains = FeedbackGainsProblem(settings.feedback_gains);
  if (!gains.empty()) ThrowInvalidArgument(kWhere, gains);
}

FormulationSettings SettingsFromScene(const Scene& scene) {
  FormulationSettings settings;
  settings.type = ParseFormulation(scene.formulation.type);
  settings.time_step = scene.time_step;
  for (const auto& [key, value] : scene.formulation.parameters) {
    const std::string problem = FormulationParameterProblem(key, value);
    if (!problem.empty()) throw std::invalid_argument("formulation: " + problem);
    (key == "kappa"           ? settings.kappa
     : key == "c"             ? settings.feedback_scale
     : key == "tracking_gain" ? settings.command_tracking_gain
                              : settings.object_mass_scale) = value;
  }
  settings.feedback_gains = scene.formulation.feedback_gains;
  ValidateFormulationSettings(settings);
  return settings;
}

}  // namespace quasidyn
