#pragma once
// The time-stepping formulation a scene asks for, as its file gave it, and the table of the
// names and parameters a scene may give: the loader checks a scene against it (with file and
// line), the dynamics layer (dynamics/formulation_settings.h) interprets it.

#include <map>
#include <string>

namespace quasidyn {

struct FormulationSpec {
  std::string type = "qp";  // one of FormulationSpecNames()
  std::map<std::string, double> parameters;
};

// "qp, socp, log-barrier, log-barrier-cone, lcp".
const char* FormulationSpecNames();
bool IsFormulationSpecName(const std::string& name);

// Empty when `value` is valid for formulation parameter `key`; otherwise what is wrong:
//   kappa              κ [1/(N·m)], finite and > 0 (log-barrier weight)
//   object_mass_scale  s [-], finite and >= 0 (objects' regularisation ½ s vᵀ M_u v)
std::string FormulationParameterProblem(const std::string& key, double value);

}  // namespace quasidyn
