// quasidyn.rollout, quasidyn.Trajectory, quasidyn.TrajectoryStep, quasidyn.load_trajectory and
// quasidyn.view (docs/python.md, "Rollouts and trajectories").

#include <pybind11/eigen.h>
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <cmath>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "bindings.h"
#include "quasidyn/common/argument_check.h"
#include "quasidyn/io/scene_loader.h"
#include "quasidyn/simulation/rollout.h"
#include "quasidyn/simulation/trajectory_file.h"
#include "quasidyn/simulation/trajectory_json.h"
#include "quasidyn/stepping/formulation_table.h"
#include "quasidyn/viewer/html_writer.h"
#include "real_array.h"

namespace py = pybind11;

namespace quasidyn::python {
namespace {

constexpr auto kView = py::return_value_policy::reference_internal;

// The number of steps: `steps`, or the steps covering `duration` [s], or the end of the
// scene's command schedule when neither is given (as `quasidyn simulate` does).
int ResolveStepCount(const Scene& scene, const FormulationSettings& settings,
                     std::optional<int> steps, std::optional<double> duration) {
  if (steps && duration) throw py::value_error("rollout: give steps or duration, not both");
  if (steps) {
    if (*steps < 0)
      throw py::value_error("rollout: steps must be >= 0 (got " + std::to_string(*steps) + ")");
    return *steps;
  }
  if (duration) {
    if (!std::isfinite(*duration) || *duration < 0)
      throw py::value_error("rollout: duration must be finite and >= 0 s (got " +
                            NumberText(*duration) + ")");
    return StepCountForDuration(*duration, settings.time_step);
  }
  const double end = scene.ScheduleEnd();
  if (!(end > 0))
    throw py::value_error("rollout: scene '" + scene.name +
                          "' has no command schedule to run to its end: give U, steps or "
                          "duration");
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

int CommandSize(const Trajectory& t) { return t.CommandSize(); }

// The size of the state x: n_q, or n_q + n_v for a trajectory with velocities (second order).
int StateSize(const Trajectory& t) { return t.nq + static_cast<int>(t.v0.size()); }

// (N, rows, cols) from each step's matrix; NaN where a step has none (a failed derivative).
py::array_t<double> StackMatrices(const Trajectory& t, const char* name, Eigen::Index rows,
                                  Eigen::Index cols,
                                  const Eigen::MatrixXd& (*get)(const TrajectoryStep&)) {
  bool any = t.steps.empty();
  for (const TrajectoryStep& step : t.steps)
    any = any || step.gradient_status != SolverStatus::kNotRun;
  if (!any)
    throw py::value_error(std::string("Trajectory.") + name +
                          ": the rollout computed no gradients (rollout(..., "
                          "gradients='a_and_b' or 'b_only'))");
  const auto n = static_cast<py::ssize_t>(t.steps.size());
  py::array_t<double> out({n, static_cast<py::ssize_t>(rows), static_cast<py::ssize_t>(cols)});
  auto view = out.mutable_unchecked<3>();
  for (py::ssize_t k = 0; k < n; ++k) {
    const Eigen::MatrixXd& m = get(t.steps[k]);
    const bool has = m.rows() == rows && m.cols() == cols;
    for (Eigen::Index i = 0; i < rows; ++i)
      for (Eigen::Index j = 0; j < cols; ++j)
        view(k, i, j) = has ? m(i, j) : std::numeric_limits<double>::quiet_NaN();
  }
  return out;
}

const Scene& SceneOf(const Trajectory& t, const char* who) {
  if (!t.scene)
    throw py::value_error(std::string(who) +
                          ": the trajectory has no scene in memory (it was read from a file): "
                          "load it with load_trajectory(path, scene=...) or quasidyn.view's "
                          "scene argument");
  return *t.scene;
}

std::shared_ptr<Trajectory> NewTrajectory(const std::shared_ptr<Scene>& scene,
                                          const std::optional<RealVector>& q0,
                                          const std::optional<RealVector>& v0,
                                          const FormulationSettings& settings, int steps,
                                          const char* who) {
  const std::shared_ptr<const StepModel> model = MakeStepModel(scene, settings);
  State start = InitialState(*model);
  if (q0) {
    CheckConfiguration(who, *scene, q0->value, "q0");
    start.q = q0->value;
  }
  start.v = StateVelocity(who, *model, v0 ? &v0->value : nullptr, "v0", &start.v);
  return std::make_shared<Trajectory>(StartTrajectory(scene, settings, start, steps));
}

// Reads a trajectory file; `scene`, when given, becomes its in-memory scene (same n_q).
std::shared_ptr<Trajectory> LoadTrajectory(const char* who, const std::string& path,
                                           std::shared_ptr<Scene> scene) {
  auto t = std::make_shared<Trajectory>(ReadTrajectory(path));
  if (scene) {
    if (scene->nq != t->nq)
      throw py::value_error(std::string(who) + ": scene has n_q = " + std::to_string(scene->nq) +
                            " but the trajectory " + std::to_string(t->nq));
    t->scene = std::move(scene);
  }
  return t;
}

}  // namespace

void BindRollout(py::module_& m) {
  py::class_<TrajectoryStep>(
      m, "TrajectoryStep",
      "Step k of a trajectory: from t_{k-1} to t = k·h. contacts are those found at "
      "q(t_{k-1}) with the forces they carried during the step.")
      .def_readonly("k", &TrajectoryStep::k, "The step's number, 1 … N.")
      .def_readonly("t", &TrajectoryStep::t, "Time at the end of the step, k·h [s].")
      .def_property_readonly(
          "q", [](const TrajectoryStep& s) -> const Eigen::VectorXd& { return s.q; }, kView,
          "q(t) after the step (n_q,).")
      .def_property_readonly(
          "v", [](const TrajectoryStep& s) -> const Eigen::VectorXd& { return s.v; }, kView,
          "v(t) after the step (n_v,) [m/s, rad/s] for stewart-trinkle and anitescu; (0,) for "
          "the formulations without a velocity state.")
      .def_property_readonly(
          "u", [](const TrajectoryStep& s) -> const Eigen::VectorXd& { return s.u; }, kView,
          "The command q̄_a(t) the step was solved with (n_q,a,).")
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
      .def_property_readonly(
          "momentum_force",
          [](const TrajectoryStep& s) -> const Eigen::VectorXd& { return s.momentum_force; }, kView,
          "StepResult.momentum_force of the step: s·M_u·v_u/h (n_v,u,) [N, N·m].")
      .def_property_readonly(
          "joint_limit_impulse",
          [](const TrajectoryStep& s) -> const Eigen::VectorXd& { return s.joint_limit_impulse; },
          kView,
          "StepResult.joint_limit_impulse of the step (n_v,) [N·s or N·m·s]; shape (0,) for "
          "scenes without joint limits.")
      .def_property_readonly(
          "A", [](const TrajectoryStep& s) -> const Eigen::MatrixXd& { return s.A; }, kView,
          "∂x_k/∂x_{k-1} when the rollout computed it, else shape (0, 0): x = q (n_q, n_q), or "
          "x = (q, v) ((n_q + n_v) square) for stewart-trinkle and anitescu.")
      .def_property_readonly(
          "B", [](const TrajectoryStep& s) -> const Eigen::MatrixXd& { return s.B; }, kView,
          "∂x_k/∂u_k (n_x, n_q,a), x as for A, when the rollout computed it, else shape (0, 0).")
      .def_property_readonly(
          "gradient_status",
          [](const TrajectoryStep& s) { return std::string(ToString(s.gradient_status)); },
          "not_run (no gradients asked), solved, or why the step's derivative failed.")
      .def_readonly("gradient_message", &TrajectoryStep::gradient_message,
                    "'' unless the step's derivative failed: why.");

  py::class_<Trajectory, std::shared_ptr<Trajectory>> trajectory(
      m, "Trajectory",
      "A simulated trajectory (docs/trajectory-format.md). Row k of times, q and u is step "
      "k+1, at t = (k+1)·h; the initial configuration is q0 (not a row). Made by rollout, "
      "read by load_trajectory / Trajectory.load, or built step by step: "
      "Trajectory(scene) then append(q, u, result).");
  trajectory
      .def(py::init([](std::shared_ptr<Scene> scene, std::optional<RealVector> q0,
                       std::optional<std::string> formulation, std::optional<double> h,
                       std::optional<double> kappa, std::optional<double> object_mass_scale,
                       std::optional<RealVector> v0) {
             const FormulationSettings settings =
                 ResolveSettings("Trajectory", scene, formulation, h, kappa, object_mass_scale);
             return NewTrajectory(scene, q0, v0, settings, 0, "Trajectory");
           }),
           py::arg("scene"), py::arg("q0") = py::none(), py::arg("formulation") = py::none(),
           py::arg("h") = py::none(), py::arg("kappa") = py::none(),
           py::arg("object_mass_scale") = py::none(), py::arg("v0") = py::none(),
           "Trajectory(scene, q0=None, formulation=None, h=None, kappa=None, "
           "object_mass_scale=None, v0=None): an empty trajectory of the scene starting at q0 "
           "(None: scene.q0) and, for stewart-trinkle and anitescu, v0 (n_v,) (None: the "
           "scene's initial velocity), recording the formulation settings given (None: the "
           "scene's, as Stepper). Add steps with append.")
      .def(
          "append",
          [](Trajectory& t, std::optional<RealVector> q, const RealVector& u,
             const PyStepResult* result, std::optional<RealVector> v) {
            const char* who = "Trajectory.append";
            const Scene& scene = SceneOf(t, who);
            if (!q && result == nullptr)
              throw py::value_error(std::string(who) + ": give q, or a result to take q_next from");
            const Eigen::VectorXd& next = q ? q->value : result->result.next.q;
            CheckConfiguration(who, scene, next, "q");
            CheckVector(who, "u", u.value, t.CommandSize(), "the trajectory's command size");
            if (result != nullptr && !result->result.ok())
              throw py::value_error(std::string(who) + ": result is a failed step (" +
                                    std::string(ToString(result->result.status)) +
                                    "): a trajectory holds solved steps only");
            // The velocity after the step, for a trajectory with velocities (v0 set).
            Eigen::VectorXd velocity;
            if (t.v0.size() > 0) {
              if (!v && (result == nullptr || result->result.next.v.size() != t.nv))
                throw py::value_error(std::string(who) +
                                      ": the trajectory has velocities: give v, or a result of "
                                      "a stepper with a velocity state");
              velocity = v ? v->value : result->result.next.v;
              CheckVector(who, "v", velocity, t.nv, "n_v");
            } else if (v) {
              throw py::value_error(std::string(who) +
                                    ": v is for trajectories with velocities (v0; "
                                    "stewart-trinkle, anitescu)");
            }
            AppendStep(State{next, velocity}, u.value, result ? &result->result : nullptr, &t);
          },
          py::arg("q"), py::arg("u"), py::arg("result") = py::none(), py::arg("v") = py::none(),
          "append(q, u, result=None, v=None): adds step k = len + 1 at t = k·h: q (n_q,) the "
          "configuration after it (None: result.q_next), u (n_q,a,) its command, and when "
          "result (a StepResult of Stepper.step) is given its contacts, forces, status and "
          "statistics; for a trajectory with velocities (stewart-trinkle, anitescu: v0 set) v "
          "(n_v,) the velocity after it (None: result.v_next). Raises ValueError naming a wrong "
          "size, a NaN or a failed result.")
      .def_readonly("scene_name", &Trajectory::scene_name, "The scene's name.")
      .def_readonly("scene_file", &Trajectory::scene_file,
                    "The scene file (for a loaded trajectory: resolved against the trajectory "
                    "file's folder); '' for scenes from text.")
      .def_property_readonly(
          "scene", [](const Trajectory& t) { return std::const_pointer_cast<Scene>(t.scene); },
          "The Scene it was simulated on, when in memory (rollout, Trajectory(scene), "
          "load_trajectory(path, scene)); None for a trajectory read without one.")
      .def_readonly("formulation", &Trajectory::formulation,
                    "qp | socp | log-barrier | log-barrier-cone | lcp | halm-posa | "
                    "stewart-trinkle | anitescu | ecp.")
      .def_readonly("time_step", &Trajectory::time_step, "h [s].")
      .def_readonly("kappa", &Trajectory::kappa, "Log-barrier weight κ [1/(N·m)].")
      .def_readonly("object_mass_scale", &Trajectory::object_mass_scale,
                    "s [-] of the objects' momentum term ½ s vᵀ M_u v.")
      .def_readonly("nq", &Trajectory::nq, "Size of q.")
      .def_readonly("nv", &Trajectory::nv, "Size of v.")
      .def_readonly("nq_u", &Trajectory::nq_u, "Size of the objects' block q_u.")
      .def_property_readonly(
          "nq_a", [](const Trajectory& t) { return t.nq - t.nq_u; },
          "Size of the robots' block q_a.")
      .def_property_readonly("nu", &CommandSize,
                             "Size of each step's u: n_q,a, or n_v,u for ecp (the objects' applied "
                             "impulse).")
      .def_readonly("coordinate_names", &Trajectory::coordinate_names,
                    "One name per entry of q (Scene.coordinate_names).")
      .def_property_readonly(
          "q0", [](const Trajectory& t) -> const Eigen::VectorXd& { return t.q0; }, kView,
          "q(0) (n_q,).")
      .def_property_readonly(
          "v0", [](const Trajectory& t) -> const Eigen::VectorXd& { return t.v0; }, kView,
          "v(0) (n_v,) for stewart-trinkle and anitescu; (0,) for the formulations without a "
          "velocity state.")
      .def_readonly("steps_requested", &Trajectory::steps_requested, "N, the steps asked for.")
      .def_readonly("steps_done", &Trajectory::steps_done,
                    "Steps simulated (len(self) unless the file kept every K-th step).")
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
          "v",
          [](const Trajectory& t) {
            const int n = static_cast<int>(t.v0.size());
            return Stack(t, n, [n](const TrajectoryStep& s) -> Eigen::RowVectorXd {
              if (s.v.size() != n)
                return Eigen::RowVectorXd::Constant(n, std::numeric_limits<double>::quiet_NaN());
              return s.v.transpose();
            });
          },
          "v(t_k) stacked (N, n_v) [m/s, rad/s] for stewart-trinkle and anitescu; (N, 0) for "
          "the formulations without a velocity state.")
      .def_property_readonly(
          "q_u",
          [](const Trajectory& t) {
            return Stack(t, t.nq_u,
                         [&t](const TrajectoryStep& s) { return s.q.head(t.nq_u).transpose(); });
          },
          "The objects' coordinates q_u(t_k) stacked (N, n_q,u).")
      .def_property_readonly(
          "q_a",
          [](const Trajectory& t) {
            return Stack(t, CommandSize(t), [&t](const TrajectoryStep& s) {
              return s.q.tail(CommandSize(t)).transpose();
            });
          },
          "The robots' coordinates q_a(t_k) stacked (N, n_q,a).")
      .def(
          "instance_q",
          [](const Trajectory& t, const std::string& instance) {
            const Scene& scene = SceneOf(t, "Trajectory.instance_q");
            const int index = scene.InstanceIndex(instance);
            if (index < 0)
              throw py::value_error("Trajectory.instance_q: the scene has no instance '" +
                                    instance + "'");
            const ModelInstance& i = scene.instances[index];
            return Stack(t, i.nq, [&i](const TrajectoryStep& s) {
              return s.q.segment(i.q_start, i.nq).transpose();
            });
          },
          py::arg("instance"),
          "One instance's coordinates stacked (N, its n_q), by name ('sphere', 'gripper').")
      .def_property_readonly(
          "u",
          [](const Trajectory& t) {
            return Stack(t, CommandSize(t),
                         [](const TrajectoryStep& s) { return s.u.transpose(); });
          },
          "The commands q̄_a(t_k) stacked (N, n_q,a) [m, rad].")
      .def_property_readonly(
          "momentum_force",
          [](const Trajectory& t) {
            const int nv_u = t.nv - CommandSize(t);
            return Stack(t, nv_u, [nv_u](const TrajectoryStep& s) -> Eigen::RowVectorXd {
              if (s.momentum_force.size() != nv_u)
                return Eigen::RowVectorXd::Constant(nv_u, std::numeric_limits<double>::quiet_NaN());
              return s.momentum_force.transpose();
            });
          },
          "StepResult.momentum_force of every step stacked (N, n_v,u) [N, N·m]; NaN rows for "
          "steps recorded without it.")
      .def_property_readonly(
          "joint_limit_impulse",
          [](const Trajectory& t) {
            return Stack(t, t.nv, [&t](const TrajectoryStep& s) -> Eigen::RowVectorXd {
              if (s.joint_limit_impulse.size() != t.nv)
                return Eigen::RowVectorXd::Constant(t.nv, std::numeric_limits<double>::quiet_NaN());
              return s.joint_limit_impulse.transpose();
            });
          },
          "StepResult.joint_limit_impulse of every step stacked (N, n_v) [N·s or N·m·s]; NaN "
          "rows for steps recorded without it (scenes without joint limits).")
      .def_property_readonly(
          "A",
          [](const Trajectory& t) {
            return StackMatrices(
                t, "A", StateSize(t), StateSize(t),
                [](const TrajectoryStep& s) -> const Eigen::MatrixXd& { return s.A; });
          },
          "A_k = ∂x_k/∂x_{k-1} of every step stacked (N, n_x, n_x), x = q (n_x = n_q) or, for "
          "stewart-trinkle and anitescu, x = (q, v) (n_x = n_q + n_v), from rollout(..., "
          "gradients='a_and_b'); NaN for a step whose derivative failed (gradient_status). "
          "Raises ValueError when no gradients were computed.")
      .def_property_readonly(
          "B",
          [](const Trajectory& t) {
            return StackMatrices(
                t, "B", StateSize(t), CommandSize(t),
                [](const TrajectoryStep& s) -> const Eigen::MatrixXd& { return s.B; });
          },
          "B_k = ∂x_k/∂u_k of every step stacked (N, n_x, n_q,a), x as for A, from "
          "rollout(..., gradients='a_and_b' or 'b_only'); NaN where the derivative failed.")
      .def_property_readonly(
          "gradient_status",
          [](const Trajectory& t) {
            std::vector<std::string> out;
            for (const TrajectoryStep& s : t.steps) out.emplace_back(ToString(s.gradient_status));
            return out;
          },
          "Per step: not_run, solved, or why its derivative failed.")
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
      .def_property_readonly(
          "final_v",
          [](const Trajectory& t) -> const Eigen::VectorXd& { return t.FinalVelocity(); }, kView,
          "v at the end (stewart-trinkle, anitescu): the last step's, v0 when no step was done; "
          "(0,) for the formulations without a velocity state.")
      .def(
          "save",
          [](const Trajectory& t, const std::string& path, int every, int indent) {
            if (every < 1)
              throw py::value_error("Trajectory.save: every must be >= 1 (got " +
                                    std::to_string(every) + ")");
            if (path.empty()) throw py::value_error("Trajectory.save: path is empty");
            TrajectoryWriteOptions options;
            options.every = every;
            options.indent = indent;
            WriteTrajectory(t, path, options);
          },
          py::arg("path"), py::arg("every") = 1, py::arg("indent") = -1,
          "save(path, every=1, indent=-1): writes the trajectory file in the format of path's "
          "extension (docs/trajectory-format.md), keeping every `every`-th step (and the "
          "last); indent >= 0 indents JSON by that many spaces. Written "
          "atomically: a failed write leaves an existing file as it was. Raises RuntimeError "
          "naming an unwritable path, ValueError for an empty one.")
      .def_static(
          "load",
          [](const std::string& path, std::shared_ptr<Scene> scene) {
            return LoadTrajectory("Trajectory.load", path, std::move(scene));
          },
          py::arg("path"), py::arg("scene") = py::none(),
          "Reads a trajectory file (any format save writes); scene, when given, is kept as "
          "its in-memory scene. Raises RuntimeError on a missing file, ValueError on bad "
          "content.")
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

  m.def(
      "rollout",
      [](std::shared_ptr<Scene> scene, std::optional<RealVector> q0, std::optional<RealMatrix> U,
         std::optional<std::string> formulation, std::optional<double> h,
         std::optional<double> kappa, std::optional<double> object_mass_scale,
         std::optional<int> steps, std::optional<double> duration, const std::string& gradients,
         std::optional<RealVector> v0) {
        const char* who = "rollout";
        const FormulationSettings settings =
            ResolveSettings(who, scene, formulation, h, kappa, object_mass_scale);
        RolloutOptions options;
        options.gradients = ParseGradients(who, gradients);
        if (options.gradients != GradientMode::kNone && !HasDerivatives(settings.type))
          throw py::value_error(std::string(who) + ": formulation '" +
                                FormulationName(settings.type) +
                                "' has no gradients; use qp, socp, log-barrier, "
                                "log-barrier-cone, halm-posa, stewart-trinkle or anitescu");
        const std::shared_ptr<const StepModel> model = MakeStepModel(scene, settings);
        State x0 = InitialState(*model);
        if (q0) {
          CheckConfiguration(who, *scene, q0->value, "q0");
          x0.q = q0->value;
        }
        x0.v = StateVelocity(who, *model, v0 ? &v0->value : nullptr, "v0", &x0.v);
        if (!U) {  // the schedule, through the model's own command (halm-posa: a velocity)
          options.steps = ResolveStepCount(*scene, settings, steps, duration);
          py::gil_scoped_release release;
          return std::make_shared<Trajectory>(RolloutFrom(*model, x0, options));
        }
        if (steps || duration)
          throw py::value_error(
              "rollout: give U or steps/duration, not both (U has one row "
              "per step)");
        const Eigen::MatrixXd& commands = U->value;
        if (commands.rows() > 0 && commands.cols() != model->control_size())
          throw py::value_error("rollout: U has " + std::to_string(commands.cols()) +
                                " columns, expected the command size " +
                                std::to_string(model->control_size()) + " (n_q,a; n_v,u for ecp)");
        for (Eigen::Index k = 0; k < commands.rows(); ++k)
          CheckFinite(who, "U[" + std::to_string(k) + "]", commands.row(k).transpose());
        py::gil_scoped_release release;
        return std::make_shared<Trajectory>(RolloutCommands(*model, x0, commands, options));
      },
      py::arg("scene"), py::arg("q0") = py::none(), py::arg("U") = py::none(), py::kw_only(),
      py::arg("formulation") = py::none(), py::arg("h") = py::none(), py::arg("kappa") = py::none(),
      py::arg("object_mass_scale") = py::none(), py::arg("steps") = py::none(),
      py::arg("duration") = py::none(), py::arg("gradients") = "none", py::arg("v0") = py::none(),
      "rollout(scene, q0=None, U=None, *, formulation=None, h=None, kappa=None, "
      "object_mass_scale=None, steps=None, duration=None, gradients='none', v0=None) -> "
      "Trajectory.\n"
      "From q0 (n_q,) (None: scene.q0) and, for stewart-trinkle and anitescu, v0 (n_v,) "
      "(None: the scene's initial velocity; refused by the others), for k = 1..N: q_k = "
      "step(q_{k-1}, u_k) (x_k = (q_k, v_k) for the second-order ones) with u_k = "
      "U[k-1] (U of shape (N, n_q,a) [m, rad]: your own commands) or, without U, the "
      "scene's schedule u_k = Stepper.scheduled_command(k·h, q_{k-1}) (scene.command_at(k·h) "
      "but for halm-posa) for N = steps, or the steps covering "
      "duration [s], or to the schedule's end. gradients: 'none', 'b_only' or 'a_and_b' "
      "records B_k (and A_k) of every step (Trajectory.A, .B; the formulation's own "
      "derivative, StepModel.CalcDiff of the step solved). Formulation parameters as in "
      "Stepper. A failed step stops the rollout without raising: check "
      "Trajectory.completed / message.");

  m.def(
      "load_trajectory",
      [](const std::string& path, std::shared_ptr<Scene> scene) {
        return LoadTrajectory("load_trajectory", path, std::move(scene));
      },
      py::arg("path"), py::arg("scene") = py::none(),
      "Reads a trajectory file written by Trajectory.save or `quasidyn simulate --out` (the "
      "same as Trajectory.load). Raises RuntimeError on a missing file, ValueError on bad "
      "content.");

  m.def(
      "view",
      [](const Trajectory& t, const std::string& path, std::shared_ptr<Scene> scene) {
        const char* who = "view";
        std::shared_ptr<const Scene> shown = scene ? scene : t.scene;
        if (!shown) {
          if (t.scene_file.empty())
            throw py::value_error(std::string(who) +
                                  ": the trajectory records no scene file: pass scene=");
          shown = std::make_shared<const Scene>(LoadScene(t.scene_file));
        }
        if (shown->nq != t.nq)
          throw py::value_error(std::string(who) +
                                ": scene has n_q = " + std::to_string(shown->nq) +
                                " but the trajectory " + std::to_string(t.nq));
        if (path.empty()) throw py::value_error(std::string(who) + ": path is empty");
        WriteViewerHtml(*shown, t, path);
        return path;
      },
      py::arg("trajectory"), py::arg("path"), py::arg("scene") = py::none(),
      "view(trajectory, path, scene=None) -> path: writes the self-contained HTML viewer page "
      "(three.js, no network; what `quasidyn view` writes) of the trajectory to path. The "
      "scene: scene, else the trajectory's in-memory scene, else its scene_file. Open the "
      "page in a browser.");
}

}  // namespace quasidyn::python
