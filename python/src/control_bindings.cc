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
#include "quasidyn/control/stabilizer.h"
#include "quasidyn/control/trajectory_optimizer.h"
#include "quasidyn/formulations/registry.h"
#include "real_array.h"

namespace py = pybind11;

namespace quasidyn::python {
namespace {

// Rows of a (T × n) array as a list of vectors.
std::vector<Eigen::VectorXd> Rows(const Eigen::MatrixXd& m) {
  std::vector<Eigen::VectorXd> rows;
  for (int i = 0; i < m.rows(); ++i) rows.push_back(m.row(i).transpose());
  return rows;
}

class PyTrajectoryOptimizer {
 public:
  PyTrajectoryOptimizer(std::shared_ptr<const StepModel> model,
                        const TrajectoryOptimizerSettings& settings)
      : model_(std::move(model)), optimizer_(model_, settings) {}
  py::dict Optimize(const RealVector& q0, const RealMatrix& u0) {
    OptimizationResult r;
    {
      py::gil_scoped_release release;
      r = optimizer_.Optimize(q0.value, Rows(u0.value));
    }
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
      .def(py::init([](std::shared_ptr<Scene> scene, const RealVector& goal, int horizon,
                       int iterations, std::optional<RealVector> object_weight,
                       std::optional<RealVector> terminal_weight, double rate_weight,
                       double trust_region, std::string smoothing, bool shrinking_horizon,
                       std::optional<std::string> formulation, std::optional<double> h,
                       std::optional<std::vector<bool>> regrasp_steps,
                       std::optional<std::map<std::string, double>> parameters,
                       double penetration_tolerance) {
             TrajectoryOptimizerSettings s;
             s.penetration_tolerance = penetration_tolerance;
             s.object_goal = goal.value;
             s.horizon = horizon;
             s.iterations = iterations;
             if (object_weight) s.object_weight = object_weight->value;
             if (terminal_weight) s.terminal_weight = terminal_weight->value;
             s.rate_weight = rate_weight;
             s.trust_region = trust_region;
             s.trust_region_max = std::max(s.trust_region_max, trust_region);
             s.smoothing.method = ParseSmoothingMethod(smoothing);
             s.shrinking_horizon = shrinking_horizon;
             if (regrasp_steps) s.regrasp_steps = *regrasp_steps;
             const char* who = "TrajectoryOptimizer";
             auto model = Model(who, std::move(scene), {formulation, h, {}, {}, parameters});
             return Named(who, [&] { return std::make_unique<PyTrajectoryOptimizer>(model, s); });
           }),
           py::arg("scene"), py::arg("goal"), py::arg("horizon") = 10, py::arg("iterations") = 20,
           py::arg("object_weight") = py::none(), py::arg("terminal_weight") = py::none(),
           py::arg("rate_weight") = 0.1, py::arg("trust_region") = 0.1,
           py::arg("smoothing") = "log-barrier", py::arg("shrinking_horizon") = false,
           py::arg("formulation") = py::none(), py::arg("h") = py::none(),
           py::arg("regrasp_steps") = py::none(), py::arg("parameters") = py::none(),
           py::arg("penetration_tolerance") = 1e-3,
           "TrajectoryOptimizer(scene, goal, horizon=10, iterations=20, object_weight=None, "
           "terminal_weight=None, rate_weight=0.1, trust_region=0.1, smoothing='log-barrier', "
           "shrinking_horizon=False, formulation=None, h=None, regrasp_steps=None, "
           "parameters=None, penetration_tolerance=0.001): formulation, h and parameters as in "
           "Stepper. penetration_tolerance [m] > 0 (inf: not measured): a candidate whose "
           "rollout overlaps shapes deeper than it (or than the initial guess did) is rejected. "
           "goal: the "
           "objects' goal (n_q,u). regrasp_steps: one bool per step, True where the step is a "
           "regrasp of a planner's path (Plan.step_edges): the robots are reset to that row of "
           "u0, which stays fixed. Raises ValueError on a goal of the wrong size, horizon < 1, "
           "...")
      .def("optimize", &PyTrajectoryOptimizer::Optimize, py::arg("q0"), py::arg("u0"),
           "optimize(q0 (n_q), u0 (T × n_q,a)) -> dict(u (T × n_q,a), q ((T+1) × n_q), "
           "initial_cost, best_cost, initial_penetration, max_penetration [m; nan: not "
           "measured], iterations (list of dicts), message, seconds).");

  py::class_<Stabilizer>(m, "Stabilizer",
                         "The talk's QP stabiliser on the smoothed linearisation of a plan.")
      .def(py::init([](std::shared_ptr<Scene> scene, const RealMatrix& q_ref,
                       const RealMatrix& u_ref, std::optional<RealVector> object_weight,
                       double command_weight, double max_deviation, double kappa,
                       std::optional<std::string> formulation, std::optional<double> h,
                       std::optional<std::map<std::string, double>> parameters) {
             StabilizerSettings s;
             if (object_weight) s.object_weight = object_weight->value;
             s.command_weight = command_weight;
             s.max_deviation = max_deviation;
             s.smoothing = kappa;
             const char* who = "Stabilizer";
             auto model = Model(who, std::move(scene), {formulation, h, {}, {}, parameters});
             return Named(who, [&] {
               return std::make_unique<Stabilizer>(model, Rows(q_ref.value), Rows(u_ref.value), s);
             });
           }),
           py::arg("scene"), py::arg("q_ref"), py::arg("u_ref"),
           py::arg("object_weight") = py::none(), py::arg("command_weight") = 1e-3,
           py::arg("max_deviation") = 0.2, py::arg("kappa") = 5000.0,
           py::arg("formulation") = py::none(), py::arg("h") = py::none(),
           py::arg("parameters") = py::none(),
           "Stabilizer(scene, q_ref ((T+1) × n_q), u_ref (T × n_q,a), object_weight=None, "
           "command_weight=1e-3, max_deviation=0.2, kappa=5000, formulation=None, h=None, "
           "parameters=None): kappa is the smoothing weight of the stabiliser's linearisation; "
           "formulation, h and parameters (those of the stepped model) as in Stepper.")
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
