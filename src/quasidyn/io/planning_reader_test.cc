#include "quasidyn/io/planning_reader.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "quasidyn/io/scene_document.h"
#include "quasidyn/model/scene_error.h"
#include "quasidyn/testing/pusher_box_scene.h"

namespace quasidyn {
namespace {

// A planar pusher and box; `planning:` is line 18, the block's first field line 19.
const std::string kPlanningReaderScene =
    testing::PusherBoxYaml("planning_block", 0.0, -0.15) + "planning:\n";

Scene PlanningReaderLoad(const std::string& block) {
  return ReadSceneText(kPlanningReaderScene + block, "scene.yaml", ".");
}

void PlanningReaderExpectError(const std::string& block, int line, const std::string& field,
                               const std::string& problem_part) {
  try {
    PlanningReaderLoad(block);
    ADD_FAILURE() << "no error for\n" << block;
  } catch (const SceneError& e) {
    EXPECT_EQ(e.line(), line) << e.what();
    EXPECT_EQ(e.field(), field) << e.what();
    EXPECT_NE(std::string(e.what()).find(problem_part), std::string::npos) << e.what();
    EXPECT_EQ(std::string(e.what()).rfind("scene.yaml:" + std::to_string(line) + ": " + field, 0),
              0u)
        << e.what();
  }
}

TEST(PlanningReader, ReadsEveryField) {
  const Scene scene = PlanningReaderLoad(R"(  goal: [-0.2, 0.0, 1.5]
  goal_tolerance: 0.02
  goal_weights: {position: 2, rotation: 0.5}
  goal_bias: 0.2
  bounds: {lower: [-0.4, -0.3, -3.2], upper: [0.4, 0.3, 3.2]}
  metric: {type: randomized, kappa: 50, samples: 20, std: 0.05, regularization: 1e-4}
  nearest: euclidean
  step_size: 0.15
  extend_steps: 2
  time_step: 0.05
  penetration_tolerance: 0.002
  max_substeps: 8
  p_grasp: 0.3
  grasp_candidates: 4
  settle_steps: 5
  limits: {max_nodes: 500, time_limit: 10}
  goal_connection: {radius: 0.3, horizon: 6, iterations: 4, interval: 25, trust_region_min: 0.002,
                    regrasp_when_stalled: true}
  seed: 42
)");
  ASSERT_TRUE(scene.planning.has_value());
  const PlanningSettings& s = *scene.planning;
  EXPECT_EQ(s.goal, Eigen::Vector3d(-0.2, 0.0, 1.5));
  EXPECT_EQ(s.goal_tolerance, 0.02);
  EXPECT_EQ(s.position_weight, 2.0);
  EXPECT_EQ(s.rotation_weight, 0.5);
  EXPECT_EQ(s.goal_bias, 0.2);
  EXPECT_EQ(s.lower, Eigen::Vector3d(-0.4, -0.3, -3.2));
  EXPECT_EQ(s.upper, Eigen::Vector3d(0.4, 0.3, 3.2));
  EXPECT_EQ(s.method, ReachabilityMethod::kRandomized);
  EXPECT_EQ(s.kappa, 50.0);
  EXPECT_EQ(s.samples, 20);
  EXPECT_EQ(s.sample_std, 0.05);
  EXPECT_EQ(s.regularization, 1e-4);
  EXPECT_EQ(s.nearest, NearestRule::kEuclidean);
  EXPECT_EQ(s.step_size, 0.15);
  EXPECT_EQ(s.extend_steps, 2);
  EXPECT_EQ(s.time_step, 0.05);
  EXPECT_EQ(s.penetration_tolerance, 0.002);
  EXPECT_EQ(s.max_substeps, 8);
  EXPECT_EQ(s.p_grasp, 0.3);
  EXPECT_EQ(s.grasp_candidates, 4);
  EXPECT_EQ(s.settle_steps, 5);
  EXPECT_EQ(s.max_nodes, 500);
  EXPECT_EQ(s.time_limit, 10.0);
  EXPECT_EQ(s.seed, 42u);
  ASSERT_TRUE(s.goal_connection.has_value());
  EXPECT_EQ(s.goal_connection->radius, 0.3);
  EXPECT_EQ(s.goal_connection->horizon, 6);
  EXPECT_EQ(s.goal_connection->iterations, 4);
  EXPECT_EQ(s.goal_connection->interval, 25);
  EXPECT_EQ(s.goal_connection->trust_region_min, 0.002);
  EXPECT_TRUE(s.goal_connection->regrasp_when_stalled);
}

TEST(PlanningReader, APartialBlockKeepsTheDefaultsAndNoBlockIsNone) {
  const Scene scene = PlanningReaderLoad("  seed: 3\n");
  ASSERT_TRUE(scene.planning.has_value());
  EXPECT_EQ(scene.planning->goal.size(), 0);  // the command line may give it
  EXPECT_EQ(scene.planning->max_nodes, PlanningSettings{}.max_nodes);
  EXPECT_FALSE(scene.planning->goal_connection.has_value());  // absent: no connection
  EXPECT_FALSE(scene.planning->plant_check.has_value());      // absent: no plant check
  const Scene checked = PlanningReaderLoad("  plant_check: {tolerance: 0.02}\n");
  ASSERT_TRUE(checked.planning->plant_check.has_value());
  EXPECT_EQ(checked.planning->plant_check->substeps, 2);  // the default
  EXPECT_EQ(checked.planning->plant_check->tolerance, 0.02);
  const Scene without = ReadSceneText(
      kPlanningReaderScene.substr(0, kPlanningReaderScene.rfind("planning:")), "scene.yaml", ".");
  EXPECT_FALSE(without.planning.has_value());
}

TEST(PlanningReader, RegraspExecutionIsResetByDefaultAndReadByName) {
  EXPECT_EQ(PlanningReaderLoad("  seed: 3\n").planning->regrasp, RegraspExecution::kReset);
  EXPECT_EQ(PlanningReaderLoad("  regrasp: physical\n").planning->regrasp,
            RegraspExecution::kPhysical);
  PlanningReaderExpectError("  regrasp: sideways\n", 19, "planning.regrasp",
                            "unknown regrasp execution 'sideways' (reset, physical)");
}

TEST(PlanningReader, ProblemsAreReportedAtTheirLine) {
  PlanningReaderExpectError("  goal: [0.0, 0.0]\n", 19, "planning.goal",
                            "expected n_q,u = 3 numbers");
  PlanningReaderExpectError(
      "  bounds: {lower: [-0.4, -0.3, -3.2], upper: [0.4, 0.3, 3.2]}\n  goal: [1.0, 0.0, 0.0]\n",
      20, "planning.goal", "outside the bounds");
  PlanningReaderExpectError("  limits: {max_nodes: -2}\n", 19, "planning.limits.max_nodes",
                            "must be >= 1");
  PlanningReaderExpectError("  limits:\n    time_limit: -1\n", 20, "planning.limits.time_limit",
                            "must be in [1e-06, 1e+07] [s] (got -1)");
  PlanningReaderExpectError("  bounds: {lower: [0, 0], upper: [1, 1]}\n", 19,
                            "planning.bounds.lower", "expected 3 numbers");
  PlanningReaderExpectError("  bounds: {lower: [0, 0, 1], upper: [1, 1, 0]}\n", 19,
                            "planning.bounds", "lower[2] = 1 > upper[2] = 0");
  PlanningReaderExpectError(
      "  bounds: {lower: [0, 0, 0], upper: [1, 1, 1], rotation_axis: [0, 0, 1]}\n", 19,
      "planning.bounds.rotation_axis", "planar scenes");
  PlanningReaderExpectError("  metric: {type: magic}\n", 19, "planning.metric.type",
                            "unknown metric 'magic'");
  PlanningReaderExpectError("  metric: {regularization: 0}\n", 19, "planning.metric.regularization",
                            "must be in [1e-12, 1e+12]");
  PlanningReaderExpectError("  p_grasp: 2\n", 19, "planning.p_grasp", "must be in [0, 1] (got 2)");
  PlanningReaderExpectError("  penetration_tolerance: 0\n", 19, "planning.penetration_tolerance",
                            "must be in [1e-12, 1000] [m] (got 0)");
  PlanningReaderExpectError("  max_substeps: 0\n", 19, "planning.max_substeps", "must be >= 1");
  PlanningReaderExpectError("  max_substeps: 2048\n", 19, "planning.max_substeps",
                            "must be <= 1024");
  PlanningReaderExpectError("  seed: -1\n", 19, "planning.seed", "must be >= 0 (got -1)");
  PlanningReaderExpectError("  goal_weights: {position: 0, rotation: 0}\n", 19,
                            "planning.goal_weights", "both 0");
  PlanningReaderExpectError("  goal_connection: {radius: 0}\n", 19,
                            "planning.goal_connection.radius", "must be in [1e-12, 1000]");
  PlanningReaderExpectError("  goal_connection:\n    horizon: 0\n", 20,
                            "planning.goal_connection.horizon", "must be >= 1");
  PlanningReaderExpectError("  goal_connection: {iterations: -1}\n", 19,
                            "planning.goal_connection.iterations", "must be >= 1");
  PlanningReaderExpectError("  goal_connection: {interval: 0}\n", 19,
                            "planning.goal_connection.interval", "must be >= 1");
  PlanningReaderExpectError("  goal_connection: {trust_region_min: 0}\n", 19,
                            "planning.goal_connection.trust_region_min",
                            "must be in [1e-12, 1000]");
  PlanningReaderExpectError("  goal_connection: {regrasp_when_stalled: often}\n", 19,
                            "planning.goal_connection.regrasp_when_stalled",
                            "must be true or false");
  PlanningReaderExpectError("  goal_connection: {radius: 0.1, reach: 2}\n", 19,
                            "planning.goal_connection.reach", "unknown");
  PlanningReaderExpectError("  plant_check: {substeps: 1}\n", 19, "planning.plant_check.substeps",
                            "must be >= 2 (got 1)");
  PlanningReaderExpectError("  plant_check:\n    tolerance: -0.1\n", 20,
                            "planning.plant_check.tolerance", "must be in [1e-12, 1000]");
  PlanningReaderExpectError("  plant_check: {substeps: 2, ramp: true}\n", 19,
                            "planning.plant_check.ramp", "unknown");
  PlanningReaderExpectError("  frobnicate: 1\n", 19, "planning.frobnicate", "unknown");
  PlanningReaderExpectError("  goal: [0, 0, .nan]\n", 19, "planning.goal[2]", "");
}

TEST(PlanningReader, ExtensionBatchIsOneByDefaultAndBoundedBothWays) {
  EXPECT_EQ(PlanningReaderLoad("  seed: 3\n").planning->extension_batch, 1);
  EXPECT_EQ(PlanningReaderLoad("  extension_batch: 4\n").planning->extension_batch, 4);
  PlanningReaderExpectError("  extension_batch: 0\n", 19, "planning.extension_batch",
                            "must be >= 1 (got 0)");
  PlanningReaderExpectError("  extension_batch: 1025\n", 19, "planning.extension_batch",
                            "must be <= 1024 (got 1025)");
  PlanningReaderExpectError("  extension_batch: two\n", 19, "planning.extension_batch", "");
}

TEST(PlanningReader, ReadsTheGraspAnchors) {
  EXPECT_EQ(PlanningReaderLoad("  seed: 3\n").planning->grasp_anchors, GraspAnchors::kFingers);
  EXPECT_EQ(PlanningReaderLoad("  grasp_anchors: fingers\n").planning->grasp_anchors,
            GraspAnchors::kFingers);
  EXPECT_EQ(PlanningReaderLoad("  grasp_anchors: all_links\n").planning->grasp_anchors,
            GraspAnchors::kAllLinks);
  const Scene listed = PlanningReaderLoad("  grasp_anchors: [pusher/tip]\n");
  EXPECT_EQ(listed.planning->grasp_anchors, GraspAnchors::kListed);
  EXPECT_EQ(listed.planning->grasp_anchor_links, std::vector<std::string>{"pusher/tip"});
  PlanningReaderExpectError("  grasp_anchors: elbows\n", 19, "planning.grasp_anchors",
                            "expected fingers, all_links or a list");
  PlanningReaderExpectError("  grasp_anchors: {a: 1}\n", 19, "planning.grasp_anchors",
                            "expected fingers, all_links or a list");
  PlanningReaderExpectError("  grasp_anchors: []\n", 19, "planning.grasp_anchors", "empty");
  PlanningReaderExpectError("  grasp_anchors: [pusher/elbow]\n", 19, "planning.grasp_anchors",
                            "'pusher/elbow' is not a robot link");
  PlanningReaderExpectError("  grasp_anchors: [box]\n", 19, "planning.grasp_anchors",
                            "'box' is not a robot link");
}

TEST(PlanningReader, ReadsTheGraspSelection) {
  const Scene defaults = PlanningReaderLoad("  seed: 3\n");
  EXPECT_EQ(defaults.planning->grasp_selection, GraspSelection::kNearest);
  EXPECT_EQ(defaults.planning->grasp_score_fraction, PlanningSettings{}.grasp_score_fraction);
  const Scene read =
      PlanningReaderLoad("  grasp_selection: conditioning\n  grasp_score_fraction: 0.25\n");
  EXPECT_EQ(read.planning->grasp_selection, GraspSelection::kConditioning);
  EXPECT_EQ(read.planning->grasp_score_fraction, 0.25);
  EXPECT_EQ(PlanningReaderLoad("  grasp_selection: nearest\n").planning->grasp_selection,
            GraspSelection::kNearest);
  PlanningReaderExpectError("  grasp_selection: widest\n", 19, "planning.grasp_selection",
                            "unknown grasp selection 'widest' (nearest, conditioning)");
  PlanningReaderExpectError("  grasp_score_fraction: 0\n", 19, "planning.grasp_score_fraction",
                            "must be in (0, 1] (got 0)");
  PlanningReaderExpectError("  grasp_score_fraction: 1.5\n", 19, "planning.grasp_score_fraction",
                            "must be in (0, 1] (got 1.5)");
}

TEST(PlanningReader, AnObjectFreeSceneWithABlockIsRefused) {
  try {
    ReadSceneText(R"(name: no_objects
dimension: 2
time_step: 0.1
robots:
  - name: pusher
    bodies: [{name: tip, mass: 0.1, inertia: from_shapes,
              shapes: [{type: sphere, radius: 0.02, friction: 0.4}]}]
    joints: [{name: x, type: prismatic, parent: world, child: tip, axis: [1, 0, 0]}]
    stiffness: 100
    initial: [0.0]
planning:
  seed: 1
)",
                  "scene.yaml", ".");
    ADD_FAILURE() << "no error";
  } catch (const SceneError& e) {
    EXPECT_EQ(e.field(), "planning.objects") << e.what();
    EXPECT_EQ(e.line(), 11) << e.what();
  }
}

}  // namespace
}  // namespace quasidyn
