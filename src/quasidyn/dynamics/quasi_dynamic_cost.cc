#include "quasidyn/dynamics/quasi_dynamic_cost.h"

#include "quasidyn/common/argument_check.h"

namespace quasidyn {

void AddObjectGravityForce(const Kinematics& kinematics, Eigen::Matrix3Xd* J,
                           Eigen::VectorXd* tau) {
  const Scene& scene = kinematics.scene();
  for (size_t b = 1; b < scene.bodies.size(); ++b) {
    const Body& body = scene.bodies[b];
    if (body.instance < 0 || scene.instances[body.instance].actuated) continue;
    const int index = static_cast<int>(b);
    const Eigen::Vector3d com_W = kinematics.BodyPose(index) * body.com;
    const std::vector<int>& columns = kinematics.ChainColumns(index);
    if (J->cols() < kinematics.MaxChainSize()) J->resize(3, kinematics.MaxChainSize());
    kinematics.ChainPointJacobian(index, com_W,
                                  J->leftCols(static_cast<Eigen::Index>(columns.size())));
    const Eigen::Vector3d f = body.mass * scene.gravity;
    for (size_t k = 0; k < columns.size(); ++k) {
      const auto column = J->col(static_cast<Eigen::Index>(k));
      (*tau)[columns[k]] += (column[0] * f[0] + column[1] * f[1]) + column[2] * f[2];
    }
  }
}

Eigen::VectorXd ObjectGravityForce(const Kinematics& kinematics) {
  const Scene& scene = kinematics.scene();
  Eigen::VectorXd tau = Eigen::VectorXd::Zero(scene.nv);
  Eigen::Matrix3Xd J;
  AddObjectGravityForce(kinematics, &J, &tau);
  return tau.head(scene.nv_u);
}

QuasiDynamicCost BuildQuasiDynamicCost(const Kinematics& kinematics, const Eigen::VectorXd& u,
                                       const QuasiDynamicCostParameters& parameters) {
  QuasiDynamicCost cost;
  BuildQuasiDynamicCost(kinematics, u, kinematics.scene().ActuatedStiffness(), parameters, &cost);
  return cost;
}

void BuildQuasiDynamicCost(const Kinematics& kinematics, const Eigen::VectorXd& u,
                           const Eigen::VectorXd& actuated_stiffness,
                           const QuasiDynamicCostParameters& parameters, QuasiDynamicCost* cost) {
  BuildQuasiDynamicCost(kinematics, u, actuated_stiffness, kinematics.scene().external_force,
                        parameters, cost);
}

void BuildQuasiDynamicCost(const Kinematics& kinematics, const Eigen::VectorXd& u,
                           const Eigen::VectorXd& actuated_stiffness,
                           const Eigen::VectorXd& external_force,
                           const QuasiDynamicCostParameters& parameters, QuasiDynamicCost* cost) {
  const Scene& scene = kinematics.scene();
  CheckVector("step", "command u", u, scene.nq_a, "n_q,a");
  if (external_force.size() > 0) {
    CheckVector("step", "external force", external_force, scene.nv_u, "n_v,u");
  }
  CheckSize("BuildQuasiDynamicCost", "actuated_stiffness", actuated_stiffness.size(), scene.nv_a,
            "n_v,a");
  const double h = parameters.time_step;
  const double s = parameters.object_mass_scale;
  const int nu = scene.nv_u, na = scene.nv_a;
  cost->P.Reset(scene.nv);
  cost->tau_h.resize(scene.nv);
  // Objects: s·M_u, block by object (rows in order), exact zeros not stored.
  int row = 0;
  for (int i = 0; i < static_cast<int>(scene.instances.size()); ++i) {
    const ModelInstance& object = scene.instances[i];
    if (object.actuated || object.nv == 0) continue;
    for (; row < object.v_start; ++row) cost->P.AppendRow();  // rows of no object (none today)
    if (s > 0) kinematics.InstanceMassMatrix(i, &cost->mass_block);
    for (int r = 0; r < object.nv; ++r, ++row) {
      cost->P.AppendRow();
      if (!(s > 0)) continue;
      for (int c = 0; c < object.nv; ++c)
        cost->P.AppendNonZero(object.v_start + c, s * cost->mass_block(r, c));
    }
  }
  for (; row < nu; ++row) cost->P.AppendRow();
  // Robots: the diagonal h² K_a.
  const double h2 = h * h;
  for (int a = 0; a < na; ++a) {
    cost->P.AppendRow();
    cost->P.AppendNonZero(nu + a, h2 * actuated_stiffness[a]);
  }
  if (nu > 0) {
    cost->gravity_force.setZero(scene.nv);
    AddObjectGravityForce(kinematics, &cost->point_jacobian, &cost->gravity_force);
    cost->tau_h.head(nu) = h * cost->gravity_force.head(nu);
    if (external_force.size() > 0) cost->tau_h.head(nu) += h * external_force;
  }
  const Eigen::VectorXd& q = kinematics.q();
  for (int a = 0; a < na; ++a) {
    const double K = actuated_stiffness[a];
    cost->tau_h[nu + a] = h * (K * (u[a] - q[scene.nq_u + a]));
  }
  BuildJointLimitRows(scene, q, h, &cost->limits);
}

}  // namespace quasidyn
