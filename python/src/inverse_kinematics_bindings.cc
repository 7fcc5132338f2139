// quasidyn.inverse_kinematics and quasidyn.InverseKinematicsResult
// (kinematics/inverse_kinematics.h).

#include <pybind11/eigen.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <memory>
#include <optional>
#include <string>

#include "bindings.h"
#include "quasidyn/kinematics/inverse_kinematics.h"
#include "real_array.h"

namespace py = pybind11;

namespace quasidyn::python {

void BindInverseKinematics(py::module_& m) {
  py::class_<InverseKinematicsResult>(
      m, "InverseKinematicsResult",
      "The answer of inverse_kinematics: q with the robot's joints moved, and how close the "
      "body came to the target.")
      .def_property_readonly(
          "converged",
          [](const InverseKinematicsResult& r) {
            return r.status == InverseKinematicsStatus::kConverged;
          },
          "True when the error fell below the tolerance.")
      .def_property_readonly(
          "status",
          [](const InverseKinematicsResult& r) { return InverseKinematicsStatusName(r.status); },
          "converged or max_iterations.")
      .def_property_readonly(
          "q", [](const InverseKinematicsResult& r) -> const Eigen::VectorXd& { return r.q; },
          py::return_value_policy::reference_internal,
          "q (n_q,): the starting q with the robot's entries changed.")
      .def_readonly("iterations", &InverseKinematicsResult::iterations,
                    "Damped-least-squares updates made.")
      .def_readonly("error", &InverseKinematicsResult::error,
                    "Final weighted error ‖e‖ [m] (orientation counted at orientation_length).")
      .def_readonly("position_error", &InverseKinematicsResult::position_error,
                    "Final distance of the point to its target [m].")
      .def_readonly("orientation_error", &InverseKinematicsResult::orientation_error,
                    "Final rotation angle to the target orientation [rad]; 0 without one.")
      .def("__repr__", [](const InverseKinematicsResult& r) {
        return "<quasidyn.InverseKinematicsResult " +
               std::string(InverseKinematicsStatusName(r.status)) +
               ", position_error=" + std::to_string(r.position_error) + " m>";
      });

  m.def(
      "inverse_kinematics",
      [](std::shared_ptr<Scene> scene, const std::string& robot, const std::string& body,
         const RealVector& position, std::optional<RealVector> q, const RealVector& point,
         std::optional<RealMatrix> orientation, double tolerance, int max_iterations,
         double damping, double max_step, double orientation_length) {
        // The names and the fixed-size vectors are converted here; the values are checked by
        // SolveInverseKinematics.
        const char* who = "inverse_kinematics";
        if (!scene) throw py::value_error(std::string(who) + ": scene is None");
        const int instance = scene->InstanceIndex(robot);
        if (instance < 0 || !scene->instances[instance].actuated)
          throw py::value_error(std::string(who) + ": the scene has no robot '" + robot + "'");
        InverseKinematicsTarget target;
        target.body = scene->BodyIndex(body);
        if (target.body < 0)
          throw py::value_error(std::string(who) + ": the scene has no body '" + body + "'");
        if (position.value.size() != 3 || point.value.size() != 3 ||
            (orientation && (orientation->value.rows() != 3 || orientation->value.cols() != 3)))
          throw py::value_error(std::string(who) +
                                ": position and point are 3-vectors, orientation a 3×3 matrix");
        target.position_W = position.value;
        target.point_B = point.value;
        if (orientation) target.orientation_W = Eigen::Matrix3d(orientation->value);
        InverseKinematicsSettings settings;
        settings.tolerance = tolerance;
        settings.max_iterations = max_iterations;
        settings.damping = damping;
        settings.max_step = max_step;
        settings.orientation_length = orientation_length;
        return Named(who, [&] {
          py::gil_scoped_release release;
          return SolveInverseKinematics(*scene, instance, target, q ? q->value : scene->q0,
                                        settings);
        });
      },
      py::arg("scene"), py::arg("robot"), py::arg("body"), py::arg("position"),
      py::arg("q") = py::none(), py::arg("point") = Eigen::Vector3d::Zero(),
      py::arg("orientation") = py::none(), py::arg("tolerance") = 1e-6,
      py::arg("max_iterations") = 200, py::arg("damping") = 1e-2, py::arg("max_step") = 0.2,
      py::arg("orientation_length") = 0.1,
      "inverse_kinematics(scene, robot, body, position, q=None, point=(0, 0, 0), "
      "orientation=None, tolerance=1e-6, max_iterations=200, damping=0.01, max_step=0.2, "
      "orientation_length=0.1) -> InverseKinematicsResult.\nMoves robot `robot`'s joints "
      "(from q, None: scene.q0) so that `point` [m] fixed in body `body` reaches `position` "
      "[m] in the world and, when given, the body's rotation matrix reaches `orientation` "
      "(3×3). Damped least squares (kinematics/inverse_kinematics.h): tolerance [m] > 0, "
      "damping λ [m] > 0, max_step [rad or m] > 0 per joint per iteration, "
      "orientation_length [m/rad] > 0 weighing 1 rad against that many metres. No joint "
      "limits or collisions are respected.");
}

}  // namespace quasidyn::python
