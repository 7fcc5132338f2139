// The MPC through contact in Python (docs/python.md, "MPC through contact"): ContactMpc
// (control/contact_mpc.h) on numpy arrays, its closed loop on a second-order plant
// (control/mpc_closed_loop.h).

#include <pybind11/eigen.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "bindings.h"
#include "quasidyn/control/mpc_closed_loop.h"
#include "quasidyn/formulations/registry.h"
#include "real_array.h"
#include "setting_keywords.h"

namespace py = pybind11;

namespace quasidyn::python {
namespace {

class PyContactMpc {
 public:
  PyContactMpc(std::shared_ptr<Scene> scene, const MpcSettings& settings)
      : scene_(std::move(scene)), mpc_(scene_, settings) {}

  py::dict Solve(const RealVector& q, const RealVector& v) {
    Named("ContactMpc.solve", [&] {
      py::gil_scoped_release release;
      mpc_.Solve(State{q.value, v.value});
    });
    const MpcStep& s = mpc_.last();
    const int nx = scene_->nq + scene_->nv, na = scene_->nv_a;
    py::dict out;
    out["status"] = std::string(ToString(s.status));
    out["message"] = s.message;
    out["has_solution"] = s.has_solution;
    out["force"] = s.force;
    out["command"] = s.command;
    out["cost"] = s.cost;
    out["best_bound"] = s.best_bound;
    out["gap"] = s.gap;
    out["relative_gap"] = s.relative_gap;
    // The predicted states with the start first (docs/python.md, "Arrays of a trajectory"):
    // x_0 = (q, v) as given, then x̂_1 … x̂_N; none without a solution.
    std::vector<Eigen::VectorXd> states;
    if (!s.states.empty()) {
      Eigen::VectorXd start(nx);
      start << q.value, v.value;
      states.push_back(std::move(start));
      states.insert(states.end(), s.states.begin(), s.states.end());
    }
    out["states"] = RowsToMatrix(states, nx);
    out["forces"] = RowsToMatrix(s.forces, na);
    out["impulses"] = RowsToMatrix(s.impulses, 0);
    out["contacts"] = static_cast<int>(s.contacts.size());
    out["binding_caps"] = s.binding_caps;
    out["nodes"] = s.info.nodes;
    out["qp_iterations"] = s.info.qp_iterations;
    out["solve_seconds"] = s.info.solve_time_seconds;
    return out;
  }

  py::dict Run(int steps, const std::string& formulation, std::optional<RealVector> q0,
               std::optional<RealVector> v0,
               std::optional<std::map<std::string, double>> parameters) {
    const char* who = "ContactMpc.run";
    const FormulationChoice choice = Choice(who, {formulation, mpc_.time_step(), parameters, {}});
    MpcRun run = Named(who, [&] {
      const std::shared_ptr<const StepModel> plant = MakeStepModel(scene_, choice);
      State x = InitialState(*plant);
      if (q0) x.q = q0->value;
      if (v0) x.v = v0->value;
      MpcRunOptions options;
      options.steps = steps;
      py::gil_scoped_release release;
      return RunMpc(*plant, &mpc_, x, options);
    });
    std::vector<double> cost, solve_seconds, relative_gap;
    std::vector<int> nodes;
    std::vector<std::string> status;
    std::vector<Eigen::VectorXd> force;
    for (const MpcRunStep& s : run.steps) {
      cost.push_back(s.cost);
      solve_seconds.push_back(s.solve_seconds);
      relative_gap.push_back(s.relative_gap);
      nodes.push_back(s.nodes);
      status.emplace_back(ToString(s.status));
      force.push_back(s.force);
    }
    py::dict out;
    out["trajectory"] = std::make_shared<Trajectory>(run.trajectory);
    out["cost"] = cost;
    out["solve_seconds"] = solve_seconds;
    out["relative_gap"] = relative_gap;
    out["nodes"] = nodes;
    out["status"] = status;
    out["force"] = RowsToMatrix(force, scene_->nv_a);
    out["completed"] = run.completed();
    out["message"] = run.message;
    return out;
  }

  const ContactMpc& mpc() const { return mpc_; }

 private:
  std::shared_ptr<Scene> scene_;
  ContactMpc mpc_;
};

}  // namespace

void BindMpc(py::module_& m) {
  py::class_<PyContactMpc>(
      m, "ContactMpc",
      "The MPC through contact of the 2D contact notes (docs/mpc.md): an MIQP per step by our "
      "branch and bound, on the second-order step linearised at the state.")
      .def(py::init([](std::shared_ptr<Scene> scene, py::kwargs kwargs) {
             const std::vector<SettingSpec> specs = MpcSettingsSchema().specs();
             SettingOverrides overrides;
             const py::dict rest = TakeSettingKeywords("ContactMpc", specs, kwargs, &overrides);
             RefuseUnknownKeywords("ContactMpc", rest, specs, {});
             MpcSettings s = scene && scene->mpc ? *scene->mpc : MpcSettings();
             return Named("ContactMpc", [&] {
               ApplySettingOverrides(MpcSettingsSchema(), overrides, &s);
               return std::make_unique<PyContactMpc>(std::move(scene), s);
             });
           }),
           py::arg("scene"),
           ("ContactMpc(scene, **settings): the scene's mpc: block with any of its settings "
            "replaced by keyword (None keeps the scene's; quasidyn._settings()['mpc'] and "
            "docs/python.md list them with units, ranges and defaults) " +
            SettingsDocMarker("mpc") +
            ". x = (q, v): n_x = n_q + n_v; forces n_a = n_v,a. Raises ValueError naming a "
            "missing or wrong field (e.g. 'mpc.horizon: must be >= 1').")
               .c_str())
      .def_property_readonly(
          "horizon", [](const PyContactMpc& p) { return p.mpc().settings().horizon; }, "N")
      .def_property_readonly(
          "time_step", [](const PyContactMpc& p) { return p.mpc().time_step(); }, "h [s]")
      .def_property_readonly(
          "stiffness", [](const PyContactMpc& p) { return p.mpc().stiffness(); },
          "K of the robots' joints, with which the force is turned into a setpoint")
      .def_property_readonly(
          "damping", [](const PyContactMpc& p) { return p.mpc().damping(); }, "D, likewise")
      .def("solve", &PyContactMpc::Solve, py::arg("q"), py::arg("v"),
           "solve(q (n_q), v (n_v)) -> dict(status, message, has_solution, force (n_a), "
           "command (n_q,a: the setpoint), cost, best_bound, gap, relative_gap, states ((N + 1) × "
           "n_x: row 0 (q, v), then the predicted states; 0 rows without a solution), forces "
           "(N × n_a: row k the step from state row k), impulses (N × n_gamma), contacts, "
           "binding_caps, nodes, "
           "qp_iterations, solve_seconds).")
      .def("run", &PyContactMpc::Run, py::arg("steps"), py::arg("formulation") = "stewart-trinkle",
           py::arg("q0") = py::none(), py::arg("v0") = py::none(),
           py::arg("parameters") = py::none(),
           "run(steps, formulation='stewart-trinkle', q0=None, v0=None, parameters=None) -> "
           "dict(trajectory "
           "(Trajectory of the plant), cost, solve_seconds, relative_gap, nodes, status (lists, "
           "one per step), force (steps × n_a), completed, message): the closed loop on the "
           "scene's second-order plant.");
}

}  // namespace quasidyn::python
