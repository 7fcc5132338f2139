#include "quasidyn/control/trajectory_optimizer.h"

#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <stdexcept>

#include "quasidyn/control/trajopt_qp.h"
#include "quasidyn/testing/control_tasks.h"

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
  std::string message;
  ASSERT_TRUE(optimizer.ExactRollout(task.q0, result.u, &q, &message)) << message;
  EXPECT_EQ(q.back(), result.q.back());
  EXPECT_DOUBLE_EQ(optimizer.Cost(q, result.u), result.best_cost);
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
  std::string message;
  ASSERT_TRUE(optimizer.ExactRollout(task.q0, result.u, &q, &message)) << message;
  EXPECT_EQ(q.back(), result.q.back());
}

}  // namespace
}  // namespace quasidyn
