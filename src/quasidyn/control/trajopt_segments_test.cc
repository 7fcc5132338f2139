// Per-segment refinement of a planner's path with regrasps (trajectory_optimizer.h,
// `per_segment`), its QP (trajopt_qp.h, `corrected_steps`) and the refined plan file
// (planning/refined_plan_file.h).
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <stdexcept>

#include "quasidyn/control/plan_trajectory.h"
#include "quasidyn/control/trajectory_optimizer.h"
#include "quasidyn/control/trajopt_qp.h"
#include "quasidyn/formulations/registry.h"
#include "quasidyn/planning/plan_json.h"
#include "quasidyn/planning/plan_path.h"
#include "quasidyn/planning/refined_plan_file.h"
#include "quasidyn/testing/control_tasks.h"
#include "quasidyn/testing/example_states.h"
#include "quasidyn/testing/planar_hand_plan.h"
#include "quasidyn/testing/scratch_files.h"

namespace quasidyn {
namespace {

// Random window data of H steps (n_q = 4, n_u = 2, n_q,u = 3) with a regrasp at step 3.
TrajoptQpData WindowWithRegrasp(std::mt19937_64* rng) {
  std::normal_distribution<double> n(0.0, 1.0);
  auto mat = [&](int r, int c) {
    Eigen::MatrixXd m(r, c);
    for (int i = 0; i < m.size(); ++i) m.data()[i] = n(*rng);
    return m;
  };
  const int H = 6, nq = 4, nu = 2, no = 3;
  TrajoptQpData d;
  d.object_size = no;
  for (int k = 0; k < H; ++k) {
    d.A.push_back(Eigen::MatrixXd::Identity(nq, nq) + 0.1 * mat(nq, nq));
    d.B.push_back(mat(nq, nu));
    d.q_nominal.push_back(mat(nq, 1));
    d.u_nominal.push_back(mat(nu, 1));
  }
  d.regrasp = {false, false, false, true, false, false};
  d.A[3] = Eigen::MatrixXd::Zero(nq, nq);
  d.A[3].topLeftCorner(no, no).setIdentity();
  d.u_before = mat(nu, 1);
  d.dq0 = 0.1 * mat(nq, 1);
  d.goal = mat(no, 1);
  d.object_weight = mat(no, 1).cwiseAbs();
  d.terminal_weight = 10.0 * d.object_weight;
  d.rate_weight = 0.3;
  d.trust_region = 0.2;
  return d;
}

// A window whose later steps are kept is the whole window's QP with their corrections fixed at
// zero: its Hessian and gradient are the leading block of the whole QP's.
TEST(TrajoptQp, KeptStepsGiveTheWholeQpAtZeroCorrections) {
  std::mt19937_64 rng(23);
  const TrajoptQpData whole = WindowWithRegrasp(&rng);
  QpProblem full;
  BuildTrajoptQp(whole, &full);
  const Eigen::MatrixXd P = full.Q.ToDense();
  const double scale = P.cwiseAbs().maxCoeff() + full.c.cwiseAbs().maxCoeff();
  // 3: the segment before the regrasp; 2: a piece of it, with the rate term into kept step 2.
  for (int corrected : {3, 2}) {
    TrajoptQpData piece = whole;
    piece.corrected_steps = corrected;
    int variables = 0;
    const std::vector<int> column = TrajoptColumns(piece, &variables);
    ASSERT_EQ(variables, 2 * corrected);
    for (int k = corrected; k < 6; ++k) EXPECT_EQ(column[k], -1) << "step " << k;
    QpProblem qp;
    BuildTrajoptQp(piece, &qp);
    const int n = variables;
    EXPECT_LT((qp.Q.ToDense() - P.topLeftCorner(n, n)).cwiseAbs().maxCoeff(), 1e-13 * scale);
    EXPECT_LT((qp.c - full.c.head(n)).cwiseAbs().maxCoeff(), 1e-13 * scale);
    EXPECT_EQ(qp.G.rows(), 2 * n);
  }
  TrajoptQpData bad = whole;
  QpProblem qp;
  for (int corrected : {0, 7, -2}) {
    bad.corrected_steps = corrected;
    EXPECT_THROW(BuildTrajoptQp(bad, &qp), std::invalid_argument) << corrected;
  }
}

// Without regrasps the path is one segment: the per-segment optimiser is the single-QP one.
TEST(TrajectoryOptimizer, PerSegmentWithoutRegraspsIsTheSingleQp) {
  testing::ControlTask task = testing::PlanarHandTurn(QUASIDYN_SOURCE_DIR);
  task.settings.iterations = 4;
  const OptimizationResult single =
      TrajectoryOptimizer(task.model, task.settings).Optimize(task.q0, task.u0);
  task.settings.per_segment = true;
  const OptimizationResult segments =
      TrajectoryOptimizer(task.model, task.settings).Optimize(task.q0, task.u0);
  ASSERT_EQ(single.iterations.size(), segments.iterations.size());
  EXPECT_LT(single.best_cost, single.initial_cost);
  EXPECT_NEAR(segments.best_cost, single.best_cost, 1e-12 * single.initial_cost);
  for (const OptimizerIteration& it : segments.iterations) EXPECT_EQ(it.qps, 1);
  // Settings out of range are refused, naming them.
  task.settings.shrinking_horizon = true;
  EXPECT_THROW(TrajectoryOptimizer(task.model, task.settings), std::invalid_argument);
  task.settings.shrinking_horizon = false;
  task.settings.segment_steps = -1;
  EXPECT_THROW(TrajectoryOptimizer(task.model, task.settings), std::invalid_argument);
}

// A regrasp splits the path into two segments, each its own QP (and pieces of at most
// segment_steps steps); the regrasp's command and reset are kept, the cost never increases.
TEST(TrajectoryOptimizer, PerSegmentKeepsTheRegraspAndLowersTheCost) {
  testing::ControlTask task = testing::PlanarHandTurn(QUASIDYN_SOURCE_DIR);
  task.settings.iterations = 8;
  task.settings.per_segment = true;
  task.settings.regrasp_steps.assign(task.settings.horizon, false);  // T = 10
  task.settings.regrasp_steps[5] = true;
  task.u0[5] = task.q0.tail(4);  // re-grasp at the start configuration
  for (int pieces : {0, 2}) {
    task.settings.segment_steps = pieces;
    const OptimizationResult result =
        TrajectoryOptimizer(task.model, task.settings).Optimize(task.q0, task.u0);
    EXPECT_EQ(result.u[5], task.u0[5]);
    EXPECT_EQ(result.q[6].tail(4), task.u0[5]);
    EXPECT_EQ(result.q[6].head(3), result.q[5].head(3));
    EXPECT_LT(result.best_cost, result.initial_cost);
    double previous = result.initial_cost;
    for (const OptimizerIteration& it : result.iterations) {
      EXPECT_LE(it.best_cost, previous);
      previous = it.best_cost;
      // Steps 1-5 and 7-10: 2 segments, or 3 + 2 pieces of at most 2 steps.
      if (std::isfinite(it.cost)) {
        EXPECT_EQ(it.qps, pieces == 0 ? 2 : 5) << it.message;
      }
    }
  }
}

// A plan file refined segment by segment and written as a plan file keeps the plan's step kinds,
// its regrasps' commands and resets, and its planning settings; its cost is not above the plan's.
TEST(RefinedPlanFile, KeepsTheStepKindsRegraspsAndSettings) {
  const testing::PlanarHandPlan& hand = testing::PlanarHandHalfTurnWithoutSubsteps();
  ASSERT_TRUE(hand.path.trajectory.completed()) << hand.path.trajectory.message;
  const testing::ScratchDirectory dir;
  const std::string plan_file = (dir / "plan.json").string();
  WritePlanFile(hand.plan, hand.path, plan_file);
  const GuessFile read = ReadGuessFile(plan_file);
  const int T = static_cast<int>(read.trajectory.steps.size());
  const InitialGuess guess = GuessFromTrajectory(read.trajectory, read.step_edges, *hand.model, T);
  int regrasps = 0;
  for (bool r : guess.regrasp) regrasps += r;
  ASSERT_GT(regrasps, 0) << "the plan has no regrasp: the test would not test them";

  TrajectoryOptimizerSettings settings;
  settings.horizon = T;
  settings.iterations = 6;
  settings.object_goal = hand.plan.settings.goal;
  settings.object_weight = Eigen::Vector3d::Zero();
  settings.terminal_weight = Eigen::Vector3d(100.0, 100.0, 10.0);
  settings.rate_weight = 0.01;
  settings.regrasp_steps = guess.regrasp;
  settings.per_segment = true;
  const OptimizationResult result =
      TrajectoryOptimizer(hand.model, settings).Optimize(hand.scene->q0, guess.u);
  EXPECT_LE(result.best_cost, result.initial_cost);

  std::vector<EdgeKind> kinds;
  for (bool r : guess.regrasp) kinds.push_back(r ? EdgeKind::kRegrasp : EdgeKind::kExtend);
  PlanRefinement refinement;
  refinement.initial_guess = "plan.json";
  refinement.initial_cost = result.initial_cost;
  refinement.cost = result.best_cost;
  refinement.iterations = static_cast<int>(result.iterations.size());
  const std::string refined_file = (dir / "refined.json").string();
  WriteRefinedPlanFile(plan_file,
                       PlanToTrajectory(*hand.model, result.q, result.u, settings.regrasp_steps),
                       kinds, refinement, refined_file);

  const PlanFile refined = ReadPlanFile(refined_file);
  EXPECT_EQ(refined.step_edges, read.step_edges);
  ASSERT_EQ(static_cast<int>(refined.trajectory.steps.size()), T);
  for (int k = 0; k < T; ++k) {
    const Eigen::VectorXd& q = refined.trajectory.steps[k].q;
    EXPECT_EQ(refined.trajectory.steps[k].u, result.u[k]) << "step " << k + 1;
    if (!guess.regrasp[k]) continue;
    // A regrasp: the plan's grasp, the robots reset to it, the objects where the step before
    // left them.
    EXPECT_EQ(refined.trajectory.steps[k].u, read.trajectory.steps[k].u) << "step " << k + 1;
    EXPECT_EQ(q.tail(4), read.trajectory.steps[k].u) << "step " << k + 1;
    const Eigen::VectorXd& before =
        k == 0 ? refined.trajectory.q0 : refined.trajectory.steps[k - 1].q;
    EXPECT_EQ(q.head(3), before.head(3)) << "step " << k + 1;
  }
  // The search's record and settings are the plan's: a new plan can be made from them.
  EXPECT_EQ(refined.status, hand.plan.status);
  EXPECT_EQ(refined.nodes.size(), hand.plan.nodes.size());
  const PlanningSettings again = PlanningSettingsOfPlanFile(refined_file, *hand.scene);
  EXPECT_EQ(again.seed, hand.plan.settings.seed);
  EXPECT_EQ(again.goal, hand.plan.settings.goal);

  // Step kinds that do not fit the trajectory, or a source that is not a plan file, are refused.
  kinds.pop_back();
  EXPECT_THROW(WriteRefinedPlanFile(plan_file, refined.trajectory, kinds, refinement,
                                    (dir / "bad.json").string()),
               std::invalid_argument);
  kinds.push_back(EdgeKind::kRoot);
  EXPECT_THROW(WriteRefinedPlanFile(plan_file, refined.trajectory, kinds, refinement,
                                    (dir / "bad.json").string()),
               std::invalid_argument);
  EXPECT_THROW(
      RefinedPlanToJson(nlohmann::json::object(), refined.trajectory, read.step_edges, refinement),
      std::invalid_argument);
}

}  // namespace
}  // namespace quasidyn
