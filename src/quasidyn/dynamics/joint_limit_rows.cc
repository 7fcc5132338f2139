#include "quasidyn/dynamics/joint_limit_rows.h"

#include <cmath>

#include "quasidyn/common/argument_check.h"

namespace quasidyn {

void BuildJointLimitRows(const Scene& scene, const Eigen::VectorXd& q, double time_step,
                         JointLimitRows* out) {
  out->rows.clear();
  out->left_out_rows.clear();
  out->left_out = 0;
  const bool enforced = scene.conventions.joint_limits == JointLimitRule::kEnforced;
  for (int j = 0; enforced && j < static_cast<int>(scene.joints.size()); ++j) {
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

void LeaveOutJointLimitsOutOfReach(const Scene& scene, const Eigen::VectorXd& q,
                                   const Eigen::VectorXd& u, JointLimitRows* limits) {
  int kept = 0;
  limits->left_out_rows.clear();
  for (int l = 0; l < limits->size(); ++l) {
    const JointLimitRow& row = limits->rows[l];
    const int actuated = row.position - scene.nq_u;  // q = [q_u; q_a]
    bool keep = actuated < 0;
    if (!keep) {
      const double distance = row.direction * (q[row.position] - row.bound);
      const double reach = 2.0 * std::abs(u[actuated] - q[row.position]) + kJointLimitReachMargin;
      keep = !(distance > reach);  // a NaN distance keeps its row
    }
    if (!keep) {
      limits->left_out_rows.push_back(row);
      continue;
    }
    limits->rows[kept] = row;
    limits->offset[kept] = limits->offset[l];
    ++kept;
  }
  limits->left_out = static_cast<int>(limits->left_out_rows.size());
  limits->rows.resize(kept);
}

bool LeftOutJointLimitsHold(const Eigen::VectorXd& q, const Eigen::VectorXd& v, double time_step,
                            const JointLimitRows& limits) {
  for (const JointLimitRow& row : limits.left_out_rows) {
    const double after = q[row.position] + time_step * v[row.velocity];
    if (!(row.direction * (after - row.bound) >= 0.0)) return false;
  }
  return true;
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
