// The planning settings' object_region (model/planning_settings.h): no edge leaves the objects
// farther outside the region than its start.

#include <gtest/gtest.h>

#include <algorithm>
#include <string>

#include "quasidyn/model/planning_settings.h"
#include "quasidyn/planning/object_space.h"
#include "quasidyn/planning/rrt.h"
#include "quasidyn/testing/example_states.h"
#include "quasidyn/testing/shared_scene.h"

namespace quasidyn {
namespace {

// The sum over the objects' bounded coordinates of their distance to [lower, upper].
double Excess(const Scene& scene, const PlanningSettings& s, const Eigen::VectorXd& q) {
  double excess = 0.0;
  int object = 0;
  const ObjectSpace space(scene);
  for (const ObjectSpace::Block& block : space.blocks()) {
    for (int k = 0; k < 3; ++k) {
      const double value = q[block.q_start + k];
      excess += std::max(0.0, s.region_lower[3 * object + k] - value) +
                std::max(0.0, value - s.region_upper[3 * object + k]);
    }
    ++object;
  }
  return excess;
}

PlanResult Plan(const ScenePtr& scene, const PlanningSettings& settings) {
  return PlanThroughContact(scene, PlanningFormulation(*scene, settings), settings);
}

// The planar hand's ball (x, y, θ; bounds x in [-0.15, 0.15]) kept within 1 cm of its start in
// x: every node's ball inside, and the search did refuse edges that left it (so the region, not
// the search, kept them there).
TEST(ObjectRegion, EveryNodeOfATreeRootedInsideStaysInside) {
  const ScenePtr scene = testing::LoadExample("planar_hand");
  PlanningSettings settings = *scene->planning;
  settings.max_nodes = 300;
  const double x0 = scene->q0[0];
  settings.region_lower = Eigen::Vector3d(x0 - 0.01, -1.0, -10.0);
  settings.region_upper = Eigen::Vector3d(x0 + 0.01, 1.0, 10.0);
  settings.goal[0] = x0;
  const PlanResult plan = Plan(scene, settings);
  ASSERT_GT(plan.nodes.size(), 10u);
  EXPECT_GT(plan.statistics.outside_region, 0);
  for (const PlanNode& node : plan.nodes) EXPECT_EQ(Excess(*scene, settings, node.q), 0.0);
  // Without the region the same search leaves it.
  PlanningSettings free = settings;
  free.region_lower.resize(0);
  free.region_upper.resize(0);
  const PlanResult unconstrained = Plan(scene, free);
  EXPECT_EQ(unconstrained.statistics.outside_region, 0);
  double widest = 0.0;
  for (const PlanNode& node : unconstrained.nodes)
    widest = std::max(widest, Excess(*scene, settings, node.q));
  EXPECT_GT(widest, 0.0);
}

// A root outside (the ball 2 cm beyond the region's upper x): no node lies farther out than it.
TEST(ObjectRegion, ATreeRootedOutsideNeverGoesFartherOut) {
  const ScenePtr base = testing::LoadExample("planar_hand");
  PlanningSettings settings = *base->planning;
  settings.max_nodes = 300;
  const double x0 = base->q0[0];
  settings.region_lower = Eigen::Vector3d(x0 - 0.05, -1.0, -10.0);
  settings.region_upper = Eigen::Vector3d(x0 - 0.02, 1.0, 10.0);
  settings.goal[0] = x0 - 0.03;
  const double root_excess = Excess(*base, settings, base->q0);
  ASSERT_NEAR(root_excess, 0.02, 1e-12);
  const PlanResult plan = Plan(base, settings);
  ASSERT_GT(plan.nodes.size(), 10u);
  for (size_t k = 1; k < plan.nodes.size(); ++k) {
    const PlanNode& node = plan.nodes[k];
    EXPECT_LE(Excess(*base, settings, node.q), Excess(*base, settings, plan.nodes[node.parent].q))
        << "node " << k;
  }
}

// The settings' checks name the field.
TEST(ObjectRegion, BadRegionsAreNamed) {
  const ScenePtr scene = testing::LoadExample("planar_hand");
  auto problem = [&](const Eigen::VectorXd& lower, const Eigen::VectorXd& upper) {
    PlanningSettings s = *scene->planning;
    s.region_lower = lower;
    s.region_upper = upper;
    try {
      ValidatePlanningSettings(s, *scene);
    } catch (const std::invalid_argument& e) {
      return std::string(e.what());
    }
    return std::string();
  };
  const Eigen::Vector3d wide_lower(-1, -1, -10), wide_upper(1, 1, 10);
  EXPECT_EQ(problem(wide_lower, wide_upper), "");
  EXPECT_NE(problem(Eigen::Vector2d(-1, -1), wide_upper).find("object_region.lower: expected 3"),
            std::string::npos)
      << problem(Eigen::Vector2d(-1, -1), wide_upper);
  EXPECT_NE(problem(wide_upper, wide_lower).find("object_region: lower[0] = 1 > upper[0] = -1"),
            std::string::npos)
      << problem(wide_upper, wide_lower);
  Eigen::Vector3d nan_upper = wide_upper;
  nan_upper[1] = std::nan("");
  EXPECT_NE(problem(wide_lower, nan_upper).find("object_region.upper"), std::string::npos);
  // The goal (y = 0.05) outside the region.
  EXPECT_NE(problem(wide_lower, Eigen::Vector3d(1, 0.0, 10)).find("lies outside the object_region"),
            std::string::npos)
      << problem(wide_lower, Eigen::Vector3d(1, 0.0, 10));
}

}  // namespace
}  // namespace quasidyn
