// The planner's time and work statistics (PlanStatistics, rrt.h): where the time goes.
#include <gtest/gtest.h>

#include "quasidyn/planning/rrt.h"
#include "quasidyn/testing/example_states.h"

namespace quasidyn {
namespace {

TEST(PlanStatistics, TheTimeSharesAreDisjointPartsOfTheWallTime) {
  const ScenePtr scene = testing::LoadExample("planar_hand");
  for (const NearestRule rule : {NearestRule::kReachability, NearestRule::kEuclidean}) {
    SCOPED_TRACE(NearestRuleName(rule));
    PlanningSettings settings = *scene->planning;
    settings.nearest = rule;
    settings.p_grasp = 0.3;
    settings.max_nodes = 200;
    settings.goal_tolerance = 1e-9;  // not reached: the tree grows to the node limit
    settings.seed = 3;
    const PlanResult plan =
        PlanThroughContact(scene, PlanningFormulation(*scene, settings), settings);
    const PlanStatistics& s = plan.statistics;
    ASSERT_GT(s.extensions, 0);
    ASSERT_GT(s.regrasps, 0);
    EXPECT_GT(s.stepping_seconds, 0.0);
    EXPECT_GT(s.nearest_seconds, 0.0);
    EXPECT_GT(s.linearize_seconds, 0.0);
    // Stepping, linearising, contact sampling and nearest-node queries never overlap in time.
    EXPECT_LE(s.stepping_seconds + s.nearest_seconds + s.linearize_seconds + s.grasp_seconds,
              s.wall_seconds);
    // Every node was linearised (the root included; a regrasp's node is its chosen candidate).
    EXPECT_GE(s.linearizations, static_cast<long long>(plan.nodes.size()));
    // Each query evaluates at least one distance, and fewer than a scan of every node.
    EXPECT_GE(s.nearest_distances, s.iterations);
    EXPECT_LT(s.nearest_distances, static_cast<long long>(s.iterations) * plan.nodes.size());
  }
}

}  // namespace
}  // namespace quasidyn
