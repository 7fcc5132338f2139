#include "quasidyn/control/replanning.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <stdexcept>
#include <string>

#include "quasidyn/formulations/registry.h"
#include "quasidyn/planning/object_space.h"
#include "quasidyn/planning/plan_path.h"
#include "quasidyn/testing/example_states.h"
#include "quasidyn/testing/matrix_compare.h"

namespace quasidyn {
namespace {

// The planar hand's 180° turn planned with physical regrasps (seed 3): every regrasp is a motion
// the stepper executed, so a plant of the planner's own time step can run it.
struct PhysicalPlan {
  ScenePtr scene;
  PlanningSettings settings;
  std::shared_ptr<const StepModel> model;
  PlanResult result;
  PlanToTrack plan;
};

const PhysicalPlan& HandHalfTurn() {
  static const PhysicalPlan plan = [] {
    PhysicalPlan p;
    p.scene = testing::LoadExample("planar_hand");
    p.settings = *p.scene->planning;
    p.settings.regrasp = RegraspExecution::kPhysical;
    p.settings.seed = 3;
    p.result = PlanThroughContact(p.scene, PlanningFormulation(*p.scene, p.settings), p.settings);
    const ReplayedPath path = ReplayPlan(p.scene, p.result);
    p.model = MakeStepModel(p.scene, p.result.stepping);
    p.plan = PlanToTrackOf(path.trajectory, path.step_edges,
                           PhysicalRegraspSteps(p.result.nodes, p.result.path));
    return p;
  }();
  return plan;
}

// The plant: the scene at the planner's time step h / substeps.
std::shared_ptr<const StepModel> Plant(const PhysicalPlan& p, int substeps) {
  auto scene = std::make_shared<Scene>(*p.scene);
  scene->time_step = p.model->time_step() / substeps;
  return MakeStepModel(scene, {});
}

ReplanningResult Execute(const PhysicalPlan& p, const StepModel& plant,
                         const ReplanningSettings& settings) {
  return ExecuteWithReplanning(p.scene, p.model, p.settings, {}, p.plan, plant, p.scene->q0,
                               settings);
}

TEST(PlanToTrack, TakesTheStepsAndMarksTheRegrasps) {
  Trajectory path;
  path.q0 = Eigen::Vector2d(0, 1);
  for (int k = 0; k < 3; ++k) {
    TrajectoryStep step;
    step.q = Eigen::Vector2d(k + 1, 1);
    step.u = Eigen::VectorXd::Constant(1, k);
    path.steps.push_back(step);
  }
  const PlanToTrack plan =
      PlanToTrackOf(path, {EdgeKind::kExtend, EdgeKind::kRegrasp, EdgeKind::kExtend});
  ASSERT_EQ(plan.q.size(), 4u);
  ASSERT_EQ(plan.u.size(), 3u);
  EXPECT_EQ(plan.q[0], path.q0);
  EXPECT_EQ(plan.q[3], path.steps[2].q);
  EXPECT_EQ(plan.u[1][0], 1.0);
  EXPECT_EQ(plan.regrasp_steps, (std::vector<bool>{false, true, false}));
  EXPECT_EQ(PlanToTrackOf(path, {}).regrasp_steps, (std::vector<bool>{false, false, false}));
  EXPECT_THROW(PlanToTrackOf(path, {EdgeKind::kExtend}), std::invalid_argument);
}

// On a plant of the planner's own time step the physical plan ends just outside the goal
// tolerance (its regrasps executed by the tracker's own motions, not the planner's); a second
// plan from where the plant ended (and a third) brings the ball within it. Every round starts
// where the last one ended, and the joined trajectory has every plant step once.
TEST(Replanning, PlansAgainFromWhereThePlantEndedUntilTheGoal) {
  const PhysicalPlan& p = HandHalfTurn();
  const auto plant = Plant(p, 1);
  ReplanningSettings settings;
  settings.closed_loop = false;
  settings.max_plans = 1;
  const ReplanningResult once = Execute(p, *plant, settings);
  ASSERT_EQ(once.rounds.size(), 1u);
  EXPECT_FALSE(once.reached);
  EXPECT_GT(once.rounds[0].distance, p.settings.goal_tolerance);

  settings.max_plans = 6;
  const ReplanningResult result = Execute(p, *plant, settings);
  ASSERT_GE(result.rounds.size(), 2u);
  EXPECT_TRUE(result.reached) << result.message;
  EXPECT_LE(result.rounds.back().distance, p.settings.goal_tolerance);
  EXPECT_EQ(result.rounds[0].distance, once.rounds[0].distance);  // the same first round
  size_t steps = 0;
  for (size_t r = 0; r < result.rounds.size(); ++r) {
    const ReplanningRound& round = result.rounds[r];
    if (r > 0) {
      EXPECT_EQ(round.start_distance, result.rounds[r - 1].distance) << "round " << r;
      EXPECT_GT(round.planning_seconds, 0.0);
    }
    EXPECT_EQ(round.steps_run, round.steps);  // no replan_deviation: each plan runs to its end
    steps += round.steps_run;
  }
  ASSERT_EQ(result.q.size(), steps + 1);
  EXPECT_EQ(result.u.size(), steps);
  EXPECT_EQ(result.regrasp_steps.size(), steps);
  const ObjectSpace space(*p.scene);
  EXPECT_EQ(space.GoalDistance(result.q.back(), p.settings.goal, p.settings),
            result.rounds.back().distance);
}

// Replanning that cannot cycle: a round that does not end nearer the goal than every earlier one
// by min_progress is a stall, and stall_limit + 1 stalls in a row stop the loop whatever
// max_plans allows. Progress of 10 (D) is more than the whole task's D_0: the first round (which
// ends outside the tolerance, PlansAgainFromWhereThePlantEndedUntilTheGoal) stalls, and with
// stall_limit 0 the loop stops there, where it would otherwise plan again.
TEST(Replanning, StopsAfterRoundsWithoutProgress) {
  const PhysicalPlan& p = HandHalfTurn();
  const auto plant = Plant(p, 1);
  ReplanningSettings settings;
  settings.closed_loop = false;
  settings.max_plans = 6;
  settings.min_progress = 10.0;
  settings.stall_limit = 0;
  const ObjectSpace space(*p.scene);
  const double start = space.GoalDistance(p.scene->q0, p.settings.goal, p.settings);
  ASSERT_LT(start, settings.min_progress);
  const ReplanningResult result = Execute(p, *plant, settings);
  EXPECT_FALSE(result.reached);
  EXPECT_TRUE(result.stalled);
  EXPECT_EQ(result.rounds.size(), 1u) << result.message;
  EXPECT_NE(result.message.find("no progress"), std::string::npos) << result.message;
  EXPECT_EQ(result.best_distance, start);
}

// With replan_deviation, a round stops at the first step where the plant's ball is farther than
// it from the plan's, so every round but the last ends just past the bound.
TEST(Replanning, GivesAPlanUpWhereThePlantLeavesIt) {
  const PhysicalPlan& p = HandHalfTurn();
  const auto plant = Plant(p, 2);
  ReplanningSettings settings;
  settings.closed_loop = false;
  settings.max_plans = 2;
  settings.substeps = 2;
  settings.replan_deviation = 0.05;
  const ReplanningResult result = Execute(p, *plant, settings);
  ASSERT_EQ(result.rounds.size(), 2u) << result.message;
  const ObjectSpace space(*p.scene);
  EXPECT_LT(result.rounds[0].steps_run, result.rounds[0].steps);
  EXPECT_TRUE(result.rounds[0].tracking.stopped);
  // The ball at the stop lies beyond the bound from the plan's configuration of that step, and
  // within it at the step before (when there is one).
  const int t = result.rounds[0].steps_run;
  const Eigen::VectorXd& stop_q = result.q[t];
  EXPECT_GT(space.GoalDistance(stop_q, p.plan.q[t].head(p.scene->nq_u), p.settings), 0.05);
  if (t > 1) {
    EXPECT_LE(space.GoalDistance(result.q[t - 1], p.plan.q[t - 1].head(p.scene->nq_u), p.settings),
              0.05);
  }
}

// A regrasp whose motion the tracker refuses (max_motion_steps 1: every motion is longer) ends
// its round where the plant is, not the loop: the next plan starts there. The planar hand's
// 180° plan with reset regrasps (seed 3) has one, which the plant reaches.
TEST(Replanning, ARefusedRegraspMotionEndsItsRoundOnly) {
  const ScenePtr scene = testing::LoadExample("planar_hand");
  PlanningSettings planning = *scene->planning;
  planning.seed = 3;
  const PlanResult result =
      PlanThroughContact(scene, PlanningFormulation(*scene, planning), planning);
  const ReplayedPath path = ReplayPlan(scene, result);
  const PlanToTrack plan = PlanToTrackOf(path.trajectory, path.step_edges);
  const auto first = std::find(plan.regrasp_steps.begin(), plan.regrasp_steps.end(), true);
  ASSERT_NE(first, plan.regrasp_steps.end()) << "the plan has a regrasp";
  const int t = static_cast<int>(first - plan.regrasp_steps.begin());
  const auto model = MakeStepModel(scene, result.stepping);
  ReplanningSettings settings;
  settings.closed_loop = false;
  settings.max_plans = 2;
  settings.min_progress = 0.0;
  settings.tracking.regrasp.max_motion_steps = 1;
  const ReplanningResult run =
      ExecuteWithReplanning(scene, model, planning, {}, plan, *model, scene->q0, settings);
  ASSERT_EQ(run.rounds.size(), 2u) << run.message;
  const TrackingResult& refused = run.rounds[0].tracking;
  EXPECT_TRUE(refused.regrasp_refused);
  EXPECT_NE(refused.message.find("max_motion_steps"), std::string::npos) << refused.message;
  EXPECT_EQ(run.rounds[0].steps_run, t) << "the round stops at the regrasp";
  EXPECT_EQ(run.rounds[1].start_distance, run.rounds[0].distance);
  EXPECT_EQ(run.q[t], refused.q.back()) << "the next plan starts where the plant is";
}

TEST(PlanToTrack, MarksThePhysicalRegraspsSteps) {
  const PhysicalPlan& p = HandHalfTurn();
  size_t physical_steps = 0;
  for (size_t k = 1; k < p.result.path.size(); ++k) {
    const PlanNode& node = p.result.nodes[p.result.path[k]];
    if (node.edge == EdgeKind::kRegrasp) physical_steps += node.commands.size();
  }
  ASSERT_GT(physical_steps, 0u);
  const std::vector<bool> physical = PhysicalRegraspSteps(p.result.nodes, p.result.path);
  ASSERT_EQ(physical.size(), p.plan.u.size());
  EXPECT_EQ(static_cast<size_t>(std::count(physical.begin(), physical.end(), true)),
            physical_steps);
  EXPECT_EQ(p.plan.physical_regrasp_steps, physical);
  EXPECT_THROW(PhysicalRegraspSteps(p.result.nodes, {0, static_cast<int>(p.result.nodes.size())}),
               std::invalid_argument);
}

// Closed loop, an empty object weight puts the stabiliser's cost in the planner's metric: the
// same run as with StabilizerInPlannerMetric's settings given, and not the run of weights 1 (the
// metric here weighs 1 cm as 0.1 rad, not the scene's 1 m as 1 rad).
TEST(Replanning, StabiliserWeighsTheObjectsByThePlannersMetric) {
  const PhysicalPlan& p = HandHalfTurn();
  const auto plant = Plant(p, 2);
  PlanningSettings metric = p.settings;
  metric.position_weight = 10.0;
  metric.rotation_weight = 1.0;
  auto execute = [&](const ReplanningSettings& settings) {
    return ExecuteWithReplanning(p.scene, p.model, metric, {}, p.plan, *plant, p.scene->q0,
                                 settings);
  };
  ReplanningSettings settings;
  settings.max_plans = 1;
  const ReplanningResult by_default = execute(settings);
  const StabilizerSettings in_metric = StabilizerInPlannerMetric({}, *p.scene, metric);
  EXPECT_EQ(in_metric.object_weight, Eigen::Vector3d(100.0, 100.0, 1.0));
  EXPECT_DOUBLE_EQ(in_metric.command_weight, StabilizerSettings().command_weight * 67.0);
  settings.stabilizer = in_metric;
  const ReplanningResult by_metric = execute(settings);
  settings.stabilizer = StabilizerSettings();
  settings.stabilizer.object_weight = Eigen::VectorXd::Ones(3);
  const ReplanningResult by_ones = execute(settings);
  ASSERT_EQ(by_default.q.size(), by_metric.q.size());
  for (size_t t = 0; t < by_default.q.size(); ++t) EXPECT_EQ(by_default.q[t], by_metric.q[t]);
  double largest_difference = 0.0;
  for (size_t t = 0; t < std::min(by_ones.q.size(), by_default.q.size()); ++t)
    largest_difference =
        std::max(largest_difference, (by_ones.q[t] - by_default.q[t]).lpNorm<Eigen::Infinity>());
  EXPECT_GT(largest_difference, 1e-6);  // the weights change the commands
}

TEST(Replanning, RefusesSettingsOutOfRangeAndAnotherPlant) {
  const PhysicalPlan& p = HandHalfTurn();
  const auto plant = Plant(p, 1);
  ReplanningSettings settings;
  settings.max_plans = 0;
  EXPECT_THROW(Execute(p, *plant, settings), std::invalid_argument);
  settings.max_plans = 1;
  settings.replan_deviation = -1.0;
  EXPECT_THROW(Execute(p, *plant, settings), std::invalid_argument);
  settings.replan_deviation = std::nan("");
  EXPECT_THROW(Execute(p, *plant, settings), std::invalid_argument);
  settings.replan_deviation = 0.0;
  settings.stabilizer.smoothing = 0.0;
  EXPECT_THROW(Execute(p, *plant, settings), std::invalid_argument);
  const auto other = MakeStepModel(testing::LoadExample("planar_pushing"), {});
  settings.stabilizer.smoothing = 5000.0;
  try {
    Execute(p, *other, settings);
    ADD_FAILURE() << "a plant of other coordinates was accepted";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("does not match the model"), std::string::npos)
        << e.what();
  }
}

}  // namespace
}  // namespace quasidyn
