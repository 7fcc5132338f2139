// quasidyn.Trajectory's stacked arrays as numpy arrays (docs/python.md, "Arrays of a
// trajectory"): the state arrays (times, q, v, q_u, q_a, instance_q) have a row for the start
// then one per step, len(steps) + 1 rows; the per-step arrays (u, momentum_force,
// joint_limit_impulse, A, B) one row per step.

#include <pybind11/eigen.h>
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <limits>
#include <string>

#include "bindings.h"

namespace py = pybind11;

namespace quasidyn::python {
namespace {

// Per step: row k of the result is `column(steps[k])` (size `width`).
template <typename Get>
Eigen::MatrixXd Stack(const Trajectory& t, int width, Get column) {
  Eigen::MatrixXd out(static_cast<Eigen::Index>(t.steps.size()), width);
  for (size_t k = 0; k < t.steps.size(); ++k)
    out.row(static_cast<Eigen::Index>(k)) = column(t.steps[k]);
  return out;
}

// Per state: row 0 of the result is `row(start)` (q0 or v0), row k + 1 is `row(of(steps[k]))`,
// the state after the k-th step kept (size `width`).
template <typename Of, typename Row>
Eigen::MatrixXd StackStates(const Trajectory& t, int width, const Eigen::VectorXd& start, Of of,
                            Row row) {
  Eigen::MatrixXd out(static_cast<Eigen::Index>(t.steps.size()) + 1, width);
  out.row(0) = row(start);
  for (size_t k = 0; k < t.steps.size(); ++k)
    out.row(static_cast<Eigen::Index>(k) + 1) = row(of(t.steps[k]));
  return out;
}

const Eigen::VectorXd& ConfigurationOf(const TrajectoryStep& s) { return s.q; }
const Eigen::VectorXd& VelocityOf(const TrajectoryStep& s) { return s.v; }

// The configurations' entries [begin, begin + size) stacked (len(steps) + 1, size).
Eigen::MatrixXd StackConfigurations(const Trajectory& t, int begin, int size) {
  return StackStates(t, size, t.q0, ConfigurationOf, [begin, size](const Eigen::VectorXd& q) {
    return q.segment(begin, size).transpose();
  });
}

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

}  // namespace

void BindTrajectoryArrays(PyTrajectory& trajectory) {
  trajectory
      .def_property_readonly(
          "times",
          [](const Trajectory& t) {
            Eigen::VectorXd times(static_cast<Eigen::Index>(t.steps.size()) + 1);
            times[0] = 0.0;
            for (size_t k = 0; k < t.steps.size(); ++k)
              times[static_cast<Eigen::Index>(k) + 1] = t.steps[k].t;
            return times;
          },
          "t_k = k·h (N + 1,) [s]: 0, then the end time of each step (docs/python.md, \"Arrays "
          "of a trajectory\").")
      .def_property_readonly(
          "q", [](const Trajectory& t) { return StackConfigurations(t, 0, t.nq); },
          "q(t_k) stacked (N + 1, n_q) [m, rad]: row 0 q0, row k the configuration after step k.")
      .def_property_readonly(
          "v",
          [](const Trajectory& t) {
            const int n = static_cast<int>(t.v0.size());
            return StackStates(t, n, t.v0, VelocityOf,
                               [n](const Eigen::VectorXd& v) -> Eigen::RowVectorXd {
                                 if (v.size() != n)
                                   return Eigen::RowVectorXd::Constant(
                                       n, std::numeric_limits<double>::quiet_NaN());
                                 return v.transpose();
                               });
          },
          "v(t_k) stacked (N + 1, n_v) [m/s, rad/s], row 0 v0, for stewart-trinkle and "
          "anitescu; (N + 1, 0) for the formulations without a velocity state.")
      .def_property_readonly(
          "q_u", [](const Trajectory& t) { return StackConfigurations(t, 0, t.nq_u); },
          "The objects' coordinates q_u(t_k) stacked (N + 1, n_q,u), row 0 from q0.")
      .def_property_readonly(
          "q_a", [](const Trajectory& t) { return StackConfigurations(t, t.nq_u, t.nq - t.nq_u); },
          "The robots' coordinates q_a(t_k) stacked (N + 1, n_q,a), row 0 from q0.")
      .def(
          "instance_q",
          [](const Trajectory& t, const std::string& instance) {
            const Scene& scene = SceneOf(t, "Trajectory.instance_q");
            const int index = scene.InstanceIndex(instance);
            if (index < 0)
              throw py::value_error("Trajectory.instance_q: the scene has no instance '" +
                                    instance + "'");
            const ModelInstance& i = scene.instances[index];
            return StackConfigurations(t, i.q_start, i.nq);
          },
          py::arg("instance"),
          "One instance's coordinates stacked (N + 1, its n_q), row 0 from q0, by name "
          "('sphere', 'gripper').")
      .def_property_readonly(
          "u",
          [](const Trajectory& t) {
            return Stack(t, t.CommandSize(),
                         [](const TrajectoryStep& s) { return s.u.transpose(); });
          },
          "The commands stacked (N, nu) [m, rad]: row k the command of the step from state row k "
          "to row k + 1, q̄_a(t_{k+1}).")
      .def_property_readonly(
          "momentum_force",
          [](const Trajectory& t) {
            const int nv_u = t.nv - t.CommandSize();
            return Stack(t, nv_u, [nv_u](const TrajectoryStep& s) -> Eigen::RowVectorXd {
              if (s.momentum_force.size() != nv_u)
                return Eigen::RowVectorXd::Constant(nv_u, std::numeric_limits<double>::quiet_NaN());
              return s.momentum_force.transpose();
            });
          },
          "StepResult.momentum_force of every step stacked (N, n_v,u) [N, N·m], row k the step "
          "from state row k to k + 1; NaN rows for steps recorded without it.")
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
          "A[k] = ∂x_{k+1}/∂x_k of every step stacked (N, n_x, n_x) (x_k: state row k), x = q (n_x "
          "= n_q) or, for "
          "stewart-trinkle and anitescu, x = (q, v) (n_x = n_q + n_v), from rollout(..., "
          "gradients='a_and_b'); NaN for a step whose derivative failed (gradient_status). "
          "Raises ValueError when no gradients were computed.")
      .def_property_readonly(
          "B",
          [](const Trajectory& t) {
            return StackMatrices(
                t, "B", StateSize(t), t.CommandSize(),
                [](const TrajectoryStep& s) -> const Eigen::MatrixXd& { return s.B; });
          },
          "B[k] = ∂x_{k+1}/∂u[k] of every step stacked (N, n_x, nu), x as for A, from "
          "rollout(..., gradients='a_and_b' or 'b_only'); NaN where the derivative failed.");
}

}  // namespace quasidyn::python
