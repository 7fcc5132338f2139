#include "quasidyn/kinematics/inverse_kinematics.h"

#include <Eigen/Cholesky>
#include <cmath>
#include <stdexcept>
#include <string>
#include <vector>

#include "quasidyn/kinematics/kinematics.h"
#include "quasidyn/math/rotation.h"

namespace quasidyn {

const char* InverseKinematicsStatusName(InverseKinematicsStatus status) {
  switch (status) {
    case InverseKinematicsStatus::kConverged:
      return "converged";
    case InverseKinematicsStatus::kMaxIterations:
      return "max_iterations";
  }
  return "unknown";
}

namespace {

void Require(bool condition, const std::string& problem) {
  if (!condition) throw std::invalid_argument("SolveInverseKinematics: " + problem);
}

void ValidateInputs(const Scene& scene, int robot_instance, const InverseKinematicsTarget& target,
                    const InverseKinematicsSettings& settings) {
  Require(robot_instance >= 0 && robot_instance < static_cast<int>(scene.instances.size()),
          "robot_instance " + std::to_string(robot_instance) + " out of range");
  Require(scene.instances[robot_instance].actuated,
          "instance '" + scene.instances[robot_instance].name + "' is not an actuated robot");
  Require(target.body >= 0 && target.body < static_cast<int>(scene.bodies.size()),
          "target.body " + std::to_string(target.body) + " out of range");
  Require(target.point_B.allFinite() && target.position_W.allFinite(),
          "target.point_B and target.position_W must be finite");
  if (target.orientation_W) {
    const Eigen::Matrix3d& R = *target.orientation_W;
    Require(R.allFinite() && (R.transpose() * R - Eigen::Matrix3d::Identity()).norm() < 1e-6 &&
                R.determinant() > 0.0,
            "target.orientation_W must be a rotation matrix");
  }
  Require(settings.damping > 0.0, "settings.damping must be > 0");
  Require(settings.tolerance > 0.0, "settings.tolerance must be > 0");
  Require(settings.max_iterations >= 1, "settings.max_iterations must be >= 1");
  Require(settings.max_step > 0.0, "settings.max_step must be > 0");
  Require(settings.orientation_length > 0.0, "settings.orientation_length must be > 0");
}

}  // namespace

InverseKinematicsResult SolveInverseKinematics(const Scene& scene, int robot_instance,
                                               const InverseKinematicsTarget& target,
                                               const Eigen::VectorXd& q_initial,
                                               const InverseKinematicsSettings& settings) {
  ValidateInputs(scene, robot_instance, target, settings);
  // The kinematics lives only in this call, so it may share `scene` without owning it.
  Kinematics kinematics(BorrowScene(scene));
  kinematics.Update(q_initial);  // checks the size and finiteness of q_initial

  // The robot's variables: (index in v, index in q) of each of its joint coordinates.
  // Robots have revolute, prismatic and fixed joints only, so q̇ = v on these entries.
  std::vector<int> v_index, q_index;
  for (int j : scene.instances[robot_instance].joints) {
    const Joint& joint = scene.joints[j];
    Require(joint.type != JointType::kFloating,
            "robot joint '" + joint.name + "' is floating, which robots cannot have");
    for (int k = 0; k < JointNv(joint.type); ++k) {
      v_index.push_back(joint.v_start + k);
      q_index.push_back(joint.q_start + k);
    }
  }
  const int num_variables = static_cast<int>(v_index.size());
  Require(num_variables > 0,
          "robot '" + scene.instances[robot_instance].name + "' has no moving joints");
  const bool with_orientation = target.orientation_W.has_value();
  const int num_rows = with_orientation ? 6 : 3;
  const double length = settings.orientation_length;

  InverseKinematicsResult result;
  result.q = q_initial;
  Eigen::MatrixXd J_point, J_rotation;
  Eigen::MatrixXd J(num_rows, num_variables);
  Eigen::VectorXd e(num_rows);
  const Eigen::MatrixXd damping =
      settings.damping * settings.damping * Eigen::MatrixXd::Identity(num_rows, num_rows);

  for (int iteration = 0;; ++iteration) {
    const Eigen::Isometry3d& X_WB = kinematics.BodyPose(target.body);
    const Eigen::Vector3d p_W = X_WB * target.point_B;
    e.head<3>() = target.position_W - p_W;
    result.position_error = e.head<3>().norm();
    if (with_orientation) {
      const Eigen::Vector3d rotation =
          RotationVectorFromMatrix(*target.orientation_W * X_WB.linear().transpose());
      e.tail<3>() = length * rotation;
      result.orientation_error = rotation.norm();
    }
    result.error = e.norm();
    result.iterations = iteration;
    if (result.error <= settings.tolerance) {
      result.status = InverseKinematicsStatus::kConverged;
      return result;
    }
    if (iteration == settings.max_iterations) {
      result.status = InverseKinematicsStatus::kMaxIterations;
      return result;
    }

    kinematics.PointJacobian(target.body, p_W, &J_point);
    if (with_orientation) kinematics.RotationalJacobian(target.body, &J_rotation);
    for (int c = 0; c < num_variables; ++c) {
      J.block<3, 1>(0, c) = J_point.col(v_index[c]);
      if (with_orientation) J.block<3, 1>(3, c) = length * J_rotation.col(v_index[c]);
    }
    // Δq = Jᵀ (J Jᵀ + λ² I)⁻¹ e (Buss 2004, eq. 11); J Jᵀ + λ² I is SPD for λ > 0.
    const Eigen::MatrixXd JJt = J * J.transpose() + damping;
    Eigen::VectorXd step = J.transpose() * JJt.llt().solve(e);
    const double largest = step.cwiseAbs().maxCoeff();
    if (largest > settings.max_step) step *= settings.max_step / largest;
    for (int c = 0; c < num_variables; ++c) result.q[q_index[c]] += step[c];
    kinematics.Update(result.q);
  }
}

}  // namespace quasidyn
