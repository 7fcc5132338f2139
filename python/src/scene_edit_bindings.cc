// The edits of quasidyn.Scene (with_q0, with_commands, ..., each a checked copy, io/scene_edit.h
// and scenes/scene_loading.h), Scene.summary, and quasidyn.load_scene /
// load_scene_from_string.

#include <pybind11/eigen.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <limits>
#include <map>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "bindings.h"
#include "path_argument.h"
#include "quasidyn/contact/contact_model.h"
#include "quasidyn/io/scene_edit.h"
#include "quasidyn/scenes/scene_loading.h"
#include "real_array.h"
#include "scene_summary.h"

namespace py = pybind11;

namespace quasidyn::python {
namespace {

std::shared_ptr<Scene> Shared(Scene scene) { return std::make_shared<Scene>(std::move(scene)); }

constexpr double kRemove = std::numeric_limits<double>::quiet_NaN();

// A keyword's value as a parameter: a number is 1 × 1, a list n × 1, a list of lists n × m.
Eigen::MatrixXd AsMatrix(py::handle value) {
  if (py::isinstance<py::float_>(value) || py::isinstance<py::int_>(value))
    return Eigen::MatrixXd::Constant(1, 1, value.cast<double>());
  return value.cast<RealMatrix>().value;
}

}  // namespace

void BindSceneEdits(py::module_& m, PyScene& scene) {
  scene
      .def(
          "with_q0",
          [](const Scene& s, const RealVector& q0) {
            return Shared(WithInitialConfiguration(s, q0.value, "Scene.with_q0"));
          },
          py::arg("q0"),
          "A copy with the initial configuration q0 (n_q,) [m, rad]; quaternions must be unit "
          "to 1e-6 (then normalised). Raises ValueError naming a wrong size, NaN or bad "
          "quaternion.")
      .def(
          "with_commands",
          [](const Scene& s, const std::string& robot, const std::vector<double>& times,
             const RealMatrix& positions) {
            std::vector<Eigen::VectorXd> rows;
            for (Eigen::Index k = 0; k < positions.value.rows(); ++k)
              rows.push_back(positions.value.row(k).transpose());
            return Shared(WithCommands(s, robot, times, rows, "Scene.with_commands"));
          },
          py::arg("robot"), py::arg("times"), py::arg("positions"),
          "A copy whose robot `robot` follows the piecewise-linear schedule through the knots "
          "(times[k] [s] strictly increasing, positions[k] the robot's commanded q [m, rad], "
          "positions of shape (K, robot's n_q)); empty times: the robot holds q0.")
      .def(
          "with_stiffness",
          [](const Scene& s, const std::string& robot, const RealVector& stiffness) {
            return Shared(WithStiffness(s, robot, stiffness.value, "Scene.with_stiffness"));
          },
          py::arg("robot"), py::arg("stiffness"),
          "A copy with the joint stiffnesses K of robot `robot` [N/m prismatic, N·m/rad "
          "revolute] in [0.001, 1e9] (docs/scene-format.md, \"Usable ranges\"): one value for all "
          "its actuated joints, or one per joint.")
      .def(
          "with_friction",
          [](const Scene& s, const std::string& shape, double friction) {
            return Shared(WithFriction(s, shape, friction, "Scene.with_friction"));
          },
          py::arg("shape"), py::arg("friction"),
          "A copy where shape `shape` (a name of shape_names) has the friction coefficient μ "
          "[-], 0 or in [1e-6, 100] (combined with the other shape's by the scene's "
          "friction_combination).")
      .def(
          "with_formulation",
          [](const Scene& s, std::optional<std::string> formulation, const py::kwargs& kwargs) {
            const char* who = "Scene.with_formulation";
            ParameterBlock parameters;
            for (const auto& [key, value] : kwargs) {
              // None removes the key (WithFormulation: a NaN value); lists are matrices.
              parameters.Set(
                  py::str(key),
                  value.is_none() ? Eigen::MatrixXd::Constant(1, 1, kRemove) : AsMatrix(value),
                  ValueSource{"", 0, who});
            }
            return Shared(WithFormulation(s, formulation, parameters, who));
          },
          py::arg("formulation") = py::none(),
          "with_formulation(formulation=None, **parameters): a copy with another formulation (a "
          "name of quasidyn.formulations()) and/or parameters set over the scene's block, "
          "checked as the loader checks a file's (quasidyn.formulations() lists each "
          "formulation's parameters with units and ranges); a parameter set to None is "
          "removed (its default applies). Unknown names raise ValueError.")
      .def(
          "with_time_step",
          [](const Scene& s, double h) {
            return Shared(WithTimeStep(s, h, "Scene.with_time_step"));
          },
          py::arg("h"), "A copy with the time step h [s] in [1e-6, 10].")
      .def(
          "with_contact_tolerance",
          [](const Scene& s, double contact_tolerance) {
            return Shared(
                WithContactTolerance(s, contact_tolerance, "Scene.with_contact_tolerance"));
          },
          py::arg("contact_tolerance"),
          "A copy with the contact tolerance ε [m], 0 or in [1e-9, 1000] (contacts with φ <= ε "
          "are kept).")
      .def(
          "summary",
          [](const Scene& s) {
            const ContactModel model(BorrowScene(s));
            ContactData data = model.CreateData();
            if (!model.Compute(s.q0, &data))
              throw std::runtime_error("Scene.summary: the contact query at q0 failed: " +
                                       data.failure_message());
            const std::string text = cli::SceneSummaryJson(s, data.contacts()).dump();
            return py::module_::import("json").attr("loads")(text);
          },
          "The model summary as a dict, the same as `quasidyn info SCENE --json`: sizes, "
          "instances, bodies, joints, shapes and the contacts at q0 (lengths in m).")
      .def("__repr__", [](const Scene& s) {
        return "<quasidyn.Scene '" + s.name + "' " + (s.planar ? "planar" : "3D") +
               ", nq=" + std::to_string(s.nq) + ", nv=" + std::to_string(s.nv) + ">";
      });

  m.def(
      "load_scene",
      [](const PathArgument& path, const std::map<std::string, PathArgument>& packages) {
        std::map<std::string, std::string> folders;
        for (const auto& [name, folder] : packages) folders[name] = folder.value;
        return std::make_shared<Scene>(LoadScene(path.value, folders));
      },
      py::arg("path"), py::arg("packages") = std::map<std::string, PathArgument>{},
      "Loads a scene file (YAML, docs/scene-format.md) at path (a str or os.PathLike). "
      "Relative URDF paths resolve against the file's folder; `packages` ({NAME: folder}, as the "
      "command line's --package NAME=DIR) maps package://NAME/... names in model files, searched "
      "after the scene's own `packages:` and before ROS_PACKAGE_PATH (docs/model-files.md, "
      "\"Packages\"). Raises SceneError ('file:line: "
      "field: problem') on a bad file, SceneFileNotFoundError (a SceneError and a "
      "FileNotFoundError, filename the missing path) when the file or a model file it names "
      "does not exist.");
  m.def(
      "load_scene_from_string",
      [](const std::string& text, const std::string& name, const PathArgument& base_directory) {
        return std::make_shared<Scene>(LoadSceneFromString(text, name, base_directory.value));
      },
      py::arg("yaml_text"), py::arg("name_for_errors") = "<string>",
      py::arg("base_directory") = ".",
      "Loads a scene from YAML text; `name_for_errors` stands for the file in error messages; "
      "relative URDF paths resolve against `base_directory` (a str or os.PathLike). Raises "
      "SceneError (SceneFileNotFoundError for a missing model file).");
}

}  // namespace quasidyn::python
