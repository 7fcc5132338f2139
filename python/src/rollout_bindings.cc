// quasidyn.rollout, quasidyn.Trajectory, quasidyn.TrajectoryStep, quasidyn.load_trajectory.

#include <pybind11/eigen.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <cmath>
#include <memory>
#include <optional>
#include <string>

#include "bindings.h"
#include "quasidyn/simulation/rollout.h"
#include "quasidyn/simulation/trajectory_json.h"
#include "quasidyn/stepping/formulation_table.h"

namespace py = pybind11;

namespace quasidyn::python {
namespace {

constexpr auto kView = py::return_value_policy::reference_internal;

// The number of steps: `steps`, or the steps covering `duration` [s], or the end of the
// scene's command schedule when neither is given (as `quasidyn simulate` does).
int ResolveStepCount(const Scene& scene, const FormulationSettings& settings,
                     std::optional<int> steps, std::optional<double> duration) {
  if (steps && duration) throw py::value_error("rollout: give steps or duration, not both");
  if (steps) return *steps;  // Rollout() rejects a negative count with its own message
  if (duration) return StepCountForDuration(*duration, settings.time_step);
  const double end = scene.ScheduleEnd();
  if (!(end > 0))
    throw py::value_error("scene '" + scene.name +
                          "' has no command schedule to run to its end: give steps or duration");
  return StepCountForDuration(end, settings.time_step);
}

// Row k of the result is `column(steps[k])` (size `width`).
template <typename Get>
Eigen::MatrixXd Stack(const Trajectory& t, int width, Get column) {
  Eigen::MatrixXd out(static_cast<Eigen::Index>(t.steps.size()), width);
  for (size_t k = 0; k < t.steps.size(); ++k)
    out.row(static_cast<Eigen::Index>(k)) = column(t.steps[k]);
  return out;
}

int CommandSize(const Trajectory& t) {
  return t.steps.empty() ? t.nq - t.nq_u : static_cast<int>(t.steps.front().u.size());
}

}  // namespace

void BindRollout(py::module_& m) {
  py::class_<TrajectoryStep>(
      m, "TrajectoryStep",
      "Step k of a trajectory: from t_{k-1} to t = k·h. contacts are those found at "
      "q(t_{k-1}) with the forces they carried during the step.")
      .def_readonly("t", &TrajectoryStep::t, "Time at the end of the step [s].")
      .def_property_readonly(
          "q", [](const TrajectoryStep& s) -> const Eigen::VectorXd& { return s.q; }, kView,
          "q(t) after the step (n_q,).")
      .def_property_readonly(
          "u", [](const TrajectoryStep& s) -> const Eigen::VectorXd& { return s.u; }, kView,
          "The command q̄_a(t) the step was solved with (n_q,a,).")
      .def_readonly("contacts", &TrajectoryStep::contacts, "list of Contact.")
      .def_property_readonly(
          "status", [](const TrajectoryStep& s) { return std::string(ToString(s.status)); })
      .def_property_readonly("iterations",
                             [](const TrajectoryStep& s) { return s.solver.iterations; })
      .def_property_readonly(
          "solve_time", [](const TrajectoryStep& s) { return s.solver.solve_time_seconds; },
          "Wall-clock time of the solve [s].")
      .def_readonly("step_time", &TrajectoryStep::step_time_seconds,
                    "Wall-clock time of the whole step, contacts and solve [s].");

  py::class_<Trajectory, std::shared_ptr<Trajectory>>(
      m, "Trajectory",
      "A simulated trajectory (docs/trajectory-format.md). Row k of times, q and u is step "
      "k+1, at t = (k+1)·h; the initial configuration is q0 (not a row).")
      .def_readonly("scene_name", &Trajectory::scene_name)
      .def_readonly("scene_file", &Trajectory::scene_file)
      .def_readonly("formulation", &Trajectory::formulation)
      .def_readonly("time_step", &Trajectory::time_step, "h [s].")
      .def_readonly("kappa", &Trajectory::kappa, "Log-barrier weight κ [1/(N·m)].")
      .def_readonly("object_mass_scale", &Trajectory::object_mass_scale, "s [-].")
      .def_readonly("nq", &Trajectory::nq)
      .def_readonly("nv", &Trajectory::nv)
      .def_readonly("nq_u", &Trajectory::nq_u)
      .def_readonly("coordinate_names", &Trajectory::coordinate_names)
      .def_property_readonly(
          "q0", [](const Trajectory& t) -> const Eigen::VectorXd& { return t.q0; }, kView,
          "q(0) (n_q,).")
      .def_readonly("steps_requested", &Trajectory::steps_requested)
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
          "times",
          [](const Trajectory& t) {
            Eigen::VectorXd times(static_cast<Eigen::Index>(t.steps.size()));
            for (size_t k = 0; k < t.steps.size(); ++k)
              times[static_cast<Eigen::Index>(k)] = t.steps[k].t;
            return times;
          },
          "t_k = k·h (N,) [s], the end time of each step.")
      .def_property_readonly(
          "q",
          [](const Trajectory& t) {
            return Stack(t, t.nq, [](const TrajectoryStep& s) { return s.q.transpose(); });
          },
          "q(t_k) stacked (N, n_q) [m, rad].")
      .def_property_readonly(
          "u",
          [](const Trajectory& t) {
            return Stack(t, CommandSize(t),
                         [](const TrajectoryStep& s) { return s.u.transpose(); });
          },
          "The commands q̄_a(t_k) stacked (N, n_q,a) [m, rad].")
      .def_property_readonly(
          "contacts",
          [](const Trajectory& t) {
            std::vector<std::vector<ContactRecord>> all;
            all.reserve(t.steps.size());
            for (const TrajectoryStep& s : t.steps) all.push_back(s.contacts);
            return all;
          },
          "Per step, its list of Contact.")
      .def_property_readonly(
          "final_q",
          [](const Trajectory& t) -> const Eigen::VectorXd& { return t.FinalConfiguration(); },
          kView, "q at the end: the last step's, q0 when no step was done.")
      .def(
          "save_json",
          [](const Trajectory& t, const std::string& path, int indent) {
            WriteTrajectoryFile(t, path, indent);
          },
          py::arg("path"), py::arg("indent") = -1,
          "Writes the trajectory file (docs/trajectory-format.md; doubles round-trip bit for "
          "bit); indent < 0 writes compact JSON. Written atomically: a failed write leaves an "
          "existing file as it was. Raises RuntimeError naming an unwritable path, ValueError "
          "for an empty one.")
      .def(
          "to_json",
          [](const Trajectory& t) {
            return py::module_::import("json").attr("loads")(TrajectoryToJson(t).dump());
          },
          "The trajectory file's content as a dict.")
      .def("__repr__", [](const Trajectory& t) {
        return "<quasidyn.Trajectory '" + t.scene_name + "' " + t.formulation + ", " +
               std::to_string(t.steps.size()) + "/" + std::to_string(t.steps_requested) +
               " steps, " + std::string(ToString(t.status)) + ">";
      });

  m.def(
      "rollout",
      [](std::shared_ptr<Scene> scene, std::optional<std::string> formulation,
         std::optional<double> h, std::optional<double> kappa,
         std::optional<double> object_mass_scale, std::optional<int> steps,
         std::optional<double> duration) {
        const FormulationSettings settings =
            ResolveSettings("rollout", scene, formulation, h, kappa, object_mass_scale);
        RolloutOptions options;
        options.steps = ResolveStepCount(*scene, settings, steps, duration);
        const std::shared_ptr<const StepModel> model = MakeStepModel(scene, settings);
        py::gil_scoped_release release;
        return std::make_shared<Trajectory>(Rollout(*model, options));
      },
      py::arg("scene"), py::arg("formulation") = py::none(), py::arg("h") = py::none(),
      py::arg("kappa") = py::none(), py::arg("object_mass_scale") = py::none(),
      py::arg("steps") = py::none(), py::arg("duration") = py::none(),
      "Runs the scene's command schedule from scene.q0: for k = 1..N, u_k = "
      "scene.command_at(k·h), q_k = step(q_{k-1}, u_k). N = steps, or the steps covering "
      "duration [s], or the schedule's end when neither is given. Formulation parameters as in "
      "Stepper (None: the scene's). A failed step stops the rollout without raising: check "
      "Trajectory.completed / message.");

  m.def(
      "load_trajectory",
      [](const std::string& path) {
        return std::make_shared<Trajectory>(ReadTrajectoryFile(path));
      },
      py::arg("path"),
      "Reads a trajectory file written by Trajectory.save_json or `quasidyn simulate --out`. "
      "Raises RuntimeError on a missing file or bad JSON, ValueError on bad content.");
}

}  // namespace quasidyn::python
