// Python's arguments as the library's (bindings.h): the formulation keywords as a
// FormulationChoice, parameter blocks as dicts, the gradients= spelling.

#include <pybind11/eigen.h>
#include <pybind11/pybind11.h>

#include <string>

#include "bindings.h"

namespace py = pybind11;

namespace quasidyn::python {

FormulationChoice Choice(const char* who, const FormulationKeywords& keywords) {
  FormulationChoice choice;
  if (keywords.formulation) choice.name = *keywords.formulation;
  choice.time_step = keywords.h;
  const ValueSource source{"", 0, who};
  if (keywords.parameters)
    for (const auto& [key, value] : *keywords.parameters) choice.parameters.Set(key, value, source);
  for (const auto& [key, value] : {std::pair{"kappa", keywords.kappa},
                                   std::pair{"object_mass_scale", keywords.object_mass_scale}}) {
    if (!value) continue;
    if (choice.parameters.Find(key) != nullptr)
      throw py::value_error(std::string(who) + ": give " + key + "= or parameters['" + key +
                            "'], not both");
    choice.parameters.Set(key, *value, source);
  }
  return choice;
}

py::dict ParameterDict(const ParameterBlock& block) {
  py::dict out;
  for (const ParameterValue& p : block.values()) {
    if (p.value.size() == 1)
      out[py::str(p.key)] = p.value(0, 0);
    else
      out[py::str(p.key)] = p.value;
  }
  return out;
}

std::map<std::string, double> NumberParameters(const ParameterBlock& block) {
  std::map<std::string, double> out;
  for (const ParameterValue& p : block.values())
    if (p.value.size() == 1) out[p.key] = p.value(0, 0);
  return out;
}

std::optional<double> NumberParameter(const ParameterBlock& block, const std::string& key) {
  const ParameterValue* p = block.Find(key);
  if (p == nullptr || p->value.size() != 1) return std::nullopt;
  return p->value(0, 0);
}

GradientMode ParseGradients(const char* who, const std::string& gradients) {
  for (GradientMode mode : {GradientMode::kNone, GradientMode::kBOnly, GradientMode::kAAndB})
    if (gradients == GradientModeName(mode)) return mode;
  throw py::value_error(std::string(who) + ": gradients must be 'a_and_b', 'b_only' or 'none' " +
                        "(got '" + gradients + "')");
}

const Scene& SceneOf(const Trajectory& t, const char* who) {
  if (!t.scene)
    throw py::value_error(std::string(who) +
                          ": the trajectory has no scene in memory (it was read from a file): "
                          "load it with load_trajectory(path, scene=...) or quasidyn.view's "
                          "scene argument");
  return *t.scene;
}

Eigen::MatrixXd RowsToMatrix(const std::vector<Eigen::VectorXd>& rows, Eigen::Index columns) {
  Eigen::MatrixXd m(rows.size(), rows.empty() ? columns : rows[0].size());
  for (size_t i = 0; i < rows.size(); ++i) m.row(i) = rows[i].transpose();
  return m;
}

}  // namespace quasidyn::python
