// The control layer in Python (docs/python.md, "Control"): TrajectoryOptimizer (iterative MPC,
// control/trajectory_optimizer.h) and Stabilizer (control/stabilizer.h), on numpy arrays.

#include <pybind11/eigen.h>
#include <pybind11/functional.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "bindings.h"
#include "interruptible_call.h"
#include "quasidyn/control/stabilizer.h"
#include "quasidyn/control/trajectory_optimizer.h"
#include "quasidyn/formulations/registry.h"
#include "real_array.h"
#include "setting_keywords.h"

namespace py = pybind11;

namespace quasidyn::python {
namespace {

// Rows of a (T × n) array as a list of vectors.
std::vector<Eigen::VectorXd> Rows(const Eigen::MatrixXd& m) {
  std::vector<Eigen::VectorXd> rows;
  for (int i = 0; i < m.rows(); ++i) rows.push_back(m.row(i).transpose());
  return rows;
}

// Settings with the optimiser's cancellation token.
TrajectoryOptimizerSettings WithCancel(TrajectoryOptimizerSettings settings,
                                       const CancellationToken* cancel) {
  settings.cancel = cancel;
  return settings;
}

class PyTrajectoryOptimizer {
 public:
  PyTrajectoryOptimizer(std::shared_ptr<const StepModel> model,
                        const TrajectoryOptimizerSettings& settings)
      : model_(std::move(model)), optimizer_(model_, WithCancel(settings, &cancel_)) {}
  py::dict Optimize(const RealVector& q0, const RealMatrix& u0) {
    // Ctrl-C stops the run at its next iteration or linearisation and raises
    // (interruptible_call.h); one call at a time uses the token (the optimiser is not reentrant).
    cancel_.Reset();
    const OptimizationResult r =
        CallInterruptibly(&cancel_, [&] { return optimizer_.Optimize(q0.value, Rows(u0.value)); });
    py::list iterations;
    for (const OptimizerIteration& it : r.iterations) {
      py::dict d;
      d["index"] = it.index;
      d["parameter"] = it.parameter;
      d["trust_region"] = it.trust_region;
      d["cost"] = it.cost;
      d["best_cost"] = it.best_cost;
      d["penetration"] = it.penetration;
      d["accepted"] = it.accepted;
      d["message"] = it.message;
      d["seconds"] = it.seconds;
      iterations.append(d);
    }
    py::dict out;
    out["u"] = RowsToMatrix(r.u);
    out["q"] = RowsToMatrix(r.q);
    out["initial_cost"] = r.initial_cost;
    out["best_cost"] = r.best_cost;
    out["initial_penetration"] = r.initial_penetration;
    out["max_penetration"] = r.max_penetration;
    out["iterations"] = iterations;
    out["message"] = r.message;
    out["seconds"] = r.seconds;
    return out;
  }

 private:
  std::shared_ptr<const StepModel> model_;
  CancellationToken cancel_;  // before optimizer_, whose settings point to it
  TrajectoryOptimizer optimizer_;
};

// The model of the formulation keywords (formulation=, h=, parameters=).
std::shared_ptr<const StepModel> Model(const char* who, std::shared_ptr<Scene> scene,
                                       const FormulationKeywords& keywords) {
  const FormulationChoice choice = Choice(who, keywords);
  return Named(who, [&] { return MakeStepModel(std::move(scene), choice); });
}

}  // namespace

void BindControl(py::module_& m) {
  py::class_<PyTrajectoryOptimizer>(
      m, "TrajectoryOptimizer",
      "Trajectory optimisation through contact by iterative MPC (docs/control.md).")
      .def(py::init([](std::shared_ptr<Scene> scene, const RealVector& goal,
                       std::optional<std::string> formulation, std::optional<double> h,
                       std::optional<std::map<std::string, double>> parameters,
                       std::optional<std::vector<bool>> regrasp_steps, py::kwargs kwargs) {
             const char* who = "TrajectoryOptimizer";
             const std::vector<SettingSpec> specs = TrajectoryOptimizerSettingsSchema().specs();
             SettingOverrides overrides{
                 {"goal",
                  std::vector<double>(goal.value.data(), goal.value.data() + goal.value.size())}};
             RefuseUnknownKeywords(who, TakeSettingKeywords(who, specs, kwargs, &overrides), specs,
                                   {});
             TrajectoryOptimizerSettings s;
             Named(who, [&] { ApplyOptimizerSettingOverrides(overrides, &s); });
             if (regrasp_steps) s.regrasp_steps = *regrasp_steps;
             auto model = Model(who, std::move(scene), {formulation, h, parameters, {}});
             return Named(who, [&] { return std::make_unique<PyTrajectoryOptimizer>(model, s); });
           }),
           py::arg("scene"), py::arg("goal"), py::kw_only(), py::arg("formulation") = py::none(),
           py::arg("h") = py::none(), py::arg("parameters") = py::none(),
           py::arg("regrasp_steps") = py::none(),
           ("TrajectoryOptimizer(scene, goal, *, formulation=None, h=None, parameters=None, "
            "regrasp_steps=None, **settings): goal, the objects' goal (n_q,u); formulation, h "
            "and parameters as in Stepper; regrasp_steps: one bool per step, True where the step "
            "is a regrasp of a planner's path (Plan.step_edges): the robots are reset to that "
            "row of u0, which stays fixed. Keywords: any setting of the optimizer block by its "
            "name (None keeps the default; quasidyn._settings()['optimizer'] and docs/control.md "
            "list them with units, ranges and defaults) " +
            SettingsDocMarker("optimizer") +
            ". Raises ValueError naming the field (e.g. 'optimizer.horizon: must be >= 1 (got "
            "0)'), TypeError for an unknown keyword or a value of the wrong type.")
               .c_str())
      .def("optimize", &PyTrajectoryOptimizer::Optimize, py::arg("q0"), py::arg("u0"),
           "optimize(q0 (n_q), u0 (T × n_q,a)) -> dict(u (T × n_q,a), q ((T+1) × n_q), "
           "initial_cost, best_cost, initial_penetration, max_penetration [m; nan: not "
           "measured], iterations (list of dicts), message, seconds).");

  py::class_<Stabilizer>(m, "Stabilizer",
                         "The talk's QP stabiliser on the smoothed linearisation of a plan.")
      .def(py::init([](std::shared_ptr<Scene> scene, const RealMatrix& q_ref,
                       const RealMatrix& u_ref, std::optional<std::string> formulation,
                       std::optional<double> h,
                       std::optional<std::map<std::string, double>> parameters, py::kwargs kwargs) {
             const char* who = "Stabilizer";
             const std::vector<SettingSpec> specs = StabilizerSettingsSchema().specs();
             SettingOverrides overrides;
             RefuseUnknownKeywords(who, TakeSettingKeywords(who, specs, kwargs, &overrides), specs,
                                   {});
             StabilizerSettings s;
             Named(who, [&] { ApplySettingOverrides(StabilizerSettingsSchema(), overrides, &s); });
             auto model = Model(who, std::move(scene), {formulation, h, parameters, {}});
             return Named(who, [&] {
               return std::make_unique<Stabilizer>(model, Rows(q_ref.value), Rows(u_ref.value), s);
             });
           }),
           py::arg("scene"), py::arg("q_ref"), py::arg("u_ref"), py::kw_only(),
           py::arg("formulation") = py::none(), py::arg("h") = py::none(),
           py::arg("parameters") = py::none(),
           ("Stabilizer(scene, q_ref ((T+1) × n_q), u_ref (T × n_q,a), *, formulation=None, "
            "h=None, parameters=None, **settings): formulation, h and parameters (those of the "
            "stepped model) as in Stepper. Keywords: any setting of the stabilizer block by its "
            "name, kappa the smoothing of the stabiliser's linearisation (None keeps the "
            "default; quasidyn._settings()['stabilizer'] and docs/control.md list them with "
            "units, ranges and defaults) " +
            SettingsDocMarker("stabilizer") +
            ". Raises ValueError naming the field (e.g. 'stabilizer.kappa: must be > 0'), "
            "TypeError for an unknown keyword or a value of the wrong type.")
               .c_str())
      .def_property_readonly(
          "steps", &Stabilizer::steps,
          "T, the number of reference steps (rows of u_ref) the stabiliser can track.")
      .def(
          "command",
          [](Stabilizer& s, int t, const RealVector& q) {
            return Eigen::VectorXd(s.Command(t, q.value));
          },
          py::arg("t"), py::arg("q"), "command(t, q) -> u: the command of step t from q.")
      .def(
          "closed_form_command",
          [](const Stabilizer& s, int t, const RealVector& q) {
            return s.ClosedFormCommand(t, q.value);
          },
          py::arg("t"), py::arg("q"), "The unconstrained minimiser (no bound).");
}

}  // namespace quasidyn::python
