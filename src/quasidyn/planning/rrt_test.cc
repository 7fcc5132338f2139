#include "quasidyn/planning/rrt.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <string>

#include "quasidyn/io/scene_loader.h"
#include "quasidyn/planning/object_space.h"
#include "quasidyn/planning/plan_path.h"
#include "quasidyn/stepping/formulation_table.h"
#include "quasidyn/testing/example_states.h"
#include "quasidyn/testing/matrix_compare.h"
#include "quasidyn/testing/shared_scene.h"

namespace quasidyn {
namespace {

PlanResult PlanExample(const ScenePtr& scene, const PlanningSettings& settings, int threads = 1) {
  PlannerOptions options;
  options.threads = threads;
  return PlanThroughContact(scene, PlanningStepSettings(*scene, settings), settings, options);
}

// Replaying the path through the stepper reproduces every node it passes (1e-9: the replay
// runs the planner's computations again, so it is in fact exact), and the last node meets the
// goal tolerance.
void ExpectPathReplays(const ScenePtr& scene, const PlanResult& plan) {
  ASSERT_TRUE(plan.found()) << plan.message;
  const ReplayedPath path = ReplayPlan(scene, plan);
  ASSERT_TRUE(path.trajectory.completed()) << path.trajectory.message;
  EXPECT_LE(path.max_node_deviation, 1e-9);
  // Each path node, where its edge ends in the trajectory.
  int checked = 0;
  for (size_t k = 0; k < path.step_nodes.size(); ++k) {
    if (path.step_nodes[k] < 0) continue;
    EXPECT_TRUE(
        testing::MatricesNear(path.trajectory.steps[k].q, plan.nodes[path.step_nodes[k]].q, 1e-9))
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

// One seed of each example (seeds whose search is short, for a fast test; the 20-seed study is
// bench/rrt_study_bench.cc).
struct Case {
  const char* example;
  std::uint64_t seed;
};

class PlansExamples : public ::testing::TestWithParam<Case> {};

TEST_P(PlansExamples, FindsAPathThatReplays) {
  const ScenePtr scene = testing::LoadExample(GetParam().example);
  PlanningSettings settings = *scene->planning;
  settings.seed = GetParam().seed;
  const PlanResult plan = PlanExample(scene, settings);
  ExpectPathReplays(scene, plan);
  EXPECT_GT(plan.statistics.regrasps, 0);  // contact sampling took part
}

INSTANTIATE_TEST_SUITE_P(Examples, PlansExamples,
                         ::testing::Values(Case{"planar_hand", 14},
                                           Case{"planar_pushing_top_down", 9},
                                           Case{"planar_pushing", 8}, Case{"box_turning", 4}),
                         [](const auto& param_info) {
                           return std::string(param_info.param.example);
                         });

// Same seed: bitwise the same tree for every thread count (threads evaluate the regrasp
// candidates and the randomized samples).
void ExpectSameTree(const PlanResult& a, const PlanResult& b) {
  ASSERT_EQ(a.nodes.size(), b.nodes.size());
  for (size_t i = 0; i < a.nodes.size(); ++i) {
    ASSERT_EQ(a.nodes[i].parent, b.nodes[i].parent) << "node " << i;
    ASSERT_EQ(a.nodes[i].edge, b.nodes[i].edge) << "node " << i;
    ASSERT_TRUE(testing::MatricesEqual(a.nodes[i].q, b.nodes[i].q)) << "node " << i;
    ASSERT_TRUE(testing::MatricesEqual(a.nodes[i].u, b.nodes[i].u)) << "node " << i;
  }
  EXPECT_EQ(a.best_node, b.best_node);
}

TEST(RrtThroughContact, SameSeedSameTreeAtAnyThreadCount) {
  const ScenePtr scene = testing::LoadExample("planar_hand");
  for (const ReachabilityMethod method :
       {ReachabilityMethod::kLogBarrier, ReachabilityMethod::kRandomized}) {
    PlanningSettings settings = *scene->planning;
    settings.method = method;
    settings.samples = 8;
    settings.p_grasp = 0.3;
    settings.max_nodes = 150;
    settings.seed = 5;
    const PlanResult one = PlanExample(scene, settings, 1);
    ASSERT_GT(one.statistics.regrasps, 5);
    for (int threads : {2, 3}) {
      SCOPED_TRACE(std::string(ReachabilityMethodName(method)) + ", threads " +
                   std::to_string(threads));
      ExpectSameTree(one, PlanExample(scene, settings, threads));
    }
    // And the seed matters: another seed grows another tree.
    settings.seed = 6;
    const PlanResult other = PlanExample(scene, settings, 1);
    EXPECT_FALSE(other.nodes.size() == one.nodes.size() &&
                 other.nodes.back().q == one.nodes.back().q);
  }
}

// An unreachable goal (the vertical planar_pushing box tipped by π/2 but still 0.05 m high:
// half of it inside the table) stops at the node limit: not found, the best distance and the
// whole tree returned, the path to the best node replayable.
TEST(RrtThroughContact, UnreachableGoalStopsAtTheLimitWithTheTree) {
  const ScenePtr scene = testing::LoadExample("planar_pushing");
  PlanningSettings settings = *scene->planning;
  settings.goal << 0.0, 0.05, M_PI / 2;
  settings.max_nodes = 200;
  const PlanResult plan = PlanExample(scene, settings);
  EXPECT_FALSE(plan.found());
  EXPECT_EQ(plan.nodes.size(), 200u);
  EXPECT_GT(plan.best_distance, settings.goal_tolerance);
  EXPECT_NE(plan.message.find("node limit"), std::string::npos) << plan.message;
  EXPECT_NE(plan.message.find("best goal distance"), std::string::npos) << plan.message;
  EXPECT_EQ(plan.path.front(), 0);
  EXPECT_EQ(plan.path.back(), plan.best_node);
  EXPECT_LE(ReplayPlan(scene, plan).max_node_deviation, 1e-9);
}

TEST(RrtThroughContact, StopsAtTheTimeLimit) {
  const ScenePtr scene = testing::LoadExample("planar_pushing");
  PlanningSettings settings = *scene->planning;
  settings.goal << 0.0, 0.05, M_PI / 2;
  settings.max_nodes = 1000000;
  settings.time_limit = 0.05;
  const PlanResult plan = PlanExample(scene, settings);
  EXPECT_FALSE(plan.found());
  EXPECT_NE(plan.message.find("time limit"), std::string::npos) << plan.message;
  // Generous against a loaded machine: one iteration takes well under a second.
  EXPECT_LT(plan.statistics.wall_seconds, settings.time_limit + 1.0);
}

// Without contact sampling a pusher that starts beyond the contact tolerance (planar_pushing_
// top_down with the pusher 3 cm from the box) never moves: B = 0 at the root gives δu = 0 for
// every sample, every extension is idle, and the search ends at its iteration limit with the
// root alone (the talk's point that contact sampling is needed). With it, even the Euclidean
// rule grows a tree (through its regrasps: every node with the box at rest is equally near a
// sample, so the nearest is mostly the root, whose extensions stay idle).
TEST(RrtThroughContact, WithoutContactSamplingTheOutOfContactPusherStays) {
  Scene far = *testing::LoadExample("planar_pushing_top_down");
  far.q0[3] = -0.15;
  const ScenePtr scene = testing::Shared(far);
  PlanningSettings settings = *scene->planning;
  settings.p_grasp = 0.0;
  settings.max_nodes = 100;
  const PlanResult stuck = PlanExample(scene, settings);
  EXPECT_EQ(stuck.nodes.size(), 1u);
  EXPECT_EQ(stuck.statistics.idle_extensions, stuck.statistics.iterations);
  EXPECT_NE(stuck.message.find("iteration limit"), std::string::npos) << stuck.message;
  settings.p_grasp = 0.2;
  settings.nearest = NearestRule::kEuclidean;
  const PlanResult euclidean = PlanExample(scene, settings);
  EXPECT_GT(euclidean.nodes.size(), 10u);
  EXPECT_GT(euclidean.statistics.regrasps, 0);
  EXPECT_LE(ReplayPlan(scene, euclidean).max_node_deviation, 1e-9);
}

// The planner sees the stepper only through StepModel: it plans through every formulation whose
// command is the robots' positions (formulation_table.h), each tree grown by that formulation's
// steps (the box pushed by more than 1 cm somewhere in it) and replaying to 1e-9.
TEST(RrtThroughContact, PlansThroughEveryPositionCommandedFormulation) {
  const ScenePtr scene = testing::LoadExample("planar_pushing_top_down");
  PlanningSettings settings = *scene->planning;
  settings.seed = 9;
  settings.max_nodes = 30;
  int planned = 0;
  for (const FormulationType type :
       {FormulationType::kQp, FormulationType::kSocp, FormulationType::kLogBarrierPyramid,
        FormulationType::kLogBarrierCone, FormulationType::kLcp, FormulationType::kHalmPosa}) {
    if (!CommandsPositions(type)) continue;
    SCOPED_TRACE(FormulationName(type));
    FormulationSettings stepping = PlanningStepSettings(*scene, settings);
    stepping.type = type;
    const PlanResult plan = PlanThroughContact(scene, stepping, settings);
    EXPECT_EQ(plan.stepping.type, type);
    EXPECT_GT(plan.statistics.extensions, 0);
    double pushed = 0.0;
    for (const PlanNode& node : plan.nodes)
      pushed = std::max(pushed, (node.q.head(2) - scene->q0.head(2)).norm());
    EXPECT_GT(pushed, 0.01);
    EXPECT_LE(ReplayPlan(scene, plan).max_node_deviation, 1e-9);
    ++planned;
  }
  EXPECT_EQ(planned, 5);
}

// halm-posa commands the robots' velocities: the planner, which holds a node's robots with
// ū = q̄_a, refuses it with an error naming the field, before any search.
TEST(RrtThroughContact, AVelocityCommandedFormulationIsRefused) {
  const ScenePtr scene = testing::LoadExample("disk_pushing");
  ASSERT_EQ(scene->formulation.type, "halm-posa");
  const PlanningSettings settings;
  try {
    PlanThroughContact(scene, PlanningStepSettings(*scene, settings), settings);
    ADD_FAILURE() << "no error";
  } catch (const std::invalid_argument& e) {
    EXPECT_EQ(std::string(e.what()).rfind("formulation.type:", 0), 0u) << e.what();
    EXPECT_NE(std::string(e.what()).find("halm-posa"), std::string::npos) << e.what();
  }
}

// Bad input: an error naming the field, before any search.
TEST(RrtThroughContact, BadSettingsNameTheField) {
  const ScenePtr scene = testing::LoadExample("planar_hand");
  const auto expect_field = [&](const PlanningSettings& settings, const std::string& field) {
    try {
      PlanExample(scene, settings);
      ADD_FAILURE() << "no error for " << field;
    } catch (const std::invalid_argument& e) {
      EXPECT_EQ(std::string(e.what()).rfind("planning." + field + ":", 0), 0u) << e.what();
    }
  };
  PlanningSettings s = *scene->planning;
  s.goal = Eigen::Vector2d(0.0, 0.05);
  expect_field(s, "goal");
  s = *scene->planning;
  s.goal[0] = 5.0;  // outside the bounds [-0.15, 0.15]
  expect_field(s, "goal");
  s = *scene->planning;
  s.max_nodes = -3;
  expect_field(s, "limits.max_nodes");
  s = *scene->planning;
  s.time_limit = -1.0;
  expect_field(s, "limits.time_limit");
  s = *scene->planning;
  s.lower.resize(2);
  expect_field(s, "bounds.lower");
  s = *scene->planning;
  s.p_grasp = 1.5;
  expect_field(s, "p_grasp");
  PlannerOptions options;
  options.threads = 0;
  EXPECT_THROW(PlanThroughContact(scene, PlanningStepSettings(*scene, *scene->planning),
                                  *scene->planning, options),
               std::invalid_argument);
}

TEST(RrtThroughContact, AnObjectFreeSceneIsRefused) {
  const ScenePtr scene = std::make_shared<const Scene>(LoadSceneFromString(R"(
name: no_objects
dimension: 2
time_step: 0.1
robots:
  - name: pusher
    bodies: [{name: tip, mass: 0.1, inertia: from_shapes,
              shapes: [{type: sphere, radius: 0.02, friction: 0.4}]}]
    joints: [{name: x, type: prismatic, parent: world, child: tip, axis: [1, 0, 0]}]
    stiffness: 100
    initial: [0.0]
)",
                                                                           "no_objects.yaml", "."));
  PlanningSettings settings;
  try {
    PlanExample(scene, settings);
    ADD_FAILURE() << "no error";
  } catch (const std::invalid_argument& e) {
    EXPECT_EQ(std::string(e.what()).rfind("planning.objects:", 0), 0u) << e.what();
  }
}

}  // namespace
}  // namespace quasidyn
