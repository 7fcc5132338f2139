#include "quasidyn/dynamics/formulation_settings.h"

#include <cmath>
#include <stdexcept>

#include "quasidyn/common/argument_check.h"
#include "quasidyn/dynamics/barrier_stand_off.h"
#include "quasidyn/dynamics/object_mass_scale.h"

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
    case FormulationType::kEcp:
      return "ecp";
    case FormulationType::kStewartTrinkle:
      return "stewart-trinkle";
    case FormulationType::kAnitescu:
      return "anitescu";
  }
  return "unknown";
}

FormulationType ParseFormulation(const std::string& name) {
  for (FormulationType type :
       {FormulationType::kQp, FormulationType::kSocp, FormulationType::kLogBarrierPyramid,
        FormulationType::kLogBarrierCone, FormulationType::kLcp, FormulationType::kHalmPosa,
        FormulationType::kStewartTrinkle, FormulationType::kAnitescu, FormulationType::kEcp})
    if (name == FormulationName(type)) return type;
  throw std::invalid_argument("unknown formulation '" + name +
                              "' (expected qp, socp, log-barrier, log-barrier-cone, lcp, "
                              "halm-posa, stewart-trinkle, anitescu or ecp)");
}

bool IsSecondOrder(FormulationType type) {
  return type == FormulationType::kStewartTrinkle || type == FormulationType::kAnitescu;
}

bool HasVelocityState(FormulationType type) {
  return IsSecondOrder(type) || type == FormulationType::kEcp;
}

void ValidateFormulationSettings(const FormulationSettings& settings) {
  constexpr const char* kWhere = "formulation settings";
  CheckPositive(kWhere, "time step h", settings.time_step);
  CheckPositive(kWhere, "kappa", settings.kappa);
  CheckNonNegative(kWhere, "object_mass_scale", settings.object_mass_scale);
  CheckNonNegative(kWhere, "feedback scaling c", settings.feedback_scale);
  CheckNonNegative(kWhere, "tracking_gain", settings.command_tracking_gain);
  CheckPositive(kWhere, "e_t", settings.ecp_e_t);
  CheckPositive(kWhere, "e_o", settings.ecp_e_o);
  CheckPositive(kWhere, "e_r", settings.ecp_e_r);
  const std::string gains = FeedbackGainsProblem(settings.feedback_gains);
  if (!gains.empty()) ThrowInvalidArgument(kWhere, gains);
}

FormulationSettings SettingsFromScene(const Scene& scene, const SettingsOverrides& overrides) {
  FormulationSettings settings;
  settings.type = overrides.type ? *overrides.type : ParseFormulation(scene.formulation.type);
  settings.time_step = overrides.time_step ? *overrides.time_step : scene.time_step;
  for (const auto& [key, value] : scene.formulation.parameters) {
    const std::string problem = FormulationParameterProblem(key, value);
    if (!problem.empty()) throw std::invalid_argument("formulation: " + problem);
  }
  const auto parameter = [&scene](const char* key) -> std::optional<double> {
    const auto it = scene.formulation.parameters.find(key);
    if (it == scene.formulation.parameters.end()) return std::nullopt;
    return it->second;
  };
  // The time step first: the reference mass-scale rule below depends on it.
  CheckPositive("formulation settings", "time step h", settings.time_step);
  if (overrides.kappa) {
    settings.kappa = *overrides.kappa;
  } else if (const auto kappa = parameter("kappa")) {
    settings.kappa = *kappa;
  } else {
    settings.kappa = DefaultKappa(scene);
  }
  if (overrides.object_mass_scale) {
    settings.object_mass_scale = *overrides.object_mass_scale;
  } else if (const auto scale = parameter("object_mass_scale")) {
    settings.object_mass_scale = *scale;
  } else if (const auto divisor = parameter("unactuated_mass_scale")) {
    settings.object_mass_scale = ReferenceObjectMassScale(scene, settings.time_step, *divisor);
  }
  if (const auto c = parameter("c")) settings.feedback_scale = *c;
  if (const auto gain = parameter("tracking_gain")) settings.command_tracking_gain = *gain;
  settings.feedback_gains = scene.formulation.feedback_gains;
  if (const auto e = parameter("e_t")) settings.ecp_e_t = *e;
  if (const auto e = parameter("e_o")) settings.ecp_e_o = *e;
  if (const auto e = parameter("e_r")) settings.ecp_e_r = *e;
  ValidateFormulationSettings(settings);
  return settings;
}

}  // namespace quasidyn
