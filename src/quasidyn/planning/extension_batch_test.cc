#include "quasidyn/planning/extension_batch.h"

#include <gtest/gtest.h>

#include <stdexcept>
#include <string>
#include <vector>

#include "quasidyn/formulations/registry.h"
#include "quasidyn/planning/plan_path.h"
#include "quasidyn/planning/rrt.h"
#include "quasidyn/testing/example_states.h"
#include "quasidyn/testing/matrix_compare.h"
#include "quasidyn/testing/shared_scene.h"

namespace quasidyn {
namespace {

PlanResult PlanBatched(const ScenePtr& scene, const PlanningSettings& settings, int threads) {
  PlannerOptions options;
  options.threads = threads;
  return PlanThroughContact(scene, PlanningFormulation(*scene, settings), settings, options);
}

// Rounds of B = 4 find the planar hand's goal, and the path replays through the stepper node by
// node (1e-9: the replay repeats the planner's computations) within the overlap limit.
TEST(RrtBatch, FindsThePlanarHandGoalWithAPathThatReplays) {
  const ScenePtr scene = testing::LoadExample("planar_hand");
  PlanningSettings settings = *scene->planning;
  settings.seed = 14;
  settings.extension_batch = 4;
  const PlanResult plan = PlanBatched(scene, settings, 2);
  ASSERT_TRUE(plan.found()) << plan.message;
  EXPECT_LE(static_cast<int>(plan.nodes.size()), settings.max_nodes);
  const ReplayedPath path = ReplayPlan(scene, plan);
  ASSERT_TRUE(path.trajectory.completed()) << path.trajectory.message;
  EXPECT_LE(path.max_node_deviation, 1e-9);
  EXPECT_LE(path.max_penetration, settings.penetration_tolerance);
  EXPECT_EQ(plan.path.back(), plan.best_node);
}

// A round never makes the tree larger than max_nodes, however large B is.
TEST(RrtBatch, ARoundStopsAtTheNodeLimit) {
  const ScenePtr scene = testing::LoadExample("planar_hand");
  PlanningSettings settings = *scene->planning;
  settings.goal_tolerance = 1e-6;  // not found within the limit
  settings.max_nodes = 23;
  settings.extension_batch = 16;
  const PlanResult plan = PlanBatched(scene, settings, 2);
  EXPECT_FALSE(plan.found());
  EXPECT_EQ(plan.nodes.size(), 23u);
  EXPECT_NE(plan.message.find("node limit"), std::string::npos) << plan.message;
}

TEST(RrtBatch, ABatchBelowOneIsRefusedByName) {
  const ScenePtr scene = testing::LoadExample("planar_hand");
  PlanningSettings settings = *scene->planning;
  settings.extension_batch = 0;
  try {
    PlanBatched(scene, settings, 1);
    ADD_FAILURE() << "no error for extension_batch 0";
  } catch (const std::invalid_argument& e) {
    EXPECT_EQ(std::string(e.what()).rfind("planning.extension_batch: must be >= 1", 0), 0u)
        << e.what();
  }
}

// The same edges taken by a batch on 2 workers, and one by one on a single stepper in the
// reverse order: bitwise the same outcomes (each edge depends on its request only).
TEST(RrtBatch, AnEdgeDoesNotDependOnItsWorkerOrOnTheEdgesBefore) {
  const ScenePtr scene = testing::LoadExample("planar_hand");
  const PlanningSettings& settings = *scene->planning;
  const auto model = MakeStepModel(scene, PlanningFormulation(*scene, settings));
  std::vector<ExtensionRequest> requests;
  const Eigen::VectorXd held = model->HoldingCommand(State{scene->q0, Eigen::VectorXd()});
  for (int k = 0; k < 6; ++k) {
    ExtensionRequest request;
    request.q = scene->q0;
    request.u = held + Eigen::VectorXd::Constant(held.size(), 0.05 * (k - 2.5));
    request.steps = 1 + k % 2;
    requests.push_back(request);
  }
  const ExtensionLimits limits{settings.penetration_tolerance, settings.max_substeps};
  ExtensionBatch batch(*model, /*measure_depth=*/true, 2);
  const std::vector<ExtensionOutcome> outcomes = batch.Take(requests, limits);
  EdgeStepper single(*model, /*measure_depth=*/true);
  int moved = 0;
  for (int k = static_cast<int>(requests.size()) - 1; k >= 0; --k) {
    const ExtensionOutcome alone = TakeExtension(&single, requests[k], limits);
    ASSERT_TRUE(outcomes[k].ok) << "edge " << k;
    ASSERT_TRUE(alone.ok) << "edge " << k;
    EXPECT_TRUE(testing::MatricesEqual(outcomes[k].q, alone.q)) << "edge " << k;
    EXPECT_EQ(outcomes[k].substeps, alone.substeps) << "edge " << k;
    EXPECT_EQ(outcomes[k].depth, alone.depth) << "edge " << k;
    if ((alone.q - scene->q0).cwiseAbs().maxCoeff() > 1e-6) ++moved;
  }
  EXPECT_GT(moved, 3);  // the edges went somewhere different
}

TEST(RrtBatch, ABatchNeedsAWorker) {
  const ScenePtr scene = testing::LoadExample("planar_hand");
  const auto model = MakeStepModel(scene, PlanningFormulation(*scene, *scene->planning));
  EXPECT_THROW(ExtensionBatch(*model, false, 0), std::invalid_argument);
}

}  // namespace
}  // namespace quasidyn
