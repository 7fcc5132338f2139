#include "quasidyn/control/trajectory_optimizer.h"

#include <gtest/gtest.h>

#include <Eigen/Eigenvalues>
#include <algorithm>
#include <cmath>
#include <limits>
#include <random>
#include <set>
#include <stdexcept>

#include "quasidyn/control/trajopt_qp.h"
#include "quasidyn/testing/control_tasks.h"
#include "quasidyn/testing/failing_step_model.h"
#include "quasidyn/testing/outcome_checks.h"

namespace quasidyn {
namespace {

using testing::PlanarHandTurn;
using testing::PlanarPushingGoal;

// Random subproblem data: the QP's objective at δu must equal J(prediction) − J(0).
TrajoptQpData RandomData(int H, int nq, int nu, int no, std::mt19937_64* rng) {
  std::normal_distribution<double> n(0.0, 1.0);
  auto mat = [&](int r, int c) {
    Eigen::MatrixXd m(r, c);
    for (int i = 0; i < m.size(); ++i) m.data()[i] = n(*rng);
    return m;
  };
  TrajoptQpData d;
  d.object_size = no;
  for (int k = 0; k < H; ++k) {
    d.A.push_back(Eigen::MatrixXd::Identity(nq, nq) + 0.1 * mat(nq, nq));
    d.B.push_back(mat(nq, nu));
    d.q_nominal.push_back(mat(nq, 1));
    d.u_nominal.push_back(mat(nu, 1));
  }
  d.u_before = mat(nu, 1);
  d.dq0 = 0.1 * mat(nq, 1);
  d.goal = mat(no, 1);
  d.object_weight = mat(no, 1).cwiseAbs();
  d.terminal_weight = 10.0 * d.object_weight;
  d.rate_weight = 0.3;
  d.trust_region = 0.2;
  return d;
}

TEST(TrajoptQp, ObjectiveIsTheCostChangeOfTheLinearisedTrajectory) {
  std::mt19937_64 rng(7);
  const TrajoptQpData d = RandomData(5, 4, 2, 3, &rng);
  QpProblem qp;
  BuildTrajoptQp(d, &qp);
  const Eigen::MatrixXd P = qp.Q.ToDense();
  std::vector<Eigen::VectorXd> u0 = d.u_nominal;
  const double cost0 = TrajoptCost(d, PredictedStates(d, Eigen::VectorXd::Zero(10)), u0);
  std::normal_distribution<double> n(0.0, 1.0);
  for (int trial = 0; trial < 5; ++trial) {
    Eigen::VectorXd du(10);
    for (int i = 0; i < 10; ++i) du(i) = n(rng);
    std::vector<Eigen::VectorXd> u = u0;
    for (int k = 0; k < 5; ++k) u[k] += du.segment(2 * k, 2);
    const double change = TrajoptCost(d, PredictedStates(d, du), u) - cost0;
    const double model = 0.5 * du.dot(P * du) + qp.c.dot(du);
    EXPECT_NEAR(model, change, 1e-10 * (1.0 + std::abs(cost0)));
  }
  // Trust-region rows: δu >= −r and −δu >= −r.
  EXPECT_EQ(qp.G.rows(), 20);
  EXPECT_DOUBLE_EQ(qp.h(0), -0.2);
}

TEST(TrajoptQp, RejectsInconsistentData) {
  std::mt19937_64 rng(1);
  TrajoptQpData d = RandomData(3, 4, 2, 3, &rng);
  QpProblem qp;
  d.rate_weight = 0.0;
  EXPECT_THROW(BuildTrajoptQp(d, &qp), std::invalid_argument);
  d.rate_weight = 1.0;
  d.goal.resize(2);
  EXPECT_THROW(BuildTrajoptQp(d, &qp), std::invalid_argument);
}

TEST(TrajectoryOptimizer, BadInputNamesWhatIsWrong) {
  testing::ControlTask task = PlanarHandTurn(QUASIDYN_SOURCE_DIR);
  auto settings = task.settings;
  settings.object_goal.resize(2);
  try {
    TrajectoryOptimizer(task.model, settings);
    FAIL() << "a goal of the wrong size was accepted";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("object_goal"), std::string::npos) << e.what();
  }
  settings = task.settings;
  settings.horizon = 0;
  try {
    TrajectoryOptimizer(task.model, settings);
    FAIL() << "horizon 0 was accepted";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("horizon"), std::string::npos) << e.what();
  }
  TrajectoryOptimizer optimizer(task.model, task.settings);
  std::vector<Eigen::VectorXd> short_guess(task.u0.begin(), task.u0.begin() + 3);
  EXPECT_THROW(optimizer.Optimize(task.q0, short_guess), std::invalid_argument);
  auto nan_guess = task.u0;
  nan_guess[2](1) = NAN;
  EXPECT_THROW(optimizer.Optimize(task.q0, nan_guess), std::invalid_argument);
}

// The talk's task: turn the ball by 30°. The best exact cost never increases, and the ball
// ends within 3° of the goal angle.
TEST(TrajectoryOptimizer, PlanarHandReachesThirtyDegreesWithMonotoneBestCost) {
  testing::ControlTask task = PlanarHandTurn(QUASIDYN_SOURCE_DIR);
  task.settings.iterations = 20;
  TrajectoryOptimizer optimizer(task.model, task.settings);
  const OptimizationResult result = optimizer.Optimize(task.q0, task.u0);
  double previous = result.initial_cost;
  for (const OptimizerIteration& it : result.iterations) {
    EXPECT_LE(it.best_cost, previous) << "iteration " << it.index;
    previous = it.best_cost;
    if (!it.accepted) {
      EXPECT_NE(it.message.find("trust region shrunk"), std::string::npos) << it.message;
    }
  }
  EXPECT_LT(result.best_cost, 0.1 * result.initial_cost);
  const double angle = result.q.back()(2) - task.q0(2);
  EXPECT_NEAR(angle, M_PI / 6.0, M_PI / 60.0) << "final ball angle " << angle;
  // The best iterate is an exact rollout of its commands.
  std::vector<Eigen::VectorXd> q;
  ASSERT_TRUE(testing::IsOk(optimizer.ExactRollout(task.q0, result.u, &q)));
  EXPECT_EQ(q.back(), result.q.back());
  EXPECT_DOUBLE_EQ(optimizer.Cost(q, result.u), result.best_cost);
  // A second run from the same guess repeats the first bitwise: no warm start carries over (the
  // log barrier's previous minimisers differed by 1.7e-12 in u before).
  const OptimizationResult again = optimizer.Optimize(task.q0, task.u0);
  ASSERT_EQ(again.u.size(), result.u.size());
  for (size_t k = 0; k < result.u.size(); ++k) EXPECT_EQ(again.u[k], result.u[k]) << "step " << k;
  EXPECT_EQ(again.best_cost, result.best_cost);
}

// A planar angle's goal and the same angle plus 2πk are one orientation: the cost is taken on the
// branch nearest the guess's final angle, so adding ±2π to the goal changes neither the initial
// cost nor the optimisation (the refinement of a planner's path that turned the ball by −π
// toward a goal of +π was charged for 2π before).
TEST(TrajectoryOptimizer, GoalAngleOnTheGuessBranch) {
  testing::ControlTask task = PlanarHandTurn(QUASIDYN_SOURCE_DIR);
  task.settings.iterations = 3;
  const OptimizationResult reference =
      TrajectoryOptimizer(task.model, task.settings).Optimize(task.q0, task.u0);
  for (const double turns : {-1.0, 1.0, 2.0}) {
    TrajectoryOptimizerSettings shifted = task.settings;
    shifted.object_goal(2) += 2 * M_PI * turns;
    const OptimizationResult result =
        TrajectoryOptimizer(task.model, shifted).Optimize(task.q0, task.u0);
    const double scale = std::max(1.0, reference.initial_cost);
    EXPECT_NEAR(result.initial_cost, reference.initial_cost, 1e-12 * scale) << turns;
    EXPECT_NEAR(result.best_cost, reference.best_cost, 1e-9 * scale) << turns;
  }
}

// The box starts 0.1 m from its goal: the running cost of the steps on the way stays, the final
// pose reaches the goal within 5 mm.
TEST(TrajectoryOptimizer, PlanarPushingReachesTheGoalPose) {
  testing::ControlTask task = PlanarPushingGoal(QUASIDYN_SOURCE_DIR);
  task.settings.iterations = 20;
  TrajectoryOptimizer optimizer(task.model, task.settings);
  const OptimizationResult result = optimizer.Optimize(task.q0, task.u0);
  EXPECT_LT(result.best_cost, 0.5 * result.initial_cost);
  EXPECT_LT((result.q.back().head(2) - task.settings.object_goal.head(2)).norm(), 0.005);
}

}  // namespace
}  // namespace quasidyn

namespace quasidyn {
namespace {

// Shrinking-horizon mode: every candidate is an exact rollout re-planned from each reached
// state; the best cost never increases and the ball turns toward the goal.
TEST(TrajectoryOptimizer, ShrinkingHorizonImprovesMonotonically) {
  testing::ControlTask task = testing::PlanarHandTurn(QUASIDYN_SOURCE_DIR);
  task.settings.iterations = 8;
  task.settings.shrinking_horizon = true;
  TrajectoryOptimizer optimizer(task.model, task.settings);
  const OptimizationResult result = optimizer.Optimize(task.q0, task.u0);
  double previous = result.initial_cost;
  for (const OptimizerIteration& it : result.iterations) {
    EXPECT_LE(it.best_cost, previous);
    previous = it.best_cost;
  }
  EXPECT_LT(result.best_cost, 0.5 * result.initial_cost);
  std::vector<Eigen::VectorXd> q;
  ASSERT_TRUE(testing::IsOk(optimizer.ExactRollout(task.q0, result.u, &q)));
  EXPECT_EQ(q.back(), result.q.back());
}

}  // namespace
}  // namespace quasidyn

namespace quasidyn {
namespace {

// Regrasp steps (trajopt_qp.h): with step 2 of 5 a regrasp, the QP has no variable for it, its
// objective is still J(prediction) − J(0) (no rate term into the regrasp), and its Hessian is
// positive definite.
TEST(TrajoptQp, RegraspStepHasNoVariableAndKeepsTheObjectiveExact) {
  std::mt19937_64 rng(11);
  TrajoptQpData d = RandomData(5, 4, 2, 3, &rng);
  d.regrasp = {false, false, true, false, false};
  d.A[2] = Eigen::MatrixXd::Zero(4, 4);
  d.A[2].topLeftCorner(3, 3).setIdentity();
  int variables = 0;
  const std::vector<int> column = TrajoptColumns(d, &variables);
  EXPECT_EQ(variables, 8);
  EXPECT_EQ(column, (std::vector<int>{0, 2, -1, 4, 6}));
  QpProblem qp;
  BuildTrajoptQp(d, &qp);
  const Eigen::MatrixXd P = qp.Q.ToDense();
  ASSERT_EQ(P.rows(), 8);
  EXPECT_GT(Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd>(P).eigenvalues().minCoeff(), 0.0);
  const double cost0 = TrajoptCost(d, PredictedStates(d, Eigen::VectorXd::Zero(8)), d.u_nominal);
  std::normal_distribution<double> n(0.0, 1.0);
  for (int trial = 0; trial < 5; ++trial) {
    Eigen::VectorXd du(8);
    for (int i = 0; i < 8; ++i) du(i) = n(rng);
    std::vector<Eigen::VectorXd> u = d.u_nominal;
    for (int k = 0; k < 5; ++k) {
      if (column[k] >= 0) u[k] += du.segment(column[k], 2);
    }
    const std::vector<Eigen::VectorXd> q = PredictedStates(d, du);
    // The regrasp resets the robot coordinates to the nominal state's: δq_a = 0 after it.
    EXPECT_EQ(q[2].tail(1), d.q_nominal[2].tail(1));
    const double change = TrajoptCost(d, q, u) - cost0;
    EXPECT_NEAR(0.5 * du.dot(P * du) + qp.c.dot(du), change, 1e-10 * (1.0 + std::abs(cost0)));
  }
  // The cost has no rate term into the regrasp: moving u_1 changes it by the term out of u_1
  // into u_0's neighbour only, not by ‖u_2 − u_1‖².
  std::vector<Eigen::VectorXd> u = d.u_nominal;
  const std::vector<Eigen::VectorXd> q(d.q_nominal.begin(), d.q_nominal.end());
  TrajoptQpData no_regrasp = d;
  no_regrasp.regrasp.clear();
  EXPECT_NEAR(TrajoptCost(no_regrasp, q, u) - TrajoptCost(d, q, u),
              d.rate_weight * (u[2] - u[1]).squaredNorm(), 1e-12 * TrajoptCost(no_regrasp, q, u));
  // A regrasp step whose A is not the reset, or a window of regrasps only, is refused.
  TrajoptQpData bad = d;
  bad.A[2](3, 3) = 1.0;
  EXPECT_THROW(BuildTrajoptQp(bad, &qp), std::invalid_argument);
  bad = d;
  bad.regrasp.assign(5, true);
  for (int k = 0; k < 5; ++k) bad.A[k] = d.A[2];
  EXPECT_THROW(BuildTrajoptQp(bad, &qp), std::invalid_argument);
}

// A regrasp step of the exact rollout resets the robots and keeps the objects; the optimiser
// keeps its grasp and improves the other commands across it.
TEST(TrajectoryOptimizer, RegraspStepResetsTheRobotsAndKeepsItsGrasp) {
  testing::ControlTask task = PlanarHandTurn(QUASIDYN_SOURCE_DIR);
  task.settings.iterations = 10;
  task.settings.regrasp_steps.assign(task.settings.horizon, false);
  task.settings.regrasp_steps[5] = true;
  task.u0[5] = task.q0.tail(4);  // re-grasp at the start configuration
  TrajectoryOptimizer optimizer(task.model, task.settings);
  std::vector<Eigen::VectorXd> q;
  ASSERT_TRUE(testing::IsOk(optimizer.ExactRollout(task.q0, task.u0, &q)));
  EXPECT_EQ(q[6].head(3), q[5].head(3));
  EXPECT_EQ(q[6].tail(4), task.q0.tail(4));
  const OptimizationResult result = optimizer.Optimize(task.q0, task.u0);
  EXPECT_EQ(result.u[5], task.u0[5]);
  EXPECT_EQ(result.q[6].tail(4), task.u0[5]);
  EXPECT_LT(result.best_cost, result.initial_cost);
  double previous = result.initial_cost;
  for (const OptimizerIteration& it : result.iterations) {
    EXPECT_LE(it.best_cost, previous);
    previous = it.best_cost;
  }
  // Shrinking-horizon mode steps over the regrasp the same way.
  task.settings.shrinking_horizon = true;
  task.settings.iterations = 3;
  const OptimizationResult shrinking =
      TrajectoryOptimizer(task.model, task.settings).Optimize(task.q0, task.u0);
  EXPECT_EQ(shrinking.u[5], task.u0[5]);
  EXPECT_LE(shrinking.best_cost, shrinking.initial_cost);
  // Sizes and an all-regrasp horizon are refused with the setting's name.
  task.settings.regrasp_steps.assign(3, false);
  EXPECT_THROW(TrajectoryOptimizer(task.model, task.settings), std::invalid_argument);
  task.settings.regrasp_steps.assign(task.settings.horizon, true);
  EXPECT_THROW(TrajectoryOptimizer(task.model, task.settings), std::invalid_argument);
}

}  // namespace
}  // namespace quasidyn

namespace quasidyn {
namespace {

// An exact step that fails inside an iteration (bad input): the iteration is
// rejected, its message names the step and the solver's message and says the trust region
// shrank, the next iteration runs with the halved region, and the run goes on to its last
// iteration without an exception; the best iterate stays an exact rollout.
TEST(TrajectoryOptimizer, FailedExactStepShrinksTheTrustRegionAndSaysSo) {
  testing::ControlTask task = PlanarHandTurn(QUASIDYN_SOURCE_DIR);
  const int T = task.settings.horizon;
  task.settings.iterations = 6;
  // Calls 1 … T are the initial rollout; T + 1 … 2T iteration 0's candidate: fail its step 4.
  auto failing = std::make_shared<testing::FailingStepModel>(task.model, std::set<int>{T + 4});
  TrajectoryOptimizer optimizer(failing, task.settings);
  OptimizationResult result;
  ASSERT_NO_THROW(result = optimizer.Optimize(task.q0, task.u0));
  EXPECT_EQ(failing->failures(), 1);
  ASSERT_EQ(static_cast<int>(result.iterations.size()), task.settings.iterations);
  const OptimizerIteration& failed = result.iterations[0];
  EXPECT_FALSE(failed.accepted);
  EXPECT_TRUE(std::isinf(failed.cost));
  EXPECT_EQ(failed.best_cost, result.initial_cost);
  const std::string& m = failed.message;
  EXPECT_NE(m.find("step 4 failed: injected failure at call " + std::to_string(T + 4)),
            std::string::npos)
      << m;
  EXPECT_NE(m.find("trust region shrunk to 0.05"), std::string::npos) << m;
  EXPECT_DOUBLE_EQ(result.iterations[1].trust_region,
                   task.settings.trust_region * task.settings.shrink);
  // The run recovers: later iterations are accepted and lower the cost.
  EXPECT_LT(result.best_cost, result.initial_cost);
  std::vector<Eigen::VectorXd> q;
  ASSERT_TRUE(testing::IsOk(optimizer.ExactRollout(task.q0, result.u, &q)));
  EXPECT_EQ(q.back(), result.q.back());
}

// The same in shrinking-horizon mode, where the failed step is taken inside the forward pass,
// and with every candidate step failing: each iteration is rejected and says so, the trust
// region halves each time until the run stops below trust_region_min (and says that), and the
// initial guess is returned unchanged.
TEST(TrajectoryOptimizer, FailedStepsInTheShrinkingHorizonPassAreRejectedIterations) {
  testing::ControlTask task = PlanarHandTurn(QUASIDYN_SOURCE_DIR);
  const int T = task.settings.horizon;
  task.settings.iterations = 4;
  task.settings.shrinking_horizon = true;
  auto failing = std::make_shared<testing::FailingStepModel>(task.model, std::set<int>{T + 3});
  OptimizationResult result =
      TrajectoryOptimizer(failing, task.settings).Optimize(task.q0, task.u0);
  ASSERT_EQ(static_cast<int>(result.iterations.size()), 4);
  EXPECT_NE(result.iterations[0].message.find("step 3 failed: injected failure"), std::string::npos)
      << result.iterations[0].message;
  EXPECT_NE(result.iterations[0].message.find("trust region shrunk to 0.05"), std::string::npos);
  EXPECT_LT(result.best_cost, result.initial_cost);

  std::set<int> every_candidate;
  for (int call = T + 1; call <= 100 * T; ++call) every_candidate.insert(call);
  task.settings.shrinking_horizon = false;
  task.settings.iterations = 50;
  task.settings.trust_region_min = 0.01;
  auto always = std::make_shared<testing::FailingStepModel>(task.model, every_candidate);
  result = TrajectoryOptimizer(always, task.settings).Optimize(task.q0, task.u0);
  // 0.1 · 0.5^i < 0.01 first at i = 4: iterations 0 … 3, then the stop.
  ASSERT_EQ(result.iterations.size(), 4u);
  double r = task.settings.trust_region;
  for (const OptimizerIteration& it : result.iterations) {
    EXPECT_FALSE(it.accepted);
    EXPECT_DOUBLE_EQ(it.trust_region, r);
    r *= task.settings.shrink;
    EXPECT_NE(it.message.find("failed: injected failure"), std::string::npos) << it.message;
  }
  EXPECT_NE(result.message.find("below trust_region_min"), std::string::npos) << result.message;
  EXPECT_EQ(result.best_cost, result.initial_cost);
  EXPECT_EQ(result.u, task.u0);
}

// Plans that stay physical: a candidate whose exact rollout carries the ball 5 mm into a finger
// or the ground (a displaced step, as one that missed a contact gives) is rejected and says how
// deep, where without the check (penetration_tolerance = +∞) the same candidate is accepted.
// The best iterate of the real run stays within the tolerance at every step, measured again here.
TEST(TrajectoryOptimizer, CandidatesThatPenetrateAreRejected) {
  testing::ControlTask task = PlanarHandTurn(QUASIDYN_SOURCE_DIR);
  const int T = task.settings.horizon;
  task.settings.iterations = 1;
  // Calls T + 1 … 2T are iteration 0's candidate: its step 2 ends with the ball 5 mm lower.
  Eigen::VectorXd sink = Eigen::VectorXd::Zero(task.q0.size());
  sink(1) = -0.005;
  const auto run = [&](double tolerance) {
    auto sinking = std::make_shared<testing::FailingStepModel>(task.model, std::set<int>{T + 2});
    sinking->set_displacement(sink);
    TrajectoryOptimizerSettings settings = task.settings;
    settings.penetration_tolerance = tolerance;
    return TrajectoryOptimizer(sinking, settings).Optimize(task.q0, task.u0);
  };
  const OptimizationResult unchecked = run(std::numeric_limits<double>::infinity());
  ASSERT_EQ(unchecked.iterations.size(), 1u);
  EXPECT_TRUE(unchecked.iterations[0].accepted) << unchecked.iterations[0].message;
  EXPECT_TRUE(std::isnan(unchecked.max_penetration));

  const OptimizationResult checked = run(1e-3);
  ASSERT_EQ(checked.iterations.size(), 1u);
  const OptimizerIteration& it = checked.iterations[0];
  EXPECT_FALSE(it.accepted);
  EXPECT_GT(it.penetration, 1e-3);
  EXPECT_NE(it.message.find("mm into a shape, deeper than the limit 1 mm"), std::string::npos)
      << it.message;
  EXPECT_EQ(checked.best_cost, checked.initial_cost);
  EXPECT_EQ(checked.u, task.u0);

  // The real run: its best iterate, measured step by step by an independent meter.
  task.settings.iterations = 20;
  TrajectoryOptimizer optimizer(task.model, task.settings);
  const OptimizationResult result = optimizer.Optimize(task.q0, task.u0);
  PenetrationMeter meter(task.model->scene_ptr());
  double deepest = 0.0;
  for (const Eigen::VectorXd& q : result.q) deepest = std::max(deepest, meter.Depth(q));
  EXPECT_LE(deepest, result.max_penetration);
  EXPECT_LE(result.max_penetration,
            std::max(task.settings.penetration_tolerance, result.initial_penetration));
}

// A rejected iteration leaves the best iterate where it was; once the schedule is at κ_max the
// next iteration's linearisations would be those of the last one, and it keeps them: exactly the
// iterations after a rejected one with the same κ, on the hand's real run (whose κ grows from
// 100 by 2 per iteration to 1e4) and on a run whose candidates all fail at a constant κ.
TEST(TrajectoryOptimizer, KeepsTheLinearisationsWhenTheBestIterateAndKappaStay) {
  testing::ControlTask task = PlanarHandTurn(QUASIDYN_SOURCE_DIR);
  task.settings.iterations = 20;
  const OptimizationResult result =
      TrajectoryOptimizer(task.model, task.settings).Optimize(task.q0, task.u0);
  int kept = 0;
  for (size_t i = 0; i < result.iterations.size(); ++i) {
    const OptimizerIteration& it = result.iterations[i];
    const bool same = i > 0 && !result.iterations[i - 1].accepted &&
                      result.iterations[i - 1].parameter == it.parameter;
    EXPECT_EQ(it.linearizations_kept, same) << "iteration " << i;
    kept += it.linearizations_kept;
  }
  EXPECT_GT(kept, 0) << "no rejected iteration at κ_max: the run does not test the rule";

  const int T = task.settings.horizon;
  std::set<int> every_candidate;
  for (int call = T + 1; call <= 100 * T; ++call) every_candidate.insert(call);
  task.settings.smoothing.kappa_start = task.settings.smoothing.kappa_max;
  task.settings.trust_region_min = 0.01;
  auto always = std::make_shared<testing::FailingStepModel>(task.model, every_candidate);
  const OptimizationResult rejected =
      TrajectoryOptimizer(always, task.settings).Optimize(task.q0, task.u0);
  ASSERT_EQ(rejected.iterations.size(), 4u);  // 0.1 · 0.5^i < 0.01 first at i = 4
  EXPECT_FALSE(rejected.iterations[0].linearizations_kept);
  for (size_t i = 1; i < 4; ++i)
    EXPECT_TRUE(rejected.iterations[i].linearizations_kept) << "iteration " << i;
}

}  // namespace
}  // namespace quasidyn
