#include "quasidyn/io/scene_edit.h"

#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <limits>
#include <stdexcept>
#include <string>

#include "quasidyn/io/scene_document.h"

namespace quasidyn {
namespace {

const std::string kExamples = std::string(QUASIDYN_SOURCE_DIR) + "/examples/";

std::string ErrorOf(const std::function<void()>& edit) {
  try {
    edit();
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "no exception";
}

class SceneEditTest : public ::testing::Test {
 protected:
  Scene gripper_ = ReadSceneFile(kExamples + "planar_gripper/scene.yaml");
  Scene arm_ = ReadSceneFile(kExamples + "arm_cubes/scene.yaml");
};

TEST_F(SceneEditTest, InitialConfigurationIsCheckedAndTheOriginalKept) {
  Eigen::VectorXd q0 = gripper_.q0;
  q0[1] += 0.05;
  const Scene edited = WithInitialConfiguration(gripper_, q0, "with_q0");
  EXPECT_EQ(edited.q0, q0);
  EXPECT_NE(gripper_.q0, q0);
  EXPECT_NE(ErrorOf([&] {
              WithInitialConfiguration(gripper_, q0.head(5), "with_q0");
            }).find("with_q0: q0 has size 5, expected n_q = 6"),
            std::string::npos);
  q0[0] = std::numeric_limits<double>::quiet_NaN();
  EXPECT_NE(ErrorOf([&] {
              WithInitialConfiguration(gripper_, q0, "with_q0");
            }).find("q0[0] is not finite"),
            std::string::npos);
  // A floating object's quaternion must be unit.
  Eigen::VectorXd q = arm_.q0;
  q[3] *= 1.5;
  EXPECT_NE(ErrorOf([&] { WithInitialConfiguration(arm_, q, "with_q0"); }).find("must be unit"),
            std::string::npos);
}

TEST_F(SceneEditTest, CommandsReplaceTheRobotsSchedule) {
  const Eigen::VectorXd a = Eigen::Vector3d(0.1, -0.2, 0.2), b = Eigen::Vector3d(0.1, -0.1, 0.1);
  const Scene edited = WithCommands(gripper_, "gripper", {0.0, 0.5}, {a, b}, "with_commands");
  EXPECT_EQ(edited.CommandAt(0.5), b);
  EXPECT_EQ(edited.CommandAt(0.25), 0.5 * (a + b));
  EXPECT_DOUBLE_EQ(edited.ScheduleEnd(), 0.5);
  EXPECT_NE(ErrorOf([&] {
              WithCommands(gripper_, "gripper", {0.5, 0.5}, {a, b}, "w");
            }).find("strictly increasing"),
            std::string::npos);
  EXPECT_NE(ErrorOf([&] { WithCommands(gripper_, "sphere", {0.0}, {a}, "w"); }).find("object"),
            std::string::npos);
  EXPECT_NE(ErrorOf([&] { WithCommands(gripper_, "hand", {0.0}, {a}, "w"); }).find("no robot"),
            std::string::npos);
  EXPECT_NE(ErrorOf([&] {
              WithCommands(gripper_, "gripper", {0.0}, {a.head(2)}, "w");
            }).find("positions[0] has size 2"),
            std::string::npos);
  // No knots: the robot holds q0.
  const Scene held = WithCommands(gripper_, "gripper", {}, {}, "w");
  EXPECT_EQ(held.CommandAt(0.1), gripper_.q0.tail(3));
}

TEST_F(SceneEditTest, StiffnessFrictionTimeStepAndTolerance) {
  const Scene stiff = WithStiffness(gripper_, "gripper", Eigen::VectorXd::Constant(1, 5000.0), "w");
  EXPECT_EQ(stiff.ActuatedStiffness(), Eigen::VectorXd::Constant(3, 5000.0));
  EXPECT_NE(ErrorOf([&] {
              WithStiffness(gripper_, "gripper", Eigen::Vector2d(1, 2), "w");
            }).find("one value or 3"),
            std::string::npos);
  EXPECT_NE(ErrorOf([&] {
              WithStiffness(gripper_, "gripper", Eigen::VectorXd::Constant(1, -1.0), "w");
            }).find("stiffness[0] must lie within [0.001, 1e+09] N/m or N m/rad, got -1"),
            std::string::npos);
  const Scene slippery = WithFriction(gripper_, "sphere/disk", 0.0, "w");
  EXPECT_EQ(slippery.geometries[slippery.GeometryIndex("sphere/disk")].friction, 0.0);
  EXPECT_NE(ErrorOf([&] { WithFriction(gripper_, "nope", 0.1, "w"); }).find("no shape 'nope'"),
            std::string::npos);
  EXPECT_EQ(WithTimeStep(gripper_, 0.005, "w").time_step, 0.005);
  EXPECT_NE(ErrorOf([&] {
              WithTimeStep(gripper_, 0.0, "w");
            }).find("w: h must lie within [1e-06, 10] s, got 0"),
            std::string::npos);
  EXPECT_EQ(WithContactTolerance(gripper_, 0.1, "w").contact_tolerance, 0.1);
}

}  // namespace
}  // namespace quasidyn
