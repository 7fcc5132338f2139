// quasidyn.rollout_batch: B rollouts of one scene and formulation on C++ threads without the
// GIL (simulation/rollout.h, RolloutBatch), returned as a quasidyn.RolloutBatch of stacked
// numpy arrays; rollout b is bitwise what `rollout` returns for the same start and commands,
// for every thread count (docs/python.md, "Batched rollouts").

#include <pybind11/eigen.h>
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <algorithm>
#include <limits>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "bindings.h"
#include "quasidyn/formulations/registry.h"
#include "quasidyn/simulation/rollout.h"
#include "real_array.h"

namespace py = pybind11;

namespace quasidyn::python {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

// The result of rollout_batch: the B trajectories and the sizes of their arrays (also for
// B = 0 and for rollouts that stopped early).
struct PyRolloutBatch {
  std::vector<std::shared_ptr<Trajectory>> trajectories;
  int steps = 0;           // N, the steps asked of every rollout
  double time_step = 0.0;  // h [s]
  int nq = 0;
  int nv_state = 0;  // the size of v in the state: n_v, or 0 without a velocity state
  int nu = 0;        // the command's size
  int nv_u = 0;
  int nv = 0;
  int threads = 1;
  GradientMode gradients = GradientMode::kNone;
};

// (B, rows, width), NaN where row(t, k) is null or has another size (the steps after a failed
// one; entries a step did not record).
template <typename GetRow>
py::array_t<double> Stack(const PyRolloutBatch& r, int rows, int width, GetRow row) {
  const auto count = static_cast<py::ssize_t>(r.trajectories.size());
  py::array_t<double> out({count, static_cast<py::ssize_t>(rows), static_cast<py::ssize_t>(width)});
  std::fill(out.mutable_data(), out.mutable_data() + out.size(), kNaN);
  auto view = out.mutable_unchecked<3>();
  for (py::ssize_t b = 0; b < count; ++b) {
    const Trajectory& t = *r.trajectories[b];
    for (int k = 0; k < rows; ++k) {
      const Eigen::VectorXd* value = row(t, k);
      if (value == nullptr || value->size() != width) continue;
      for (int j = 0; j < width; ++j) view(b, k, j) = (*value)[j];
    }
  }
  return out;
}

// (B, N, rows, cols) of each step's matrix, NaN where a step has none (a failed derivative, the
// steps after a failed step).
py::array_t<double> StackMatrices(const PyRolloutBatch& r, const char* name, int rows, int cols,
                                  const Eigen::MatrixXd& (*get)(const TrajectoryStep&)) {
  if (r.gradients == GradientMode::kNone || (name[0] == 'A' && r.gradients != GradientMode::kAAndB))
    throw py::value_error(std::string("RolloutBatch.") + name +
                          ": not computed (rollout_batch(..., gradients=" +
                          (name[0] == 'A' ? "'a_and_b'" : "'a_and_b' or 'b_only'") + "))");
  const auto count = static_cast<py::ssize_t>(r.trajectories.size());
  py::array_t<double> out({count, static_cast<py::ssize_t>(r.steps), static_cast<py::ssize_t>(rows),
                           static_cast<py::ssize_t>(cols)});
  std::fill(out.mutable_data(), out.mutable_data() + out.size(), kNaN);
  auto view = out.mutable_unchecked<4>();
  for (py::ssize_t b = 0; b < count; ++b) {
    const Trajectory& t = *r.trajectories[b];
    for (size_t k = 0; k < t.steps.size(); ++k) {
      const Eigen::MatrixXd& m = get(t.steps[k]);
      if (m.rows() != rows || m.cols() != cols) continue;
      for (int i = 0; i < rows; ++i)
        for (int j = 0; j < cols; ++j) view(b, static_cast<py::ssize_t>(k), i, j) = m(i, j);
    }
  }
  return out;
}

// Step k's record (0-based), or null outside the steps done.
const TrajectoryStep* StepAt(const Trajectory& t, int k) {
  return k >= 0 && k < static_cast<int>(t.steps.size()) ? &t.steps[k] : nullptr;
}

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
Eigen::VectorXd Row(const RealArray& a, py::ssize_t b) {
  if (a.value.shape(1) == 0) return Eigen::VectorXd();
  return Eigen::Map<const Eigen::VectorXd>(a.value.data(b, 0), a.value.shape(1));
}

// Matrix b of a (B, N, n) array, as N rows of n.
Eigen::MatrixXd Rows(const RealArray& a, py::ssize_t b) {
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
    "kappa=None, object_mass_scale=None, parameters=None, steps=None, duration=None, "
    "gradients='none', v0s=None) -> RolloutBatch.\n"
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
    "stops its own rollout only (RolloutBatch.completed, .status, .message).";

}  // namespace

void BindRolloutBatch(py::module_& m) {
  py::class_<PyRolloutBatch>(
      m, "RolloutBatch",
      "The B rollouts of rollout_batch as stacked arrays (b: the rollout, k: the step); each "
      "property builds a new array. A rollout that stopped early has NaN rows after its last "
      "step. batch[b] is rollout b's Trajectory (its contacts, forces, statistics), bitwise "
      "the one rollout returns.")
      .def("__len__", [](const PyRolloutBatch& r) { return r.trajectories.size(); })
      .def(
          "__getitem__",
          [](const PyRolloutBatch& r, py::ssize_t b) {
            const auto count = static_cast<py::ssize_t>(r.trajectories.size());
            if (b < 0) b += count;
            if (b < 0 || b >= count)
              throw py::index_error(
                  "RolloutBatch: rollout index out of range (B = " + std::to_string(count) + ")");
            return r.trajectories[static_cast<size_t>(b)];
          },
          py::arg("b"), "batch[b]: rollout b's Trajectory (negative b counts from the end).")
      .def_property_readonly(
          "trajectories", [](const PyRolloutBatch& r) { return r.trajectories; },
          "The B Trajectory objects, rollout b's at index b.")
      .def_readonly("steps", &PyRolloutBatch::steps, "N, the steps asked of every rollout.")
      .def_readonly("time_step", &PyRolloutBatch::time_step, "h [s] of every step.")
      .def_readonly("threads", &PyRolloutBatch::threads, "The worker threads the batch ran on.")
      .def_property_readonly(
          "times",
          [](const PyRolloutBatch& r) {
            Eigen::VectorXd times(r.steps + 1);
            for (int k = 0; k <= r.steps; ++k) times[k] = k * r.time_step;
            return times;
          },
          "t_k = k·h for k = 0 … N (N + 1,) [s]: the time of each row of q and v.")
      .def_property_readonly(
          "q",
          [](const PyRolloutBatch& r) {
            return Stack(r, r.steps + 1, r.nq, [](const Trajectory& t, int k) {
              const TrajectoryStep* step = StepAt(t, k - 1);
              return k == 0 ? &t.q0 : step ? &step->q : nullptr;
            });
          },
          "q(t_k) of every rollout (B, N + 1, n_q) [m, rad]: row 0 is q0, row k the "
          "configuration after step k (Trajectory.q is rows 1 … N).")
      .def_property_readonly(
          "v",
          [](const PyRolloutBatch& r) {
            return Stack(r, r.steps + 1, r.nv_state, [](const Trajectory& t, int k) {
              const TrajectoryStep* step = StepAt(t, k - 1);
              return k == 0 ? &t.v0 : step ? &step->v : nullptr;
            });
          },
          "v(t_k) (B, N + 1, n_v) [m/s, rad/s] for the formulations with a velocity state, row "
          "0 v0; (B, N + 1, 0) for the others.")
      .def_property_readonly(
          "u",
          [](const PyRolloutBatch& r) {
            return Stack(r, r.steps, r.nu, [](const Trajectory& t, int k) {
              const TrajectoryStep* step = StepAt(t, k);
              return step ? &step->u : nullptr;
            });
          },
          "The command of every step (B, N, nu): Us as given, or the schedule's commands.")
      .def_property_readonly(
          "momentum_force",
          [](const PyRolloutBatch& r) {
            return Stack(r, r.steps, r.nv_u, [](const Trajectory& t, int k) {
              const TrajectoryStep* step = StepAt(t, k);
              return step ? &step->momentum_force : nullptr;
            });
          },
          "StepResult.momentum_force of every step (B, N, n_v,u) [N, N·m].")
      .def_property_readonly(
          "joint_limit_impulse",
          [](const PyRolloutBatch& r) {
            return Stack(r, r.steps, r.nv, [](const Trajectory& t, int k) {
              const TrajectoryStep* step = StepAt(t, k);
              return step ? &step->joint_limit_impulse : nullptr;
            });
          },
          "StepResult.joint_limit_impulse of every step (B, N, n_v) [N·s, N·m·s]; NaN for "
          "scenes without joint limits.")
      .def_property_readonly(
          "A",
          [](const PyRolloutBatch& r) {
            const int nx = r.nq + r.nv_state;
            return StackMatrices(
                r, "A", nx, nx,
                [](const TrajectoryStep& s) -> const Eigen::MatrixXd& { return s.A; });
          },
          "A_k = ∂x_k/∂x_{k-1} (B, N, n_x, n_x) as Trajectory.A, from gradients='a_and_b'; "
          "NaN where the derivative failed. ValueError when not computed.")
      .def_property_readonly(
          "B",
          [](const PyRolloutBatch& r) {
            return StackMatrices(
                r, "B", r.nq + r.nv_state, r.nu,
                [](const TrajectoryStep& s) -> const Eigen::MatrixXd& { return s.B; });
          },
          "B_k = ∂x_k/∂u_k (B, N, n_x, nu) as Trajectory.B, from gradients='a_and_b' or "
          "'b_only'; NaN where the derivative failed. ValueError when not computed.")
      .def_property_readonly(
          "completed",
          [](const PyRolloutBatch& r) {
            py::array_t<bool> out(static_cast<py::ssize_t>(r.trajectories.size()));
            for (size_t b = 0; b < r.trajectories.size(); ++b)
              out.mutable_at(b) = r.trajectories[b]->completed();
            return out;
          },
          "(B,) bool: rollout b ran all N steps.")
      .def_property_readonly(
          "steps_done",
          [](const PyRolloutBatch& r) {
            py::array_t<int> out(static_cast<py::ssize_t>(r.trajectories.size()));
            for (size_t b = 0; b < r.trajectories.size(); ++b)
              out.mutable_at(b) = r.trajectories[b]->steps_done;
            return out;
          },
          "(B,) int: the steps rollout b completed (N unless a step failed).")
      .def_property_readonly(
          "status",
          [](const PyRolloutBatch& r) {
            std::vector<std::string> out;
            for (const auto& t : r.trajectories) out.emplace_back(ToString(t->status));
            return out;
          },
          "Per rollout, Trajectory.status: the last step's solver status, or the failed step's.")
      .def_property_readonly(
          "message",
          [](const PyRolloutBatch& r) {
            std::vector<std::string> out;
            for (const auto& t : r.trajectories) out.push_back(t->message);
            return out;
          },
          "Per rollout, Trajectory.message: '' or why its step failed.")
      .def("__repr__", [](const PyRolloutBatch& r) {
        int completed = 0;
        for (const auto& t : r.trajectories) completed += t->completed() ? 1 : 0;
        return "<quasidyn.RolloutBatch B=" + std::to_string(r.trajectories.size()) +
               ", N=" + std::to_string(r.steps) + ", completed " + std::to_string(completed) + ">";
      });

  m.def(
      "rollout_batch",
      [](std::shared_ptr<Scene> scene, std::optional<RealArray> q0s, std::optional<RealArray> Us,
         std::optional<int> threads, std::optional<std::string> formulation,
         std::optional<double> h, std::optional<double> kappa,
         std::optional<double> object_mass_scale,
         std::optional<std::map<std::string, double>> parameters, std::optional<int> steps,
         std::optional<double> duration, const std::string& gradients,
         std::optional<RealArray> v0s) {
        const char* who = "rollout_batch";
        const FormulationChoice choice =
            Choice(who, {formulation, h, kappa, object_mass_scale, parameters});
        RolloutOptions options;
        options.gradients = ParseGradients(who, gradients);
        if (q0s) CheckDimensions(who, "q0s", *q0s, 2, "(B, n_q)");
        if (Us) CheckDimensions(who, "Us", *Us, 3, "(B, N, nu)");
        if (v0s) CheckDimensions(who, "v0s", *v0s, 2, "(B, n_v)");
        const py::ssize_t count = RolloutCount(who, q0s, Us, v0s);
        if (Us && (steps || duration))
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
              if (!Us) options.steps = ScheduleSteps(who, *model, steps, duration);
              std::vector<State> x0s(static_cast<size_t>(count), InitialState(*model));
              std::vector<Eigen::MatrixXd> commands;
              for (py::ssize_t b = 0; b < count; ++b) {
                if (q0s) x0s[b].q = Row(*q0s, b);
                if (v0s) x0s[b].v = Row(*v0s, b);
                if (Us) commands.push_back(Rows(*Us, b));
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
              std::vector<Trajectory> trajectories;
              {
                py::gil_scoped_release release;
                trajectories = RolloutBatch(*model, x0s, commands, options, thread_count);
              }
              out.trajectories.reserve(trajectories.size());
              for (Trajectory& t : trajectories)
                out.trajectories.push_back(std::make_shared<Trajectory>(std::move(t)));
              return out;
            },
            /*items=*/true);
      },
      py::arg("scene"), py::arg("q0s") = py::none(), py::arg("Us") = py::none(), py::kw_only(),
      py::arg("threads") = py::none(), py::arg("formulation") = py::none(),
      py::arg("h") = py::none(), py::arg("kappa") = py::none(),
      py::arg("object_mass_scale") = py::none(), py::arg("parameters") = py::none(),
      py::arg("steps") = py::none(), py::arg("duration") = py::none(),
      py::arg("gradients") = "none", py::arg("v0s") = py::none(), kDoc);
}

}  // namespace quasidyn::python
