#include "quasidyn/gradients/velocity_gradient.h"

#include "quasidyn/common/argument_check.h"

namespace quasidyn {

void FailGradient(std::string message, VelocityGradient* out) {
  out->ok = false;
  out->failure = std::move(message);
  out->dv_dq.resize(0, 0);
  out->dv_du.resize(0, 0);
}

void SetSolvedGradient(const Eigen::MatrixXd& dv, int nq_dirs, int active_rows, int kkt_rank,
                       VelocityGradient* out) {
  out->ok = true;
  out->failure.clear();
  out->active_rows = active_rows;
  out->kkt_rank = kkt_rank;
  if (nq_dirs > 0)
    out->dv_dq = dv.leftCols(nq_dirs);
  else
    out->dv_dq.resize(0, 0);
  out->dv_du = dv.rightCols(dv.cols() - nq_dirs);
}

Eigen::MatrixXd CommandForceJacobian(const Scene& scene, double time_step) {
  Eigen::MatrixXd D(scene.nv, scene.nq_a);
  WriteCommandForceJacobian(scene, time_step, D);
  return D;
}

void WriteCommandForceJacobian(const Scene& scene, double time_step,
                               Eigen::Ref<Eigen::MatrixXd> out) {
  QUASIDYN_CHECK_ARGUMENT(out.rows() == scene.nv && out.cols() == scene.nq_a,
                          "WriteCommandForceJacobian", "out must be n_v × n_q,a");
  out.setZero();
  // h K_a on the actuated rows' diagonal (as Scene::ActuatedStiffness, without its vector).
  for (const Joint& joint : scene.joints) {
    const int nv_joint = JointNv(joint.type);
    for (int i = 0; i < nv_joint; ++i) {
      const int row = joint.v_start + i - scene.nv_u;
      if (row >= 0 && row < scene.nv_a && row < scene.nq_a)
        out(scene.nv_u + row, row) = time_step * joint.stiffness;
    }
  }
}

}  // namespace quasidyn
