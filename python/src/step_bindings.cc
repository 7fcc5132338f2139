// quasidyn.Stepper: the step model of one registered formulation (formulations/registry.h,
// MakeStepModel) and the one data object its steps use.

#include <pybind11/eigen.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <utility>

#include "bindings.h"
#include "quasidyn/formulations/registry.h"
#include "quasidyn/simulation/rollout.h"
#include "real_array.h"

namespace py = pybind11;

namespace quasidyn::python {
namespace {

class PyStepper {
 public:
  explicit PyStepper(std::shared_ptr<const StepModel> model)
      : model_(std::move(model)), data_(model_->CreateData()) {}
  const StepModel& model() const { return *model_; }
  // Called without the GIL; the mutex serialises the threads that share this stepper.
  // external_force: τ_ext of this step (StepData::external_force); empty: the scene's.
  // Each call is a function of its arguments alone: the warm start the previous call left
  // (the QP's last answer, an LCP's basis) is cleared first, so calls in any order, from any
  // thread, give the same bits (a rollout keeps its warm start from step to step).
  StepResult Step(const State& x, const Eigen::VectorXd& u, const Eigen::VectorXd& external_force) {
    const std::lock_guard<std::mutex> lock(mutex_);
    model_->ClearWarmStart(data_.get());
    data_->external_force = external_force;
    model_->Calc(x, u, data_.get());
    return data_->result;
  }

 private:
  std::shared_ptr<const StepModel> model_;
  std::unique_ptr<StepData> data_;
  std::mutex mutex_;
};

// The state (q, v) of Python's arguments: v empty when not given (the models without a
// velocity state; the others say that theirs needs one).
State StateOf(const RealVector& q, const std::optional<RealVector>& v) {
  return State{q.value, v ? v->value : Eigen::VectorXd()};
}

}  // namespace

void BindStep(py::module_& m) {
  py::class_<PyStepper> stepper(
      m, "Stepper",
      "The time step of one formulation (docs/formulations.md): q⁺ = f(q, u) for the "
      "formulations whose state is q, (q⁺, v⁺) = f(q, v, u) for those whose state has a "
      "velocity (has_velocity: stewart-trinkle, anitescu, ecp).");
  stepper
      .def(py::init([](std::shared_ptr<Scene> scene, std::optional<std::string> formulation,
                       std::optional<double> h,
                       std::optional<std::map<std::string, double>> parameters, py::kwargs by_key) {
             const char* who = "Stepper";
             const FormulationChoice choice = Choice(who, {formulation, h, parameters, by_key});
             return Named(who, [&] {
               return std::make_unique<PyStepper>(MakeStepModel(std::move(scene), choice));
             });
           }),
           py::arg("scene"), py::arg("formulation") = py::none(), py::arg("h") = py::none(),
           py::arg("parameters") = py::none(),
           (std::string("Stepper(scene, formulation=None, h=None, parameters=None, **parameter)."
                        "\nformulation: a name of quasidyn.formulations() "
                        "(quasidyn.FORMULATIONS); h: time step [s] > 0; parameters: {key: value} "
                        "of any formulation parameter (quasidyn.formulations()[i]['parameters']), "
                        "on top of the scene's formulation block. None takes the scene's value. "
                        "Raises ValueError on an unknown formulation or parameter (naming the "
                        "closest) or a value out of its range. ") +
            kParameterKeywordsDoc)
               .c_str())
      .def_property_readonly(
          "scene",
          [](const PyStepper& s) { return std::const_pointer_cast<Scene>(s.model().scene_ptr()); },
          "The scene it steps.")
      .def_property_readonly(
          "formulation", [](const PyStepper& s) { return s.model().formulation().name; },
          "The formulation's registered name (quasidyn.formulations()).")
      .def_property_readonly(
          "has_velocity", [](const PyStepper& s) { return s.model().state_v_size() > 0; },
          "True for the formulations whose state has a velocity v (stewart-trinkle, anitescu, "
          "ecp): step and scheduled_command then take v.")
      .def(
          "initial_state",
          [](const PyStepper& s) -> std::pair<Eigen::VectorXd, std::optional<Eigen::VectorXd>> {
            const State x = InitialState(s.model());
            if (x.v.size() == 0) return {x.q, std::nullopt};
            return {x.q, x.v};
          },
          "(q0, v0): the scene's initial state; v0 (n_v,) is the scene's initial_velocity "
          "(zeros when it gives none) for the formulations with a velocity state, None for the "
          "others.")
      .def_property_readonly(
          "h", [](const PyStepper& s) { return s.model().time_step(); }, "Time step [s].")
      .def_property_readonly(
          "parameters", [](const PyStepper& s) { return NumberParameters(s.model().parameters()); },
          "{key: value}: the number parameters the model steps with, defaults resolved "
          "(quasidyn.formulations() lists each formulation's); each is also a property of its "
          "own, None for a formulation without it.")
      .def(
          "step",
          [](PyStepper& s, const RealVector& q, const RealVector& u,
             const std::optional<RealVector>& external_force, const std::optional<RealVector>& v) {
            PyStepResult out;
            out.result = Named("Stepper.step", [&] {
              py::gil_scoped_release release;
              return s.Step(StateOf(q, v), u.value,
                            external_force ? external_force->value : Eigen::VectorXd());
            });
            out.contacts.reserve(out.result.contacts.size());
            for (const ContactReport& report : out.result.contacts)
              out.contacts.push_back(NamedContactRecord(s.model().scene(), report));
            return out;
          },
          py::arg("q"), py::arg("u"), py::arg("external_force") = py::none(),
          py::arg("v") = py::none(),
          "One step from configuration q (n_q,) [m, rad; unit quaternions w,x,y,z] under the "
          "command u: q̄_a (n_q,a,) [m, rad] for the quasi-dynamic and second-order "
          "formulations, the commanded velocity [m/s, rad/s] for halm-posa "
          "(scheduled_command), the objects' applied impulse (n_v,u,) [N·s, N·m·s] for ecp. "
          "external_force: τ_ext on the objects (n_v,u,) [N, N·m] for this step (None: the "
          "scene's objects[].external_force; not for halm-posa). v: the state's velocity (n_v,) "
          "[m/s, rad/s; floating bodies (ṗ, ω) in the world], required by the formulations "
          "with a velocity state (has_velocity; their next velocity is StepResult.v_next), "
          "refused by the others. A failed solve does not raise: see StepResult.status. Raises "
          "ValueError on a wrong size or a NaN/Inf entry.")
      .def(
          "scheduled_command",
          [](PyStepper& s, double t, const RealVector& q, const std::optional<RealVector>& v) {
            return Named("Stepper.scheduled_command",
                         [&] { return s.model().ScheduledCommand(t, StateOf(q, v)); });
          },
          py::arg("t"), py::arg("q"), py::arg("v") = py::none(),
          "The command u of the step from q (and v, for the formulations with a velocity state) "
          "ending at time t [s] that a rollout uses, from the scene's schedule: q̄_a(t) for the "
          "quasi-dynamic and second-order formulations; for halm-posa the velocity "
          "(q̄_a(t) − q̄_a(t − h))/h + k_p (q̄_a(t − h) − q_a) (docs/formulations.md); ecp's "
          "scheduled impulses.");
  AddParameterProperties(
      stepper, [](const PyStepper& s) -> const ParameterBlock& { return s.model().parameters(); });
}

}  // namespace quasidyn::python
