#include "quasidyn/dynamics/second_order_cost.h"

#include <cmath>

#include "quasidyn/common/argument_check.h"

namespace quasidyn {

Eigen::VectorXd ActuatedDamping(const Kinematics& kinematics) {
  const Scene& scene = kinematics.scene();
  Eigen::VectorXd damping = Eigen::VectorXd::Zero(scene.nv_a);
  Eigen::MatrixXd block;
  for (int i = 0; i < static_cast<int>(scene.instances.size()); ++i) {
    const ModelInstance& robot = scene.instances[i];
    if (!robot.actuated || robot.nv == 0) continue;
    kinematics.InstanceMassMatrix(i, &block);
    for (const int j : robot.joints) {
      const Joint& joint = scene.joints[j];
      if (JointNv(joint.type) != 1) continue;  // fixed joints; robots have no other kind
      const int local = joint.v_start - robot.v_start;
      const int a = joint.v_start - scene.nv_u;
      damping[a] =
          joint.damping ? *joint.damping : 2.0 * std::sqrt(joint.stiffness * block(local, local));
    }
  }
  return damping;
}

Eigen::VectorXd ActuatedDampingAtStart(const ScenePtr& scene) {
  Kinematics kinematics(scene);
  kinematics.Update(scene->q0);
  return ActuatedDamping(kinematics);
}

void BuildSecondOrderCost(const Kinematics& kinematics, const Eigen::VectorXd& v,
                          const Eigen::VectorXd& u, const Eigen::VectorXd& actuated_stiffness,
                          const Eigen::VectorXd& actuated_damping,
                          const Eigen::VectorXd& external_force, double time_step,
                          SecondOrderCostWorkspace* workspace, QuasiDynamicCost* cost) {
  const Scene& scene = kinematics.scene();
  CheckVector("step", "x.v", v, scene.nv, "n_v");
  CheckVector("step", "command u", u, scene.nq_a, "n_q,a");
  if (external_force.size() > 0) {
    CheckVector("step", "external force", external_force, scene.nv_u, "n_v,u");
  }
  CheckSize("BuildSecondOrderCost", "actuated_stiffness", actuated_stiffness.size(), scene.nv_a,
            "n_v,a");
  CheckSize("BuildSecondOrderCost", "actuated_damping", actuated_damping.size(), scene.nv_a,
            "n_v,a");
  QUASIDYN_CHECK_ARGUMENT(workspace != nullptr && cost != nullptr, "BuildSecondOrderCost",
                          "workspace and cost must not be null");
  SecondOrderCostWorkspace& w = *workspace;
  const double h = time_step;
  const int nu = scene.nv_u;
  w.mass_blocks.resize(scene.instances.size());
  cost->P.Reset(scene.nv);
  cost->tau_h.setZero(scene.nv);
  // P = M(q) + blockdiag(0, h D_a + h² K_a), instance by instance (their blocks in v order);
  // τ_h starts as M(q) v.
  int row = 0;
  for (int i = 0; i < static_cast<int>(scene.instances.size()); ++i) {
    const ModelInstance& instance = scene.instances[i];
    if (instance.nv == 0) continue;
    for (; row < instance.v_start; ++row) cost->P.AppendRow();  // rows of no instance (none)
    Eigen::MatrixXd& block = w.mass_blocks[i];
    kinematics.InstanceMassMatrix(i, &block);
    for (int r = 0; r < instance.nv; ++r, ++row) {
      cost->P.AppendRow();
      for (int c = 0; c < instance.nv; ++c) {
        double value = block(r, c);
        if (instance.actuated && r == c) {
          const int a = row - nu;
          value += h * actuated_damping[a] + h * h * actuated_stiffness[a];
        }
        cost->P.Append(instance.v_start + c, value);
      }
    }
    cost->tau_h.segment(instance.v_start, instance.nv).noalias() =
        block * v.segment(instance.v_start, instance.nv);
  }
  for (; row < scene.nv; ++row) cost->P.AppendRow();
  // + h (τ_g,u + τ_ext − C(q, v) v) + h K_a (u − q_a).
  CoriolisForce(kinematics, v, &w.coriolis, &w.coriolis_force);
  w.gravity_force.setZero(scene.nv);
  AddObjectGravityForce(kinematics, &w.point_jacobian, &w.gravity_force);
  cost->tau_h += h * (w.gravity_force - w.coriolis_force);
  if (external_force.size() > 0) cost->tau_h.head(nu) += h * external_force;
  const Eigen::VectorXd& q = kinematics.q();
  for (int a = 0; a < scene.nv_a; ++a)
    cost->tau_h[nu + a] += h * (actuated_stiffness[a] * (u[a] - q[scene.nq_u + a]));
}

void MassTimes(const Scene& scene, const SecondOrderCostWorkspace& workspace,
               const Eigen::VectorXd& w, Eigen::VectorXd* out) {
  CheckSize("MassTimes", "w", w.size(), scene.nv, "n_v");
  out->setZero(scene.nv);
  for (int i = 0; i < static_cast<int>(scene.instances.size()); ++i) {
    const ModelInstance& instance = scene.instances[i];
    if (instance.nv == 0) continue;
    out->segment(instance.v_start, instance.nv).noalias() =
        workspace.mass_blocks[i] * w.segment(instance.v_start, instance.nv);
  }
}

}  // namespace quasidyn
