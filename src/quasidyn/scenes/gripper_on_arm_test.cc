// A robot that hangs from another robot's link (a gripper welded to a frame on an arm's last
// link, as the reference simulator's iiwa_and_schunk.yml welds its Schunk gripper to
// iiwa_link_7; docs/scene-format.md `base_parent`): the quasi-dynamic formulations step it (they
// never use a robot's inertia) and the arm's joints carry the gripper; the formulations that
// use the robots' mass matrix, which they build robot by robot, refuse it by name; an instance's
// mass block is still the diagonal block of M(q).

#include <gtest/gtest.h>

#include <string>

#include "quasidyn/formulations/registry.h"
#include "quasidyn/kinematics/kinematics.h"
#include "quasidyn/scenes/scene_loading.h"
#include "quasidyn/testing/contains_text.h"
#include "quasidyn/testing/qsim_models.h"
#include "quasidyn/testing/scratch_files.h"
#include "quasidyn/testing/shared_scene.h"
#include "quasidyn/testing/stepper.h"

namespace quasidyn {
namespace {

using namespace testing::qsim;  // the models (testing/qsim_models.h)

// The arm (K 50, 25) with the gripper (K 10) on its last link, and ball_a by the gripper's finger.
class GripperOnArmStepTest : public ::testing::Test {
 protected:
  GripperOnArmStepTest() {
    WriteModels(folder_);
    scene_ = testing::Shared(LoadScene(
        folder_.Write("q_sys/system.yml",
                      "model_directive: package://my_models/arm_with_gripper.yml\nrobots:\n"
                      "  - {name: arm, Kp: [50, 25]}\n  - {name: gripper, Kp: [10]}\nobjects:\n"
                      "  - {name: ball_a, file: package://my_models/ball.sdf}\n"
                      "quasistatic_sim_params:\n  gravity: [0, 0, 0]\n  nd_per_contact: 4\n"
                      "  contact_detection_tolerance: 0.1\n")));
  }
  testing::ScratchDirectory folder_;
  ScenePtr scene_;
};

TEST_F(GripperOnArmStepTest, QuasiDynamicStepsMoveTheGripperWithTheArm) {
  const Scene& scene = *scene_;
  ASSERT_EQ(scene.nq, 7 + 3);  // ball_a; arm (shoulder, elbow); gripper (slide)
  const int lower = scene.BodyIndex("arm/lower"), palm = scene.BodyIndex("gripper/palm");
  const Joint& mount = scene.joints[scene.bodies[palm].parent_joint];
  for (const char* type : {"qp", "socp"}) {
    SCOPED_TRACE(type);
    testing::Stepper stepper(scene, FormulationChoice(type));
    Eigen::VectorXd q = scene.q0;
    q.head<3>() = Eigen::Vector3d(0, 1, 1);  // the ball far from every link
    Eigen::VectorXd u = q.tail<3>();
    u[1] += 0.1;   // the elbow
    u[2] += 0.02;  // the finger
    const StepResult& result = stepper.Step(q, u);
    ASSERT_TRUE(result.ok()) << result.message;
    // Nothing resists the robots: each joint reaches its command (the impedance's rest).
    const double tolerance = 1e-6;  // the solvers' stopping tolerance, relative to 1 rad / m
    EXPECT_NEAR(result.next.q[8], u[1], tolerance);
    EXPECT_NEAR(result.next.q[9], u[2], tolerance);
    Kinematics kinematics(scene_);
    kinematics.Update(result.next.q);
    EXPECT_TRUE(kinematics.BodyPose(palm).isApprox(kinematics.BodyPose(lower) * mount.X_PJ, 1e-15));
  }
}

TEST_F(GripperOnArmStepTest, FormulationsUsingTheRobotsMassMatrixRefuseItByName) {
  int refused = 0;
  for (const FormulationPlugin* plugin : FormulationRegistry::Global().Plugins()) {
    const std::string& name = plugin->info.name;
    SCOPED_TRACE(name);
    if (!plugin->info.capabilities.robots) continue;
    const std::string why = WhyCannotStep(scene_, *plugin);
    if (!plugin->info.capabilities.robot_inertia) {
      EXPECT_FALSE(testing::Contains(why, "hangs from")) << why;
      continue;
    }
    ++refused;
    EXPECT_TRUE(testing::Contains(why, name + " uses the robots' mass matrix one robot at a time, "
                                              "and robot 'gripper' hangs from 'arm/lower'"))
        << why;
    EXPECT_THROW(MakeStepModel(scene_, FormulationChoice(name)), std::invalid_argument);
  }
  EXPECT_EQ(refused, 3);  // stewart-trinkle, anitescu, anitescu-cone
}

// The gripper's block leaves out the arm's columns (its chain reaches them): it is the diagonal
// block of M(q), entry for entry.
TEST_F(GripperOnArmStepTest, AnInstancesMassBlockIsTheDiagonalBlockOfTheMassMatrix) {
  Kinematics kinematics(scene_);
  Eigen::VectorXd q = scene_->q0;
  q.tail<3>() = Eigen::Vector3d(0.3, 0.9, 0.01);
  kinematics.Update(q);
  const Eigen::MatrixXd M = kinematics.MassMatrix();
  for (int i = 0; i < static_cast<int>(scene_->instances.size()); ++i) {
    const ModelInstance& instance = scene_->instances[i];
    if (instance.nv == 0) continue;
    Eigen::MatrixXd block;
    kinematics.InstanceMassMatrix(i, &block);
    EXPECT_EQ(block, M.block(instance.v_start, instance.v_start, instance.nv, instance.nv))
        << instance.name;
  }
}

}  // namespace
}  // namespace quasidyn
