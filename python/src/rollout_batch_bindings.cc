// quasidyn.rollout_batch: B rollouts of one scene and formulation on C++ threads without the
// GIL (simulation/rollout.h, RolloutBatch), returned as a quasidyn.RolloutBatch of stacked
// numpy arrays; rollout b is bitwise what `rollout` returns for the same start and commands,
// for every thread count (docs/python.md, "Batched rollouts").

#include <pybind11/eigen.h>
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <algorithm>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "bindings.h"
#include "interruptible_call.h"
#include "quasidyn/formulations/registry.h"
#include "quasidyn/simulation/rollout.h"
#include "real_array.h"
#include "rollout_batch_result.h"

namespace py = pybind11;

namespace quasidyn::python {
namespace {

std::string ShapeText(const py::array& a) {
  std::string text = "(";
  for (py::ssize_t i = 0; i < a.ndim(); ++i)
    text += (i > 0 ? ", " : "") + std::to_string(a.shape(i));
  return text + (a.ndim() == 1 ? ",)" : ")");
}

// ValueError "<who>: <name> must have shape <expected>, got <shape>" unless a has `ndim`
// dimensions.
void CheckDimensions(const char* who, const char* name, const RealArray& a, int ndim,
                     const std::string& expected) {
  if (a.value.ndim() != ndim)
    throw py::value_error(std::string(who) + ": " + name + " must have shape " + expected +
                          ", got " + ShapeText(a.value));
}

// Row b of a (B, n) array.
Eigen::VectorXd BatchRow(const RealArray& a, py::ssize_t b) {
  if (a.value.shape(1) == 0) return Eigen::VectorXd();
  return Eigen::Map<const Eigen::VectorXd>(a.value.data(b, 0), a.value.shape(1));
}

// Matrix b of a (B, N, n) array, as N rows of n.
Eigen::MatrixXd BatchRows(const RealArray& a, py::ssize_t b) {
  using RowMajor = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
  const py::ssize_t rows = a.value.shape(1);
  const py::ssize_t cols = a.value.shape(2);
  if (rows == 0 || cols == 0) return Eigen::MatrixXd(rows, cols);
  return Eigen::Map<const RowMajor>(a.value.data(b, 0, 0), rows, cols);
}

// The number of rollouts B: the first dimension every given array shares.
py::ssize_t RolloutCount(const char* who, const std::optional<RealArray>& q0s,
                         const std::optional<RealArray>& Us, const std::optional<RealArray>& v0s) {
  std::optional<py::ssize_t> count;
  std::string counts;
  for (const auto& [name, a] :
       {std::pair{"q0s", &q0s}, std::pair{"Us", &Us}, std::pair{"v0s", &v0s}}) {
    if (!*a) continue;
    const py::ssize_t rows = (*a)->value.shape(0);
    counts += std::string(counts.empty() ? "" : ", ") + name + " " + std::to_string(rows);
    if (count && *count != rows)
      throw py::value_error(std::string(who) +
                            ": one row per rollout in each of q0s, Us and "
                            "v0s, got " +
                            counts);
    count = rows;
  }
  if (!count)
    throw py::value_error(std::string(who) +
                          ": give q0s (B, n_q) or Us (B, N, nu): one row per rollout");
  return *count;
}

constexpr const char* kDoc =
    "rollout_batch(scene, q0s=None, Us=None, *, threads=None, formulation=None, h=None, "
    "parameters=None, v0s=None, **keywords) -> "
    "RolloutBatch.\n"
    "B rollouts of the scene on C++ threads without the GIL: rollout b starts from q0s[b] "
    "(q0s of shape (B, n_q); None: scene.q0 for each) and, for the formulations with a "
    "velocity state, v0s[b] (v0s (B, n_v); None: the scene's initial velocity), and steps "
    "with the commands Us[b] (Us of shape (B, N, nu)) or, without Us, the scene's schedule for "
    "N = steps, or the steps covering duration [s], or to the schedule's end, as rollout "
    "does. B is the first dimension of q0s, Us and v0s (equal when several are given). Rollout "
    "b is bitwise the Trajectory of rollout(scene, q0s[b], Us[b], ...) with the same keywords, "
    "for every thread count. threads: worker threads >= 1 (None: the machine's hardware "
    "threads); gradients: 'none', 'b_only' or 'a_and_b' (RolloutBatch.A, .B). Formulation "
    "keywords as in rollout. A wrong shape, a row of the wrong size or a NaN raises ValueError "
    "naming the argument and its index (q0s[3], Us[1][4][0]) before any step; a failed step "
    "stops its own rollout only (RolloutBatch.completed, .status, .message). Ctrl-C "
    "(KeyboardInterrupt) stops the batch within a step of each rollout and raises.";

}  // namespace

void BindRolloutBatch(py::module_& m) {
  BindRolloutBatchResult(m);

  m.def(
      "rollout_batch",
      [](std::shared_ptr<Scene> scene, std::optional<RealArray> q0s, std::optional<RealArray> Us,
         std::optional<int> threads, std::optional<std::string> formulation,
         std::optional<double> h, std::optional<std::map<std::string, double>> parameters,
         std::optional<RealArray> v0s, py::kwargs by_key) {
        const char* who = "rollout_batch";
        const RolloutSettings settings = TakeRolloutKeywords(who, &by_key);
        const FormulationChoice choice = Choice(who, {formulation, h, parameters, by_key});
        RolloutOptions options;
        options.gradients = settings.gradients;
        if (q0s) CheckDimensions(who, "q0s", *q0s, 2, "(B, n_q)");
        if (Us) CheckDimensions(who, "Us", *Us, 3, "(B, N, nu)");
        if (v0s) CheckDimensions(who, "v0s", *v0s, 2, "(B, n_v)");
        const py::ssize_t count = RolloutCount(who, q0s, Us, v0s);
        if (Us && RolloutLengthGiven(settings))
          throw py::value_error(std::string(who) +
                                ": give Us or steps/duration, not both (Us[b] has one row per "
                                "step)");
        const int thread_count =
            threads ? *threads
                    : static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
        return Named(
            who,
            [&] {
              const std::shared_ptr<const StepModel> model = MakeStepModel(scene, choice);
              CheckGradientsAvailable(who, *model, options.gradients);
              if (!Us) options.steps = ScheduleSteps(who, *model, settings);
              std::vector<State> x0s(static_cast<size_t>(count), InitialState(*model));
              std::vector<Eigen::MatrixXd> commands;
              for (py::ssize_t b = 0; b < count; ++b) {
                if (q0s) x0s[b].q = BatchRow(*q0s, b);
                if (v0s) x0s[b].v = BatchRow(*v0s, b);
                if (Us) commands.push_back(BatchRows(*Us, b));
              }
              PyRolloutBatch out;
              out.steps = Us ? static_cast<int>(Us->value.shape(1)) : options.steps;
              out.time_step = model->time_step();
              out.nq = model->scene().nq;
              out.nv_state = model->state_v_size();
              out.nu = model->control_size();
              out.nv_u = model->scene().nv_u;
              out.nv = model->scene().nv;
              out.threads = thread_count;
              out.gradients = options.gradients;
              // Ctrl-C stops every rollout at its next step (interruptible_call.h).
              CancellationToken cancel;
              options.cancel = &cancel;
              std::vector<Trajectory> trajectories = CallInterruptibly(&cancel, [&] {
                return RolloutBatch(*model, x0s, commands, options, thread_count);
              });
              out.trajectories.reserve(trajectories.size());
              for (Trajectory& t : trajectories)
                out.trajectories.push_back(std::make_shared<Trajectory>(std::move(t)));
              return out;
            },
            /*items=*/true);
      },
      py::arg("scene"), py::arg("q0s") = py::none(), py::arg("Us") = py::none(), py::kw_only(),
      py::arg("threads") = py::none(), py::arg("formulation") = py::none(),
      py::arg("h") = py::none(), py::arg("parameters") = py::none(), py::arg("v0s") = py::none(),
      (std::string(kDoc) + " " + RolloutKeywordsDoc() + " " + kParameterKeywordsDoc).c_str());
}

}  // namespace quasidyn::python
