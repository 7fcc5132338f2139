// The planner's goal connection (rrt.h step 4b, goal_connector.h) with connectors written here:
// the planning layer needs no control layer for it.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include "quasidyn/planning/goal_connector.h"
#include "quasidyn/planning/object_space.h"
#include "quasidyn/planning/plan_path.h"
#include "quasidyn/planning/rrt.h"
#include "quasidyn/scenes/scene_loading.h"
#include "quasidyn/testing/matrix_compare.h"
#include "quasidyn/testing/pusher_box_scene.h"

namespace quasidyn {
namespace {

// A pusher on a prismatic x joint touching a free box from behind (no gravity): commanding the
// pusher forward pushes the box along x.
const std::string kConnectionScene = testing::PusherBoxYaml("connection_push", 0.0, -0.12);

// The box's goal x [m] and where the pusher's centre touches the box then: goal − half the box
// (0.1 m) − the sphere's radius (0.02 m).
constexpr double kConnectionGoalX = 0.1;
constexpr double kConnectionTouchX = kConnectionGoalX - 0.12;

ScenePtr ConnectionScene() {
  return std::make_shared<const Scene>(LoadSceneFromString(kConnectionScene, "scene.yaml", "."));
}

PlanningSettings ConnectionSettings() {
  PlanningSettings s;
  s.goal = Eigen::Vector3d(kConnectionGoalX, 0.0, 0.0);
  s.lower = Eigen::Vector3d(-0.2, -0.1, -0.5);
  s.upper = Eigen::Vector3d(0.2, 0.1, 0.5);
  s.goal_tolerance = 0.01;
  s.p_grasp = 0.0;
  // Without the connection the box cannot reach the goal within the node limit: no extension
  // changes the pusher's command by more than step_size, and the box moves no further than the
  // pusher, so 80 nodes move it by at most 80 · 0.001 = 0.08 m < the goal's 0.1 m − tolerance.
  s.step_size = 0.001;
  s.max_nodes = 80;
  s.seed = 2;
  s.goal_connection = GoalConnectionSettings{};
  s.goal_connection->radius = std::numeric_limits<double>::infinity();  // every node
  s.goal_connection->interval = 1;
  return s;
}

// Records the configurations it is asked from and answers with `answer(q)`.
class ScriptedConnector : public GoalConnector {
 public:
  using Answer = std::function<std::vector<Eigen::VectorXd>(const Eigen::VectorXd&)>;
  ScriptedConnector(Answer answer, std::vector<Eigen::VectorXd>* asked)
      : answer_(std::move(answer)), asked_(asked) {}
  std::vector<Eigen::VectorXd> Connect(const Eigen::VectorXd& q) override {
    asked_->push_back(q);
    return answer_(q);
  }

 private:
  Answer answer_;
  std::vector<Eigen::VectorXd>* asked_;
};

PlanResult PlanWithConnector(const ScenePtr& scene, const PlanningSettings& settings,
                             ScriptedConnector::Answer answer,
                             std::vector<Eigen::VectorXd>* asked) {
  PlannerOptions options;
  if (answer) {
    options.goal_connector = [answer, asked](std::shared_ptr<const StepModel>,
                                             const PlanningSettings&) {
      return std::unique_ptr<GoalConnector>(std::make_unique<ScriptedConnector>(answer, asked));
    };
  }
  return PlanThroughContact(scene, PlanningFormulation(*scene, settings), settings, options);
}

// The pusher ramped from where it is to the touching position in steps of at most 0.05 m, then
// held there for four steps.
std::vector<Eigen::VectorXd> PushToTheGoal(const Eigen::VectorXd& q) {
  const double from = q[3];
  const int ramp =
      std::max(1, static_cast<int>(std::ceil(std::abs(kConnectionTouchX - from) / 0.05)));
  std::vector<Eigen::VectorXd> u;
  for (int k = 1; k <= ramp + 4; ++k) {
    const double s = std::min(1.0, static_cast<double>(k) / ramp);
    u.push_back(Eigen::VectorXd::Constant(1, from + s * (kConnectionTouchX - from)));
  }
  return u;
}

void ExpectSameConnectionTree(const PlanResult& a, const PlanResult& b) {
  ASSERT_EQ(a.nodes.size(), b.nodes.size());
  for (size_t i = 0; i < a.nodes.size(); ++i) {
    ASSERT_EQ(a.nodes[i].parent, b.nodes[i].parent) << "node " << i;
    ASSERT_TRUE(testing::MatricesEqual(a.nodes[i].q, b.nodes[i].q)) << "node " << i;
    ASSERT_TRUE(testing::MatricesEqual(a.nodes[i].u, b.nodes[i].u)) << "node " << i;
  }
}

TEST(GoalConnection, ANodeWithinTheRadiusReachesTheGoalThroughTheConnection) {
  const ScenePtr scene = ConnectionScene();
  const PlanningSettings settings = ConnectionSettings();
  std::vector<Eigen::VectorXd> asked;
  const PlanResult plan = PlanWithConnector(scene, settings, PushToTheGoal, &asked);
  ASSERT_TRUE(plan.found()) << plan.message;
  EXPECT_EQ(plan.statistics.connections, 1);
  ASSERT_GE(plan.statistics.connection_extensions, 1);
  EXPECT_EQ(plan.statistics.connection_attempts, static_cast<int>(asked.size()));
  // The path ends with the connection's chain of one-step extend edges, whose commands are the
  // connector's.
  const int chain = plan.statistics.connection_extensions;
  ASSERT_GT(static_cast<int>(plan.path.size()), chain);
  const Eigen::VectorXd& from = plan.nodes[plan.path[plan.path.size() - 1 - chain]].q;
  const std::vector<Eigen::VectorXd> commands = PushToTheGoal(from);
  for (int k = 0; k < chain; ++k) {
    const PlanNode& node = plan.nodes[plan.path[plan.path.size() - chain + k]];
    EXPECT_EQ(node.edge, EdgeKind::kExtend);
    EXPECT_EQ(node.steps, 1);
    EXPECT_TRUE(testing::MatricesEqual(node.u, commands[k])) << "edge " << k;
  }
  // The replay of the path is the tree (the planner's exact stepper), and ends at the goal.
  const ReplayedPath path = ReplayPlan(scene, plan);
  ASSERT_TRUE(path.trajectory.completed()) << path.trajectory.message;
  EXPECT_LE(path.max_node_deviation, 1e-9);
  EXPECT_LE(path.max_penetration, settings.penetration_tolerance);
  const ObjectSpace space(*scene);
  EXPECT_LE(space.GoalDistance(path.trajectory.FinalConfiguration(), settings.goal, settings),
            settings.goal_tolerance);
  // The same search without a connector does not get there within the node limit.
  std::vector<Eigen::VectorXd> none;
  EXPECT_FALSE(PlanWithConnector(scene, settings, nullptr, &none).found());
}

TEST(GoalConnection, AFailedConnectionAddsNoNodeAndTheSearchGoesOn) {
  const ScenePtr scene = ConnectionScene();
  PlanningSettings settings = ConnectionSettings();
  std::vector<Eigen::VectorXd> none;
  const PlanResult without = PlanWithConnector(scene, settings, nullptr, &none);
  ASSERT_EQ(static_cast<int>(without.nodes.size()), settings.max_nodes);
  const std::vector<std::pair<std::string, ScriptedConnector::Answer>> failures = {
      {"no commands", [](const Eigen::VectorXd&) { return std::vector<Eigen::VectorXd>(); }},
      {"commands that pull away from the goal",
       [](const Eigen::VectorXd& q) {
         return std::vector<Eigen::VectorXd>(3, Eigen::VectorXd::Constant(1, q[3] - 0.05));
       }},
      {"commands of the wrong size", [](const Eigen::VectorXd&) {
         return std::vector<Eigen::VectorXd>(3, Eigen::VectorXd::Zero(2));
       }}};
  for (const auto& [name, answer] : failures) {
    SCOPED_TRACE(name);
    std::vector<Eigen::VectorXd> asked;
    const PlanResult plan = PlanWithConnector(scene, settings, answer, &asked);
    EXPECT_GT(plan.statistics.connection_attempts, 1);
    EXPECT_EQ(plan.statistics.connection_attempts, static_cast<int>(asked.size()));
    EXPECT_EQ(plan.statistics.connections, 0);
    EXPECT_EQ(plan.statistics.connection_extensions, 0);
    ExpectSameConnectionTree(without, plan);  // nothing added, the search as without
  }
}

TEST(GoalConnection, EachNodeIsAskedOnceAndNoMoreOftenThanTheInterval) {
  const ScenePtr scene = ConnectionScene();
  PlanningSettings settings = ConnectionSettings();
  settings.goal_connection->interval = 7;
  std::vector<Eigen::VectorXd> asked;
  const PlanResult plan = PlanWithConnector(
      scene, settings, [](const Eigen::VectorXd&) { return std::vector<Eigen::VectorXd>(); },
      &asked);
  ASSERT_GT(asked.size(), 1u);
  // Attempts are at least `interval` nodes apart: at most one per interval after the first.
  EXPECT_LE(static_cast<int>(asked.size()),
            1 + (static_cast<int>(plan.nodes.size()) - 1) / settings.goal_connection->interval);
  for (size_t i = 0; i < asked.size(); ++i)
    for (size_t j = i + 1; j < asked.size(); ++j)
      EXPECT_FALSE(testing::MatricesEqual(asked[i], asked[j])) << i << ", " << j;
  // Off without the settings' block, connector or not.
  settings.goal_connection.reset();
  asked.clear();
  PlanWithConnector(
      scene, settings, [](const Eigen::VectorXd&) { return std::vector<Eigen::VectorXd>(); },
      &asked);
  EXPECT_TRUE(asked.empty());
}

// regrasp_when_stalled: a connector that never answers leaves the nearest node stalled. Without
// the setting each node is asked once and never from a regrasp edge (a regrasp keeps the objects,
// so it never becomes the nearest node); with it, the stalled nearest node is re-grasped toward
// the goal and the new grasp, which holds the box where the stalled node had it, is asked when
// contact sampling found one.
TEST(GoalConnection, AStalledNearestNodeIsAskedAgainFromANewGrasp) {
  const ScenePtr scene = ConnectionScene();
  const int n_u = scene->nq_u;
  PlanningSettings settings = ConnectionSettings();
  settings.p_grasp = 0.2;
  settings.goal_connection->interval = 3;
  // A goal behind the box: the pusher only pushes it away, so the root stays the nearest node.
  settings.goal = Eigen::Vector3d(-0.1, 0.0, 0.0);
  const auto never = [](const Eigen::VectorXd&) { return std::vector<Eigen::VectorXd>(); };
  const auto asked_from_regrasps = [&](const PlanResult& plan,
                                       const std::vector<Eigen::VectorXd>& asked) {
    int count = 0;
    for (const Eigen::VectorXd& q : asked)
      for (const PlanNode& node : plan.nodes)
        if (node.edge == EdgeKind::kRegrasp && testing::MatricesEqual(node.q, q)) {
          ++count;
          break;
        }
    return count;
  };
  std::vector<Eigen::VectorXd> before;
  const PlanResult off = PlanWithConnector(scene, settings, never, &before);
  ASSERT_GT(before.size(), 0u);
  EXPECT_EQ(off.statistics.connection_regrasps, 0);
  EXPECT_EQ(asked_from_regrasps(off, before), 0);

  settings.goal_connection->regrasp_when_stalled = true;
  std::vector<Eigen::VectorXd> after;
  const PlanResult on = PlanWithConnector(scene, settings, never, &after);
  EXPECT_EQ(on.statistics.connection_attempts, static_cast<int>(after.size()));
  ASSERT_GT(on.statistics.connection_regrasps, 0);
  // Every attempt from a regrasp edge is a retry (a retry whose contact sampling found no usable
  // grasp makes no attempt: this pusher's one joint seldom gives one).
  EXPECT_LE(asked_from_regrasps(on, after), on.statistics.connection_regrasps);
  EXPECT_LE(on.statistics.connection_regrasps - asked_from_regrasps(on, after),
            on.statistics.failed_grasps);
  // Each retry's grasp holds the objects where its stalled parent had them.
  for (const PlanNode& node : on.nodes) {
    if (node.edge != EdgeKind::kRegrasp) continue;
    EXPECT_TRUE(testing::MatricesEqual(node.q.head(n_u), on.nodes[node.parent].q.head(n_u)));
  }
  // Still at most one attempt per interval of new nodes.
  EXPECT_LE(static_cast<int>(after.size()),
            1 + (static_cast<int>(on.nodes.size()) - 1) / settings.goal_connection->interval);
}

TEST(GoalConnection, SettingsOutOfRangeAreNamed) {
  const ScenePtr scene = ConnectionScene();
  PlanningSettings settings = ConnectionSettings();
  settings.goal_connection->horizon = 0;
  try {
    ValidatePlanningSettings(settings, *scene);
    ADD_FAILURE() << "no error";
  } catch (const std::invalid_argument& e) {
    EXPECT_EQ(std::string(e.what()).rfind("planning.goal_connection.horizon: must be >= 1", 0), 0u)
        << e.what();
  }
  settings = ConnectionSettings();
  settings.goal_connection->radius = std::nan("");
  EXPECT_THROW(ValidatePlanningSettings(settings, *scene), std::invalid_argument);
}

}  // namespace
}  // namespace quasidyn
