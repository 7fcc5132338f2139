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
  }
  return "unknown";
}

FormulationType ParseFormulation(const std::string& name) {
  for (FormulationType type :
       {FormulationType::kQp, FormulationType::kSocp, FormulationType::kLogBarrierPyramid,
        FormulationType::kLogBarrierCone, FormulationType::kLcp})
    if (name == FormulationName(type)) return type;
  throw std::invalid_argument("unknown formulation '" + name +
                              "' (expected qp, socp, log-barrier, log-barrier-cone or lcp)");
}

void ValidateFormulationSettings(const FormulationSettings& settings) {
  constexpr const char* kWhere = "formulation settings";
  CheckPositive(kWhere, "time step h", settings.time_step);
  CheckPositive(kWhere, "kappa", settings.kappa);
  CheckNonNegative(kWhere, "object_mass_scale", settings.object_mass_scale);
}

FormulationSettings SettingsFromScene(const Scene& scene) {
  FormulationSettings settings;
  settings.type = ParseFormulation(scene.formulation.type);
  settings.time_step = scene.time_step;
  for (const auto& [key, value] : scene.formulation.parameters) {
    const std::string problem = FormulationParameterProblem(key, value);
    if (!problem.empty()) throw std::invalid_argument("formulation: " + problem);
    (key == "kappa" ? settings.kappa : settings.object_mass_scale) = value;
  }
  ValidateFormulationSettings(settings);
  return settings;
}

}  // namespace quasidyn
