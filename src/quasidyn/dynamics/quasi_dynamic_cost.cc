#include "quasidyn/dynamics/quasi_dynamic_cost.h"

#include <stdexcept>
#include <string>

namespace quasidyn {

Eigen::VectorXd ObjectGravityForce(const Kinematics& kinematics) {
  const Scene& scene = kinematics.scene();
  Eigen::VectorXd tau = Eigen::VectorXd::Zero(scene.nv);
  Eigen::MatrixXd J;
  for (size_t b = 1; b < scene.bodies.size(); ++b) {
    const Body& body = scene.bodies[b];
    if (body.instance < 0 || scene.instances[body.instance].actuated) continue;
    const Eigen::Vector3d com_W = kinematics.BodyPose(static_cast<int>(b)) * body.com;
    kinematics.PointJacobian(static_cast<int>(b), com_W, &J);
    tau += J.transpose() * (body.mass * scene.gravity);
  }
  return tau.head(scene.nv_u);
}

QuasiDynamicCost BuildQuasiDynamicCost(const Kinematics& kinematics, const Eigen::VectorXd& u,
                                       const FormulationSettings& settings) {
  const Scene& scene = kinematics.scene();
  if (u.size() != scene.nq_a)
    throw std::invalid_argument("command u has size " + std::to_string(u.size()) +
                                ", the scene has " + std::to_string(scene.nq_a) +
                                " actuated coordinates");
  if (!u.allFinite()) throw std::invalid_argument("command u has a NaN or Inf entry");
  const double h = settings.time_step;
  const int nu = scene.nv_u, na = scene.nv_a;
  QuasiDynamicCost cost;
  cost.P = Eigen::MatrixXd::Zero(scene.nv, scene.nv);
  cost.tau_h.resize(scene.nv);
  if (nu > 0) {
    if (settings.object_mass_scale > 0)
      cost.P.topLeftCorner(nu, nu) =
          settings.object_mass_scale * kinematics.MassMatrix().topLeftCorner(nu, nu);
    cost.tau_h.head(nu) = h * ObjectGravityForce(kinematics);
  }
  const Eigen::VectorXd K = scene.ActuatedStiffness();
  const Eigen::VectorXd q_a = kinematics.q().segment(scene.nq_u, scene.nq_a);
  cost.P.bottomRightCorner(na, na).diagonal() = h * h * K;
  cost.tau_h.tail(na) = h * K.cwiseProduct(u - q_a);
  return cost;
}

}  // namespace quasidyn
