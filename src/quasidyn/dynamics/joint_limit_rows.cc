#include "quasidyn/dynamics/joint_limit_rows.h"

#include <cmath>

#include "quasidyn/common/argument_check.h"

namespace quasidyn {

void BuildJointLimitRows(const Scene& scene, const Eigen::VectorXd& q, double time_step,
                         JointLimitRows* out) {
  out->rows.clear();
  for (int j = 0; j < static_cast<int>(scene.joints.size()); ++j) {
    const Joint& joint = scene.joints[j];
    if (joint.type != JointType::kRevolute && joint.type != JointType::kPrismatic) continue;
    if (std::isfinite(joint.lower_limit))
      out->rows.push_back({j, joint.q_start, joint.v_start, 1.0, joint.lower_limit});
    if (std::isfinite(joint.upper_limit))
      out->rows.push_back({j, joint.q_start, joint.v_start, -1.0, joint.upper_limit});
  }
  out->offset.resize(out->size());
  for (int l = 0; l < out->size(); ++l) {
    const JointLimitRow& row = out->rows[l];
    out->offset[l] = row.direction * (q[row.position] - row.bound) / time_step;
  }
}

void AppendJointLimitRows(const JointLimitRows& limits, SparseRowMatrix* G, Eigen::VectorXd* rhs,
                          int first_row) {
  for (int l = 0; l < limits.size(); ++l) {
    G->AppendRow();
    G->Append(limits.rows[l].velocity, limits.rows[l].direction);
    (*rhs)[first_row + l] = -limits.offset[l];
  }
}

double JointLimitSlack(const JointLimitRows& limits, int l, const Eigen::VectorXd& v) {
  const JointLimitRow& row = limits.rows[l];
  return limits.offset[l] + row.direction * v[row.velocity];
}

Eigen::MatrixXd JointLimitJacobian(const JointLimitRows& limits, int nv) {
  Eigen::MatrixXd G = Eigen::MatrixXd::Zero(limits.size(), nv);
  for (int l = 0; l < limits.size(); ++l) G(l, limits.rows[l].velocity) = limits.rows[l].direction;
  return G;
}

void JointLimitImpulse(const JointLimitRows& limits, const Eigen::VectorXd& multipliers, int nv,
                       Eigen::VectorXd* impulse) {
  CheckSize("JointLimitImpulse", "multipliers", multipliers.size(), limits.size(),
            "the joint-limit rows");
  impulse->setZero(nv);
  for (int l = 0; l < limits.size(); ++l)
    (*impulse)[limits.rows[l].velocity] += limits.rows[l].direction * multipliers[l];
}

}  // namespace quasidyn
