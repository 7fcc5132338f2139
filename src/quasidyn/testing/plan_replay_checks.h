#pragma once
// The checks every found plan must pass (docs/planning.md): its path replays through the stepper
// to every node it passes (1e-9: the replay runs the planner's computations again, so it is in
// fact exact), no two shapes overlap deeper than the planner's tolerance, and the last node meets
// the goal tolerance.
//   testing::ExpectPathReplays(scene, PlanThroughContact(scene, ...));

#include <gtest/gtest.h>

#include "quasidyn/planning/object_space.h"
#include "quasidyn/planning/plan_path.h"
#include "quasidyn/planning/rrt.h"
#include "quasidyn/testing/matrix_compare.h"

namespace quasidyn::testing {

inline void ExpectPathReplays(const ScenePtr& scene, const PlanResult& plan) {
  ASSERT_TRUE(plan.found()) << plan.message;
  const ReplayedPath path = ReplayPlan(scene, plan);
  ASSERT_TRUE(path.trajectory.completed()) << path.trajectory.message;
  EXPECT_LE(path.max_node_deviation, 1e-9);
  EXPECT_LE(path.max_penetration, plan.settings.penetration_tolerance);
  // Each path node, where its edge ends in the trajectory.
  int checked = 0;
  for (size_t k = 0; k < path.step_nodes.size(); ++k) {
    if (path.step_nodes[k] < 0) continue;
    EXPECT_TRUE(MatricesNear(path.trajectory.steps[k].q, plan.nodes[path.step_nodes[k]].q, 1e-9))
        << "node " << path.step_nodes[k];
    ++checked;
  }
  EXPECT_EQ(checked + 1, static_cast<int>(plan.path.size()));
  const ObjectSpace space(*scene);
  EXPECT_LE(
      space.GoalDistance(path.trajectory.FinalConfiguration(), plan.settings.goal, plan.settings),
      plan.settings.goal_tolerance);
  EXPECT_EQ(plan.path.back(), plan.best_node);
}

}  // namespace quasidyn::testing
