#include "quasidyn/planning/regrasp_execution.h"

#include <algorithm>

#include "quasidyn/common/argument_check.h"

namespace quasidyn {

ExecutedRegrasp ExecuteRegrasp(EdgeStepper* edges, RegraspMotion* motion,
                               const Eigen::VectorXd& q_from, const Eigen::VectorXd& q_grasp,
                               const Eigen::VectorXd& last_target) {
  const StepModel& model = edges->model();
  const RegraspCommands planned = motion->Plan(q_from, q_grasp, last_target);
  ExecutedRegrasp out;
  if (!planned.ok) {  // refused (too long a motion): no step runs
    out.q = q_from;
    out.message = planned.message;
    return out;
  }
  State x{q_from, Eigen::VectorXd()};
  out.commands.reserve(planned.commands.size());
  for (const Eigen::VectorXd& target : planned.commands) {
    Eigen::VectorXd u = model.CommandToward(x, target);
    edges->Begin(x, u, /*substeps=*/1);
    if (!edges->Step()) {
      out.q = x.q;
      out.message = edges->result().message;
      return out;
    }
    x = edges->state();
    out.depth = std::max(out.depth, edges->step_depth());
    out.commands.push_back(std::move(u));
  }
  out.q = x.q;
  out.ok = true;
  return out;
}

Eigen::VectorXd LastTargetOf(const StepModel& model, const Eigen::VectorXd& q,
                             const Eigen::VectorXd& u) {
  const int na = model.scene().nq_a;
  CheckVector("LastTargetOf", "q", q, model.scene().nq, "n_q");
  if (model.capabilities().command == CommandKind::kRobotPositions) {
    CheckVector("LastTargetOf", "u", u, na, "n_q,a");
    return u;
  }
  return q.tail(na);
}

}  // namespace quasidyn
