// The page of a plan executed on a plant (execution_page.h): the plant's run as the page's own,
// the plans as one overlay that shows at each time the plan then running, the `execution` data
// (times, distances, where each plan starts), and bad views refused with what is wrong named.
#include "quasidyn/viewer/execution_page.h"

#include <gtest/gtest.h>

#include <stdexcept>
#include <string>
#include <vector>

#include "quasidyn/scenes/scene_loading.h"

namespace quasidyn {
namespace {

using nlohmann::json;
const std::string kExecutionExamples = std::string(QUASIDYN_SOURCE_DIR) + "/examples/";
constexpr double kPlanStep = 0.1;  // the plan's time step [s]

// q0 with the box moved by dx [m] along x (its first coordinate).
Eigen::VectorXd BoxMovedBy(const Scene& scene, double dx) {
  Eigen::VectorXd q = scene.q0;
  q[0] += dx;
  return q;
}

// The plant's run: `steps` control steps moving the box 1 cm each.
Trajectory PlantRunOf(const Scene& scene, int steps) {
  Trajectory run;
  run.scene_name = scene.name;
  run.formulation = "qp";
  run.time_step = kPlanStep;
  run.nq = scene.nq;
  run.q0 = scene.q0;
  for (int k = 1; k <= steps; ++k) {
    TrajectoryStep step;
    step.k = k;
    step.t = k * kPlanStep;
    step.q = BoxMovedBy(scene, 0.01 * k);
    step.status = SolverStatus::kSolved;
    run.steps.push_back(step);
  }
  run.steps_requested = run.steps_done = steps;
  run.status = SolverStatus::kSolved;
  return run;
}

// A plan of `steps` steps from the box at dx, 2 cm a step.
ExecutedPlan PlanFrom(const Scene& scene, double dx, int steps, double start_time, int steps_run) {
  ExecutedPlan plan;
  for (int j = 0; j <= steps; ++j) plan.q.push_back(BoxMovedBy(scene, dx + 0.02 * j));
  plan.start_time = start_time;
  plan.time_step = kPlanStep;
  plan.steps_run = steps_run;
  for (int j = 0; j <= steps; ++j) plan.distance.push_back(0.5 - 0.1 * j);
  return plan;
}

json ExecutionPageData(const std::string& html) {
  const std::string open = "<script id=\"quasidyn-data\" type=\"application/json\">";
  const size_t start = html.find(open) + open.size();
  return json::parse(html.substr(start, html.find("</script>", start) - start));
}

class ExecutionPage : public ::testing::Test {
 protected:
  Scene scene = LoadScene(kExecutionExamples + "planar_pushing/scene.yaml");
  Trajectory plant = PlantRunOf(scene, 5);
  // Plan 0 (4 steps) ran 2 steps; plan 1 (3 steps), made where the plant was at t = 2h, ran 3.
  ExecutionView View() const {
    ExecutionView view;
    view.plant = &plant;
    view.plans = {PlanFrom(scene, 0.0, 4, 0.0, 2), PlanFrom(scene, 0.02, 3, 2 * kPlanStep, 3)};
    view.plans[0].max_penetration = 1e-4;
    view.plans[1].max_penetration = 3e-4;
    view.plant_distance = {0.5, 0.45, 0.4, 0.35, 0.3, 0.25};
    view.goal_tolerance = 0.05;
    view.notes = "plan  found ...";
    return view;
  }
};

TEST_F(ExecutionPage, DrawsThePlantsRunWithThePlanRunningAtEachTime) {
  const json data = ExecutionPageData(ExecutionHtmlToString(scene, View()));
  EXPECT_EQ(data["frames"]["t"].size(), 6u);  // the plant's q_0 … q_5
  ASSERT_EQ(data["overlays"].size(), 1u);
  // Plan 0's q_0, q_1 (its q_2 at 2h is where plan 1 starts), then plan 1's q_0 … q_3.
  const json& overlay = data["overlays"][0];
  EXPECT_EQ(overlay["t"], json({0.0, 0.1, 0.2, 0.3, 0.4, 0.5}));
  EXPECT_EQ(overlay["label"], "plans (2, each from its start)");
  const json& execution = data["execution"];
  EXPECT_EQ(execution["plant"]["t"].size(), 6u);
  EXPECT_DOUBLE_EQ(execution["plant"]["max_penetration"], 3e-4);  // the deepest of the plans'
  ASSERT_EQ(execution["plans"].size(), 2u);
  EXPECT_EQ(execution["plans"][1]["start_time"], 0.2);
  EXPECT_EQ(execution["plans"][1]["t"], json({0.2, 0.3, 0.4, 0.5}));
  EXPECT_EQ(execution["plans"][0]["steps"], 4);
  EXPECT_EQ(execution["plans"][0]["steps_run"], 2);
  EXPECT_EQ(execution["plans"][0]["distance"].size(), 5u);
  EXPECT_EQ(execution["goal_tolerance"], 0.05);
  EXPECT_EQ(data["notes"], "plan  found ...");
}

TEST_F(ExecutionPage, WithoutAGoalHasNoDistances) {
  ExecutionView view = View();
  view.plant_distance.clear();
  for (ExecutedPlan& plan : view.plans) plan.distance.clear();
  const json data = ExecutionPageData(ExecutionHtmlToString(scene, view));
  EXPECT_TRUE(data["execution"]["plant"]["distance"].empty());
  EXPECT_FALSE(data["execution"].contains("goal_tolerance"));
}

// `change` applied to a good view is refused with a message containing `expected`.
void ExpectExecutionRefused(const Scene& scene, ExecutionView view, const std::string& expected) {
  try {
    ExecutionHtmlToString(scene, view);
    ADD_FAILURE() << "accepted; expected: " << expected;
  } catch (const std::invalid_argument& error) {
    EXPECT_NE(std::string(error.what()).find(expected), std::string::npos) << error.what();
  }
}

TEST_F(ExecutionPage, RefusesAViewThatDoesNotFitNamingWhatIsWrong) {
  ExecutionView view = View();
  view.plans[1].q[2] = Eigen::VectorXd::Zero(scene.nq + 1);  // a configuration of another scene
  ExpectExecutionRefused(scene, view,
                         "plan 1, q_2: " + std::to_string(scene.nq + 1) + " numbers, the scene '" +
                             scene.name + "' has n_q = " + std::to_string(scene.nq));
  view = View();
  view.plans[1].start_time = 0.05 - kPlanStep;
  ExpectExecutionRefused(scene, view, "plan 1 starts at t = -0.05");
  view = View();
  view.plans[1].start_time = 6 * kPlanStep;  // after the plant's run ended (5h)
  ExpectExecutionRefused(scene, view, "plan 1 starts at t = 0.6");
  view = View();
  view.plans[0].start_time = kPlanStep;
  ExpectExecutionRefused(scene, view, "the first plan starts the run");
  view = View();
  view.plans[1].time_step = 0.0;
  ExpectExecutionRefused(scene, view, "plan 1: time step h = 0.000000 s; expected > 0");
  view = View();
  view.plans[0].steps_run = 5;
  ExpectExecutionRefused(scene, view, "plan 0: steps_run 5 is outside [0, 4]");
  view = View();
  view.plant_distance.pop_back();
  ExpectExecutionRefused(scene, view, "the plant's run: 5 distances to the goal, expected 6");
  view = View();
  view.plans[0].distance[1] = -1.0;
  ExpectExecutionRefused(scene, view, "plan 0: distance 1 to the goal is -1");
  view = View();
  view.plans.clear();
  ExpectExecutionRefused(scene, view, "no plan given");
  view = View();
  view.plant = nullptr;
  ExpectExecutionRefused(scene, view, "no plant run given");
  const Scene other = LoadScene(kExecutionExamples + "planar_hand/scene.yaml");
  ExpectExecutionRefused(other, View(), "a run of another scene");
}

}  // namespace
}  // namespace quasidyn
