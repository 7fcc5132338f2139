// quasidyn.Trajectory's stacked arrays (times, q, v, u, q_u, q_a, forces, A, B): one row per
// step, as numpy arrays.

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

// Row k of the result is `column(steps[k])` (size `width`).
template <typename Get>
Eigen::MatrixXd Stack(const Trajectory& t, int width, Get column) {
  Eigen::MatrixXd out(static_cast<Eigen::Index>(t.steps.size()), width);
  for (size_t k = 0; k < t.steps.size(); ++k)
    out.row(static_cast<Eigen::Index>(k)) = column(t.steps[k]);
  return out;
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
            return Stack(t, t.CommandSize(), [&t](const TrajectoryStep& s) {
              return s.q.tail(t.CommandSize()).transpose();
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
            return Stack(t, t.CommandSize(),
                         [](const TrajectoryStep& s) { return s.u.transpose(); });
          },
          "The commands q̄_a(t_k) stacked (N, n_q,a) [m, rad].")
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
                t, "B", StateSize(t), t.CommandSize(),
                [](const TrajectoryStep& s) -> const Eigen::MatrixXd& { return s.B; });
          },
          "B_k = ∂x_k/∂u_k of every step stacked (N, n_x, n_q,a), x as for A, from "
          "rollout(..., gradients='a_and_b' or 'b_only'); NaN where the derivative failed.");
}

}  // namespace quasidyn::python
