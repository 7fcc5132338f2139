// Failed steps keep q and say why; bad input throws.

#include <gtest/gtest.h>

#include <limits>
#include <stdexcept>

#include "quasidyn/scenes/scene_loading.h"
#include "quasidyn/testing/dynamics_scenes.h"
#include "quasidyn/testing/program_settings.h"
#include "quasidyn/testing/step_problems.h"
#include "quasidyn/testing/stepper.h"

namespace quasidyn {
namespace {

class InfeasibleStep : public ::testing::TestWithParam<std::string> {};

// A ball of diameter 0.2 m between a floor and a ceiling 0.15 m apart: φ₁ + φ₂ < 0 with
// opposite normals, so φ₁/h + J_n,1 v >= 0 and φ₂/h + J_n,2 v >= 0 add up to a contradiction.
TEST_P(InfeasibleStep, ReportsInfeasibleNamesAContactAndKeepsQ) {
  const Scene scene = testing::SqueezedBallScene();
  testing::ProgramSettings settings = testing::SceneProgramSettings(scene);
  settings.type = GetParam();
  testing::Stepper stepper(scene, settings);
  const StepResult& result = stepper.Step(scene.q0, scene.CommandAt(scene.time_step));
  EXPECT_FALSE(result.ok());
  EXPECT_EQ(result.status, SolverStatus::kInfeasible)
      << ToString(result.status) << ": " << result.message;
  EXPECT_NE(result.message.find("contact "), std::string::npos) << result.message;
  EXPECT_NE(result.message.find("ball/"), std::string::npos) << result.message;
  EXPECT_EQ(result.next.q, scene.q0);
  EXPECT_EQ(result.velocity, Eigen::VectorXd::Zero(scene.nv));
}

INSTANTIATE_TEST_SUITE_P(AllFormulations, InfeasibleStep,
                         ::testing::Values("qp", "socp", "log-barrier", "log-barrier-cone", "lcp"));

TEST(StepperInput, NanOrWrongSizedCommandThrows) {
  const Scene scene = LoadScene(testing::kSourceDir + "/examples/planar_gripper/scene.yaml");
  for (std::string type : {"qp", "socp", "log-barrier", "log-barrier-cone", "lcp"}) {
    testing::ProgramSettings settings = testing::SceneProgramSettings(scene);
    settings.type = type;
    testing::Stepper stepper(scene, settings);
    Eigen::VectorXd u = scene.CommandAt(0.01);
    u[1] = std::numeric_limits<double>::quiet_NaN();
    EXPECT_THROW(stepper.Step(scene.q0, u), std::invalid_argument);
    EXPECT_THROW(stepper.Step(scene.q0, Eigen::VectorXd::Zero(2)), std::invalid_argument);
    Eigen::VectorXd q = scene.q0;
    q[0] = std::numeric_limits<double>::infinity();
    EXPECT_THROW(stepper.Step(q, scene.CommandAt(0.01)), std::invalid_argument);
  }
}

// Finite but huge input (from a mutation campaign: a robot's initial position -1e308)
// overflows in the cost, K_a (u − q_a) = inf: a numerical-failure status that keeps q, not the
// solvers' exception for a non-finite problem escaping the step.
TEST(StepperInput, FiniteInputThatOverflowsInTheCostIsAStatus) {
  const Scene scene = LoadScene(testing::kSourceDir + "/examples/planar_pushing/scene.yaml");
  for (std::string type : {"qp", "socp", "log-barrier", "log-barrier-cone", "lcp"}) {
    SCOPED_TRACE(std::string(type));
    testing::ProgramSettings settings = testing::SceneProgramSettings(scene);
    settings.type = type;
    testing::Stepper stepper(scene, settings);
    Eigen::VectorXd q = scene.q0;
    q[scene.nq_u] = -1e308;  // the pusher's x
    const StepResult& result = stepper.Step(q, scene.CommandAt(0.01));
    EXPECT_EQ(result.status, SolverStatus::kNumericalFailure) << result.message;
    EXPECT_NE(result.message.find("overflowed"), std::string::npos) << result.message;
    EXPECT_EQ(result.next.q, q);
  }
}

TEST(StepperInput, SettingsOutOfRangeThrow) {
  const Scene scene = LoadScene(testing::kSourceDir + "/examples/planar_gripper/scene.yaml");
  testing::ProgramSettings settings = testing::SceneProgramSettings(scene);
  settings.kappa = 0.0;
  EXPECT_THROW(testing::Stepper(scene, settings), std::invalid_argument);
  settings = testing::SceneProgramSettings(scene);
  settings.object_mass_scale = -1.0;
  EXPECT_THROW(testing::Stepper(scene, settings), std::invalid_argument);
  settings = testing::SceneProgramSettings(scene);
  settings.time_step = std::numeric_limits<double>::quiet_NaN();
  EXPECT_THROW(testing::Stepper(scene, settings), std::invalid_argument);
}

}  // namespace
}  // namespace quasidyn
