#include "quasidyn/kinematics/coriolis_force.h"

#include "quasidyn/common/argument_check.h"

namespace quasidyn {
namespace {

// The joint's relative angular velocity w and the relative velocity u of the child's origin
// (world vectors, coriolis_force.h) for the joint's velocities in v.
void RelativeVelocity(const Joint& joint, const Eigen::Matrix3d& R_WJ, const Eigen::VectorXd& v,
                      Eigen::Vector3d* w, Eigen::Vector3d* u) {
  const int i = joint.v_start;
  w->setZero();
  u->setZero();
  switch (joint.type) {
    case JointType::kFixed:
      break;
    case JointType::kRevolute:
      *w = (R_WJ * joint.axis) * v[i];
      break;
    case JointType::kPrismatic:
      *u = (R_WJ * joint.axis) * v[i];
      break;
    case JointType::kPlanar:
      *u = R_WJ.col(0) * v[i] + R_WJ.col(1) * v[i + 1];
      *w = R_WJ.col(2) * v[i + 2];
      break;
    case JointType::kFloating:
      *u = R_WJ * v.segment<3>(i);
      *w = R_WJ * v.segment<3>(i + 3);
      break;
  }
}

}  // namespace

void CoriolisForce(const Kinematics& kinematics, const Eigen::VectorXd& v,
                   CoriolisWorkspace* workspace, Eigen::VectorXd* force) {
  const Scene& scene = kinematics.scene();
  CheckVector("CoriolisForce", "v", v, scene.nv, "n_v");
  QUASIDYN_CHECK_ARGUMENT(workspace != nullptr && force != nullptr, "CoriolisForce",
                          "workspace and force must not be null");
  CoriolisWorkspace& w = *workspace;
  const size_t bodies = scene.bodies.size();
  w.angular_velocity.resize(bodies);
  w.angular_acceleration.resize(bodies);
  w.origin_acceleration.resize(bodies);
  w.angular_velocity[0].setZero();
  w.angular_acceleration[0].setZero();
  w.origin_acceleration[0].setZero();
  // Forward pass, parents first (the scene's joint order, kinematics.h).
  for (const Joint& joint : scene.joints) {
    const int P = joint.parent_body, C = joint.child_body;
    const Eigen::Isometry3d X_WJ = kinematics.BodyPose(P) * joint.X_PJ;
    Eigen::Vector3d relative_angular, relative_linear;
    RelativeVelocity(joint, X_WJ.linear(), v, &relative_angular, &relative_linear);
    const Eigen::Vector3d r =
        kinematics.BodyPose(C).translation() - kinematics.BodyPose(P).translation();
    const Eigen::Vector3d& omega_P = w.angular_velocity[P];
    const Eigen::Vector3d& alpha_P = w.angular_acceleration[P];
    w.angular_velocity[C] = omega_P + relative_angular;
    w.angular_acceleration[C] = alpha_P + omega_P.cross(relative_angular);
    w.origin_acceleration[C] = w.origin_acceleration[P] + alpha_P.cross(r) +
                               omega_P.cross(omega_P.cross(r)) +
                               2.0 * omega_P.cross(relative_linear);
  }
  // Each body's inertial force at v̇ = 0, mapped through its chain Jacobians.
  force->setZero(scene.nv);
  if (w.point_jacobian.cols() < kinematics.MaxChainSize()) {
    w.point_jacobian.resize(3, kinematics.MaxChainSize());
    w.rotational_jacobian.resize(3, kinematics.MaxChainSize());
  }
  for (size_t index = 1; index < bodies; ++index) {
    const int b = static_cast<int>(index);
    const Body& body = scene.bodies[b];
    if (body.mass == 0.0 && body.inertia.isZero()) continue;
    const Eigen::Isometry3d& X_WB = kinematics.BodyPose(b);
    const Eigen::Vector3d com_W = X_WB * body.com;
    const Eigen::Vector3d c = com_W - X_WB.translation();
    const Eigen::Vector3d& omega = w.angular_velocity[b];
    const Eigen::Vector3d& alpha = w.angular_acceleration[b];
    const Eigen::Vector3d com_acceleration =
        w.origin_acceleration[b] + alpha.cross(c) + omega.cross(omega.cross(c));
    const Eigen::Matrix3d inertia_W = X_WB.linear() * body.inertia * X_WB.linear().transpose();
    const Eigen::Vector3d f = body.mass * com_acceleration;
    const Eigen::Vector3d n = inertia_W * alpha + omega.cross(inertia_W * omega);
    const std::vector<int>& columns = kinematics.ChainColumns(b);
    const Eigen::Index k = static_cast<Eigen::Index>(columns.size());
    kinematics.ChainPointJacobian(b, com_W, w.point_jacobian.leftCols(k));
    kinematics.ChainRotationalJacobian(b, w.rotational_jacobian.leftCols(k));
    for (Eigen::Index j = 0; j < k; ++j)
      (*force)[columns[j]] += w.point_jacobian.col(j).dot(f) + w.rotational_jacobian.col(j).dot(n);
  }
}

Eigen::VectorXd CoriolisForce(const Kinematics& kinematics, const Eigen::VectorXd& v) {
  CoriolisWorkspace workspace;
  Eigen::VectorXd force;
  CoriolisForce(kinematics, v, &workspace, &force);
  return force;
}

}  // namespace quasidyn
