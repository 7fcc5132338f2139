// The step under the reference quasistatic simulator's conventions (model/simulator_conventions.h,
// docs/qsim-files.md "Parity mode"): its quaternion update applied to the step's own velocity,
// its joint limits ignored, in every formulation that integrates q or builds joint-limit rows.
// The gradients in this mode: calc_diff_test.cc (ParityMode).

#include <gtest/gtest.h>

#include <stdexcept>
#include <string>

#include "quasidyn/math/quaternion.h"
#include "quasidyn/scenes/scene_loading.h"
#include "quasidyn/testing/dynamics_scenes.h"
#include "quasidyn/testing/program_settings.h"
#include "quasidyn/testing/stepper.h"

namespace quasidyn {
namespace {

// The cube pushed diagonally turns (dynamics_scenes.h); its quaternion after one step is the
// chosen update of q's quaternion by the step's own ω, bit for bit; translations add h v.
TEST(ParityMode, TheStepMovesTheQuaternionByTheChosenUpdate) {
  for (const char* type : {"qp", "socp", "log-barrier"}) {
    for (QuaternionUpdate update :
         {QuaternionUpdate::kExponentialMap, QuaternionUpdate::kFirstOrder}) {
      SCOPED_TRACE(std::string(type) + ", " + QuaternionUpdateName(update));
      Scene scene = testing::DiagonalPushScene(4);
      scene.conventions.quaternion_update = update;
      testing::ProgramSettings settings = testing::SceneProgramSettings(scene);
      settings.type = type;
      settings.kappa = 1e4;
      testing::Stepper stepper(scene, settings);
      const StepResult& result = stepper.Step(scene.q0, testing::DiagonalPushCommand(scene));
      ASSERT_TRUE(result.ok()) << result.message;
      const Eigen::Vector4d Q = scene.q0.segment<4>(3);
      const Eigen::Vector3d omega = result.velocity.segment<3>(3);
      ASSERT_GT(omega.norm(), 1e-3);  // it turns
      const Eigen::Vector4d expected = update == QuaternionUpdate::kFirstOrder
                                           ? FirstOrderQuaternionUpdate(Q, omega, scene.time_step)
                                           : IntegrateQuaternion(Q, omega, scene.time_step);
      EXPECT_EQ(result.next.q.segment<4>(3), expected);
      EXPECT_EQ(result.next.q.head<3>(),
                scene.q0.head<3>() + scene.time_step * result.velocity.head<3>());
    }
  }
}

// A prismatic robot with the limit x <= 0.1 m commanded to 0.3 m: enforced, the step stops at
// the limit with an impulse; ignored (the simulator's rule), it reaches the command (a free
// robot: q⁺ = u) and no limit impulse is reported.
Scene LimitedSlider(JointLimitRule rule) {
  Scene scene = LoadSceneFromString(
      "name: slider\ndimension: 2\ngravity: [0, 0, 0]\ntime_step: 0.01\n"
      "robots:\n  - name: arm\n    bodies:\n"
      "      - {name: slider, mass: 1.0, inertia: from_shapes,\n"
      "         shapes: [{type: sphere, radius: 0.05, friction: 0.5}]}\n"
      "    joints:\n"
      "      - {name: x, type: prismatic, parent: world, child: slider, axis: [1, 0, 0],\n"
      "         limits: [-0.1, 0.1]}\n"
      "    stiffness: 100\n    initial: [0.05]\n",
      "slider.yaml", ".");
  scene.conventions.joint_limits = rule;
  return scene;
}

TEST(ParityMode, IgnoredJointLimitsLetTheRobotPassThem) {
  const Eigen::VectorXd u = Eigen::VectorXd::Constant(1, 0.3);
  for (const char* type : {"qp", "socp", "lcp"}) {
    SCOPED_TRACE(type);
    for (JointLimitRule rule : {JointLimitRule::kEnforced, JointLimitRule::kIgnored}) {
      const Scene scene = LimitedSlider(rule);
      testing::ProgramSettings settings = testing::SceneProgramSettings(scene);
      settings.type = type;
      testing::Stepper stepper(scene, settings);
      const StepResult& result = stepper.Step(scene.q0, u);
      ASSERT_TRUE(result.ok()) << result.message;
      // The solvers' tolerance 1e-9 (relative, on velocities of O(10) m/s): 1e-8 in q.
      if (rule == JointLimitRule::kEnforced) {
        EXPECT_NEAR(result.next.q[0], 0.1, 1e-8);
        EXPECT_GT(result.joint_limit_impulse.norm(), 0.0);
      } else {
        EXPECT_NEAR(result.next.q[0], 0.3, 1e-8);
        EXPECT_EQ(result.joint_limit_impulse.norm(), 0.0);
      }
    }
  }
}

// ecp integrates rotations by the exponential map only: the first-order update is refused
// where the model is made, naming the key.
TEST(ParityMode, EcpRefusesTheFirstOrderUpdate) {
  Scene scene =
      LoadScene(std::string(QUASIDYN_SOURCE_DIR) + "/examples/ecp_cube_sliding/scene.yaml");
  ASSERT_EQ(scene.formulation.name, "ecp");
  scene.conventions.quaternion_update = QuaternionUpdate::kFirstOrder;
  try {
    testing::Stepper stepper(scene, FormulationChoice("ecp"));
    FAIL() << "no error";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("conventions.quaternion_update"), std::string::npos)
        << e.what();
  }
}

}  // namespace
}  // namespace quasidyn
