// quasidyn.load_scene, quasidyn.Scene and quasidyn.SceneError.

#include <pybind11/eigen.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <cmath>
#include <limits>
#include <map>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "bindings.h"
#include "quasidyn/contact/contact_model.h"
#include "quasidyn/dynamics/second_order_cost.h"
#include "quasidyn/io/scene_edit.h"
#include "quasidyn/io/scene_loader.h"
#include "quasidyn/model/scene_error.h"
#include "quasidyn/simulation/coordinate_names.h"
#include "real_array.h"
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

// slice(start, start + length) for indexing numpy arrays.
py::object Slice(int start, int length) {
  return py::module_::import("builtins").attr("slice")(start, start + length);
}

const ModelInstance& InstanceNamed(const Scene& s, const std::string& name, const char* who) {
  const int index = s.InstanceIndex(name);
  if (index < 0) {
    std::string names;
    for (const ModelInstance& i : s.instances) names += (names.empty() ? "" : ", ") + i.name;
    throw py::value_error(std::string(who) + ": the scene has no instance '" + name + "' (" +
                          names + ")");
  }
  return s.instances[index];
}

std::shared_ptr<Scene> Shared(Scene scene) { return std::make_shared<Scene>(std::move(scene)); }

void BindScene(py::module_& m) {
  RegisterSceneError(m);

  py::class_<Scene, std::shared_ptr<Scene>> scene(
      m, "Scene",
      "A loaded scene (docs/scene-format.md): bodies, joints, robots and objects, shapes and "
      "simulation parameters. Immutable: the with_* methods return an edited copy, checked as "
      "the loader checks a file. q = [q_u; q_a]: objects first, then robots.");
  scene.def_readonly("name", &Scene::name, "The scene's name.")
      .def_readonly("source_file", &Scene::source_file,
                    "The scene file it was loaded from; '' for scenes from text. Edited copies "
                    "keep it (their shapes are the file's).")
      .def_readonly("warnings", &Scene::warnings,
                    "What the loader read but ignores (an SDF <plugin>, an MJCF <actuator>, ...), "
                    "one message per item naming the element and the file; [] for most scenes.")
      .def_property_readonly(
          "joint_limits",
          [](const Scene& s) {
            py::dict limits;
            for (const Joint& j : s.joints)
              if (std::isfinite(j.lower_limit) || std::isfinite(j.upper_limit))
                limits[py::str(j.name)] = py::make_tuple(j.lower_limit, j.upper_limit);
            return limits;
          },
          "{joint name: (lower, upper)} [m or rad] of the joints with position limits (±inf "
          "on a side without one); the step keeps q + h v within them (docs/formulations.md).")
      .def_readonly("planar", &Scene::planar, "True when bodies move in the world x-y plane.")
      .def_property_readonly(
          "dimension", [](const Scene& s) { return s.planar ? 2 : 3; },
          "2 for planar scenes, 3 otherwise.")
      .def_property_readonly(
          "gravity", [](const Scene& s) -> Eigen::Vector3d { return s.gravity; },
          "Gravity in world [m/s²], shape (3,).")
      .def_readonly("time_step", &Scene::time_step, "h [s], > 0.")
      .def_readonly("contact_tolerance", &Scene::contact_tolerance,
                    "ε [m]: contacts with φ <= ε are kept.")
      .def_readonly("friction_rays", &Scene::friction_rays, "n_d of the friction pyramid (3D).")
      .def_property_readonly(
          "formulation", [](const Scene& s) { return s.formulation.type; },
          "The scene's formulation: qp | socp | log-barrier | log-barrier-cone | lcp | halm-posa | "
          "stewart-trinkle | anitescu | ecp.")
      .def_property_readonly(
          "formulation_parameters", [](const Scene& s) { return s.formulation.parameters; },
          "The formulation parameters the scene gives (kappa [1/(N·m)], object_mass_scale [-], "
          "unactuated_mass_scale [-]); those it leaves out take their defaults "
          "(docs/scene-format.md).")
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
          "v0",
          [](const Scene& s) -> Eigen::VectorXd {
            return s.v0.size() == s.nv ? s.v0 : Eigen::VectorXd::Zero(s.nv);
          },
          "Initial velocity (n_v,) [m/s, rad/s; floating (ṗ, ω) in the world] of the "
          "second-order formulations: the instances' initial_velocity, zeros when the file "
          "gives none (a copy).")
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
      .def_property_readonly(
          "robot_names",
          [](const Scene& s) {
            std::vector<std::string> names;
            for (const ModelInstance& i : s.instances)
              if (i.actuated) names.push_back(i.name);
            return names;
          },
          "The robots (actuated instances), in q order.")
      .def_property_readonly(
          "object_names",
          [](const Scene& s) {
            std::vector<std::string> names;
            for (const ModelInstance& i : s.instances)
              if (!i.actuated) names.push_back(i.name);
            return names;
          },
          "The objects (un-actuated instances), in q order.")
      .def_property_readonly(
          "body_names", [](const Scene& s) { return Names(s.bodies); },
          "Bodies; body_names[0] is 'world'.")
      .def_property_readonly(
          "joint_names", [](const Scene& s) { return Names(s.joints); }, "Joints, in scene order.")
      .def_property_readonly(
          "shape_names", [](const Scene& s) { return Names(s.geometries); },
          "Collision shapes ('<body>/<shape>'), the names with_friction takes.")
      .def_property_readonly(
          "coordinate_names", [](const Scene& s) { return CoordinateNames(s); },
          "One name per entry of q, e.g. 'sphere/root_joint/x' or 'gripper/x_left'.")
      .def_property_readonly(
          "q_u_slice", [](const Scene& s) { return Slice(0, s.nq_u); },
          "slice of q holding the objects' coordinates: q[scene.q_u_slice] is q_u.")
      .def_property_readonly(
          "q_a_slice", [](const Scene& s) { return Slice(s.nq_u, s.nq_a); },
          "slice of q holding the robots' coordinates: q[scene.q_a_slice] is q_a (the size "
          "of u).")
      .def_property_readonly(
          "v_u_slice", [](const Scene& s) { return Slice(0, s.nv_u); },
          "slice of v (and of StepResult.momentum_force's rows in v) holding the objects' "
          "velocities.")
      .def_property_readonly(
          "v_a_slice", [](const Scene& s) { return Slice(s.nv_u, s.nv_a); },
          "slice of v holding the robots' velocities.")
      .def(
          "q_slice",
          [](const Scene& s, const std::string& instance) {
            const ModelInstance& i = InstanceNamed(s, instance, "Scene.q_slice");
            return Slice(i.q_start, i.nq);
          },
          py::arg("instance"),
          "slice of q holding one instance's coordinates (an object's or a robot's, by name): "
          "q[scene.q_slice('sphere')]. Raises ValueError for an unknown name.")
      .def(
          "v_slice",
          [](const Scene& s, const std::string& instance) {
            const ModelInstance& i = InstanceNamed(s, instance, "Scene.v_slice");
            return Slice(i.v_start, i.nv);
          },
          py::arg("instance"), "slice of v holding one instance's velocities (by name).")
      .def(
          "u_slice",
          [](const Scene& s, const std::string& robot) {
            const ModelInstance& i = InstanceNamed(s, robot, "Scene.u_slice");
            if (!i.actuated) throw py::value_error("Scene.u_slice: '" + robot + "' is an object");
            return Slice(i.q_start - s.nq_u, i.nq);
          },
          py::arg("robot"), "slice of u (= q_a) holding one robot's commanded positions.")
      .def(
          "command_at",
          [](const Scene& s, double t) {
            if (std::isnan(t)) throw py::value_error("Scene.command_at: t is not a number (nan)");
            return s.CommandAt(t);
          },
          py::arg("t"),
          "The commanded robot positions q̄_a(t) (n_q,a,) [m, rad] at time t [s] of the "
          "scene's piecewise-linear schedule.")
      .def_property_readonly("schedule_end", &Scene::ScheduleEnd,
                             "Time of the last command knot [s]; 0 without a schedule.")
      .def_property_readonly("actuated_stiffness", &Scene::ActuatedStiffness,
                             "K_a (n_v,a,): joint stiffnesses [N/m prismatic, N·m/rad revolute].")
      .def_property_readonly(
          "actuated_damping",
          [](const Scene& s) {
            Kinematics kinematics(BorrowScene(s));
            kinematics.Update(s.q0);
            return ActuatedDamping(kinematics);
          },
          "D_a (n_v,a,): the robots' joint damping of the second-order formulations [N·s/m "
          "prismatic, N·m·s/rad revolute]: each joint's `damping`, else critical damping of its "
          "own inertia at q0, 2·sqrt(K·M_jj(q0)).")
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
            const char* who = "Scene.with_commands";
            if (positions.value.rows() != static_cast<Eigen::Index>(times.size()))
              throw py::value_error(std::string(who) + ": positions has " +
                                    std::to_string(positions.value.rows()) + " rows but times " +
                                    std::to_string(times.size()) + " knots: one row per knot");
            std::vector<Eigen::VectorXd> rows;
            for (Eigen::Index k = 0; k < positions.value.rows(); ++k)
              rows.push_back(positions.value.row(k).transpose());
            return Shared(WithCommands(s, robot, times, rows, who));
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
          "revolute] > 0: one value for all its actuated joints, or one per joint.")
      .def(
          "with_friction",
          [](const Scene& s, const std::string& shape, double friction) {
            return Shared(WithFriction(s, shape, friction, "Scene.with_friction"));
          },
          py::arg("shape"), py::arg("friction"),
          "A copy where shape `shape` (a name of shape_names) has the friction coefficient μ "
          "[-] >= 0 (combined with the other shape's by the scene's friction_combination).")
      .def(
          "with_formulation",
          [](const Scene& s, std::optional<std::string> formulation, const py::kwargs& kwargs) {
            std::map<std::string, double> parameters;
            for (const auto& [key, value] : kwargs) {
              const std::string name = py::str(key);
              parameters[name] =
                  value.is_none() ? std::numeric_limits<double>::quiet_NaN() : value.cast<double>();
            }
            return Shared(WithFormulation(s, formulation, parameters, "Scene.with_formulation"));
          },
          py::arg("formulation") = py::none(),
          "with_formulation(formulation=None, **parameters): a copy with another formulation "
          "(qp | socp | log-barrier | log-barrier-cone | lcp | halm-posa | stewart-trinkle | "
          "anitescu) and/or parameters merged "
          "over "
          "the scene's: kappa [1/(N·m)] > 0, object_mass_scale [-] >= 0, "
          "unactuated_mass_scale [-] >= 0 (the reference simulator's rule); a parameter set "
          "to None is removed (its default applies). Unknown names raise ValueError.")
      .def(
          "with_time_step",
          [](const Scene& s, double h) {
            return Shared(WithTimeStep(s, h, "Scene.with_time_step"));
          },
          py::arg("h"), "A copy with the time step h [s] > 0.")
      .def(
          "with_contact_tolerance",
          [](const Scene& s, double contact_tolerance) {
            return Shared(
                WithContactTolerance(s, contact_tolerance, "Scene.with_contact_tolerance"));
          },
          py::arg("contact_tolerance"),
          "A copy with the contact tolerance ε [m] >= 0 (contacts with φ <= ε are kept).")
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
