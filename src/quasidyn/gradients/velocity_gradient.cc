#include "quasidyn/gradients/velocity_gradient.h"

namespace quasidyn {

void FailGradient(std::string message, VelocityGradient* out) {
  out->ok = false;
  out->failure = std::move(message);
  out->dv_dq.resize(0, 0);
  out->dv_du.resize(0, 0);
}

Eigen::MatrixXd CommandForceJacobian(const Scene& scene, double time_step) {
  Eigen::MatrixXd D = Eigen::MatrixXd::Zero(scene.nv, scene.nq_a);
  D.bottomRows(scene.nv_a).diagonal() = time_step * scene.ActuatedStiffness();
  return D;
}

}  // namespace quasidyn
