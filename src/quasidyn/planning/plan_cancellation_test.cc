// PlannerOptions::cancel (common/cancellation.h): a search asked to stop returns at its next
// iteration with status interrupted, the tree and the path to its best node as a limit leaves
// them, and the plan file records the status.
#include <gtest/gtest.h>

#include <condition_variable>
#include <mutex>
#include <string>
#include <thread>

#include "quasidyn/common/cancellation.h"
#include "quasidyn/planning/plan_json.h"
#include "quasidyn/planning/plan_path.h"
#include "quasidyn/planning/rrt.h"
#include "quasidyn/testing/example_states.h"

namespace quasidyn {
namespace {

// planar_pushing with a goal no search of this size reaches (rrt_test.cc,
// UnreachableGoalStopsAtTheLimitWithTheTree): without the token it runs to max_nodes.
PlanningSettings LongSearch(const Scene& scene) {
  PlanningSettings settings = *scene.planning;
  settings.goal << 0.0, 0.05, M_PI / 2;
  settings.max_nodes = 5000;
  return settings;
}

TEST(PlanCancellation, ATokenSetBeforeTheCallReturnsTheRootInterrupted) {
  const ScenePtr scene = testing::LoadExample("planar_pushing");
  const PlanningSettings settings = LongSearch(*scene);
  CancellationToken token;
  token.Cancel();
  PlannerOptions options;
  options.cancel = &token;
  const PlanResult plan =
      PlanThroughContact(scene, PlanningFormulation(*scene, settings), settings, options);
  EXPECT_EQ(plan.status, PlanStatus::kInterrupted);
  EXPECT_FALSE(plan.found());
  EXPECT_EQ(plan.nodes.size(), 1u);
  EXPECT_EQ(plan.statistics.iterations, 0);
  EXPECT_EQ(plan.path, std::vector<int>{0});
  EXPECT_NE(plan.message.find("interrupted"), std::string::npos) << plan.message;
  // The file says so, and reads back.
  const nlohmann::json file = PlanToJson(plan, ReplayPlan(scene, plan));
  EXPECT_EQ(file["plan"]["status"], "interrupted");
  EXPECT_EQ(PlanFromJson(file).status, PlanStatus::kInterrupted);
}

// The token set from another thread while the planner's thread waits in its progress callback
// (after an iteration): the search stops before the next iteration, so it returns with exactly
// the nodes and iterations of that callback. Unbatched, and batched rounds on two threads.
class CancelledMidSearch : public ::testing::TestWithParam<int> {};

TEST_P(CancelledMidSearch, StopsBeforeTheNextIteration) {
  const ScenePtr scene = testing::LoadExample("planar_pushing");
  PlanningSettings settings = LongSearch(*scene);
  settings.extension_batch = GetParam();
  CancellationToken token;
  std::mutex mutex;
  std::condition_variable changed;
  bool asked = false;
  PlanProgress seen;
  std::thread canceller([&] {
    std::unique_lock<std::mutex> lock(mutex);
    changed.wait(lock, [&] { return asked; });
    token.Cancel();
    asked = false;
    changed.notify_all();
  });
  PlannerOptions options;
  options.threads = 2;
  options.cancel = &token;
  options.progress = [&](const PlanProgress& p) {
    std::unique_lock<std::mutex> lock(mutex);
    if (token.cancelled() || p.nodes < 50) return;
    seen = p;
    asked = true;
    changed.notify_all();
    changed.wait(lock, [&] { return !asked; });
  };
  const PlanResult plan =
      PlanThroughContact(scene, PlanningFormulation(*scene, settings), settings, options);
  canceller.join();
  ASSERT_GE(seen.nodes, 50);
  EXPECT_EQ(plan.status, PlanStatus::kInterrupted);
  EXPECT_EQ(static_cast<int>(plan.nodes.size()), seen.nodes);
  EXPECT_EQ(plan.statistics.iterations, seen.iterations);
  EXPECT_LT(plan.nodes.size(), static_cast<size_t>(settings.max_nodes));
  // The path runs from the root to the node nearest the goal, and replays.
  EXPECT_EQ(plan.path.front(), 0);
  EXPECT_EQ(plan.path.back(), plan.best_node);
  for (const PlanNode& node : plan.nodes) EXPECT_GE(node.goal_distance, plan.best_distance);
  EXPECT_LE(ReplayPlan(scene, plan).max_node_deviation, 1e-9);
}

INSTANTIATE_TEST_SUITE_P(Batches, CancelledMidSearch, ::testing::Values(1, 4),
                         [](const auto& param_info) {
                           return "batch" + std::to_string(param_info.param);
                         });

}  // namespace
}  // namespace quasidyn
