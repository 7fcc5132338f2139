// Plans that stay physical (docs/planning.md; issue 35, "Plans through the ground"): on
// examples/planar_hand, at the planner's h = 0.1 s, a step can carry the ball (falling h²·g =
// 9.8 cm when it is lifted beyond the contact tolerance) or a finger further than the contact
// tolerance ε = 2 cm, the contact is never in the step's program, and the plan passes the ball
// into the ground. The planner now takes such an extension again with substeps and refuses one
// that still overlaps deeper than penetration_tolerance (1 mm by default); the replay measures
// the deepest overlap along the path.

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <vector>

#include "quasidyn/planning/penetration_meter.h"
#include "quasidyn/planning/plan_path.h"
#include "quasidyn/planning/rrt.h"
#include "quasidyn/testing/example_states.h"

namespace quasidyn {
namespace {

// A seed whose path, planned without the check, passes the ball 44.4 mm into the
// ground (bench/rrt_study_bench --unchecked --examples planar_hand; docs/planning.md's table).
constexpr std::uint64_t kPenetratingSeed = 5;

PlanResult PlanHand(const ScenePtr& scene, const PlanningSettings& settings) {
  return PlanThroughContact(scene, PlanningFormulation(*scene, settings), settings);
}

PlanningSettings HandSettings(const Scene& scene) {
  PlanningSettings settings = *scene.planning;
  settings.seed = kPenetratingSeed;
  return settings;
}

// What the planner did before the check, still reachable by turning it off (tolerance ∞, no
// substeps): the path passes deeper than the default tolerance. This is the regression the
// check removes; it fails if the example stops showing the problem (then the test below proves
// nothing and another seed must be chosen).
TEST(PhysicalPlans, WithoutTheCheckThePlanarHandPathPassesIntoTheGround) {
  const ScenePtr scene = testing::LoadExample("planar_hand");
  PlanningSettings settings = HandSettings(*scene);
  settings.penetration_tolerance = std::numeric_limits<double>::infinity();
  settings.max_substeps = 1;
  const PlanResult plan = PlanHand(scene, settings);
  ASSERT_TRUE(plan.found()) << plan.message;
  EXPECT_EQ(plan.statistics.substepped_extensions, 0);
  EXPECT_EQ(plan.statistics.penetrating_extensions, 0);
  EXPECT_GT(plan.statistics.large_motion_steps, 0);
  const ReplayedPath path = ReplayPlan(scene, plan);
  EXPECT_LE(path.max_node_deviation, 1e-9);
  EXPECT_GT(path.max_penetration, PlanningSettings{}.penetration_tolerance);
  EXPECT_GT(path.trajectory.large_motion_steps, 0);
}

// With the defaults, the same query's path stays within the tolerance, replays bit for bit
// (substepped edges included), and still reaches the goal.
TEST(PhysicalPlans, ThePlanarHandPathStaysWithinThePenetrationTolerance) {
  const ScenePtr scene = testing::LoadExample("planar_hand");
  const PlanningSettings settings = HandSettings(*scene);
  ASSERT_EQ(settings.penetration_tolerance, 1e-3);  // the documented default
  const PlanResult plan = PlanHand(scene, settings);
  ASSERT_TRUE(plan.found()) << plan.message;
  EXPECT_GT(plan.statistics.substepped_extensions, 0);
  const ReplayedPath path = ReplayPlan(scene, plan);
  ASSERT_TRUE(path.trajectory.completed()) << path.trajectory.message;
  EXPECT_LE(path.max_node_deviation, 1e-9);
  EXPECT_LE(path.max_penetration, settings.penetration_tolerance);
  int substepped = 0;
  for (const PlanNode& node : plan.nodes) {
    EXPECT_GE(node.substeps, 1);
    EXPECT_LE(node.substeps, settings.max_substeps);
    if (node.edge != EdgeKind::kExtend) {
      EXPECT_EQ(node.substeps, 1);
    }
    substepped += node.substeps > 1;
  }
  EXPECT_EQ(substepped, plan.statistics.substepped_extensions);
}

// Without substeps the check alone still keeps the path within the tolerance, by refusing the
// extensions that overlap deeper (fewer nodes grow, none of them through the ground).
TEST(PhysicalPlans, WithoutSubstepsPenetratingExtensionsAreRefused) {
  const ScenePtr scene = testing::LoadExample("planar_hand");
  PlanningSettings settings = HandSettings(*scene);
  settings.max_substeps = 1;
  settings.max_nodes = 400;
  const PlanResult plan = PlanHand(scene, settings);
  EXPECT_GT(plan.statistics.penetrating_extensions, 0);
  EXPECT_EQ(plan.statistics.substepped_extensions, 0);
  const ReplayedPath path = ReplayPlan(scene, plan);
  EXPECT_LE(path.max_node_deviation, 1e-9);
  EXPECT_LE(path.max_penetration, settings.penetration_tolerance);
}

// A given start may overlap (a qsim example script's q0 does: docs/qsim-files.md); the replay
// measures the start's own overlap apart from the path's. Here the ball starts 3 mm into the
// ground (radius 0.05 m on the half-plane y <= 0), held by its fingers; the first step separates
// it (the step's row asks J_n v >= −φ/h, exact for a disk on a line), so the path's overlap is
// nil and the replay's maximum is the start's.
TEST(PhysicalPlans, AnOverlappingStartIsMeasuredApartFromThePath) {
  const ScenePtr scene = testing::LoadExample("planar_hand");
  const PlanningSettings settings = HandSettings(*scene);
  constexpr double kDepth = 3e-3;  // [m]
  std::vector<PlanNode> nodes(2);
  nodes[0].q = scene->q0;
  nodes[0].q[1] = 0.05 - kDepth;  // the ball's y [m]
  nodes[0].u = scene->q0.tail(scene->nq_a);
  nodes[1].q = nodes[0].q;
  nodes[1].parent = 0;
  nodes[1].edge = EdgeKind::kExtend;
  nodes[1].u = nodes[0].u;
  nodes[1].steps = 1;
  const auto model = MakeStepModel(scene, PlanningFormulation(*scene, settings));
  const ReplayedPath path = ReplayPath(*model, nodes, {0, 1});
  ASSERT_TRUE(path.trajectory.completed()) << path.trajectory.message;
  EXPECT_NEAR(path.start_penetration, kDepth, 1e-12);
  EXPECT_LT(path.path_penetration, settings.penetration_tolerance);
  EXPECT_EQ(path.max_penetration, path.start_penetration);
}

// The continuous check along a large step (penetration_meter.h): a start 3 mm into the ground
// whose step lifts the ball 5 mm, in a step whose largest body motion is 0.1 m (k = 5 checked
// points, 1 mm of lift apart), shrinks its overlap along the step (2, 1, 0, 0 mm); those inner
// points are the start's overlap, not the step's (StepDepth 0: the end is clear). The same step
// downward ends 8 mm deep, which the end's depth reports.
TEST(PhysicalPlans, AStepOutOfAnOverlappingStartAddsNoOverlap) {
  const ScenePtr scene = testing::LoadExample("planar_hand");
  const PlanningSettings settings = *scene->planning;
  const auto model = MakeStepModel(scene, PlanningFormulation(*scene, settings));
  PenetrationMeter meter(scene);
  Eigen::VectorXd q_start = scene->q0;
  q_start[1] = 0.05 - 3e-3;  // the ball's y [m] (radius 0.05 m, ground y <= 0)
  const double h = model->time_step();
  const auto step = [&](double lift) {
    StepResult result;
    result.velocity = Eigen::VectorXd::Zero(scene->nv);
    result.velocity[1] = lift / h;
    result.next.q = q_start;
    result.next.q[1] += lift;
    result.large_motion = true;
    result.max_body_motion = 0.1;  // [m], the fingers' (say): 5 points at ε = 0.02 m
    return meter.StepDepth(*model, q_start, result);
  };
  EXPECT_NEAR(meter.Depth(q_start), 3e-3, 1e-12);
  ASSERT_EQ(scene->contact_tolerance, 0.02);
  EXPECT_EQ(step(0.005), 0.0);
  EXPECT_NEAR(step(-0.005), 0.008, 1e-12);
}

}  // namespace
}  // namespace quasidyn
