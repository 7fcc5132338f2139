#include "quasidyn/planning/plan_json.h"

#include <gtest/gtest.h>

#include <limits>

#include "quasidyn/simulation/trajectory_json.h"
#include "quasidyn/testing/example_states.h"
#include "quasidyn/testing/matrix_compare.h"
#include "quasidyn/testing/scratch_files.h"

namespace quasidyn {
namespace {

struct Planned {
  ScenePtr scene;
  PlanResult plan;
  ReplayedPath path;
};

Planned SmallPlan() {
  Planned out;
  out.scene = testing::LoadExample("planar_hand");
  PlanningSettings settings = *out.scene->planning;
  settings.max_nodes = 60;
  settings.p_grasp = 0.3;
  out.plan = PlanThroughContact(out.scene, PlanningFormulation(*out.scene, settings), settings);
  out.path = ReplayPlan(out.scene, out.plan);
  return out;
}

// The file is a trajectory file of the path (what `quasidyn view` reads) plus the tree, and both
// read back bit for bit.
TEST(PlanJson, RoundTripsTheTreeAndThePath) {
  const Planned p = SmallPlan();
  const testing::ScratchDirectory dir;
  const std::string file = (dir / "plan.json").string();
  WritePlanFile(p.plan, p.path, file);
  const Trajectory trajectory = ReadTrajectoryFile(file);
  ASSERT_EQ(trajectory.steps.size(), p.path.trajectory.steps.size());
  for (size_t k = 0; k < trajectory.steps.size(); ++k)
    EXPECT_TRUE(testing::MatricesEqual(trajectory.steps[k].q, p.path.trajectory.steps[k].q));

  const PlanFile read = ReadPlanFile(file);
  EXPECT_EQ(read.status, p.plan.status);
  EXPECT_EQ(read.message, p.plan.message);
  EXPECT_EQ(read.best_node, p.plan.best_node);
  EXPECT_EQ(read.best_distance, p.plan.best_distance);
  EXPECT_EQ(read.path, p.plan.path);
  EXPECT_EQ(read.step_edges, p.path.step_edges);
  ASSERT_EQ(read.nodes.size(), p.plan.nodes.size());
  int regrasps = 0;
  for (size_t i = 0; i < read.nodes.size(); ++i) {
    EXPECT_TRUE(testing::MatricesEqual(read.nodes[i].q, p.plan.nodes[i].q));
    EXPECT_TRUE(testing::MatricesEqual(read.nodes[i].u, p.plan.nodes[i].u));
    EXPECT_EQ(read.nodes[i].parent, p.plan.nodes[i].parent);
    EXPECT_EQ(read.nodes[i].edge, p.plan.nodes[i].edge);
    EXPECT_EQ(read.nodes[i].steps, p.plan.nodes[i].steps);
    EXPECT_EQ(read.nodes[i].substeps, p.plan.nodes[i].substeps);
    EXPECT_EQ(read.nodes[i].goal_distance, p.plan.nodes[i].goal_distance);
    regrasps += read.nodes[i].edge == EdgeKind::kRegrasp;
  }
  EXPECT_GT(regrasps, 0);
  // The settings and statistics the search used.
  const nlohmann::json j = PlanToJson(p.plan, p.path);
  EXPECT_EQ(j["plan"]["settings"]["limits"]["max_nodes"], 60);
  EXPECT_EQ(j["plan"]["settings"]["metric"]["type"], "log-barrier");
  EXPECT_EQ(j["plan"]["statistics"]["iterations"], p.plan.statistics.iterations);
  EXPECT_EQ(j["plan"]["settings"]["penetration_tolerance"], 1e-3);
  EXPECT_EQ(j["plan"]["path"]["max_penetration"], p.path.max_penetration);
  // A file from before substeps reads as plain steps.
  nlohmann::json old = j;
  old["plan"]["tree"].erase("substeps");
  for (const PlanNode& node : PlanFromJson(old).nodes) EXPECT_EQ(node.substeps, 1);
}

// The settings of a plan file read back as the planning block they were (what a replan from the
// file uses, control/replanning.h): every field the search reads, infinities included.
TEST(PlanJson, SettingsReadBackForANewPlan) {
  Planned p = SmallPlan();
  PlanningSettings& s = p.plan.settings;
  s.regrasp = RegraspExecution::kPhysical;
  s.seed = 17;
  s.time_limit = std::numeric_limits<double>::infinity();
  s.region_lower = Eigen::Vector3d(-0.1, 0.0, -4.0);
  s.region_upper = Eigen::Vector3d(0.1, 0.2, 4.0);
  const testing::ScratchDirectory dir;
  const std::string file = (dir / "plan.json").string();
  WritePlanFile(p.plan, p.path, file);
  const PlanningSettings read = PlanningSettingsOfPlanFile(file, *p.scene);
  EXPECT_TRUE(testing::MatricesEqual(read.goal, s.goal));
  EXPECT_TRUE(testing::MatricesEqual(read.lower, s.lower));
  EXPECT_TRUE(testing::MatricesEqual(read.upper, s.upper));
  EXPECT_TRUE(testing::MatricesEqual(read.region_lower, s.region_lower));
  EXPECT_TRUE(testing::MatricesEqual(read.region_upper, s.region_upper));
  EXPECT_EQ(read.regrasp, RegraspExecution::kPhysical);
  EXPECT_EQ(read.seed, 17u);
  EXPECT_EQ(read.time_limit, std::numeric_limits<double>::infinity());
  EXPECT_EQ(read.max_nodes, s.max_nodes);
  EXPECT_EQ(read.goal_tolerance, s.goal_tolerance);
  EXPECT_EQ(read.step_size, s.step_size);
  EXPECT_EQ(read.p_grasp, s.p_grasp);
  EXPECT_EQ(read.penetration_tolerance, s.penetration_tolerance);
  EXPECT_EQ(read.kappa, s.kappa);
  // A trajectory file is not a plan file.
  const std::string trajectory = (dir / "path.json").string();
  WriteTrajectoryFile(p.path.trajectory, trajectory);
  EXPECT_THROW(PlanningSettingsOfPlanFile(trajectory, *p.scene), std::invalid_argument);
}

TEST(PlanJson, BadContentNamesTheField) {
  const Planned p = SmallPlan();
  const nlohmann::json good = PlanToJson(p.plan, p.path);
  const auto expect_error = [&](nlohmann::json j, const std::string& field) {
    try {
      PlanFromJson(j);
      ADD_FAILURE() << "no error for " << field;
    } catch (const std::invalid_argument& e) {
      EXPECT_NE(std::string(e.what()).find(field), std::string::npos) << e.what();
    }
  };
  nlohmann::json j = good;
  j.erase("plan");
  expect_error(j, "plan: missing");
  j = good;
  j["plan"]["format_version"] = 99;
  expect_error(j, "plan.format_version");
  j = good;
  j["plan"]["tree"]["parent"][1] = 7;  // not an earlier node
  expect_error(j, "plan.tree.parent[1]");
  j = good;
  j["plan"]["tree"]["q"][0] = {1.0, 2.0};
  expect_error(j, "plan.tree.q[0]");
  j = good;
  j["plan"]["tree"]["edge"][2] = "teleport";
  expect_error(j, "plan.tree.edge[2]");
  j = good;
  j["plan"]["tree"]["substeps"][1] = 0;
  expect_error(j, "plan.tree.substeps[1]");
  j = good;
  j["plan"]["status"] = "maybe";
  expect_error(j, "plan.status");
  // Non-finite numbers: a tree's 1e400 (±∞ once read) and the path's time written "NaN".
  j = good;
  j["plan"]["tree"]["q"][1][0] = std::numeric_limits<double>::infinity();
  expect_error(j, "plan.tree.q[1][0]: must be a finite number");
  j = good;
  j["steps"][0]["t"] = "NaN";
  expect_error(j, "steps[0] (k = 1).t: must be a finite number");
  EXPECT_THROW(ReadPlanFile("/nonexistent/plan.json"), std::runtime_error);
}

}  // namespace
}  // namespace quasidyn
