#include "quasidyn/simulation/rollout.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

#include "quasidyn/formulations/registry.h"
#include "quasidyn/scenes/scene_loading.h"
#include "quasidyn/testing/program_settings.h"
#include "quasidyn/testing/shared_scene.h"
#include "quasidyn/testing/stepper.h"

namespace quasidyn {
namespace {

const std::string kRolloutExamples = std::string(QUASIDYN_SOURCE_DIR) + "/examples/";
constexpr double kEps = std::numeric_limits<double>::epsilon();

TEST(StepCountForDurationTest, CoversTheDuration) {
  // 0.24 / 0.01 is 23.999999999999996 in binary floating point: still 24 steps.
  EXPECT_EQ(StepCountForDuration(0.24, 0.01), 24);
  EXPECT_EQ(StepCountForDuration(7.0, 0.01), 700);
  EXPECT_EQ(StepCountForDuration(0.245, 0.01), 25);  // a partial step is taken in full
  EXPECT_EQ(StepCountForDuration(0.0, 0.01), 0);
  EXPECT_EQ(StepCountForDuration(1.0, 0.3), 4);  // 3.33… → 4
}

TEST(StepCountForDurationTest, RejectsBadValues) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  EXPECT_THROW(StepCountForDuration(1.0, 0.0), std::invalid_argument);
  EXPECT_THROW(StepCountForDuration(1.0, -0.01), std::invalid_argument);
  EXPECT_THROW(StepCountForDuration(1.0, nan), std::invalid_argument);
  EXPECT_THROW(StepCountForDuration(nan, 0.01), std::invalid_argument);
  EXPECT_THROW(StepCountForDuration(-1.0, 0.01), std::invalid_argument);
  EXPECT_THROW(StepCountForDuration(1e12, 1e-3), std::invalid_argument);
}

class PlanarGripperRolloutTest : public ::testing::Test {
 protected:
  ScenePtr scene_ptr_ = testing::Shared(LoadScene(kRolloutExamples + "planar_gripper/scene.yaml"));
  const Scene& scene_ = *scene_ptr_;
  testing::ProgramSettings settings_ = testing::SceneProgramSettings(scene_);
  std::shared_ptr<const StepModel> model_ = MakeStepModel(scene_ptr_, settings_);
};

// 2^31 - 1 steps reserved ~300 GB and ended in std::bad_alloc (a regression).
TEST_F(PlanarGripperRolloutTest, RefusesARunWhoseRecordCannotFitBeforeStepping) {
  try {
    Rollout(*model_, {std::numeric_limits<int>::max(), {}});
    FAIL();
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("GiB of trajectory"), std::string::npos) << e.what();
  }
}

TEST_F(PlanarGripperRolloutTest, RecordsEveryStepOfTheSchedule) {
  // The schedule ends at 0.24 s and h = 0.01 s (examples/planar_gripper/scene.yaml).
  const int steps = StepCountForDuration(scene_.ScheduleEnd(), settings_.time_step);
  ASSERT_EQ(steps, 24);
  const Trajectory trajectory = Rollout(*model_, {steps, {}});

  EXPECT_TRUE(trajectory.completed()) << trajectory.message;
  EXPECT_EQ(trajectory.steps_requested, 24);
  ASSERT_EQ(static_cast<int>(trajectory.steps.size()), 24);
  EXPECT_EQ(trajectory.scene_name, "planar_gripper");
  EXPECT_EQ(trajectory.formulation, "qp");
  EXPECT_EQ(trajectory.time_step, 0.01);
  EXPECT_EQ(trajectory.nq, 6);
  EXPECT_EQ(trajectory.nv, 6);
  EXPECT_EQ(trajectory.nq_u, 3);
  EXPECT_EQ(trajectory.q0, scene_.q0);
  for (int k = 1; k <= 24; ++k) {
    const TrajectoryStep& step = trajectory.steps[k - 1];
    // t_k = k·h, up to the one rounding of the product.
    EXPECT_NEAR(step.t, k * 0.01, k * 0.01 * kEps) << "step " << k;
    EXPECT_EQ(step.u, scene_.CommandAt(step.t)) << "step " << k;
    EXPECT_EQ(step.q.size(), 6);
    EXPECT_TRUE(step.status == SolverStatus::kSolved ||
                step.status == SolverStatus::kSolvedInaccurate);
    EXPECT_GT(step.solver.iterations, 0);
    EXPECT_GE(step.step_time_seconds, step.solver.solve_time_seconds);
  }
  // The last step ends at the last knot: its command is the knot's position, exactly.
  ASSERT_EQ(scene_.schedules.size(), 1u);
  EXPECT_EQ(trajectory.steps.back().u, scene_.schedules[0].positions.back());
}

TEST_F(PlanarGripperRolloutTest, MatchesTheStepperLoopItWraps) {
  // The loop of the issue: q = q0; for k: u = CommandAt((k+1)·h); q = Calc(q, u).next.q.
  testing::Stepper stepper(scene_ptr_, settings_);
  Eigen::VectorXd q = scene_.q0;
  const Trajectory trajectory = Rollout(*model_, {10, {}});
  ASSERT_EQ(trajectory.steps.size(), 10u);
  for (int k = 0; k < 10; ++k) {
    const StepResult& result = stepper.Step(q, scene_.CommandAt((k + 1) * 0.01));
    ASSERT_TRUE(result.ok());
    q = result.next.q;
    EXPECT_EQ(trajectory.steps[k].q, q) << "step " << k + 1;
    EXPECT_EQ(trajectory.steps[k].contacts.size(), result.contacts.size());
  }
}

// The user's commands go through the same loop: the schedule's commands as a matrix give the
// schedule's rollout bit for bit.
TEST_F(PlanarGripperRolloutTest, RolloutOfTheCallersCommandsIsTheSameLoop) {
  const Trajectory schedule = Rollout(*model_, {12, {}});
  Eigen::MatrixXd U(12, scene_.nq_a);
  for (int k = 0; k < 12; ++k) U.row(k) = scene_.CommandAt((k + 1) * 0.01).transpose();
  const Trajectory own = RolloutCommands(*model_, InitialState(scene_), U, {});
  ASSERT_TRUE(own.completed()) << own.message;
  ASSERT_EQ(own.steps.size(), schedule.steps.size());
  EXPECT_EQ(own.steps_requested, 12);
  EXPECT_EQ(own.steps_done, 12);
  for (size_t k = 0; k < own.steps.size(); ++k) {
    EXPECT_EQ(own.steps[k].k, static_cast<int>(k) + 1);
    EXPECT_EQ(own.steps[k].q, schedule.steps[k].q) << "step " << k + 1;
    EXPECT_EQ(own.steps[k].u, schedule.steps[k].u) << "step " << k + 1;
  }
  // Another start: q0 with the sphere 1 mm higher is not the scene's q0.
  State x0 = InitialState(scene_);
  x0.q[1] += 1e-3;
  const Trajectory lifted = RolloutCommands(*model_, x0, U, {});
  EXPECT_EQ(lifted.q0, x0.q);
  EXPECT_NE(lifted.steps.front().q, schedule.steps.front().q);
}

// Gradients along a rollout: CalcDiff of each step Calc solved, equal to a separate
// Calc + CalcDiff at the same (q, u).
TEST_F(PlanarGripperRolloutTest, RecordsTheDerivativesOfEveryStepWhenAsked) {
  RolloutOptions options{10, {}};
  options.gradients = GradientMode::kAAndB;
  const Trajectory trajectory = Rollout(*model_, options);
  ASSERT_TRUE(trajectory.completed()) << trajectory.message;
  testing::Stepper stepper(scene_ptr_, settings_);
  Eigen::VectorXd q = scene_.q0;
  for (const TrajectoryStep& step : trajectory.steps) {
    stepper.Step(q, step.u);
    const StepDerivatives& d = stepper.Differentiate(GradientMode::kAAndB);
    ASSERT_TRUE(d.ok()) << d.message;
    EXPECT_EQ(step.gradient_status, d.status);
    ASSERT_EQ(step.A.rows(), scene_.nq);
    ASSERT_EQ(step.B.cols(), scene_.nq_a);
    EXPECT_EQ(step.A, d.A) << "step " << step.k;
    EXPECT_EQ(step.B, d.B) << "step " << step.k;
    q = step.q;
  }
  // Without the option nothing is computed.
  const Trajectory plain = Rollout(*model_, {3, {}});
  EXPECT_EQ(plain.steps.front().A.size(), 0);
  EXPECT_EQ(plain.steps.front().gradient_status, SolverStatus::kNotRun);
}

TEST_F(PlanarGripperRolloutTest, RolloutCommandsNamesBadCommands) {
  const auto message = [&](const Eigen::MatrixXd& U, const State& x0) {
    try {
      RolloutCommands(*model_, x0, U, {});
    } catch (const std::invalid_argument& e) {
      return std::string(e.what());
    }
    return std::string("no exception");
  };
  const State x0 = InitialState(scene_);
  EXPECT_NE(
      message(Eigen::MatrixXd::Zero(2, 2), x0).find("commands has 2 columns, expected n_q,a = 3"),
      std::string::npos);
  Eigen::MatrixXd U = Eigen::MatrixXd::Zero(2, 3);
  U(1, 2) = std::numeric_limits<double>::quiet_NaN();
  EXPECT_NE(message(U, x0).find("commands row 1[2] is not finite"), std::string::npos)
      << message(U, x0);
  EXPECT_NE(message(Eigen::MatrixXd::Zero(2, 3), State{Eigen::VectorXd::Zero(5), {}})
                .find("x0.q has size 5"),
            std::string::npos);
}

// A batch runs each rollout by the single rollout's loop: trajectory b is bitwise the
// trajectory of RolloutCommands (or RolloutFrom) from the same start, for every thread count.
TEST_F(PlanarGripperRolloutTest, ABatchIsBitwiseTheSingleRolloutsForEveryThreadCount) {
  const int steps = 8;
  std::vector<State> x0s;
  std::vector<Eigen::MatrixXd> commands;
  for (int b = 0; b < 5; ++b) {
    State x0 = InitialState(scene_);
    x0.q[1] += 1e-3 * b;  // the sphere b mm higher
    x0s.push_back(x0);
    Eigen::MatrixXd U(steps, scene_.nq_a);
    for (int k = 0; k < steps; ++k)
      U.row(k) = (scene_.CommandAt((k + 1) * 0.01) * (1.0 + 0.01 * b)).transpose();
    commands.push_back(U);
  }
  RolloutOptions options{steps, {}};
  options.gradients = GradientMode::kAAndB;
  const auto expect_same = [](const Trajectory& batch, const Trajectory& single, int threads) {
    ASSERT_EQ(batch.steps.size(), single.steps.size());
    EXPECT_EQ(batch.completed(), single.completed());
    EXPECT_EQ(batch.q0, single.q0);
    for (size_t k = 0; k < single.steps.size(); ++k) {
      EXPECT_EQ(batch.steps[k].q, single.steps[k].q) << "step " << k << ", T " << threads;
      EXPECT_EQ(batch.steps[k].u, single.steps[k].u) << "step " << k << ", T " << threads;
      EXPECT_EQ(batch.steps[k].A, single.steps[k].A) << "step " << k << ", T " << threads;
      EXPECT_EQ(batch.steps[k].B, single.steps[k].B) << "step " << k << ", T " << threads;
      ASSERT_EQ(batch.steps[k].contacts.size(), single.steps[k].contacts.size());
      for (size_t c = 0; c < single.steps[k].contacts.size(); ++c)
        EXPECT_EQ(batch.steps[k].contacts[c].normal_force,
                  single.steps[k].contacts[c].normal_force);
    }
  };
  for (int threads : {1, 2, 3, 8}) {
    const std::vector<Trajectory> own = RolloutBatch(*model_, x0s, commands, options, threads);
    const std::vector<Trajectory> scheduled = RolloutBatch(*model_, x0s, {}, options, threads);
    ASSERT_EQ(own.size(), x0s.size());
    ASSERT_EQ(scheduled.size(), x0s.size());
    for (size_t b = 0; b < x0s.size(); ++b) {
      expect_same(own[b], RolloutCommands(*model_, x0s[b], commands[b], options), threads);
      expect_same(scheduled[b], RolloutFrom(*model_, x0s[b], options), threads);
    }
  }
  EXPECT_TRUE(RolloutBatch(*model_, {}, {}, options, 2).empty());
}

// A worker keeps its data from one rollout to the next, its warm start cleared: with more
// rollouts than workers, every formulation's trajectory b is still bitwise the single call's
// (a fresh data object), including the formulations with a velocity state and their own solvers:
// every registered formulation that can step the gripper.
TEST_F(PlanarGripperRolloutTest, AWorkersNextRolloutIsBitwiseAFreshOneInEveryFormulation) {
  const int steps = 12;
  int formulations = 0, with_velocities = 0;
  for (const FormulationPlugin* plugin : FormulationRegistry::Global().Plugins()) {
    if (!WhyCannotStep(scene_ptr_, *plugin).empty()) continue;
    const std::string& formulation = plugin->info.name;
    ++formulations;
    with_velocities += plugin->info.capabilities.state == StateKind::kConfigurationAndVelocity;
    testing::ProgramSettings settings = settings_;
    settings.type = formulation;
    const std::shared_ptr<const StepModel> model = MakeStepModel(scene_ptr_, settings);
    std::vector<State> starts;
    for (int b = 0; b < 5; ++b) {
      State x0 = InitialState(*model);
      x0.q[1] += 1e-3 * b;  // the sphere b mm higher
      starts.push_back(x0);
    }
    RolloutOptions options{steps, {}};
    for (int threads : {1, 2}) {
      const std::vector<Trajectory> batch = RolloutBatch(*model, starts, {}, options, threads);
      ASSERT_EQ(batch.size(), starts.size());
      for (size_t b = 0; b < starts.size(); ++b) {
        const Trajectory single = RolloutFrom(*model, starts[b], options);
        const std::string where =
            formulation + ", rollout " + std::to_string(b) + ", T " + std::to_string(threads);
        ASSERT_EQ(batch[b].steps.size(), single.steps.size()) << where;
        EXPECT_GT(single.steps.size(), 0u) << where;
        for (size_t k = 0; k < single.steps.size(); ++k) {
          EXPECT_EQ(batch[b].steps[k].q, single.steps[k].q) << where << ", step " << k;
          EXPECT_EQ(batch[b].steps[k].v, single.steps[k].v) << where << ", step " << k;
          EXPECT_EQ(batch[b].steps[k].solver.iterations, single.steps[k].solver.iterations)
              << where << ", step " << k;
        }
      }
    }
  }
  EXPECT_GT(formulations, with_velocities);
  EXPECT_GT(with_velocities, 0);
}

TEST_F(PlanarGripperRolloutTest, ABatchNamesTheRolloutOfABadInputBeforeStepping) {
  const auto message = [&](const std::vector<State>& x0s,
                           const std::vector<Eigen::MatrixXd>& commands, int threads) {
    try {
      RolloutBatch(*model_, x0s, commands, {2, {}}, threads);
    } catch (const std::invalid_argument& e) {
      return std::string(e.what());
    }
    return std::string("no exception");
  };
  const State x0 = InitialState(scene_);
  State bad = x0;
  bad.q[2] = std::numeric_limits<double>::infinity();
  const Eigen::MatrixXd U = Eigen::MatrixXd::Zero(2, 3);
  Eigen::MatrixXd nan_U = U;
  nan_U(1, 0) = std::numeric_limits<double>::quiet_NaN();
  EXPECT_EQ(message({x0, bad}, {U, U}, 1), "rollout 1: x0.q[2] is not finite (inf)");
  EXPECT_EQ(message({x0, x0, x0}, {U, U, nan_U}, 2),
            "rollout 2: commands row 1[0] is not finite (nan)");
  EXPECT_EQ(message({x0, x0}, {U}, 2),
            "RolloutBatch: one command matrix per rollout: 1 for 2 initial states");
  EXPECT_EQ(message({x0}, {U}, 0), "RolloutBatch: threads must be >= 1 (got 0)");
}

// The record keeps what the issue asked to report: the impulses, the forces they imply and the
// momentum term's generalized force on the objects.
TEST_F(PlanarGripperRolloutTest, RecordsImpulsesAndTheMomentumForce) {
  const Trajectory trajectory = Rollout(*model_, {24, {}});
  for (const TrajectoryStep& step : trajectory.steps) {
    ASSERT_EQ(step.momentum_force.size(), scene_.nv_u);
    for (const ContactRecord& c : step.contacts) {
      EXPECT_DOUBLE_EQ(c.normal_impulse, c.normal_force * 0.01);
      EXPECT_TRUE(c.friction_impulse.isApprox(c.friction_force * 0.01, 1e-14) ||
                  c.friction_impulse.norm() < 1e-300);
    }
  }
}

TEST_F(PlanarGripperRolloutTest, RecordsContactsWithNamesAndForces) {
  const Trajectory trajectory = Rollout(*model_, {24, {}});
  ASSERT_TRUE(trajectory.completed()) << trajectory.message;
  // The sphere rests on the ground from the start: every step has a disk/ground contact
  // whose normal is +y (ground is shape B: normal from B to A) and pushes up (>= 0).
  for (const TrajectoryStep& step : trajectory.steps) {
    bool ground_contact = false;
    for (const ContactRecord& c : step.contacts) {
      EXPECT_GE(c.normal_force, 0.0);
      EXPECT_NEAR(c.normal.norm(), 1.0, 1e-12);
      const bool disk_ground = (c.shape_a == "sphere/disk" && c.body_b == "world") ||
                               (c.shape_b == "sphere/disk" && c.body_a == "world");
      if (!disk_ground) continue;
      ground_contact = true;
      const double sign = c.body_b == "world" ? 1.0 : -1.0;
      EXPECT_NEAR(sign * c.normal.y(), 1.0, 1e-12) << "t = " << step.t;
    }
    EXPECT_TRUE(ground_contact) << "t = " << step.t;
  }
}

TEST_F(PlanarGripperRolloutTest, ReportsProgressAfterEveryStep) {
  std::vector<double> fractions;
  const Trajectory trajectory = Rollout(*model_, {8, [&](double f) { fractions.push_back(f); }});
  ASSERT_EQ(fractions.size(), 8u);
  for (int k = 1; k <= 8; ++k) EXPECT_DOUBLE_EQ(fractions[k - 1], k / 8.0);
}

TEST_F(PlanarGripperRolloutTest, ZeroStepsGiveAnEmptyCompletedTrajectory) {
  const Trajectory trajectory = Rollout(*model_, {0, {}});
  EXPECT_TRUE(trajectory.steps.empty());
  EXPECT_TRUE(trajectory.completed());
  EXPECT_EQ(trajectory.FinalConfiguration(), scene_.q0);
}

TEST_F(PlanarGripperRolloutTest, RejectsBadInputBeforeStepping) {
  EXPECT_THROW(Rollout(*model_, {-1, {}}), std::invalid_argument);
}

// A step model that succeeds (moving q_0 by 1: q_0 counts the steps done) until step
// `fail_at`, which fails; step `throw_at` throws instead (a caller's mistake).
class ScriptedModel final : public StepModel {
 public:
  ScriptedModel(ScenePtr scene, const testing::ProgramSettings& settings, int fail_at, int throw_at)
      : StepModel(std::move(scene), settings.time_step, FormulationInfo{settings.type, "", "", {}},
                  ParameterBlock()),
        fail_at_(fail_at),
        throw_at_(throw_at) {}
  std::unique_ptr<StepData> CreateData() const override {
    return std::unique_ptr<StepData>(new Data(this));
  }
  void ClearWarmStart(StepData*) const override {}
  mutable int calls = 0;

 private:
  void DoCalc(const State& x, const Eigen::VectorXd&, StepData* data) const override {
    const int call = ++calls;
    if (call == throw_at_) throw std::invalid_argument("q has a NaN at index 1");
    if (call == fail_at_)
      return FailStep(SolverStatus::kInfeasible,
                      "contact 2 (a / b, phi = -0.5 m) cannot be resolved", data);
    StepResult& result = data->result;
    result.status = SolverStatus::kSolved;
    result.message.clear();
    result.next = x;
    result.next.q[0] += 1.0;
  }
  void DoCalcDiff(GradientMode, StepData*) const override {}
  struct Data final : StepData {
    explicit Data(const StepModel* model) : StepData(model) {}
  };
  int fail_at_, throw_at_;
};

TEST_F(PlanarGripperRolloutTest, FailingStepStopsTheRolloutAndKeepsItsMessage) {
  const ScriptedModel model(scene_ptr_, settings_, 4, -1);
  const Trajectory trajectory = Rollout(model, {10, {}});
  EXPECT_EQ(model.calls, 4);  // nothing after the failed step
  ASSERT_EQ(trajectory.steps.size(), 3u);
  EXPECT_FALSE(trajectory.completed());
  EXPECT_EQ(trajectory.steps_requested, 10);
  EXPECT_EQ(trajectory.status, SolverStatus::kInfeasible);
  EXPECT_NE(trajectory.message.find("cannot be resolved"), std::string::npos) << trajectory.message;
  EXPECT_NE(trajectory.message.find("step 4"), std::string::npos) << trajectory.message;
  EXPECT_NE(trajectory.message.find("infeasible"), std::string::npos) << trajectory.message;
  EXPECT_DOUBLE_EQ(trajectory.FinalConfiguration()[0], scene_.q0[0] + 3.0);
}

// A caller's mistake is an exception (stepping/step_model.h); the rollout does not turn it
// into a numerical status.
TEST_F(PlanarGripperRolloutTest, ACallersMistakeInAStepPropagates) {
  const ScriptedModel model(scene_ptr_, settings_, -1, 2);
  EXPECT_THROW(Rollout(model, {5, {}}), std::invalid_argument);
  EXPECT_EQ(model.calls, 2);
}

TEST(RolloutTest, InfeasibleFirstStepNamesTheContact) {
  // A ball wedged between two fixed blocks, overlapping each by 0.025 m with opposite normals:
  // φ/h + J v >= 0 holds for no v of the ball (eq. (10) of Pang & Tedrake 2021 is infeasible).
  // (Two fixed blocks overlapping each other are welded to the world: no contact between them.)
  const std::string yaml = R"(
name: overlap
dimension: 2
time_step: 0.01
objects:
  - name: left_block
    joint: fixed
    pose: {x: 0, y: 0}
    body:
      mass: 1
      inertia: from_shapes
      shapes: [{name: box, type: box, size: [0.2, 0.2, 0.2], friction: 0.5}]
  - name: right_block
    joint: fixed
    pose: {x: 0.25, y: 0}
    body:
      mass: 1
      inertia: from_shapes
      shapes: [{name: box, type: box, size: [0.2, 0.2, 0.2], friction: 0.5}]
  - name: ball
    joint: planar
    body:
      mass: 1
      inertia: from_shapes
      shapes: [{name: disk, type: sphere, radius: 0.05, friction: 0.5}]
    initial: [0.125, 0, 0]
)";
  const ScenePtr scene = testing::Shared(LoadSceneFromString(yaml, "overlap.yaml", "."));
  const Trajectory trajectory =
      Rollout(*MakeStepModel(scene, testing::SceneProgramSettings(*scene)), {5, {}});
  EXPECT_TRUE(trajectory.steps.empty());
  EXPECT_FALSE(trajectory.completed());
  EXPECT_NE(trajectory.status, SolverStatus::kSolved);
  EXPECT_NE(trajectory.message.find("left_block/box"), std::string::npos) << trajectory.message;
  EXPECT_NE(trajectory.message.find("ball/disk"), std::string::npos) << trajectory.message;
}

}  // namespace
}  // namespace quasidyn
