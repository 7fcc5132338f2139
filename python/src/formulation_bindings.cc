// quasidyn.formulations(): the registered formulations, their capabilities and parameters, as
// the registry declares them (formulations/registry.h; `quasidyn formulations` prints the same).

#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include "bindings.h"
#include "quasidyn/formulations/registry.h"

namespace py = pybind11;

namespace quasidyn::python {
namespace {

py::dict Describe(const FormulationPlugin& plugin) {
  const FormulationInfo& info = plugin.info;
  const FormulationCapabilities& can = info.capabilities;
  py::list parameters;
  for (const ParameterSpec& spec : plugin.parameters) {
    py::dict p;
    p["key"] = spec.key;
    p["unit"] = spec.unit;
    p["range"] = spec.range;
    p["default"] = spec.default_text;
    p["description"] = spec.description;
    p["number"] = spec.number;  // a single number: also a keyword of its own (bindings.h)
    parameters.append(p);
  }
  py::dict d;
  d["name"] = info.name;
  d["title"] = info.title;
  d["docs"] = info.docs;
  d["state"] = StateKindName(can.state);
  d["command"] = CommandKindName(can.command);
  d["planar"] = can.planar_scenes;
  d["spatial"] = can.spatial_scenes;
  d["robots"] = can.robots;
  d["external_forces"] = can.external_forces;
  d["joint_limits"] = can.joint_limits;
  d["robot_inertia"] = can.robot_inertia;
  d["differentiable"] = can.differentiable();
  d["no_gradient"] = can.no_gradient;
  d["exact_linearization"] = can.exact_linearization;
  d["smoothed_linearization"] = can.smoothed_linearization;
  d["parameters"] = parameters;
  return d;
}

}  // namespace

void BindFormulations(py::module_& m) {
  m.def(
      "formulations",
      [] {
        py::list out;
        for (const FormulationPlugin* plugin : FormulationRegistry::Global().Plugins())
          out.append(Describe(*plugin));
        return out;
      },
      "formulations() -> list of dict: every registered formulation, in registration order, as "
      "the registry declares it: name, title, docs, state ('configuration' | 'configuration and "
      "velocity'), command ('positions of the robots' | 'velocities of the robots' | 'impulses "
      "on the objects'), planar, spatial, robots, external_forces, joint_limits (bools: what it "
      "steps), robot_inertia (bool: uses the robots' mass matrix, so refuses a robot link with "
      "a singular inertia), differentiable, no_gradient (why not, '' when differentiable), "
      "exact_linearization and smoothed_linearization (the formulations whose derivatives the "
      "'exact' and 'log-barrier' linearisations take; '' for none), and parameters (list of "
      "dict: key, unit, range, default, description). Any of the names is accepted by "
      "formulation=.");
}

}  // namespace quasidyn::python
