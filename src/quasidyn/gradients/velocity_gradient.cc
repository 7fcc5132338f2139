#include "quasidyn/gradients/velocity_gradient.h"

namespace quasidyn {

Eigen::MatrixXd CommandForceJacobian(const Scene& scene, double time_step) {
  Eigen::MatrixXd D = Eigen::MatrixXd::Zero(scene.nv, scene.nq_a);
  D.bottomRows(scene.nv_a).diagonal() = time_step * scene.ActuatedStiffness();
  return D;
}

}  // namespace quasidyn
