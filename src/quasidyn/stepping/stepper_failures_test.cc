// Failed steps keep q and say why, in every registered formulation that can step the scene; a
// finite input that overflows is a status. (That a caller's mistake throws, in every formulation,
// is the conformance suite's: tests/conformance/.)

#include <gtest/gtest.h>

#include <limits>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "quasidyn/scenes/scene_loading.h"
#include "quasidyn/testing/dynamics_scenes.h"
#include "quasidyn/testing/program_settings.h"
#include "quasidyn/testing/registered_formulations.h"
#include "quasidyn/testing/shared_scene.h"
#include "quasidyn/testing/step_problems.h"
#include "quasidyn/testing/stepper.h"
#include "quasidyn/testing/test_names.h"

namespace quasidyn {
namespace {

class InfeasibleStep : public ::testing::TestWithParam<std::string> {};

// A ball of diameter 0.2 m between a floor and a ceiling 0.15 m apart: φ₁ + φ₂ < 0 with
// opposite normals, so φ₁/h + J_n,1 v >= 0 and φ₂/h + J_n,2 v >= 0 add up to a contradiction.
TEST_P(InfeasibleStep, ReportsInfeasibleNamesAContactAndKeepsQ) {
  const ScenePtr scene = testing::Shared(testing::SqueezedBallScene());
  testing::ProgramSettings settings = testing::SceneProgramSettings(*scene);
  settings.type = GetParam();
  const std::shared_ptr<const StepModel> model = MakeStepModel(scene, settings);
  const std::unique_ptr<StepData> data = model->CreateData();
  const State x = InitialState(*model);
  model->Calc(x, model->ScheduledCommand(scene->time_step, x), data.get());
  const StepResult& result = data->result;
  EXPECT_FALSE(result.ok());
  EXPECT_EQ(result.status, SolverStatus::kInfeasible)
      << ToString(result.status) << ": " << result.message;
  EXPECT_NE(result.message.find("contact "), std::string::npos) << result.message;
  EXPECT_NE(result.message.find("ball/"), std::string::npos) << result.message;
  EXPECT_EQ(result.next.q, x.q);
  EXPECT_EQ(result.next.v, x.v);
  EXPECT_EQ(result.velocity, Eigen::VectorXd::Zero(scene->nv));
}

INSTANTIATE_TEST_SUITE_P(AllFormulations, InfeasibleStep,
                         ::testing::ValuesIn(testing::FormulationsThatStep(
                             testing::Shared(testing::SqueezedBallScene()))),
                         testing::NameOfParam());

// Finite but huge input (from a mutation campaign: a robot's initial position -1e308)
// overflows in the cost, K_a (u − q_a) = inf: a numerical-failure status that keeps q, not the
// solvers' exception for a non-finite problem escaping the step. Every registered formulation
// with a configuration state whose command is the robots' positions (the conformance suite,
// tests/conformance/, forces such a failure on every formulation through its command).
TEST(StepperInput, FiniteInputThatOverflowsInTheCostIsAStatus) {
  const Scene scene = LoadScene(testing::kSourceDir + "/examples/planar_pushing/scene.yaml");
  const std::vector<std::string> types =
      testing::FormulationsThatStep(testing::Shared(scene), [](const FormulationCapabilities& can) {
        return can.state == StateKind::kConfiguration &&
               can.command == CommandKind::kRobotPositions;
      });
  EXPECT_GE(types.size(), 2u);
  for (const std::string& type : types) {
    SCOPED_TRACE(type);
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
