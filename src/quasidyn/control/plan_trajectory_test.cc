#include "quasidyn/control/plan_trajectory.h"

#include <gtest/gtest.h>

#include <cmath>
#include <iostream>
#include <stdexcept>

#include "quasidyn/control/trajectory_optimizer.h"
#include "quasidyn/formulations/registry.h"
#include "quasidyn/planning/plan_path.h"
#include "quasidyn/planning/rrt.h"
#include "quasidyn/testing/example_states.h"
#include "quasidyn/testing/outcome_checks.h"
#include "quasidyn/testing/planar_hand_plan.h"
#include "quasidyn/testing/program_settings.h"

namespace quasidyn {
namespace {

// The planner's goal distance D of the ball (planar: position and |Δθ|, weights 1).
double GoalDistance(const Eigen::VectorXd& q, const Eigen::VectorXd& goal) {
  const double dp = (q.head(2) - goal.head(2)).norm();
  const double dtheta = std::remainder(q(2) - goal(2), 2.0 * M_PI);
  return std::hypot(dp, dtheta);
}

// Refining the planner's path: the RRT's plan for the 180° turn, with its regrasps,
// is the initial guess. Its exact rollout reproduces the path; the optimiser (terminal goal
// cost only, so that the path may wander on the way) keeps every regrasp's grasp and brings the
// ball closer to the goal than the planner left it: the angle within 0.01 rad and the goal
// distance D at most half the planner's. It reaches the goal physically: D within the planner's
// goal tolerance, and no two shapes overlap deeper than the penetration tolerance along the
// guess (planned without substeps, so within the planner's) nor along the refined path (the
// optimiser's tolerance; repro row T9). Without the regrasps the same commands end far from
// the goal (the earlier `--initial` behaviour this replaces).
TEST(PlanRefinement, PlanarHandHalfTurnFromThePlannersPathReachesTheGoal) {
  const testing::PlanarHandPlan& hand = testing::PlanarHandHalfTurnWithoutSubsteps();
  ASSERT_TRUE(hand.plan.found()) << hand.plan.message;
  ASSERT_TRUE(hand.path.trajectory.completed()) << hand.path.trajectory.message;
  const Trajectory& path = hand.path.trajectory;
  const int T = static_cast<int>(path.steps.size());
  const InitialGuess guess = GuessFromTrajectory(path, hand.path.step_edges, *hand.model, T);
  int regrasps = 0;
  for (bool r : guess.regrasp) regrasps += r;
  ASSERT_GT(regrasps, 0) << "the plan has no regrasp: the test would not test them";

  TrajectoryOptimizerSettings settings;
  settings.horizon = T;
  settings.iterations = 20;
  settings.object_goal = hand.plan.settings.goal;
  settings.object_weight = Eigen::Vector3d::Zero();
  settings.terminal_weight = Eigen::Vector3d(100.0, 100.0, 10.0);
  settings.rate_weight = 0.01;
  settings.regrasp_steps = guess.regrasp;
  TrajectoryOptimizer optimizer(hand.model, settings);

  // The guess's exact rollout is the planner's path (the replay clears warm starts at each
  // extension; the optimiser's rollout does not, so the two agree to the solver's tolerance).
  std::vector<Eigen::VectorXd> q;
  ASSERT_TRUE(testing::IsOk(optimizer.ExactRollout(hand.scene->q0, guess.u, &q)));
  for (int k = 0; k < T; ++k) {
    EXPECT_LT((q[k + 1] - path.steps[k].q).cwiseAbs().maxCoeff(), 1e-6) << "step " << k + 1;
  }
  const double planner_distance = GoalDistance(path.steps.back().q, settings.object_goal);
  EXPECT_NEAR(planner_distance, hand.plan.best_distance, 1e-6);

  const OptimizationResult result = optimizer.Optimize(hand.scene->q0, guess.u);
  for (int k = 0; k < T; ++k) {
    if (guess.regrasp[k]) {
      EXPECT_EQ(result.u[k], guess.u[k]) << "regrasp step " << k + 1;
    }
  }
  const Eigen::VectorXd& end = result.q.back();
  const double distance = GoalDistance(end, settings.object_goal);
  std::cout << "planner's end: D = " << planner_distance << "; refined: D = " << distance
            << ", error " << (end.head(3) - settings.object_goal).transpose() << "\n";
  EXPECT_LT(std::abs(std::remainder(end(2) - settings.object_goal(2), 2 * M_PI)), 0.01);
  EXPECT_LT(distance, 0.5 * planner_distance);
  EXPECT_LE(distance, hand.plan.settings.goal_tolerance);
  EXPECT_LE(result.initial_penetration, hand.plan.settings.penetration_tolerance);
  EXPECT_LE(result.max_penetration, settings.penetration_tolerance)
      << "the refined path overlaps shapes deeper than the optimiser's tolerance";

  // The same commands with the regrasps dropped end far from the goal.
  TrajectoryOptimizerSettings no_regrasps = settings;
  no_regrasps.regrasp_steps.clear();
  TrajectoryOptimizer plain(hand.model, no_regrasps);
  ASSERT_TRUE(testing::IsOk(plain.ExactRollout(hand.scene->q0, guess.u, &q)));
  EXPECT_GT(GoalDistance(q.back(), settings.object_goal), 5.0 * planner_distance);
}

// `quasidyn optimize --html` said "contacts 0" on every frame: the plan's trajectory recorded
// no contact. Now each step records the contacts found at its start with the model's forces:
// the planner's path (its replay records them) written back as a plan has the same contacts,
// and the same forces to the solver's tolerance; its regrasp steps record none, as the replay.
TEST(PlanToTrajectory, RecordsEachStepsContactsAndForces) {
  const testing::PlanarHandPlan& hand = testing::PlanarHandHalfTurnWithoutSubsteps();
  ASSERT_TRUE(hand.path.trajectory.completed()) << hand.path.trajectory.message;
  const Trajectory& path = hand.path.trajectory;
  std::vector<Eigen::VectorXd> q{path.q0}, u;
  std::vector<bool> regrasp;
  for (size_t k = 0; k < path.steps.size(); ++k) {
    q.push_back(path.steps[k].q);
    u.push_back(path.steps[k].u);
    regrasp.push_back(hand.path.step_edges[k] == EdgeKind::kRegrasp);
  }
  const Trajectory plan = PlanToTrajectory(*hand.model, q, u, regrasp);
  ASSERT_EQ(plan.steps.size(), path.steps.size());
  size_t contacts = 0;
  for (size_t k = 0; k < path.steps.size(); ++k) {
    const std::vector<ContactRecord>& mine = plan.steps[k].contacts;
    const std::vector<ContactRecord>& replayed = path.steps[k].contacts;
    ASSERT_EQ(mine.size(), replayed.size()) << "step " << k + 1;
    contacts += mine.size();
    EXPECT_EQ(plan.steps[k].q, path.steps[k].q) << "the plan's q is kept";
    for (size_t i = 0; i < mine.size(); ++i) {
      EXPECT_EQ(mine[i].shape_a, replayed[i].shape_a);
      EXPECT_EQ(mine[i].shape_b, replayed[i].shape_b);
      EXPECT_NEAR(mine[i].normal_force, replayed[i].normal_force,
                  1e-4 * (1.0 + std::abs(replayed[i].normal_force)))
          << "step " << k + 1 << ", contact " << i;
    }
    if (regrasp[k]) {
      EXPECT_TRUE(mine.empty()) << "regrasp step " << k + 1;
    }
  }
  EXPECT_GT(contacts, 0u) << "the path touches nothing: the test would not test contacts";
  EXPECT_THROW(PlanToTrajectory(*hand.model, q, u, std::vector<bool>(2, false)),
               std::invalid_argument);
}

TEST(PlanRefinement, GuessFromTrajectoryHoldsTheLastCommandAndChecksSizes) {
  const testing::PlanarHandPlan& hand = testing::PlanarHandHalfTurnWithoutSubsteps();
  const Trajectory& path = hand.path.trajectory;
  const int T = static_cast<int>(path.steps.size());
  const InitialGuess longer = GuessFromTrajectory(path, hand.path.step_edges, *hand.model, T + 3);
  ASSERT_EQ(static_cast<int>(longer.u.size()), T + 3);
  EXPECT_EQ(longer.u[T + 2], path.steps.back().u);
  EXPECT_FALSE(longer.regrasp[T + 2]);  // held commands are stepper steps
  const InitialGuess plain = GuessFromTrajectory(path, {}, *hand.model, T);
  for (bool r : plain.regrasp) EXPECT_FALSE(r);
  std::vector<EdgeKind> short_edges(hand.path.step_edges.begin(), hand.path.step_edges.end() - 1);
  EXPECT_THROW(GuessFromTrajectory(path, short_edges, *hand.model, T), std::invalid_argument);
  EXPECT_THROW(GuessFromTrajectory(path, hand.path.step_edges, *hand.model, 0),
               std::invalid_argument);
}

}  // namespace
}  // namespace quasidyn
