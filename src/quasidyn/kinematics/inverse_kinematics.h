#pragma once
// Damped-least-squares inverse kinematics for one robot: moves the robot's joints so
// that a point on a body reaches a target position in the world (and, optionally, the
// body reaches a target orientation). Nothing else is respected (no joint limits, no
// collisions); it is a helper for setting up scenes and commands.
//
// Each iteration (Wampler, "Manipulator inverse kinematic solutions based on vector
// formulations and damped least-squares methods", IEEE SMC 1986; Buss, "Introduction to
// inverse kinematics with Jacobian transpose, pseudoinverse and damped least squares
// methods", 2004, eq. 11):
//   Δq = Jᵀ (J Jᵀ + λ² I)⁻¹ e,   then Δq scaled down so that max_i |Δq_i| <= max_step,
// where e stacks the position error p_target − p (3) and, with an orientation target,
// ℓ · log(R_target R_WBᵀ) (3, a world-frame rotation vector weighted by ℓ =
// orientation_length), and J stacks the matching rows [J_p; ℓ J_ω] restricted to the
// robot's velocity columns. Stop when ‖e‖ <= tolerance.

#include <Eigen/Core>
#include <optional>

#include "quasidyn/model/scene.h"

namespace quasidyn {

struct InverseKinematicsTarget {
  int body = -1;                                         // index into Scene::bodies
  Eigen::Vector3d point_B = Eigen::Vector3d::Zero();     // point on the body, in B [m]
  Eigen::Vector3d position_W = Eigen::Vector3d::Zero();  // where it should be, world [m]
  std::optional<Eigen::Matrix3d> orientation_W;          // target R_WB (rotation matrix)
};

struct InverseKinematicsSettings {
  double damping = 1e-2;            // λ [m], > 0: larger is more robust near singularities
  double tolerance = 1e-6;          // [m], > 0: converged when ‖e‖ <= tolerance
  int max_iterations = 200;         // >= 1
  double max_step = 0.2;            // [rad or m], > 0: cap on each joint's change per iteration
  double orientation_length = 0.1;  // ℓ [m/rad], > 0: 1 rad of orientation error counts as ℓ m
};

enum class InverseKinematicsStatus { kConverged, kMaxIterations };

const char* InverseKinematicsStatusName(InverseKinematicsStatus status);

struct InverseKinematicsResult {
  InverseKinematicsStatus status = InverseKinematicsStatus::kMaxIterations;
  Eigen::VectorXd q;               // (dim nq) q_initial with the robot's entries changed
  int iterations = 0;              // updates of q performed
  double error = 0.0;              // final ‖e‖ [m] (weighted as above)
  double position_error = 0.0;     // final |p_target − p| [m]
  double orientation_error = 0.0;  // final rotation angle to the target [rad]; 0 without one
};

// Solves for the joints of instance `robot_instance` (which must be actuated), starting
// from q_initial (dim nq). Throws std::invalid_argument on a bad instance or body index,
// a wrong-size or non-finite q_initial or target, or settings out of range.
InverseKinematicsResult SolveInverseKinematics(const Scene& scene, int robot_instance,
                                               const InverseKinematicsTarget& target,
                                               const Eigen::VectorXd& q_initial,
                                               const InverseKinematicsSettings& settings = {});

}  // namespace quasidyn
