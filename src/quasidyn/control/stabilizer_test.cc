#include "quasidyn/control/stabilizer.h"

#include <gtest/gtest.h>

#include <iostream>
#include <stdexcept>

#include "quasidyn/control/plan_tracking.h"
#include "quasidyn/control/plant_study.h"
#include "quasidyn/control/trajectory_optimizer.h"
#include "quasidyn/formulations/registry.h"
#include "quasidyn/testing/control_tasks.h"
#include "quasidyn/testing/program_settings.h"

namespace quasidyn {
namespace {

// The planar hand's 30° plan (trajectory_optimizer_test.cc), computed once.
const OptimizationResult& StabilizerHandPlan() {
  static const OptimizationResult plan = [] {
    testing::ControlTask task = testing::PlanarHandTurn(QUASIDYN_SOURCE_DIR);
    TrajectoryOptimizer optimizer(task.model, task.settings);
    return optimizer.Optimize(task.q0, task.u0);
  }();
  return plan;
}

std::shared_ptr<const StepModel> HandModel() {
  return testing::PlanarHandTurn(QUASIDYN_SOURCE_DIR).model;
}

TEST(Stabilizer, SendsTheReferenceOnTheReference) {
  Stabilizer stabilizer(HandModel(), StabilizerHandPlan().q, StabilizerHandPlan().u, {});
  for (int t = 0; t < stabilizer.steps(); ++t) {
    const Eigen::VectorXd u = stabilizer.Command(t, StabilizerHandPlan().q[t]);
    EXPECT_LT((u - StabilizerHandPlan().u[t]).lpNorm<Eigen::Infinity>(), 1e-7) << "step " << t;
  }
}

// Off the reference with no bound active, the QP's answer is the closed form
// δu = −(BᵀQB + R)⁻¹ BᵀQ e, to the QP's tolerance.
TEST(Stabilizer, MatchesItsClosedFormWhenNoBoundIsActive) {
  StabilizerSettings settings;
  settings.max_deviation = 10.0;
  Stabilizer stabilizer(HandModel(), StabilizerHandPlan().q, StabilizerHandPlan().u, settings);
  int compared = 0;
  for (int t = 0; t < stabilizer.steps(); ++t) {
    Eigen::VectorXd q = StabilizerHandPlan().q[t];
    q(0) += 0.002;
    q(2) -= 0.01;
    const Eigen::VectorXd closed = stabilizer.ClosedFormCommand(t, q);
    if ((closed - StabilizerHandPlan().u[t]).lpNorm<Eigen::Infinity>() >
        0.5 * settings.max_deviation) {
      continue;
    }
    const Eigen::VectorXd u = stabilizer.Command(t, q);
    EXPECT_TRUE(stabilizer.solver_message().empty()) << stabilizer.solver_message();
    EXPECT_LT((u - closed).lpNorm<Eigen::Infinity>(), 1e-6 * (1.0 + closed.norm())) << t;
    ++compared;
  }
  EXPECT_GT(compared, 0);
  // And with a tight bound, the command stays inside it.
  settings.max_deviation = 1e-3;
  Stabilizer tight(HandModel(), StabilizerHandPlan().q, StabilizerHandPlan().u, settings);
  Eigen::VectorXd q = StabilizerHandPlan().q[3];
  q(0) += 0.003;
  const Eigen::VectorXd u = tight.Command(3, q);
  EXPECT_LE((u - StabilizerHandPlan().u[3]).lpNorm<Eigen::Infinity>(), 1e-3 * (1.0 + 1e-6));
}

// Open-loop steps (a physical regrasp's) send u_ref off the reference, where the others correct.
TEST(Stabilizer, SendsTheReferenceOnOpenLoopSteps) {
  const OptimizationResult& plan = StabilizerHandPlan();
  StabilizerSettings settings;
  settings.open_loop_steps.assign(plan.u.size(), false);
  settings.open_loop_steps[3] = true;
  Stabilizer stabilizer(HandModel(), plan.q, plan.u, settings);
  Eigen::VectorXd q = plan.q[3];
  q(0) += 0.003;
  EXPECT_EQ(stabilizer.Command(3, q), plan.u[3]);
  EXPECT_TRUE(stabilizer.solver_message().empty()) << stabilizer.solver_message();
  EXPECT_TRUE(stabilizer.open_loop_steps().empty());  // not a failed linearisation
  q = plan.q[4];
  q(0) += 0.003;
  EXPECT_GT((stabilizer.Command(4, q) - plan.u[4]).lpNorm<Eigen::Infinity>(), 1e-6);
  settings.open_loop_steps.pop_back();
  EXPECT_THROW(Stabilizer(HandModel(), plan.q, plan.u, settings), std::invalid_argument);
}

TEST(Stabilizer, BadInputNamesWhatIsWrong) {
  std::vector<Eigen::VectorXd> q = StabilizerHandPlan().q;
  q.pop_back();
  EXPECT_THROW(Stabilizer(HandModel(), q, StabilizerHandPlan().u, {}), std::invalid_argument);
  Stabilizer stabilizer(HandModel(), StabilizerHandPlan().q, StabilizerHandPlan().u, {});
  EXPECT_THROW(stabilizer.Command(-1, StabilizerHandPlan().q[0]), std::invalid_argument);
  EXPECT_THROW(stabilizer.Command(0, Eigen::VectorXd::Zero(3)), std::invalid_argument);
  // A plant scene with other coordinates.
  const auto pushing = testing::PlanarPushingGoal(QUASIDYN_SOURCE_DIR).model;
  try {
    CheckSameCoordinates(HandModel()->scene(), pushing->scene());
    FAIL() << "mismatched plant accepted";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("n_q"), std::string::npos) << e.what();
  }
}

// Perturbed plants, fixed seeds: the ball starts 3 mm off (the talk's disturbance), friction ±20 %
// and the plant's time step h/2 (of the plan's h = 0.1 s; both ours, not stated in the talk).
// Over 5 plants the closed loop's final ball error (position + 0.05 m × angle, the ball's radius)
// is below the open loop's on every plant.
TEST(Stabilizer, ClosedLoopBeatsOpenLoopOnPerturbedPlants) {
  const auto model = HandModel();
  Stabilizer stabilizer(model, StabilizerHandPlan().q, StabilizerHandPlan().u, {});
  PlantStudySettings settings;
  settings.plants = 5;
  const std::vector<PlantTrial> trials = CompareOpenAndClosedLoop(
      *model, StabilizerHandPlan().q, StabilizerHandPlan().u, &stabilizer, settings);
  for (const PlantTrial& t : trials) {
    ASSERT_TRUE(t.open_loop.message.empty() && t.closed_loop.message.empty())
        << t.open_loop.message << t.closed_loop.message;
    EXPECT_DOUBLE_EQ(t.perturbation.substeps, 2);
    EXPECT_LT(t.closed_error, t.open_error) << "plant " << t.seed;
  }
  const PlantStudySummary s = SummarizePlantStudy(trials);
  std::cout << "mean final error: open " << s.open_mean << " closed " << s.closed_mean << "\n";
}

}  // namespace
}  // namespace quasidyn
