// quasidyn.RolloutBatch: the B rollouts of quasidyn.rollout_batch (rollout_batch_bindings.cc)
// as stacked numpy arrays, NaN where a rollout stopped early, and each rollout's Trajectory
// (docs/python.md, "Batched rollouts").

#include <pybind11/eigen.h>
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <algorithm>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include "rollout_batch_result.h"

namespace py = pybind11;

namespace quasidyn::python {
namespace {

constexpr double kBatchNaN = std::numeric_limits<double>::quiet_NaN();

// (B, rows, width), NaN where row(t, k) is null or has another size (the steps after a failed
// one; entries a step did not record).
template <typename GetRow>
py::array_t<double> StackBatchRows(const PyRolloutBatch& r, int rows, int width, GetRow row) {
  const auto count = static_cast<py::ssize_t>(r.trajectories.size());
  py::array_t<double> out({count, static_cast<py::ssize_t>(rows), static_cast<py::ssize_t>(width)});
  std::fill(out.mutable_data(), out.mutable_data() + out.size(), kBatchNaN);
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
py::array_t<double> StackBatchMatrices(const PyRolloutBatch& r, const char* name, int rows,
                                       int cols,
                                       const Eigen::MatrixXd& (*get)(const TrajectoryStep&)) {
  if (r.gradients == GradientMode::kNone || (name[0] == 'A' && r.gradients != GradientMode::kAAndB))
    throw py::value_error(std::string("RolloutBatch.") + name +
                          ": not computed (rollout_batch(..., gradients=" +
                          (name[0] == 'A' ? "'a_and_b'" : "'a_and_b' or 'b_only'") + "))");
  const auto count = static_cast<py::ssize_t>(r.trajectories.size());
  py::array_t<double> out({count, static_cast<py::ssize_t>(r.steps), static_cast<py::ssize_t>(rows),
                           static_cast<py::ssize_t>(cols)});
  std::fill(out.mutable_data(), out.mutable_data() + out.size(), kBatchNaN);
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
const TrajectoryStep* BatchStepAt(const Trajectory& t, int k) {
  return k >= 0 && k < static_cast<int>(t.steps.size()) ? &t.steps[k] : nullptr;
}

}  // namespace

void BindRolloutBatchResult(py::module_& m) {
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
            return StackBatchRows(r, r.steps + 1, r.nq, [](const Trajectory& t, int k) {
              const TrajectoryStep* step = BatchStepAt(t, k - 1);
              return k == 0 ? &t.q0 : step ? &step->q : nullptr;
            });
          },
          "q(t_k) of every rollout (B, N + 1, n_q) [m, rad]: row 0 is q0, row k the "
          "configuration after step k, as Trajectory.q (docs/python.md, \"Arrays of a "
          "trajectory\").")
      .def_property_readonly(
          "v",
          [](const PyRolloutBatch& r) {
            return StackBatchRows(r, r.steps + 1, r.nv_state, [](const Trajectory& t, int k) {
              const TrajectoryStep* step = BatchStepAt(t, k - 1);
              return k == 0 ? &t.v0 : step ? &step->v : nullptr;
            });
          },
          "v(t_k) (B, N + 1, n_v) [m/s, rad/s] for the formulations with a velocity state, row "
          "0 v0; (B, N + 1, 0) for the others.")
      .def_property_readonly(
          "u",
          [](const PyRolloutBatch& r) {
            return StackBatchRows(r, r.steps, r.nu, [](const Trajectory& t, int k) {
              const TrajectoryStep* step = BatchStepAt(t, k);
              return step ? &step->u : nullptr;
            });
          },
          "The command of every step (B, N, nu): Us as given, or the schedule's commands.")
      .def_property_readonly(
          "momentum_force",
          [](const PyRolloutBatch& r) {
            return StackBatchRows(r, r.steps, r.nv_u, [](const Trajectory& t, int k) {
              const TrajectoryStep* step = BatchStepAt(t, k);
              return step ? &step->momentum_force : nullptr;
            });
          },
          "StepResult.momentum_force of every step (B, N, n_v,u) [N, N·m].")
      .def_property_readonly(
          "joint_limit_impulse",
          [](const PyRolloutBatch& r) {
            return StackBatchRows(r, r.steps, r.nv, [](const Trajectory& t, int k) {
              const TrajectoryStep* step = BatchStepAt(t, k);
              return step ? &step->joint_limit_impulse : nullptr;
            });
          },
          "StepResult.joint_limit_impulse of every step (B, N, n_v) [N·s, N·m·s]; NaN for "
          "scenes without joint limits.")
      .def_property_readonly(
          "A",
          [](const PyRolloutBatch& r) {
            const int nx = r.nq + r.nv_state;
            return StackBatchMatrices(
                r, "A", nx, nx,
                [](const TrajectoryStep& s) -> const Eigen::MatrixXd& { return s.A; });
          },
          "A_k = ∂x_k/∂x_{k-1} (B, N, n_x, n_x) as Trajectory.A, from gradients='a_and_b'; "
          "NaN where the derivative failed. ValueError when not computed.")
      .def_property_readonly(
          "B",
          [](const PyRolloutBatch& r) {
            return StackBatchMatrices(
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
}

}  // namespace quasidyn::python
