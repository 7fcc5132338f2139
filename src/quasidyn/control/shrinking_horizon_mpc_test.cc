#include "quasidyn/control/shrinking_horizon_mpc.h"

#include <gtest/gtest.h>

#include <iostream>
#include <stdexcept>

#include "quasidyn/control/plant_study.h"
#include "quasidyn/control/stabilizer.h"
#include "quasidyn/control/trajectory_optimizer.h"
#include "quasidyn/testing/control_tasks.h"

namespace quasidyn {
namespace {

struct TaskPlan {
  testing::ControlTask task;
  OptimizationResult plan;
};

// The 3D box-turning plan (testing/control_tasks.h), optimised once.
const TaskPlan& BoxPlan() {
  static const TaskPlan box = [] {
    TaskPlan b;
    b.task = testing::BoxTurn(QUASIDYN_SOURCE_DIR);
    b.plan = TrajectoryOptimizer(b.task.model, b.task.settings).Optimize(b.task.q0, b.task.u0);
    return b;
  }();
  return box;
}

ShrinkingHorizonMpcSettings MpcSettings(const TrajectoryOptimizerSettings& s) {
  ShrinkingHorizonMpcSettings m;
  m.object_goal = s.object_goal;
  m.object_weight = s.object_weight;
  m.terminal_weight = s.terminal_weight;
  m.rate_weight = s.rate_weight;
  m.max_deviation = s.trust_region;
  return m;
}

// The 3D task: the optimiser turns the box by 0.3 rad and moves it 5 cm, on the table: within
// 2 mm and 0.01 rad of the goal, with a best cost that never increases.
TEST(BoxTurning3D, OptimiserReachesTheGoalPose) {
  const TaskPlan& box = BoxPlan();
  const OptimizationResult& r = box.plan;
  double previous = r.initial_cost;
  for (const OptimizerIteration& it : r.iterations) {
    EXPECT_LE(it.best_cost, previous);
    previous = it.best_cost;
  }
  const Eigen::VectorXd& q = r.q.back();
  const Eigen::VectorXd& g = box.task.settings.object_goal;
  EXPECT_LT((q.head(3) - g.head(3)).norm(), 0.002) << q.transpose();
  const Eigen::Quaterniond reached(q(3), q(4), q(5), q(6)), goal(g(3), g(4), g(5), g(6));
  EXPECT_LT(reached.normalized().angularDistance(goal), 0.01) << q.transpose();
  EXPECT_LT(r.best_cost, 0.25 * r.initial_cost);
}

// Closed loop on the box (fixed seeds 0 … 9): the start 3 mm off horizontally and friction
// ±20 %, the plan's time step. The plan the optimiser returns now keeps the pusher out of the box
// (trajectory_optimizer.h, a contact tolerance that covers a step's reach, testing::BoxTurn), and
// its open loop already ends within a few mm; neither feedback beats it on this task (docs/
// control.md, "The 3D task"): the MPC stays within 4 times the open loop's mean error, re-plans
// from every state without failing, and the stabiliser's one-step-best correction does worse
// than the open loop (the pusher can only push). The earlier plan, which reached the box through
// its surface, had an open loop 1.6 times worse that the MPC halved.
TEST(BoxTurning3D, ClosedLoopsStayNearTheOpenLoopOfAPhysicalPlan) {
  const TaskPlan& box = BoxPlan();
  EXPECT_LE(box.plan.max_penetration, box.task.settings.penetration_tolerance);
  const auto& model = box.task.model;
  ShrinkingHorizonMpc mpc(model, box.plan.q, box.plan.u, MpcSettings(box.task.settings));
  StabilizerSettings stabilizer_settings;
  stabilizer_settings.max_deviation = box.task.settings.trust_region;
  Stabilizer stabilizer(model, box.plan.q, box.plan.u, stabilizer_settings);
  PlantStudySettings study;
  study.plants = 10;
  study.substeps = 1;
  study.horizontal_offset = true;
  const PlantStudySummary m =
      SummarizePlantStudy(CompareOpenAndClosedLoop(*model, box.plan.q, box.plan.u, &mpc, study));
  const PlantStudySummary s = SummarizePlantStudy(
      CompareOpenAndClosedLoop(*model, box.plan.q, box.plan.u, &stabilizer, study));
  std::cout << "box, mean final error [m]: open " << m.open_mean << ", MPC " << m.closed_mean
            << " (better on " << m.closed_wins << "/10), stabiliser " << s.closed_mean << "\n";
  EXPECT_LT(m.open_mean, 0.005);  // the physical plan is robust to the offset by itself
  EXPECT_LT(m.closed_mean, 4.0 * m.open_mean);
  EXPECT_GT(s.closed_mean, s.open_mean);
}

// On the planar hand with the perturbed plants (the talk's 3 mm offset; our friction ±20 % and
// h/2) the MPC wins on every plant.
TEST(ShrinkingHorizonMpc, BeatsOpenLoopOnThePlanarHand) {
  testing::ControlTask task = testing::PlanarHandTurn(QUASIDYN_SOURCE_DIR);
  const OptimizationResult plan =
      TrajectoryOptimizer(task.model, task.settings).Optimize(task.q0, task.u0);
  ShrinkingHorizonMpc mpc(task.model, plan.q, plan.u, MpcSettings(task.settings));
  PlantStudySettings study;
  study.plants = 5;
  for (const PlantTrial& t : CompareOpenAndClosedLoop(*task.model, plan.q, plan.u, &mpc, study))
    EXPECT_LT(t.closed_error, t.open_error) << "plant " << t.seed;
}

TEST(ShrinkingHorizonMpc, StaysWithinItsBoundAndRejectsBadInput) {
  const TaskPlan& box = BoxPlan();
  ShrinkingHorizonMpcSettings settings = MpcSettings(box.task.settings);
  settings.max_deviation = 1e-3;
  ShrinkingHorizonMpc mpc(box.task.model, box.plan.q, box.plan.u, settings);
  for (int t = 0; t < mpc.steps(); ++t) {
    Eigen::VectorXd q = box.plan.q[t];
    q(1) += 0.005;  // the box 5 mm off sideways
    const Eigen::VectorXd u = mpc.Command(t, q);
    EXPECT_LE((u - box.plan.u[t]).lpNorm<Eigen::Infinity>(), 1e-3 * (1.0 + 1e-6)) << t;
    EXPECT_TRUE(mpc.solver_message().empty()) << mpc.solver_message();
  }
  EXPECT_THROW(mpc.Command(mpc.steps(), box.plan.q[0]), std::invalid_argument);
  EXPECT_THROW(mpc.Command(0, Eigen::VectorXd::Zero(3)), std::invalid_argument);
  std::vector<Eigen::VectorXd> short_q(box.plan.q.begin(), box.plan.q.end() - 1);
  EXPECT_THROW(ShrinkingHorizonMpc(box.task.model, short_q, box.plan.u, settings),
               std::invalid_argument);
  settings.object_goal.resize(3);
  try {
    ShrinkingHorizonMpc(box.task.model, box.plan.q, box.plan.u, settings);
    FAIL() << "a goal of the wrong size was accepted";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("object_goal"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace quasidyn
