// quasidyn.Scene (what a loaded scene holds: layout, names, slices, schedule) and
// quasidyn.SceneError; scene_edit_bindings.cc adds the edits and the loaders.

#include <pybind11/eigen.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <cmath>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "bindings.h"
#include "quasidyn/dynamics/second_order_cost.h"
#include "quasidyn/model/scene_error.h"
#include "quasidyn/simulation/coordinate_names.h"

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

// The parts of a SceneError on its Python instance.
void SetLocation(const SceneError& e, py::object& instance) {
  instance.attr("file") = e.file();
  instance.attr("line") = e.line();
  instance.attr("field") = e.field();
}

// SceneError → quasidyn.SceneError(message) with .file, .line (1-based, 0 unknown), .field;
// SceneFileNotFoundError → quasidyn.SceneFileNotFoundError, also a FileNotFoundError (errno,
// strerror, filename: the missing path).
void RegisterSceneError(py::module_& m) {
  static py::exception<SceneError> scene_error(m, "SceneError", PyExc_ValueError);
  scene_error.doc() =
      "A bad scene or model file. str(e) is 'file:line: field: problem'; e.file, e.line "
      "(1-based, 0 when unknown) and e.field give the parts.";
  // The attributes every instance carries, for the type stubs (scripts/generate_python_stubs.py).
  py::dict attributes;
  attributes["file"] = "str";
  attributes["line"] = "int";
  attributes["field"] = "str";
  scene_error.attr("__annotations__") = attributes;
  // A handle the module keeps alive (never released at exit, after the interpreter).
  static const py::handle not_found =
      FileNotFoundClass(
          m, "SceneFileNotFoundError", scene_error,
          "A scene file, or a model file (URDF, SDF, MJCF) a scene names, that does not exist: a "
          "SceneError (e.file, e.line, e.field locate the reference; the scene file itself for a "
          "missing scene file) and a FileNotFoundError (e.errno = ENOENT, e.filename = the missing "
          "path).")
          .release();
  py::register_exception_translator([](std::exception_ptr thrown) {
    try {
      if (thrown) std::rethrow_exception(thrown);
    } catch (const SceneFileNotFoundError& e) {
      py::object instance = FileNotFoundInstance(not_found, e.what(), e.missing_file());
      SetLocation(e, instance);
      PyErr_SetObject(not_found.ptr(), instance.ptr());
    } catch (const SceneError& e) {
      // py::exception's own operator() only sets the error; call the class through a handle.
      py::object instance = py::handle(scene_error.ptr())(py::str(e.what()));
      SetLocation(e, instance);
      PyErr_SetObject(scene_error.ptr(), instance.ptr());
    }
  });
}

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

}  // namespace

PyScene BindScene(py::module_& m) {
  RegisterSceneError(m);

  PyScene scene(
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
          "on a side without one); the step keeps q + h v within them (docs/formulations.md) "
          "unless "
          "conventions['joint_limits'] is 'ignored'.")
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
          "conventions",
          [](const Scene& s) {
            py::dict conventions;
            conventions["friction_ray_basis"] =
                FrictionRayBasisName(s.conventions.friction_ray_basis);
            conventions["quaternion_update"] =
                QuaternionUpdateName(s.conventions.quaternion_update);
            conventions["joint_limits"] = JointLimitRuleName(s.conventions.joint_limits);
            return conventions;
          },
          "The scene's `conventions:` block, {key: name}: quasidyn's choices (quasidyn, "
          "exponential_map, enforced) or the reference simulator's (qsim, first_order, ignored; "
          "its files load with them), docs/scene-format.md \"Conventions\".")
      .def_property_readonly(
          "formulation", [](const Scene& s) { return s.formulation.name; },
          "The scene's formulation (its `formulation.type`): a name of quasidyn.formulations().")
      .def_property_readonly(
          "formulation_parameters",
          [](const Scene& s) { return ParameterDict(s.formulation.parameters); },
          "The formulation parameters the scene's `formulation:` block gives, {key: value} (a "
          "number, or an array for a list); those it leaves out take their defaults "
          "(quasidyn.formulations() lists each formulation's).")
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
            return Named("Scene.command_at", [&] { return s.CommandAt(t); });
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
          "own inertia at q0, 2·sqrt(K·M_jj(q0)).");
  return scene;
}

}  // namespace quasidyn::python
