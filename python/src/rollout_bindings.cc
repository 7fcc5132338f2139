// quasidyn.rollout (simulation/rollout.h), and the Trajectory built step by step:
// Trajectory(scene, ...) and Trajectory.append (docs/python.md, "Rollouts and trajectories").

#include <pybind11/eigen.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <map>
#include <memory>
#include <optional>
#include <string>

#include "bindings.h"
#include "interruptible_call.h"
#include "quasidyn/common/argument_check.h"
#include "quasidyn/formulations/registry.h"
#include "quasidyn/simulation/rollout.h"
#include "quasidyn/simulation/rollout_settings.h"
#include "real_array.h"
#include "setting_keywords.h"

namespace py = pybind11;

namespace quasidyn::python {
namespace {

// The start of a run of `model`: its initial state with q0 and v0 in place when given.
State StartState(const StepModel& model, const std::optional<RealVector>& q0,
                 const std::optional<RealVector>& v0) {
  State x0 = InitialState(model);
  if (q0) x0.q = q0->value;
  if (v0) x0.v = v0->value;
  return x0;
}

std::shared_ptr<Trajectory> Rollout(const StepModel& model, const State& x0,
                                    const std::optional<RealMatrix>& U,
                                    const RolloutSettings& settings) {
  RolloutOptions options;
  options.gradients = settings.gradients;
  CheckGradientsAvailable("rollout", model, options.gradients);
  // Ctrl-C stops the rollout at its next step and raises (interruptible_call.h).
  CancellationToken cancel;
  options.cancel = &cancel;
  if (!U) {  // the schedule, through the model's own command (halm-posa: a velocity)
    options.steps = ScheduleSteps("rollout", model, settings);
    return CallInterruptibly(
        &cancel, [&] { return std::make_shared<Trajectory>(RolloutFrom(model, x0, options)); });
  }
  if (RolloutLengthGiven(settings))
    throw py::value_error("rollout: give U or steps/duration, not both (U has one row per step)");
  return CallInterruptibly(&cancel, [&] {
    return std::make_shared<Trajectory>(RolloutCommands(model, x0, U->value, options));
  });
}

}  // namespace

std::vector<SettingSpec> RolloutKeywordSpecs() {
  std::vector<SettingSpec> specs;
  for (SettingSpec& spec : RolloutSettingsSchema().specs())
    if (spec.name != "every") specs.push_back(std::move(spec));  // a trajectory file's
  return specs;
}

std::string RolloutKeywordsDoc() {
  return "Keywords steps, duration and gradients: the rollout block's settings (None keeps the "
         "default; quasidyn._settings()['rollout'] and docs/python.md list them with units, "
         "ranges and defaults) " +
         SettingsDocMarker("rollout", {"steps", "duration", "gradients"}) +
         "; a bad value raises ValueError naming the field (e.g. 'rollout.steps: must be >= 0 "
         "(got -1)'), an unknown keyword TypeError.";
}

RolloutSettings TakeRolloutKeywords(const char* who, py::kwargs* by_key) {
  const std::vector<SettingSpec> specs = RolloutKeywordSpecs();
  SettingOverrides overrides;
  py::dict rest = TakeSettingKeywords(who, specs, *by_key, &overrides);
  RefuseUnknownKeywords(who, rest, specs, NumberParameterKeys());
  *by_key = py::reinterpret_borrow<py::kwargs>(rest);
  RolloutSettings settings;
  Named(who, [&] { ApplyRolloutSettingOverrides(overrides, &settings); });
  return settings;
}

int ScheduleSteps(const char* who, const StepModel& model, const RolloutSettings& settings) {
  if (const std::optional<int> steps = RolloutStepCount(settings, model)) return *steps;
  throw py::value_error(std::string(who) + ": scene '" + model.scene().name +
                        "' has no command schedule to run to its end: give U, steps or "
                        "duration");
}

void CheckGradientsAvailable(const char* who, const StepModel& model, GradientMode mode) {
  if (!model.capabilities().differentiable() && mode != GradientMode::kNone)
    throw py::value_error(std::string(who) + ": formulation '" + model.formulation().name +
                          "' has no gradients: " + model.capabilities().no_gradient);
}

void BindRollout(py::module_& m, PyTrajectory& trajectory) {
  trajectory
      .def(py::init([](std::shared_ptr<Scene> scene, std::optional<RealVector> q0,
                       std::optional<std::string> formulation, std::optional<double> h,
                       std::optional<RealVector> v0,
                       std::optional<std::map<std::string, double>> parameters, py::kwargs by_key) {
             const char* who = "Trajectory";
             const FormulationChoice choice = Choice(who, {formulation, h, parameters, by_key});
             return Named(who, [&] {
               const std::shared_ptr<const StepModel> model = MakeStepModel(scene, choice);
               const State x0 = StartState(*model, q0, v0);
               // StartTrajectory takes x0 as given: checked here as a rollout checks it.
               CheckVector(who, "q0", x0.q, model->state_q_size(), "n_q");
               CheckVector(who, "v0", x0.v, model->state_v_size(), "the model's n_v of its state");
               return std::make_shared<Trajectory>(StartTrajectory(*model, x0, 0));
             });
           }),
           py::arg("scene"), py::arg("q0") = py::none(), py::arg("formulation") = py::none(),
           py::arg("h") = py::none(), py::arg("v0") = py::none(),
           py::arg("parameters") = py::none(),
           (std::string("Trajectory(scene, q0=None, formulation=None, h=None, v0=None, "
                        "parameters=None, **parameter): an empty trajectory of the scene "
                        "starting at q0 (None: scene.q0) and, for the formulations with a "
                        "velocity state, v0 (n_v,) (None: the scene's initial velocity), "
                        "recording the formulation, h and parameters given (None: the scene's, "
                        "as Stepper). Add steps with append. ") +
            kParameterKeywordsDoc)
               .c_str())
      .def(
          "append",
          [](Trajectory& t, std::optional<RealVector> q, const RealVector& u,
             const PyStepResult* result, std::optional<RealVector> v) {
            // AppendStep takes its arguments as given (the caller checks them): checked here.
            const char* who = "Trajectory.append";
            SceneOf(t, who);
            if (!q && result == nullptr)
              throw py::value_error(std::string(who) + ": give q, or a result to take q_next from");
            const Eigen::VectorXd& next = q ? q->value : result->result.next.q;
            CheckVector(who, "q", next, t.nq, "n_q");
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
                                    ": v is for trajectories with velocities (v0 set: a "
                                    "formulation with a velocity state)");
            }
            AppendStep(State{next, velocity}, u.value, result ? &result->result : nullptr, &t);
          },
          py::arg("q"), py::arg("u"), py::arg("result") = py::none(), py::arg("v") = py::none(),
          "append(q, u, result=None, v=None): adds step k = len + 1 at t = k·h (a row of u, and "
          "of q after q0): q (n_q,) the "
          "configuration after it (None: result.q_next), u (nu,) its command, and when result (a "
          "StepResult of Stepper.step) is given its contacts, forces, status and statistics; "
          "for a trajectory with velocities (v0 set) v (n_v,) the velocity after it (None: "
          "result.v_next). Raises ValueError naming a wrong size, a NaN or a failed result.");

  m.def(
      "rollout",
      [](std::shared_ptr<Scene> scene, std::optional<RealVector> q0, std::optional<RealMatrix> U,
         std::optional<std::string> formulation, std::optional<double> h,
         std::optional<std::map<std::string, double>> parameters, std::optional<RealVector> v0,
         py::kwargs by_key) {
        const char* who = "rollout";
        const RolloutSettings settings = TakeRolloutKeywords(who, &by_key);
        const FormulationChoice choice = Choice(who, {formulation, h, parameters, by_key});
        return Named(who, [&] {
          const std::shared_ptr<const StepModel> model = MakeStepModel(scene, choice);
          return Rollout(*model, StartState(*model, q0, v0), U, settings);
        });
      },
      py::arg("scene"), py::arg("q0") = py::none(), py::arg("U") = py::none(), py::kw_only(),
      py::arg("formulation") = py::none(), py::arg("h") = py::none(),
      py::arg("parameters") = py::none(), py::arg("v0") = py::none(),
      (std::string(
           "rollout(scene, q0=None, U=None, *, formulation=None, h=None, "
           "parameters=None, v0=None, **keywords) -> Trajectory.\n"
           "From q0 (n_q,) (None: scene.q0) and, for the formulations with a velocity state, v0 "
           "(n_v,) (None: the scene's initial velocity; refused by the others), for k = 0..N-1: "
           "x[k+1] = step(x[k], u[k]) (x = q, or (q, v); x[0] the start) with u[k] = U[k] (U of "
           "shape (N, nu): your own commands) or, without U, the scene's schedule u[k] = "
           "Stepper.scheduled_command((k+1)·h, q[k]) for N = steps, or the steps covering "
           "duration [s], or to the schedule's end; the Trajectory's arrays are laid out so "
           "(docs/python.md, \"Arrays of a trajectory\"). "
           "gradients: 'none', 'b_only' or 'a_and_b' records B[k] (and A[k]) of every step "
           "(Trajectory.A, .B; the formulation's own derivative of the step solved; ValueError for "
           "a formulation without one). Formulation keywords as in Stepper. A failed step stops "
           "the rollout without raising: check Trajectory.completed / message. ") +
       RolloutKeywordsDoc() + " " + kParameterKeywordsDoc)
          .c_str());
}

}  // namespace quasidyn::python
