// Python's arguments as the library's (bindings.h): the formulation keywords as a
// FormulationChoice, parameter blocks as dicts, the gradients= spelling.

#include <pybind11/eigen.h>
#include <pybind11/pybind11.h>

#include <algorithm>
#include <string>

#include "bindings.h"
#include "quasidyn/common/closest_name.h"
#include "quasidyn/formulations/registry.h"

namespace py = pybind11;

namespace quasidyn::python {

const char* const kParameterKeywordsDoc =
    "Every number parameter a registered formulation declares is also a keyword of its own, "
    "by its key (quasidyn.formulations() lists them with units and ranges) [parameters].";

std::vector<std::string> NumberParameterKeys() {
  std::vector<std::string> keys;
  for (const FormulationPlugin* plugin : FormulationRegistry::Global().Plugins())
    for (const ParameterSpec& spec : plugin->parameters)
      if (spec.number && std::find(keys.begin(), keys.end(), spec.key) == keys.end())
        keys.push_back(spec.key);
  return keys;
}

FormulationChoice Choice(const char* who, const FormulationKeywords& keywords) {
  FormulationChoice choice;
  if (keywords.formulation) choice.name = *keywords.formulation;
  choice.time_step = keywords.h;
  const ValueSource source{"", 0, who};
  if (keywords.parameters)
    for (const auto& [key, value] : *keywords.parameters) choice.parameters.Set(key, value, source);
  const FormulationRegistry& registry = FormulationRegistry::Global();
  for (const auto& item : keywords.by_key) {
    const std::string key = py::cast<std::string>(item.first);
    const ParameterSpec* spec = registry.FindParameter(key);
    if (spec == nullptr || !spec->number) {
      std::vector<std::string> names = NumberParameterKeys();
      throw py::type_error(std::string(who) + ": unexpected keyword argument '" + key + "'" +
                           DidYouMean(key, names));
    }
    if (item.second.is_none()) continue;
    if (py::isinstance<py::bool_>(item.second) ||
        !(py::isinstance<py::float_>(item.second) || py::isinstance<py::int_>(item.second)))
      throw py::type_error(std::string(who) + ": keyword '" + key + "' cannot take a " +
                           std::string(py::str(py::type::of(item.second).attr("__name__"))) +
                           " (it takes a float)");
    if (choice.parameters.Find(key) != nullptr)
      throw py::value_error(std::string(who) + ": give " + key + "= or parameters['" + key +
                            "'], not both");
    choice.parameters.Set(key, item.second.cast<double>(), source);
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
