#include "quasidyn/planning/plan_path.h"

#include <algorithm>
#include <chrono>
#include <sstream>

#include "quasidyn/common/argument_check.h"
#include "quasidyn/formulations/registry.h"
#include "quasidyn/planning/edge_stepper.h"
#include "quasidyn/planning/object_space.h"
#include "quasidyn/simulation/rollout.h"

namespace quasidyn {
namespace {

void CheckPath(const Scene& scene, const std::vector<PlanNode>& nodes,
               const std::vector<int>& path) {
  const char* where = "ReplayPath";
  QUASIDYN_CHECK_ARGUMENT(!path.empty(), where, "the path is empty");
  for (size_t k = 0; k < path.size(); ++k) {
    const int i = path[k];
    QUASIDYN_CHECK_ARGUMENT(
        i >= 0 && i < static_cast<int>(nodes.size()), where,
        "path[" + std::to_string(k) + "] = " + std::to_string(i) + " is not a node index");
    CheckVector(where, "node q", nodes[i].q, scene.nq, "n_q");
    if (k == 0) continue;
    QUASIDYN_CHECK_ARGUMENT(
        nodes[i].parent == path[k - 1], where,
        "node " + std::to_string(i) + " is not a child of node " + std::to_string(path[k - 1]));
    CheckVector(where, "node u", nodes[i].u, scene.nq_a, "n_q,a");
    for (const Eigen::VectorXd& command : nodes[i].commands)
      CheckVector(where, "node command", command, scene.nq_a, "n_q,a");
  }
}

bool IsPhysicalRegrasp(const PlanNode& node) {
  return node.edge == EdgeKind::kRegrasp && !node.commands.empty();
}

// The trajectory steps of the edge into `node`.
int StepsOf(const PlanNode& node) {
  if (node.edge == EdgeKind::kExtend) return node.steps;
  return IsPhysicalRegrasp(node) ? static_cast<int>(node.commands.size()) : 1;
}

}  // namespace

ReplayedPath ReplayPath(const StepModel& model, const std::vector<PlanNode>& nodes,
                        const std::vector<int>& path, bool scale_mass) {
  const Scene& scene = model.scene();
  CheckPath(scene, nodes, path);
  int steps = 0;
  for (size_t k = 1; k < path.size(); ++k) steps += StepsOf(nodes[path[k]]);
  ReplayedPath out;
  Trajectory& trajectory = out.trajectory;
  trajectory = StartTrajectory(model, State{nodes[path[0]].q, Eigen::VectorXd()}, steps);
  trajectory.status = SolverStatus::kSolved;
  EdgeStepper edges(model, /*measure_depth=*/true, scale_mass);
  State x{nodes[path[0]].q, Eigen::VectorXd()};
  out.start_penetration = edges.Depth(x.q);
  out.max_penetration = out.start_penetration;
  for (size_t k = 1; k < path.size(); ++k) {
    const PlanNode& node = nodes[path[k]];
    const bool extend = node.edge == EdgeKind::kExtend;
    const bool physical = IsPhysicalRegrasp(node);
    const int edge_steps = StepsOf(node);
    if (extend) edges.Begin(x, node.u, node.substeps);
    for (int s = 0; s < edge_steps; ++s) {
      double step_time = 0.0;
      const StepResult* result = nullptr;
      // A physical regrasp's step s: its own command, the warm start cleared (regrasp_execution.h).
      const Eigen::VectorXd& u = physical ? node.commands[s] : node.u;
      if (extend || physical) {
        if (physical) edges.Begin(x, u, /*substeps=*/1);
        const auto start = std::chrono::steady_clock::now();
        const bool ok = edges.Step();
        step_time = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        result = &edges.result();
        if (!ok) {
          std::ostringstream message;
          message << "step " << trajectory.steps.size() + 1 << " (edge to node " << path[k]
                  << ") failed: " << ToString(result->status);
          if (!result->message.empty()) message << ": " << result->message;
          trajectory.status = result->status;
          trajectory.message = message.str();
          return out;
        }
        x = edges.state();
        out.path_penetration = std::max(out.path_penetration, edges.step_depth());
        out.max_penetration = std::max(out.start_penetration, out.path_penetration);
      } else {
        x.q.tail(scene.nq_a) = node.u;  // the robots re-grasp; the objects stay
        out.path_penetration = std::max(out.path_penetration, edges.Depth(x.q));
        out.max_penetration = std::max(out.start_penetration, out.path_penetration);
      }
      AppendStep(x.q, u, result, &trajectory);
      TrajectoryStep& record = trajectory.steps.back();
      record.step_time_seconds = step_time;
      if (extend && node.substeps > 1) {  // the step's substeps, not its last one alone
        trajectory.large_motion_steps +=
            static_cast<int>(edges.step_large_motion()) - static_cast<int>(record.large_motion);
        record.max_body_motion = edges.step_motion();
        record.large_motion = edges.step_large_motion();
      }
      // A physical regrasp's steps are stepper steps under a command like an extension's: the
      // tracking and the optimiser take them as such (plan_path.h).
      out.step_edges.push_back(physical ? EdgeKind::kExtend : node.edge);
      out.step_nodes.push_back(s + 1 == edge_steps ? path[k] : -1);
    }
    out.max_node_deviation = std::max(out.max_node_deviation, (x.q - node.q).cwiseAbs().maxCoeff());
  }
  return out;
}

std::vector<bool> PhysicalRegraspSteps(const std::vector<PlanNode>& nodes,
                                       const std::vector<int>& path) {
  std::vector<bool> out;
  for (size_t k = 1; k < path.size(); ++k) {
    QUASIDYN_CHECK_ARGUMENT(path[k] >= 0 && path[k] < static_cast<int>(nodes.size()),
                            "PhysicalRegraspSteps",
                            "path entry " + std::to_string(k) + " is not a node index");
    out.insert(out.end(), StepsOf(nodes[path[k]]), IsPhysicalRegrasp(nodes[path[k]]));
  }
  return out;
}

ReplayedPath ReplayPlan(ScenePtr scene, const PlanResult& plan) {
  const std::shared_ptr<const StepModel> model = MakeStepModel(std::move(scene), plan.stepping);
  return ReplayPath(*model, plan.nodes, plan.path, plan.settings.extension_substeps > 1);
}

PathLength ObjectPathLength(const Scene& scene, const Trajectory& trajectory) {
  const ObjectSpace space(scene);
  PathLength length;
  const Eigen::VectorXd* previous = &trajectory.q0;
  Eigen::VectorXd d(space.tangent_size());
  for (const TrajectoryStep& step : trajectory.steps) {
    space.Difference(step.q, *previous, d);
    for (const ObjectSpace::Block& block : space.blocks()) {
      const int n = block.floating ? 3 : 2;
      length.position += d.segment(block.v_start, n).norm();
      length.rotation += d.segment(block.v_start + n, block.floating ? 3 : 1).norm();
    }
    previous = &step.q;
  }
  return length;
}

}  // namespace quasidyn
