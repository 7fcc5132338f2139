#include "quasidyn/model/formulation_spec.h"

#include <cmath>

namespace quasidyn {

const char* FormulationSpecNames() { return "qp, socp, log-barrier, log-barrier-cone, lcp"; }

bool IsFormulationSpecName(const std::string& name) {
  return name == "qp" || name == "socp" || name == "log-barrier" || name == "log-barrier-cone" ||
         name == "lcp";
}

std::string FormulationParameterProblem(const std::string& key, double value) {
  if (key != "kappa" && key != "object_mass_scale") {
    return "unknown formulation parameter '" + key + "' (kappa, object_mass_scale)";
  }
  if (!std::isfinite(value)) return key + " must be finite";
  if (key == "kappa" && !(value > 0.0)) return "kappa must be > 0 [1/(N·m)]";
  if (key == "object_mass_scale" && !(value >= 0.0)) return "object_mass_scale must be >= 0";
  return "";
}

}  // namespace quasidyn
