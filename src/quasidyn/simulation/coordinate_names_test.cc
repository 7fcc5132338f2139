#include "quasidyn/simulation/coordinate_names.h"

#include <gtest/gtest.h>

#include "quasidyn/scenes/scene_loading.h"

namespace quasidyn {
namespace {

const std::string kExamples = std::string(QUASIDYN_SOURCE_DIR) + "/examples/";

TEST(CoordinateNamesTest, PlanarGripperNamesObjectThenRobotCoordinates) {
  // docs/scene-format.md: an inline object's joint is "<object>/root_joint", a robot's joints
  // "<robot>/<joint>"; q = [sphere (x, y, θ); gripper (y, x_left, x_right)].
  const Scene scene = LoadScene(kExamples + "planar_gripper/scene.yaml");
  const std::vector<std::string> expected = {"sphere/root_joint/x",     "sphere/root_joint/y",
                                             "sphere/root_joint/theta", "gripper/y",
                                             "gripper/x_left",          "gripper/x_right"};
  EXPECT_EQ(CoordinateNames(scene), expected);
}

TEST(CoordinateNamesTest, FloatingJointHasPositionThenQuaternion) {
  const Scene scene = LoadScene(kExamples + "arm_cubes/scene.yaml");
  const std::vector<std::string> names = CoordinateNames(scene);
  ASSERT_EQ(static_cast<int>(names.size()), 79);  // 10 cubes × 7 + 9 arm joints
  const std::vector<std::string> first_cube = {"red_cube/root_joint/x",  "red_cube/root_joint/y",
                                               "red_cube/root_joint/z",  "red_cube/root_joint/qw",
                                               "red_cube/root_joint/qx", "red_cube/root_joint/qy",
                                               "red_cube/root_joint/qz"};
  EXPECT_EQ(std::vector<std::string>(names.begin(), names.begin() + 7), first_cube);
}

TEST(CoordinateNamesTest, VelocityNamesFollowTheJointsOfV) {
  const Scene gripper = LoadScene(kExamples + "planar_gripper/scene.yaml");
  const std::vector<std::string> planar = {"sphere/root_joint/vx",    "sphere/root_joint/vy",
                                           "sphere/root_joint/omega", "gripper/y/v",
                                           "gripper/x_left/v",        "gripper/x_right/v"};
  EXPECT_EQ(VelocityNames(gripper), planar);
  const std::vector<std::string> names =
      VelocityNames(LoadScene(kExamples + "arm_cubes/scene.yaml"));
  ASSERT_EQ(static_cast<int>(names.size()), 69);  // 10 cubes × 6 + 9 arm joints
  const std::vector<std::string> first_cube = {"red_cube/root_joint/vx", "red_cube/root_joint/vy",
                                               "red_cube/root_joint/vz", "red_cube/root_joint/wx",
                                               "red_cube/root_joint/wy", "red_cube/root_joint/wz"};
  EXPECT_EQ(std::vector<std::string>(names.begin(), names.begin() + 6), first_cube);
  Scene broken = gripper;
  broken.joints.back().v_start = 0;  // owned twice
  EXPECT_THROW(VelocityNames(broken), std::invalid_argument);
}

TEST(CoordinateNamesTest, RejectsAJointOutsideQ) {
  Scene scene = LoadScene(kExamples + "planar_gripper/scene.yaml");
  for (Joint& joint : scene.joints)
    if (joint.type == JointType::kPrismatic) joint.q_start = scene.nq;  // past the end
  EXPECT_THROW(CoordinateNames(scene), std::invalid_argument);
}

}  // namespace
}  // namespace quasidyn
