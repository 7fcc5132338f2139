#include "quasidyn/control/planner_metric.h"

#include <gtest/gtest.h>

#include <algorithm>

#include "quasidyn/formulations/registry.h"
#include "quasidyn/testing/example_states.h"

namespace quasidyn {
namespace {

// The optimiser's goal cost in the planner's metric: W = the metric's coordinate weights and ρ
// scaled by mean(W), so that a metric and any multiple of it give the same commands (the QP and
// the acceptance test see J / c for J), and the metric's weights, not 1, decide the plan: here 1
// cm counts as 0.1 rad, where weights 1 count 1 m as 1 rad.
TEST(PlannerMetric, OptimiserWeighsTheGoalByThePlannersMetric) {
  const ScenePtr scene = testing::LoadExample("planar_hand");
  const auto model = MakeStepModel(scene, {});
  PlanningSettings metric = *scene->planning;
  metric.position_weight = 10.0;
  metric.rotation_weight = 1.0;
  TrajectoryOptimizerSettings settings;
  settings.horizon = 5;
  settings.iterations = 3;
  settings.object_goal = Eigen::Vector3d(0.0, 0.05, 0.5236);  // the talk's 30° turn
  const TrajectoryOptimizerSettings in_metric = OptimizerInPlannerMetric(settings, *scene, metric);
  EXPECT_EQ(in_metric.object_weight, Eigen::Vector3d(100.0, 100.0, 1.0));
  EXPECT_DOUBLE_EQ(in_metric.rate_weight, settings.rate_weight * 67.0);
  EXPECT_EQ(in_metric.terminal_weight.size(), 0) << "the default 10 W, made by the optimiser";

  std::vector<Eigen::VectorXd> u0;
  for (int k = 0; k < settings.horizon; ++k)
    u0.push_back(model->ScheduledCommand((k + 1) * model->time_step(), State{scene->q0, {}}));
  auto optimize = [&](const TrajectoryOptimizerSettings& s) {
    return TrajectoryOptimizer(model, s).Optimize(scene->q0, u0);
  };
  const OptimizationResult by_metric = optimize(in_metric);
  PlanningSettings doubled = metric;
  doubled.position_weight *= 2.0;
  doubled.rotation_weight *= 2.0;
  const OptimizationResult by_doubled =
      optimize(OptimizerInPlannerMetric(settings, *scene, doubled));
  TrajectoryOptimizerSettings ones = settings;
  ones.object_weight = Eigen::Vector3d::Ones();
  const OptimizationResult by_ones = optimize(ones);
  ASSERT_EQ(by_metric.u.size(), u0.size());
  ASSERT_EQ(by_doubled.u.size(), u0.size());
  ASSERT_EQ(by_ones.u.size(), u0.size());
  EXPECT_NEAR(by_doubled.best_cost, 4.0 * by_metric.best_cost, 1e-7 * by_doubled.best_cost);
  double doubled_apart = 0.0, ones_apart = 0.0;
  for (size_t k = 0; k < u0.size(); ++k) {
    doubled_apart =
        std::max(doubled_apart, (by_doubled.u[k] - by_metric.u[k]).lpNorm<Eigen::Infinity>());
    ones_apart = std::max(ones_apart, (by_ones.u[k] - by_metric.u[k]).lpNorm<Eigen::Infinity>());
  }
  // Each QP is solved to 1e-9, absolute and relative (solvers/qp_problem.h), which a cost 4 times
  // larger meets at other iterates: the commands (of order 1 rad) agree to that times the QPs'
  // conditioning.
  EXPECT_LT(doubled_apart, 1e-6);
  EXPECT_GT(ones_apart, 1e-3);  // the weights change the plan
}

TEST(PlannerMetric, StabiliserCommandWeightScalesWithTheMetric) {
  const ScenePtr scene = testing::LoadExample("planar_hand");
  PlanningSettings metric = *scene->planning;
  metric.position_weight = 2.0;
  metric.rotation_weight = 3.0;
  const StabilizerSettings s = StabilizerInPlannerMetric({}, *scene, metric);
  EXPECT_EQ(s.object_weight, Eigen::Vector3d(4.0, 4.0, 9.0));
  EXPECT_DOUBLE_EQ(s.command_weight, StabilizerSettings().command_weight * 17.0 / 3.0);
}

}  // namespace
}  // namespace quasidyn
