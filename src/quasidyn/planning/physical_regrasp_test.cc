// Regrasps the plant can execute (docs/planning.md; issue 39, "Tracking through regrasps"): with
// PlanningSettings::regrasp = physical, a regrasp edge is a motion of commands on the planner's
// stepper with the objects free (regrasp_execution.h). On examples/planar_hand: every regrasp edge
// of the tree records its commands, replays bit for bit on the planner's model, left the ball where
// the candidate had it to within the goal tolerance, and the reset regrasps of before are still
// there by the setting.

#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

#include "quasidyn/formulations/registry.h"
#include "quasidyn/planning/object_space.h"
#include "quasidyn/planning/plan_path.h"
#include "quasidyn/planning/rrt.h"
#include "quasidyn/testing/example_states.h"

namespace quasidyn {
namespace {

// A budget that leaves the tree a few dozen regrasps (about 10 % of the iterations) in a
// fraction of a second.
constexpr int kTreeNodes = 400;

PlanResult PlanHandWithRegrasps(const ScenePtr& scene, const PlanningSettings& settings) {
  return PlanThroughContact(scene, PlanningFormulation(*scene, settings), settings);
}

// The chain of nodes from the root to node i.
std::vector<int> PathTo(const std::vector<PlanNode>& nodes, int i) {
  std::vector<int> path;
  for (; i >= 0; i = nodes[i].parent) path.push_back(i);
  std::reverse(path.begin(), path.end());
  return path;
}

TEST(PhysicalRegrasp, EveryRegraspEdgeReplaysExactlyOnThePlannersModel) {
  const ScenePtr scene = testing::LoadExample("planar_hand");
  PlanningSettings settings = *scene->planning;
  settings.regrasp = RegraspExecution::kPhysical;
  settings.max_nodes = kTreeNodes;
  const PlanResult plan = PlanHandWithRegrasps(scene, settings);
  const std::shared_ptr<const StepModel> model = MakeStepModel(scene, plan.stepping);
  const ObjectSpace space(*scene);
  int regrasps = 0;
  for (int i = 0; i < static_cast<int>(plan.nodes.size()); ++i) {
    const PlanNode& node = plan.nodes[i];
    if (node.edge != EdgeKind::kRegrasp) continue;
    ++regrasps;
    ASSERT_FALSE(node.commands.empty()) << "regrasp node " << i << " records no motion";
    EXPECT_EQ(node.steps, static_cast<int>(node.commands.size()));
    EXPECT_EQ(node.u, node.commands.back());
    const ReplayedPath replay = ReplayPath(*model, plan.nodes, PathTo(plan.nodes, i));
    ASSERT_EQ(replay.trajectory.status, SolverStatus::kSolved) << replay.trajectory.message;
    // The replay runs the planner's computations on the same inputs: the same bits.
    EXPECT_EQ(replay.max_node_deviation, 0.0) << "node " << i;
    EXPECT_EQ(replay.trajectory.steps.back().q, node.q) << "node " << i;
    EXPECT_LE(replay.max_penetration, settings.penetration_tolerance) << "node " << i;
    // The objects were held: within the goal tolerance of the parent's (the candidate's).
    const Eigen::VectorXd parent_objects = plan.nodes[node.parent].q.head(scene->nq_u);
    EXPECT_LE(space.GoalDistance(node.q, parent_objects, settings), settings.goal_tolerance)
        << "node " << i;
  }
  EXPECT_EQ(regrasps, plan.statistics.regrasps);
  // The test would test nothing without regrasps in the tree.
  EXPECT_GE(regrasps, 3);
}

// kReset keeps the jump of before: one step, no commands, the objects exactly the parent's.
TEST(PhysicalRegrasp, ResetRegraspsJumpTheRobotsWithTheObjectsKept) {
  const ScenePtr scene = testing::LoadExample("planar_hand");
  PlanningSettings settings = *scene->planning;
  settings.regrasp = RegraspExecution::kReset;
  settings.max_nodes = kTreeNodes;
  const PlanResult plan = PlanHandWithRegrasps(scene, settings);
  int regrasps = 0;
  for (const PlanNode& node : plan.nodes) {
    if (node.edge != EdgeKind::kRegrasp) continue;
    ++regrasps;
    EXPECT_TRUE(node.commands.empty());
    EXPECT_EQ(node.steps, 0);
    EXPECT_EQ(node.q.head(scene->nq_u), plan.nodes[node.parent].q.head(scene->nq_u));
    EXPECT_EQ(node.u, node.q.tail(scene->nq_a));
  }
  EXPECT_GE(regrasps, 3);
}

}  // namespace
}  // namespace quasidyn
