// RolloutWorkspace and RolloutBatchInto (rollout.h): a batch refilled in place is bitwise the
// batch made anew, and once warm it allocates nothing per rollout or step (MallocCounter).
#include <gtest/gtest.h>

#include <cstdio>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "quasidyn/formulations/registry.h"
#include "quasidyn/scenes/scene_loading.h"
#include "quasidyn/simulation/rollout.h"
#include "quasidyn/testing/malloc_counter.h"
#include "quasidyn/testing/program_settings.h"
#include "quasidyn/testing/shared_scene.h"

namespace quasidyn {
namespace {

class PlanarHandWorkspaceTest : public ::testing::Test {
 protected:
  ScenePtr scene_ = testing::Shared(
      LoadScene(std::string(QUASIDYN_SOURCE_DIR) + "/examples/planar_hand/scene.yaml"));
  std::shared_ptr<const StepModel> model_ =
      MakeStepModel(scene_, testing::SceneProgramSettings(*scene_));

  // `rollouts` starts from q0 with random-walk commands of `steps` rows (steps of σ [m or rad]
  // per row and coordinate), as bench/batch_bench.cc's planar-hand batch.
  void RandomWalks(int rollouts, int steps, double sigma, unsigned seed, std::vector<State>* x0s,
                   std::vector<Eigen::MatrixXd>* commands) const {
    std::mt19937 random(seed);
    std::normal_distribution<double> normal(0.0, sigma);
    const State x0 = InitialState(*model_);
    x0s->assign(rollouts, x0);
    commands->clear();
    for (int b = 0; b < rollouts; ++b) {
      Eigen::MatrixXd u(steps, scene_->nq_a);
      Eigen::VectorXd walk = x0.q.segment(scene_->nq_u, scene_->nq_a);
      for (int k = 0; k < steps; ++k) {
        for (int j = 0; j < scene_->nq_a; ++j) walk[j] += normal(random);
        u.row(k) = walk.transpose();
      }
      commands->push_back(u);
    }
  }
};

void ExpectSameTrajectory(const Trajectory& refilled, const Trajectory& fresh,
                          const std::string& where) {
  EXPECT_EQ(refilled.scene_name, fresh.scene_name) << where;
  EXPECT_EQ(refilled.formulation, fresh.formulation) << where;
  EXPECT_EQ(refilled.coordinate_names, fresh.coordinate_names) << where;
  EXPECT_EQ(refilled.q0, fresh.q0) << where;
  EXPECT_EQ(refilled.steps_requested, fresh.steps_requested) << where;
  EXPECT_EQ(refilled.steps_done, fresh.steps_done) << where;
  EXPECT_EQ(refilled.large_motion_steps, fresh.large_motion_steps) << where;
  EXPECT_EQ(refilled.status, fresh.status) << where;
  EXPECT_EQ(refilled.message, fresh.message) << where;
  ASSERT_EQ(refilled.steps.size(), fresh.steps.size()) << where;
  for (size_t k = 0; k < fresh.steps.size(); ++k) {
    const TrajectoryStep& a = refilled.steps[k];
    const TrajectoryStep& b = fresh.steps[k];
    const std::string at = where + ", step " + std::to_string(k);
    EXPECT_EQ(a.k, b.k) << at;
    EXPECT_EQ(a.t, b.t) << at;
    EXPECT_EQ(a.q, b.q) << at;
    EXPECT_EQ(a.v, b.v) << at;
    EXPECT_EQ(a.u, b.u) << at;
    EXPECT_EQ(a.status, b.status) << at;
    EXPECT_EQ(a.solver.iterations, b.solver.iterations) << at;
    EXPECT_EQ(a.momentum_force, b.momentum_force) << at;
    EXPECT_EQ(a.joint_limit_impulse, b.joint_limit_impulse) << at;
    EXPECT_EQ(a.A, b.A) << at;
    EXPECT_EQ(a.B, b.B) << at;
    EXPECT_EQ(a.gradient_status, b.gradient_status) << at;
    EXPECT_EQ(a.gradient_message, b.gradient_message) << at;
    ASSERT_EQ(a.contacts.size(), b.contacts.size()) << at;
    for (size_t c = 0; c < b.contacts.size(); ++c) {
      EXPECT_EQ(a.contacts[c].shape_a, b.contacts[c].shape_a) << at;
      EXPECT_EQ(a.contacts[c].shape_b, b.contacts[c].shape_b) << at;
      EXPECT_EQ(a.contacts[c].body_a, b.contacts[c].body_a) << at;
      EXPECT_EQ(a.contacts[c].body_b, b.contacts[c].body_b) << at;
      EXPECT_EQ(a.contacts[c].point, b.contacts[c].point) << at;
      EXPECT_EQ(a.contacts[c].normal_force, b.contacts[c].normal_force) << at;
      EXPECT_EQ(a.contacts[c].friction_impulse, b.contacts[c].friction_impulse) << at;
    }
  }
}

// Batches of other inputs, lengths and derivative modes, one after the other into one
// workspace: each is bitwise the batch made anew (RolloutBatch), whatever the earlier one left
// in the records (longer rollouts, derivatives, other contacts).
TEST_F(PlanarHandWorkspaceTest, ARefilledBatchIsBitwiseABatchMadeAnew) {
  for (int threads : {1, 2}) {
    RolloutWorkspace workspace(model_);
    struct Call {
      int rollouts, steps;
      double sigma;
      GradientMode gradients;
      bool scheduled;
    };
    for (const Call& call : {Call{5, 12, 0.005, GradientMode::kAAndB, false},
                             Call{7, 8, 0.02, GradientMode::kNone, false},
                             Call{3, 10, 0.0, GradientMode::kBOnly, true},
                             Call{5, 12, 0.005, GradientMode::kNone, false}}) {
      std::vector<State> x0s;
      std::vector<Eigen::MatrixXd> commands;
      RandomWalks(call.rollouts, call.steps, call.sigma, 7, &x0s, &commands);
      if (call.scheduled) commands.clear();
      RolloutOptions options;
      options.steps = call.steps;
      options.gradients = call.gradients;
      const std::vector<Trajectory>& refilled =
          RolloutBatchInto(x0s, commands, options, threads, &workspace);
      const std::vector<Trajectory> fresh = RolloutBatch(*model_, x0s, commands, options, threads);
      ASSERT_EQ(refilled.size(), fresh.size());
      for (size_t b = 0; b < fresh.size(); ++b) {
        EXPECT_GT(fresh[b].steps.size(), 0u);
        ExpectSameTrajectory(refilled[b], fresh[b],
                             "T " + std::to_string(threads) + ", " + std::to_string(call.rollouts) +
                                 " rollouts, rollout " + std::to_string(b));
      }
    }
  }
}

// The step must not allocate (setup may). Once a workspace has run a batch of this shape, the
// next batch of 16 planar-hand rollouts of 40 steps allocates exactly what the model's own
// Calc allocates on those steps (counted by a lone data object along the same rollouts): the
// rollout machinery, records and buffers add nothing (RolloutBatch, which makes its
// trajectories anew, adds ~15 per step: the records' vectors and the contacts' names). The
// planar hand's QP step itself still allocates after warm-up (QpSolver::Setup when the
// problem's sizes change; see docs/performance.md, "Threads"), so T = 1, where the same data
// object sees the same steps in the same order, is compared exactly.
TEST_F(PlanarHandWorkspaceTest, AWarmBatchAllocatesOnlyWhatTheStepItselfDoes) {
  if (!testing::MallocCountingAvailable()) GTEST_SKIP() << "malloc counting is off (sanitizers)";
  std::vector<State> x0s;
  std::vector<Eigen::MatrixXd> commands;
  RandomWalks(16, 40, 0.005, 0, &x0s, &commands);
  RolloutOptions options;
  RolloutWorkspace workspace(model_);
  RolloutBatchInto(x0s, commands, options, 1, &workspace);  // warm-up: sizes everything
  RolloutBatchInto(x0s, commands, options, 1, &workspace);
  long batch_allocations = 0;
  {
    testing::MallocCounter counter;
    RolloutBatchInto(x0s, commands, options, 1, &workspace);
    batch_allocations = counter.count();
  }
  for (const Trajectory& trajectory : workspace.trajectories())
    ASSERT_TRUE(trajectory.completed()) << trajectory.message;
  // The same steps by a lone data object, its warm start cleared per rollout; the second pass
  // is counted (the first sizes its buffers as the batch's warm-up did).
  const std::unique_ptr<StepData> data = model_->CreateData();
  long step_allocations = 0;
  for (int pass = 0; pass < 2; ++pass) {
    for (size_t b = 0; b < x0s.size(); ++b) {
      model_->ClearWarmStart(data.get());
      State x = x0s[b];
      Eigen::VectorXd u(scene_->nq_a);
      for (Eigen::Index k = 0; k < commands[b].rows(); ++k) {
        u = commands[b].row(k).transpose();
        {
          testing::MallocCounter counter;
          model_->Calc(x, u, data.get());
          if (pass == 1) step_allocations += counter.count();
        }
        x = data->result.next;
      }
    }
  }
  std::printf("warm batch of 16 x 40 steps: %ld allocations, the steps' own Calc: %ld\n",
              batch_allocations, step_allocations);
  EXPECT_EQ(batch_allocations, step_allocations);
}

// On the planar gripper, whose QP step allocates nothing after warm-up (CalcAllocations), a
// warm batch of 8 rollouts of 20 steps makes no heap allocation at all (one thread, below),
// with the caller's commands or with the scene's schedule.
TEST(GripperWorkspaceTest, AWarmBatchAllocatesNothing) {
  if (!testing::MallocCountingAvailable()) GTEST_SKIP() << "malloc counting is off (sanitizers)";
  const ScenePtr scene = testing::Shared(
      LoadScene(std::string(QUASIDYN_SOURCE_DIR) + "/examples/planar_gripper/scene.yaml"));
  const auto model = MakeStepModel(scene, testing::SceneProgramSettings(*scene));
  const int steps = 20;
  std::vector<State> x0s;
  std::vector<Eigen::MatrixXd> commands;
  for (int b = 0; b < 8; ++b) {
    State x0 = InitialState(*model);
    x0.q[1] += 1e-3 * b;  // the sphere b mm higher
    x0s.push_back(x0);
    Eigen::MatrixXd U(steps, scene->nq_a);
    for (int k = 0; k < steps; ++k)
      U.row(k) = (scene->CommandAt((k + 1) * model->time_step()) * (1.0 + 0.01 * b)).transpose();
    commands.push_back(U);
  }
  RolloutOptions options;
  options.steps = steps;  // for the schedule's rollouts (the caller's: their commands' rows)
  // One thread: the schedule is fixed. On two, which worker takes which rollout depends on the
  // timing, and a worker's step data is warm only for the contact counts it has met: a worker
  // handed in the counted call a rollout larger than any it took before sizes its solver buffers
  // then (seen in a clean-clone CI under load), so the count is exact for one thread only.
  const auto check = [&](const std::vector<Eigen::MatrixXd>& batch_commands, const char* what) {
    RolloutWorkspace workspace(model);
    RolloutBatchInto(x0s, batch_commands, options, 1, &workspace);  // warm-up
    RolloutBatchInto(x0s, batch_commands, options, 1, &workspace);
    long allocations = 0;
    {
      testing::MallocCounter counter;
      RolloutBatchInto(x0s, batch_commands, options, 1, &workspace);
      allocations = counter.count();
    }
    EXPECT_EQ(allocations, 0) << what;
    for (const Trajectory& trajectory : workspace.trajectories())
      EXPECT_TRUE(trajectory.completed()) << what << ": " << trajectory.message;
  };
  check(commands, "the caller's commands");
  // The scene's own schedule (no commands): each step's command is read into the worker's
  // buffer (StepModel::ScheduledCommandInto, Scene::CommandAt into a vector), not made anew.
  check({}, "the schedule's commands");
}

TEST_F(PlanarHandWorkspaceTest, RejectsANullModelAndBadInput) {
  EXPECT_THROW(RolloutWorkspace(nullptr), std::invalid_argument);
  RolloutWorkspace workspace(model_);
  RolloutOptions options;
  options.steps = 3;
  EXPECT_THROW(RolloutBatchInto({InitialState(*model_)}, {}, options, 0, &workspace),
               std::invalid_argument);
  State bad = InitialState(*model_);
  bad.q.conservativeResize(bad.q.size() - 1);
  EXPECT_THROW(RolloutBatchInto({bad}, {}, options, 1, &workspace), std::invalid_argument);
  EXPECT_THROW(RolloutBatchInto({InitialState(*model_)}, {}, options, 1, nullptr),
               std::invalid_argument);
}

}  // namespace
}  // namespace quasidyn
