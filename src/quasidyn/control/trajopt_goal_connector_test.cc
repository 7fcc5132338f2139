#include "quasidyn/control/trajopt_goal_connector.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

#include "quasidyn/formulations/registry.h"
#include "quasidyn/planning/object_space.h"
#include "quasidyn/planning/plan_path.h"
#include "quasidyn/planning/rrt.h"
#include "quasidyn/testing/example_states.h"

namespace quasidyn {
namespace {

// The hand's ball turned by 30° about the vertical where it started (examples/hand_ball_3d,
// docs/planning.md "3D: a 16-joint hand"): the optimiser's own 30° task, as a planning goal.
PlanningSettings ThirtyDegreeQuery(const Scene& scene) {
  PlanningSettings s = *scene.planning;
  const double half = 0.5 * M_PI / 6.0;
  s.goal = scene.q0.head(scene.nq_u);
  s.goal.segment(3, 4) << std::cos(half), 0.0, 0.0, std::sin(half);
  s.goal_connection = GoalConnectionSettings{};
  s.goal_connection->radius = std::numeric_limits<double>::infinity();
  s.goal_connection->iterations = 20;
  s.goal_connection->interval = 1;
  s.max_nodes = 200;
  s.seed = 1;
  return s;
}

TEST(TrajoptGoalConnector, WeighsTheObjectsAsTheGoalDistanceAndTakesTheNodesQuaternionSign) {
  const ScenePtr scene = testing::LoadExample("hand_ball_3d");
  PlanningSettings settings = ThirtyDegreeQuery(*scene);
  settings.position_weight = 10.0;
  settings.rotation_weight = 1.5;
  settings.goal_connection->trust_region_min = 2e-3;
  const TrajoptGoalConnector connector(MakeStepModel(scene, PlanningFormulation(*scene, settings)),
                                       settings);
  Eigen::VectorXd q = scene->q0;
  TrajectoryOptimizerSettings s = connector.OptimizerSettings(q);
  ASSERT_EQ(s.object_weight.size(), 7);
  for (int i = 0; i < 3; ++i) EXPECT_EQ(s.object_weight[i], 100.0);  // w_p²
  for (int i = 3; i < 7; ++i) EXPECT_EQ(s.object_weight[i], 9.0);    // (2 w_r)²
  EXPECT_EQ(s.object_goal, settings.goal);
  EXPECT_EQ(s.horizon, settings.goal_connection->horizon);
  EXPECT_EQ(s.iterations, settings.goal_connection->iterations);
  EXPECT_EQ(s.trust_region_min, 2e-3);
  EXPECT_EQ(s.smoothing.kappa_start, 100.0) << "the optimiser's κ_0 by default";
  EXPECT_EQ(s.penetration_tolerance, settings.penetration_tolerance);
  // κ_0 of the block; a κ_0 above the optimiser's κ_max raises κ_max to it (the schedule's rule
  // κ_max >= κ_0 holds, so the optimiser accepts it).
  for (const double kappa : {800.0, 3e4}) {
    PlanningSettings with = settings;
    with.goal_connection->kappa_start = kappa;
    const TrajoptGoalConnector k(MakeStepModel(scene, PlanningFormulation(*scene, with)), with);
    const TrajectoryOptimizerSettings o = k.OptimizerSettings(q);
    EXPECT_EQ(o.smoothing.kappa_start, kappa);
    EXPECT_EQ(o.smoothing.kappa_max, std::max(1e4, kappa));
    EXPECT_FALSE(CheckSmoothingSchedule(o.smoothing).has_value());
  }
  // The same orientation written as −Q: the goal follows the sign.
  q.segment(3, 4) *= -1.0;
  s = connector.OptimizerSettings(q);
  EXPECT_EQ(s.object_goal.segment(3, 4), -settings.goal.segment(3, 4));
  EXPECT_EQ(s.object_goal.head(3), settings.goal.head(3));
  // A query without goal_connection is refused.
  settings.goal_connection.reset();
  EXPECT_THROW(
      TrajoptGoalConnector(MakeStepModel(scene, PlanningFormulation(*scene, settings)), settings),
      std::invalid_argument);
}

// The planner with the optimiser as its goal connection reaches the 30° goal through a chain of
// connection edges, and the path it returns is the replay of the planner's exact stepper.
TEST(TrajoptGoalConnector, ThePlannerReachesTheGoalThroughTheOptimiserAndThePathReplays) {
  const ScenePtr scene = testing::LoadExample("hand_ball_3d");
  const PlanningSettings settings = ThirtyDegreeQuery(*scene);
  PlannerOptions options;
  UseGoalConnection(settings, &options);
  ASSERT_TRUE(static_cast<bool>(options.goal_connector));
  const PlanResult plan =
      PlanThroughContact(scene, PlanningFormulation(*scene, settings), settings, options);
  ASSERT_TRUE(plan.found()) << plan.message;
  EXPECT_GE(plan.statistics.connections, 1);
  EXPECT_GE(plan.statistics.connection_extensions, 1);
  const PlanNode& goal = plan.nodes[plan.best_node];
  EXPECT_EQ(goal.edge, EdgeKind::kExtend);
  EXPECT_EQ(goal.steps, 1);
  const ReplayedPath path = ReplayPlan(scene, plan);
  ASSERT_TRUE(path.trajectory.completed()) << path.trajectory.message;
  EXPECT_LE(path.max_node_deviation, 1e-9);  // the replay runs the planner's computations again
  EXPECT_LE(path.max_penetration, settings.penetration_tolerance);
  const ObjectSpace space(*scene);
  EXPECT_LE(space.GoalDistance(path.trajectory.FinalConfiguration(), settings.goal, settings),
            settings.goal_tolerance);
  // Without the query's goal_connection, UseGoalConnection leaves the planner as it was.
  PlanningSettings off = settings;
  off.goal_connection.reset();
  PlannerOptions plain;
  UseGoalConnection(off, &plain);
  EXPECT_FALSE(static_cast<bool>(plain.goal_connector));
}

}  // namespace
}  // namespace quasidyn
