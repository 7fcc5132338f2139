// quasidyn.TrajectoryStep and quasidyn.Trajectory's records (docs/python.md, "Rollouts and
// trajectories"); trajectory_array_bindings.cc adds the stacked arrays,
// trajectory_file_bindings.cc the files and the viewer page, rollout_bindings.cc the
// constructor, append and rollout.

#include <pybind11/eigen.h>
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <memory>
#include <string>
#include <vector>

#include "bindings.h"
#include "quasidyn/simulation/trajectory_json.h"

namespace py = pybind11;

namespace quasidyn::python {
namespace {

constexpr auto kTrajectoryBindingsView = py::return_value_policy::reference_internal;

}  // namespace

PyTrajectory BindTrajectory(py::module_& m) {
  py::class_<TrajectoryStep>(
      m, "TrajectoryStep",
      "Step k of a trajectory: from t_{k-1} to t = k·h (Trajectory.steps[k - 1], from state "
      "row k - 1 to row k of Trajectory.q). contacts are those found at q(t_{k-1}) with the "
      "forces they carried during the step.")
      .def_readonly("k", &TrajectoryStep::k, "The step's number, 1 … N.")
      .def_readonly("t", &TrajectoryStep::t, "Time at the end of the step, k·h [s].")
      .def_property_readonly(
          "q", [](const TrajectoryStep& s) -> const Eigen::VectorXd& { return s.q; },
          kTrajectoryBindingsView, "q(t) after the step (n_q,).")
      .def_property_readonly(
          "v", [](const TrajectoryStep& s) -> const Eigen::VectorXd& { return s.v; },
          kTrajectoryBindingsView,
          "v(t) after the step (n_v,) [m/s, rad/s] for stewart-trinkle and anitescu; (0,) for "
          "the formulations without a velocity state.")
      .def_property_readonly(
          "u", [](const TrajectoryStep& s) -> const Eigen::VectorXd& { return s.u; },
          kTrajectoryBindingsView, "The command q̄_a(t) the step was solved with (n_q,a,).")
      .def_readonly("contacts", &TrajectoryStep::contacts,
                    "list of Contact: the contacts at the step's start with their forces.")
      .def_property_readonly(
          "status", [](const TrajectoryStep& s) { return std::string(ToString(s.status)); },
          "The step's solver status: solved or solved_inaccurate.")
      .def_property_readonly(
          "iterations", [](const TrajectoryStep& s) { return s.solver.iterations; },
          "Solver iterations of the step.")
      .def_property_readonly(
          "solve_time", [](const TrajectoryStep& s) { return s.solver.solve_time_seconds; },
          "Wall-clock time of the solve [s].")
      .def_property_readonly(
          "polished", [](const TrajectoryStep& s) { return s.solver.polished; },
          "True when the active-set polish replaced the solver's interior-point answer.")
      .def_readonly("step_time", &TrajectoryStep::step_time_seconds,
                    "Wall-clock time of the whole step, contacts and solve [s].")
      .def_readonly("max_body_motion", &TrajectoryStep::max_body_motion,
                    "StepResult.max_body_motion of the step [m] (0 in files without it).")
      .def_readonly("large_motion", &TrajectoryStep::large_motion,
                    "StepResult.large_motion: the step moved a body further than the distance "
                    "within which it saw contacts (a warning; False in files without it).")
      .def_property_readonly(
          "momentum_force",
          [](const TrajectoryStep& s) -> const Eigen::VectorXd& { return s.momentum_force; },
          kTrajectoryBindingsView,
          "StepResult.momentum_force of the step: s·M_u·v_u/h (n_v,u,) [N, N·m].")
      .def_property_readonly(
          "joint_limit_impulse",
          [](const TrajectoryStep& s) -> const Eigen::VectorXd& { return s.joint_limit_impulse; },
          kTrajectoryBindingsView,
          "StepResult.joint_limit_impulse of the step (n_v,) [N·s or N·m·s]; shape (0,) for "
          "scenes without joint limits.")
      .def_property_readonly(
          "A", [](const TrajectoryStep& s) -> const Eigen::MatrixXd& { return s.A; },
          kTrajectoryBindingsView,
          "∂x_k/∂x_{k-1} when the rollout computed it, else shape (0, 0): x = q (n_q, n_q), or "
          "x = (q, v) ((n_q + n_v) square) for stewart-trinkle and anitescu.")
      .def_property_readonly(
          "B", [](const TrajectoryStep& s) -> const Eigen::MatrixXd& { return s.B; },
          kTrajectoryBindingsView,
          "∂x_k/∂u_k (n_x, n_q,a), x as for A, when the rollout computed it, else shape (0, 0).")
      .def_property_readonly(
          "gradient_status",
          [](const TrajectoryStep& s) { return std::string(ToString(s.gradient_status)); },
          "not_run (no gradients asked), solved, or why the step's derivative failed.")
      .def_readonly("gradient_message", &TrajectoryStep::gradient_message,
                    "'' unless the step's derivative failed: why.");

  PyTrajectory trajectory(
      m, "Trajectory",
      "A simulated trajectory (docs/trajectory-format.md). State arrays (times, q, v, q_u, "
      "q_a) have N + 1 rows, row 0 the start (t = 0, q0); per-step arrays (u, A, B, forces, "
      "steps) N rows, row k the step from state k to k + 1 (docs/python.md, \"Arrays of a "
      "trajectory\"). Made by rollout, "
      "read by load_trajectory / Trajectory.load, or built step by step: "
      "Trajectory(scene) then append(q, u, result).");
  trajectory.def_readonly("scene_name", &Trajectory::scene_name, "The scene's name.")
      .def_readonly("scene_file", &Trajectory::scene_file,
                    "The scene file (for a loaded trajectory: resolved against the trajectory "
                    "file's folder); '' for scenes from text.")
      .def_property_readonly(
          "scene", [](const Trajectory& t) { return std::const_pointer_cast<Scene>(t.scene); },
          "The Scene it was simulated on, when in memory (rollout, Trajectory(scene), "
          "load_trajectory(path, scene)); None for a trajectory read without one.")
      .def_readonly("formulation", &Trajectory::formulation,
                    "The formulation's registered name (quasidyn.formulations()).")
      .def_readonly("time_step", &Trajectory::time_step, "h [s].")
      .def_property_readonly(
          "parameters", [](const Trajectory& t) { return NumberParameters(t.parameters); },
          "{key: value}: the formulation's number parameters as the model stepped with them, "
          "defaults resolved (Stepper.parameters).")
      .def_readonly("nq", &Trajectory::nq, "Size of q.")
      .def_readonly("nv", &Trajectory::nv, "Size of v.")
      .def_readonly("nq_u", &Trajectory::nq_u, "Size of the objects' block q_u.")
      .def_property_readonly(
          "nq_a", [](const Trajectory& t) { return t.nq - t.nq_u; },
          "Size of the robots' block q_a.")
      .def_property_readonly("nu", &Trajectory::CommandSize,
                             "Size of each step's u: n_q,a, or n_v,u for ecp (the objects' applied "
                             "impulse).")
      .def_readonly("coordinate_names", &Trajectory::coordinate_names,
                    "One name per entry of q (Scene.coordinate_names).")
      .def_property_readonly(
          "q0", [](const Trajectory& t) -> const Eigen::VectorXd& { return t.q0; },
          kTrajectoryBindingsView, "q(0) (n_q,).")
      .def_property_readonly(
          "v0", [](const Trajectory& t) -> const Eigen::VectorXd& { return t.v0; },
          kTrajectoryBindingsView,
          "v(0) (n_v,) for stewart-trinkle and anitescu; (0,) for the formulations without a "
          "velocity state.")
      .def_readonly("steps_requested", &Trajectory::steps_requested, "N, the steps asked for.")
      .def_readonly("steps_done", &Trajectory::steps_done,
                    "Steps simulated (len(self) unless the file kept every K-th step).")
      .def_readonly("large_motion_steps", &Trajectory::large_motion_steps,
                    "Steps that moved a body further than the distance within which they saw "
                    "contacts (StepResult.large_motion): a warning, 0 for a well-resolved run.")
      .def_property_readonly(
          "status", [](const Trajectory& t) { return std::string(ToString(t.status)); },
          "Status of the last step run (the failed one when not completed).")
      .def_readonly("message", &Trajectory::message,
                    "'' when completed; otherwise which step failed and why.")
      .def_property_readonly("completed", &Trajectory::completed,
                             "True when every requested step was done.")
      .def_readonly("steps", &Trajectory::steps, "list of TrajectoryStep (a copy on each access).")
      .def("__len__", [](const Trajectory& t) { return t.steps.size(); })
      .def_property_readonly(
          "gradient_status",
          [](const Trajectory& t) {
            std::vector<std::string> out;
            for (const TrajectoryStep& s : t.steps) out.emplace_back(ToString(s.gradient_status));
            return out;
          },
          "Per step (N,): not_run, solved, or why its derivative failed.")
      .def_property_readonly(
          "contacts",
          [](const Trajectory& t) {
            std::vector<std::vector<ContactRecord>> all;
            all.reserve(t.steps.size());
            for (const TrajectoryStep& s : t.steps) all.push_back(s.contacts);
            return all;
          },
          "Per step (N,), its list of Contact.")
      .def_property_readonly(
          "final_q",
          [](const Trajectory& t) -> const Eigen::VectorXd& { return t.FinalConfiguration(); },
          kTrajectoryBindingsView, "q at the end: the last step's, q0 when no step was done.")
      .def_property_readonly(
          "final_v",
          [](const Trajectory& t) -> const Eigen::VectorXd& { return t.FinalVelocity(); },
          kTrajectoryBindingsView,
          "v at the end (stewart-trinkle, anitescu): the last step's, v0 when no step was done; "
          "(0,) for the formulations without a velocity state.")
      .def(
          "to_json",
          [](const Trajectory& t) {
            return py::module_::import("json").attr("loads")(TrajectoryToJson(t).dump());
          },
          "The trajectory file's content as a dict.")
      .def("__repr__", [](const Trajectory& t) {
        return "<quasidyn.Trajectory '" + t.scene_name + "' " + t.formulation + ", " +
               std::to_string(t.steps_done) + "/" + std::to_string(t.steps_requested) + " steps, " +
               std::string(ToString(t.status)) + ">";
      });

  AddParameterProperties(trajectory,
                         [](const Trajectory& t) -> const ParameterBlock& { return t.parameters; });
  return trajectory;
}

}  // namespace quasidyn::python
