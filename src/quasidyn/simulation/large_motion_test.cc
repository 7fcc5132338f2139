// The step's large-motion warning (StepResult::large_motion, stepping/body_motion.h) on the
// example of issue 35: planar_hand's ball held 5 cm above the ground, beyond the contact
// tolerance ε = 0.02 m, at the planner's h = 0.1 s. Out of contact, a quasi-dynamic object falls
// h²·g per step (its momentum term s M v / h balances gravity, s = 1: v = h g), 0.098 m: the
// ground is not in the step's program, so the ball ends inside it. The step is solved (the
// status stays a success) and says that it moved a body further than ε; at h = 0.01 s the fall
// is 0.98 mm and it does not.

#include <gtest/gtest.h>

#include <memory>

#include "quasidyn/formulations/registry.h"
#include "quasidyn/simulation/rollout.h"
#include "quasidyn/testing/example_states.h"

namespace quasidyn {
namespace {

State LiftedBall(const Scene& scene) {
  State x{scene.q0, Eigen::VectorXd()};
  x.q[1] = 0.10;  // the ball's centre: 0.05 m above resting on the ground
  return x;
}

std::shared_ptr<const StepModel> PlanarHandModel(const ScenePtr& scene, double time_step) {
  FormulationChoice choice(scene->formulation.name);
  choice.time_step = time_step;
  return MakeStepModel(scene, choice);
}

TEST(LargeMotion, AStepThatCarriesABodyPastTheContactToleranceWarnsAndSucceeds) {
  const ScenePtr scene = testing::LoadExample("planar_hand");
  const double g = 9.81;
  for (const double h : {0.1, 0.01}) {
    SCOPED_TRACE(h);
    const std::shared_ptr<const StepModel> model = PlanarHandModel(scene, h);
    const std::unique_ptr<StepData> data = model->CreateData();
    const State x = LiftedBall(*scene);
    model->Calc(x, model->HoldingCommand(x), data.get());
    const StepResult& result = data->result;
    ASSERT_TRUE(result.ok()) << result.message;
    // The ball falls h² g (to solver tolerance) and is the fastest body (the fingers are held).
    EXPECT_NEAR(x.q[1] - result.next.q[1], h * h * g, 1e-3 * h * h * g);
    EXPECT_NEAR(result.max_body_motion, x.q[1] - result.next.q[1], 1e-9);
    EXPECT_EQ(result.large_motion, h * h * g > scene->contact_tolerance);
  }
  EXPECT_GT(0.1 * 0.1 * g, scene->contact_tolerance);  // the case the test is about
}

TEST(LargeMotion, RolloutsCountTheWarnedSteps) {
  const ScenePtr scene = testing::LoadExample("planar_hand");
  const std::shared_ptr<const StepModel> model = PlanarHandModel(scene, 0.1);
  const State x0 = LiftedBall(*scene);
  Eigen::MatrixXd commands(3, scene->nq_a);
  for (int k = 0; k < 3; ++k) commands.row(k) = model->HoldingCommand(x0).transpose();
  const Trajectory run = RolloutCommands(*model, x0, commands, {});
  ASSERT_TRUE(run.completed()) << run.message;
  int warned = 0;
  for (const TrajectoryStep& step : run.steps) {
    warned += step.large_motion;
    EXPECT_EQ(step.large_motion, step.max_body_motion > scene->contact_tolerance);
  }
  EXPECT_TRUE(run.steps[0].large_motion);  // the fall
  EXPECT_EQ(run.large_motion_steps, warned);
}

}  // namespace
}  // namespace quasidyn
