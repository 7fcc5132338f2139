// quasidyn.load_scene, quasidyn.Scene and quasidyn.SceneError.

#include <pybind11/eigen.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "bindings.h"
#include "quasidyn/contact/contact_model.h"
#include "quasidyn/io/scene_loader.h"
#include "quasidyn/model/scene_error.h"
#include "quasidyn/simulation/coordinate_names.h"
#include "scene_summary.h"

namespace py = pybind11;

namespace quasidyn::python {
namespace {

template <typename Item>
std::vector<std::string> Names(const std::vector<Item>& items) {
  std::vector<std::string> names;
  names.reserve(items.size());
  for (const Item& item : items) names.push_back(item.name);
  return names;
}

// SceneError → quasidyn.SceneError(message) with .file, .line (1-based, 0 unknown), .field.
void RegisterSceneError(py::module_& m) {
  static py::exception<SceneError> scene_error(m, "SceneError", PyExc_ValueError);
  scene_error.doc() =
      "A bad scene or model file. str(e) is 'file:line: field: problem'; e.file, e.line "
      "(1-based, 0 when unknown) and e.field give the parts.";
  py::register_exception_translator([](std::exception_ptr thrown) {
    try {
      if (thrown) std::rethrow_exception(thrown);
    } catch (const SceneError& e) {
      // py::exception's own operator() only sets the error; call the class through a handle.
      py::object instance = py::handle(scene_error.ptr())(py::str(e.what()));
      instance.attr("file") = e.file();
      instance.attr("line") = e.line();
      instance.attr("field") = e.field();
      PyErr_SetObject(scene_error.ptr(), instance.ptr());
    }
  });
}

}  // namespace

FormulationSettings ResolveSettings(const char* who, const std::shared_ptr<Scene>& scene,
                                    const std::optional<std::string>& formulation,
                                    std::optional<double> h, std::optional<double> kappa,
                                    std::optional<double> object_mass_scale) {
  if (!scene) throw py::value_error(std::string(who) + ": scene is None");
  FormulationSettings settings = SettingsFromScene(*scene);
  if (formulation) settings.type = ParseFormulation(*formulation);
  if (h) settings.time_step = *h;
  if (kappa) settings.kappa = *kappa;
  if (object_mass_scale) settings.object_mass_scale = *object_mass_scale;
  return settings;
}

void BindScene(py::module_& m) {
  RegisterSceneError(m);

  py::class_<Scene, std::shared_ptr<Scene>> scene(
      m, "Scene",
      "A loaded scene (docs/scene-format.md): bodies, joints, robots and objects, shapes and "
      "simulation parameters. Immutable. q = [q_u; q_a]: objects first, then robots.");
  scene.def_readonly("name", &Scene::name)
      .def_readonly("source_file", &Scene::source_file, "The scene file; '' for inline scenes.")
      .def_readonly("planar", &Scene::planar, "True when bodies move in the world x-y plane.")
      .def_property_readonly("dimension", [](const Scene& s) { return s.planar ? 2 : 3; })
      .def_property_readonly(
          "gravity", [](const Scene& s) -> Eigen::Vector3d { return s.gravity; },
          "Gravity in world [m/s²], shape (3,).")
      .def_readonly("time_step", &Scene::time_step, "h [s], > 0.")
      .def_readonly("contact_tolerance", &Scene::contact_tolerance,
                    "ε [m]: contacts with φ <= ε are kept.")
      .def_readonly("friction_rays", &Scene::friction_rays, "n_d of the friction pyramid (3D).")
      .def_property_readonly(
          "formulation", [](const Scene& s) { return s.formulation.type; },
          "The scene's formulation: qp | socp | log-barrier | log-barrier-cone | lcp.")
      .def_property_readonly(
          "formulation_parameters", [](const Scene& s) { return s.formulation.parameters; },
          "The scene's formulation parameters (kappa [1/(N·m)], object_mass_scale [-]).")
      .def_readonly("nq", &Scene::nq, "Size of q.")
      .def_readonly("nv", &Scene::nv, "Size of v.")
      .def_readonly("nq_u", &Scene::nq_u, "Size of the objects' (un-actuated) block q_u.")
      .def_readonly("nv_u", &Scene::nv_u, "Size of the objects' block v_u.")
      .def_readonly("nq_a", &Scene::nq_a, "Size of the robots' (actuated) block q_a = size of u.")
      .def_readonly("nv_a", &Scene::nv_a, "Size of the robots' block v_a (= nq_a).")
      .def_property_readonly(
          "q0", [](const Scene& s) -> const Eigen::VectorXd& { return s.q0; },
          py::return_value_policy::reference_internal,
          "Initial configuration (n_q,) [m, rad; quaternions w,x,y,z]; a read-only view.")
      .def_property_readonly(
          "external_force",
          [](const Scene& s) -> Eigen::VectorXd {
            return s.external_force.size() > 0 ? s.external_force : Eigen::VectorXd::Zero(s.nv_u);
          },
          "The objects' constant external generalized force tau_ext (n_v,u,) [N, N·m] "
          "(objects[].external_force; zeros when none).")
      .def_property_readonly(
          "instance_names", [](const Scene& s) { return Names(s.instances); },
          "Model instances, objects first then robots.")
      .def_property_readonly("robot_names",
                             [](const Scene& s) {
                               std::vector<std::string> names;
                               for (const ModelInstance& i : s.instances)
                                 if (i.actuated) names.push_back(i.name);
                               return names;
                             })
      .def_property_readonly("object_names",
                             [](const Scene& s) {
                               std::vector<std::string> names;
                               for (const ModelInstance& i : s.instances)
                                 if (!i.actuated) names.push_back(i.name);
                               return names;
                             })
      .def_property_readonly(
          "body_names", [](const Scene& s) { return Names(s.bodies); },
          "Bodies; body_names[0] is 'world'.")
      .def_property_readonly("joint_names", [](const Scene& s) { return Names(s.joints); })
      .def_property_readonly("shape_names", [](const Scene& s) { return Names(s.geometries); })
      .def_property_readonly(
          "coordinate_names", [](const Scene& s) { return CoordinateNames(s); },
          "One name per entry of q, e.g. 'sphere/x' or 'x_left'.")
      .def(
          "command_at", [](const Scene& s, double t) { return s.CommandAt(t); }, py::arg("t"),
          "The commanded robot positions q̄_a(t) (n_q,a,) [m, rad] at time t [s] of the "
          "scene's piecewise-linear schedule.")
      .def_property_readonly("schedule_end", &Scene::ScheduleEnd,
                             "Time of the last command knot [s]; 0 without a schedule.")
      .def_property_readonly("actuated_stiffness", &Scene::ActuatedStiffness,
                             "K_a (n_v,a,): joint stiffnesses [N/m prismatic, N·m/rad revolute].")
      .def(
          "summary",
          [](const Scene& s) {
            const ContactModel model(BorrowScene(s));
            ContactData data = model.CreateData();
            if (!model.Compute(s.q0, &data))
              throw std::runtime_error("summary: the contact query at q0 failed: " +
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
      [](const std::string& path) { return std::make_shared<Scene>(LoadScene(path)); },
      py::arg("path"),
      "Loads a scene file (YAML, docs/scene-format.md). Relative URDF paths resolve against "
      "the file's folder. Raises SceneError ('file:line: field: problem') on a bad file.");
  m.def(
      "load_scene_from_string",
      [](const std::string& text, const std::string& name, const std::string& base_directory) {
        return std::make_shared<Scene>(LoadSceneFromString(text, name, base_directory));
      },
      py::arg("yaml_text"), py::arg("name_for_errors") = "<string>",
      py::arg("base_directory") = ".",
      "Loads a scene from YAML text; `name_for_errors` stands for the file in error messages; "
      "relative URDF paths resolve against `base_directory`. Raises SceneError.");
}

}  // namespace quasidyn::python
