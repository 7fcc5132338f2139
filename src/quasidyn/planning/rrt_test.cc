#include "quasidyn/planning/rrt.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <stdexcept>
#include <string>
#include <vector>

#include "quasidyn/formulations/registry.h"
#include "quasidyn/planning/object_space.h"
#include "quasidyn/planning/plan_path.h"
#include "quasidyn/scenes/scene_loading.h"
#include "quasidyn/testing/example_states.h"
#include "quasidyn/testing/matrix_compare.h"
#include "quasidyn/testing/plan_replay_checks.h"
#include "quasidyn/testing/program_settings.h"
#include "quasidyn/testing/shared_scene.h"

namespace quasidyn {
namespace {

PlanResult PlanExample(const ScenePtr& scene, const PlanningSettings& settings, int threads = 1) {
  PlannerOptions options;
  options.threads = threads;
  return PlanThroughContact(scene, PlanningFormulation(*scene, settings), settings, options);
}

using testing::ExpectPathReplays;  // testing/plan_replay_checks.h

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
                                           Case{"planar_pushing", 19}, Case{"box_turning", 4}),
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
    ASSERT_EQ(a.nodes[i].substeps, b.nodes[i].substeps) << "node " << i;
    ASSERT_TRUE(testing::MatricesEqual(a.nodes[i].q, b.nodes[i].q)) << "node " << i;
    ASSERT_TRUE(testing::MatricesEqual(a.nodes[i].u, b.nodes[i].u)) << "node " << i;
  }
  EXPECT_EQ(a.best_node, b.best_node);
  EXPECT_EQ(a.statistics.iterations, b.statistics.iterations);
}

// For one sample per iteration and for batched rounds of B = 4 (regrasps among them,
// docs/planning.md "Batched extensions"), with the log-barrier and the randomized metric.
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
    std::vector<PlanResult> by_batch;
    for (int batch : {1, 4}) {
      settings.extension_batch = batch;
      const PlanResult one = PlanExample(scene, settings, 1);
      ASSERT_GT(one.statistics.regrasps, 5);
      ASSERT_GT(one.statistics.extensions, 50);
      for (int threads : {2, 3}) {
        SCOPED_TRACE(std::string(ReachabilityMethodName(method)) + ", batch " +
                     std::to_string(batch) + ", threads " + std::to_string(threads));
        ExpectSameTree(one, PlanExample(scene, settings, threads));
      }
      by_batch.push_back(one);
    }
    // The rounds change the search: B = 4 grows another tree than B = 1.
    EXPECT_FALSE(by_batch[0].nodes.size() == by_batch[1].nodes.size() &&
                 by_batch[0].nodes.back().q == by_batch[1].nodes.back().q);
    // And the seed matters: another seed grows another tree.
    settings.extension_batch = 1;
    settings.seed = 6;
    const PlanResult other = PlanExample(scene, settings, 1);
    EXPECT_FALSE(other.nodes.size() == by_batch[0].nodes.size() &&
                 other.nodes.back().q == by_batch[0].nodes.back().q);
  }
}

// Goal descent (docs/planning.md): every time a node becomes the tree's nearest to the goal, the
// planner extends from it toward the goal itself while that brings the tree nearer. On
// planar_hand's first 300 nodes it does so, and each counted descent made a new nearest node:
// the best goal distance fell at least once per descent extension, so the descents are at most
// the number of times the best node changed (counted here from the tree itself).
TEST(RrtThroughContact, GoalDescentExtendsFromEachNewNearestNode) {
  const ScenePtr scene = testing::LoadExample("planar_hand");
  PlanningSettings settings = *scene->planning;
  settings.max_nodes = 300;
  settings.seed = 3;
  const PlanResult plan = PlanExample(scene, settings);
  EXPECT_GT(plan.statistics.descent_extensions, 0);
  EXPECT_LE(plan.statistics.descent_extensions, plan.statistics.extensions);
  int improvements = 0;
  double best = plan.nodes.front().goal_distance;
  for (const PlanNode& node : plan.nodes) {
    if (node.goal_distance < best) {
      best = node.goal_distance;
      ++improvements;
    }
  }
  EXPECT_LE(plan.statistics.descent_extensions, improvements);
  EXPECT_EQ(best, plan.best_distance);
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

// A formulation without what the planner needs is refused before any search, with an error
// naming the field, the formulation and the capability it lacks (CheckPlannableFormulation's):
// every registered formulation the planner cannot plan through (a velocity state: the second-order
// ones). That every other one plans, and its path replays, is the conformance suite's
// (tests/conformance/, PlanReplaysExactly).
TEST(RrtThroughContact, AFormulationWithoutWhatThePlannerNeedsIsRefused) {
  const ScenePtr scene = testing::LoadExample("planar_pushing_top_down");
  const PlanningSettings settings = *scene->planning;
  int refused = 0;
  for (const FormulationPlugin* plugin : FormulationRegistry::Global().Plugins()) {
    std::string lacks;
    try {
      CheckPlannableFormulation(plugin->info);
      continue;
    } catch (const std::invalid_argument& e) {
      lacks = e.what();
    }
    const std::string& type = plugin->info.name;
    SCOPED_TRACE(type);
    ++refused;
    FormulationChoice stepping = PlanningFormulation(*scene, settings);
    stepping.name = type;
    try {
      PlanThroughContact(scene, stepping, settings);
      ADD_FAILURE() << "no error";
    } catch (const std::invalid_argument& e) {
      EXPECT_EQ(std::string(e.what()), lacks);
      EXPECT_EQ(std::string(e.what()).rfind("formulation.type:", 0), 0u) << e.what();
      EXPECT_NE(std::string(e.what()).find(type), std::string::npos) << e.what();
      if (plugin->info.capabilities.state == StateKind::kConfigurationAndVelocity) {
        EXPECT_NE(std::string(e.what()).find(StateKindName(plugin->info.capabilities.state)),
                  std::string::npos)
            << e.what();
      }
    }
  }
  EXPECT_GT(refused, 0);
}

}  // namespace
}  // namespace quasidyn
