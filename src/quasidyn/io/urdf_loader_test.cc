#include "quasidyn/io/urdf_loader.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <limits>
#include <numbers>

#include "quasidyn/io/scene_document.h"
#include "quasidyn/model/scene_error.h"
#include "quasidyn/testing/scratch_files.h"

namespace quasidyn {
namespace {

constexpr double kEps = 1e-12;

// `text` as the file `name` in this test program's own scratch folder (mkdtemp: concurrent test
// processes never share it), removed with everything in it when the program exits.
const std::filesystem::path& TempFolder() {
  static const testing::ScratchDirectory folder;
  return folder.path();
}

std::string WriteTemp(const std::string& name, const std::string& text) {
  const std::string path = (TempFolder() / name).string();
  std::ofstream(path) << text;
  return path;
}

// A two-link robot: a continuous joint (= revolute), a capsule and a rotated inertial.
const char* kTwoLink = R"(<?xml version="1.0"?>
<robot name="two">
  <link name="base">
    <inertial><mass value="2"/><inertia ixx="1" ixy="0" ixz="0" iyy="2" iyz="0" izz="3"/></inertial>
  </link>
  <link name="arm">
    <!-- a comment mentioning <capsule radius="9" length="9"/> is ignored -->
    <inertial><origin xyz="0 0 0.5" rpy="0 0 1.5707963267948966"/><mass value="1"/>
      <inertia ixx="1" ixy="0" ixz="0" iyy="2" iyz="0" izz="3"/></inertial>
    <collision><origin xyz="0 0 0.25"/><geometry><capsule radius="0.05" length="0.4"/></geometry></collision>
    <collision><geometry><box size="0.1 0.2 0.3"/></geometry></collision>
  </link>
  <joint name="hinge" type="continuous"><parent link="base"/><child link="arm"/>
    <origin xyz="0 0 1"/><axis xyz="0 2 0"/></joint>
</robot>
)";

TEST(UrdfLoaderTest, ReadsLinksJointsCapsulesAndInertials) {
  UrdfOptions options;
  options.instance_name = "bot";
  options.friction = 0.3;
  const InstanceSpec spec = LoadUrdfInstance(WriteTemp("qd_two_link.urdf", kTwoLink), options);
  ASSERT_EQ(spec.bodies.size(), 2u);
  EXPECT_EQ(spec.bodies[0].name, "bot/base");  // the root first
  const BodySpec& arm = spec.bodies[1];
  EXPECT_NEAR(arm.com.z(), 0.5, kEps);
  // Rotating diag(1, 2, 3) by 90° about z swaps the x and y moments.
  EXPECT_NEAR(arm.inertia(0, 0), 2.0, 1e-12);
  EXPECT_NEAR(arm.inertia(1, 1), 1.0, 1e-12);
  ASSERT_EQ(arm.shapes.size(), 2u);
  EXPECT_EQ(arm.shapes[0].shape.type, ShapeType::kCapsule);
  EXPECT_NEAR(arm.shapes[0].shape.radius, 0.05, kEps);
  EXPECT_NEAR(arm.shapes[0].shape.length, 0.4, kEps);
  EXPECT_NEAR(arm.shapes[0].X_BS.translation().z(), 0.25, kEps);
  EXPECT_EQ(arm.shapes[1].shape.type, ShapeType::kBox);
  EXPECT_DOUBLE_EQ(arm.shapes[1].friction, 0.3);
  ASSERT_EQ(spec.joints.size(), 2u);
  EXPECT_EQ(spec.joints[0].name, "bot/root_joint");
  EXPECT_EQ(spec.joints[0].type, JointType::kFixed);
  EXPECT_EQ(spec.joints[1].type, JointType::kRevolute);
  EXPECT_NEAR(spec.joints[1].X_PJ.translation().z(), 1.0, kEps);
}

TEST(UrdfLoaderTest, UrdfObjectGetsTheObjectJointAndSceneNormalisesTheAxis) {
  const std::string urdf = WriteTemp("qd_block.urdf", R"(<robot name="block">
  <link name="body">
    <inertial><mass value="0.5"/><inertia ixx="1e-3" ixy="0" ixz="0" iyy="1e-3" iyz="0" izz="1e-3"/></inertial>
    <collision><geometry><sphere radius="0.05"/></geometry></collision>
  </link></robot>)");
  const std::string two = WriteTemp("qd_two_link_2.urdf", kTwoLink);
  const Scene scene = ReadSceneText(
      "name: s\ndimension: 3\ntime_step: 0.01\n"
      "objects:\n  - {name: ball, joint: floating, urdf: qd_block.urdf, friction: 0.2,\n"
      "     initial: [0, 0, 0.05, 1, 0, 0, 0]}\n"
      "robots:\n  - {name: bot, urdf: " +
          two +
          ", friction: 0.4, stiffness: 50,\n"
          "     base_pose: {xyz: [1, 0, 0]}, initial: [0.3]}\n",
      "inline.yaml", TempFolder().string());
  EXPECT_EQ(scene.nq, 8);
  EXPECT_EQ(scene.nv, 7);
  EXPECT_EQ(scene.nq_u, 7);
  const Joint& root = scene.joints[scene.bodies[scene.BodyIndex("ball/body")].parent_joint];
  EXPECT_EQ(root.type, JointType::kFloating);
  const Joint& base = scene.joints[scene.bodies[scene.BodyIndex("bot/base")].parent_joint];
  EXPECT_NEAR(base.X_PJ.translation().x(), 1.0, kEps);
  const Joint& hinge = scene.joints[scene.bodies[scene.BodyIndex("bot/arm")].parent_joint];
  EXPECT_NEAR(hinge.axis.y(), 1.0, kEps);  // (0, 2, 0) normalised
  EXPECT_EQ(hinge.q_start, 7);
  EXPECT_DOUBLE_EQ(hinge.stiffness, 50.0);
  // Joined bodies are filtered automatically.
  EXPECT_TRUE(scene.IsFiltered(scene.BodyIndex("bot/base"), scene.BodyIndex("bot/arm")));
  EXPECT_FALSE(scene.IsFiltered(scene.BodyIndex("ball/body"), scene.BodyIndex("bot/arm")));
}

TEST(UrdfLoaderTest, MovingObjectLinkWithoutInertialIsRejected) {
  UrdfOptions options;
  options.instance_name = "x";
  options.actuated = false;  // a floating object
  options.where = {"scene.yaml", 4, "robots[0].urdf"};
  const std::string path =
      WriteTemp("qd_massless.urdf", "<robot name=\"m\"><link name=\"base\"/></robot>");
  try {
    LoadUrdfInstance(path, options);
    FAIL();
  } catch (const SceneError& e) {
    EXPECT_EQ(e.line(), 4);
    EXPECT_NE(std::string(e.what()).find("link 'base' has no <inertial>: an object that moves"),
              std::string::npos)
        << e.what();
  }
}

// The usual robot description: a massless base link (no <inertial>), a massless tool link
// (mass 0), joint limits on a revolute and a prismatic joint, none on a continuous one.
const char* kMasslessBaseArm = R"(<robot name="arm">
  <link name="base_link"/>
  <link name="upper">
    <inertial><mass value="1"/><inertia ixx="1" ixy="0" ixz="0" iyy="1" iyz="0" izz="1"/></inertial>
    <collision><geometry><sphere radius="0.05"/></geometry></collision>
  </link>
  <link name="slider"><collision><geometry><box size="0.1 0.1 0.1"/></geometry></collision></link>
  <link name="tool"><inertial><mass value="0"/><inertia ixx="0" ixy="0" ixz="0" iyy="0" iyz="0" izz="0"/></inertial></link>
  <joint name="shoulder" type="revolute"><parent link="base_link"/><child link="upper"/>
    <axis xyz="0 0 1"/><limit lower="-0.5" upper="1.25" effort="10" velocity="1"/></joint>
  <joint name="extend" type="prismatic"><parent link="upper"/><child link="slider"/>
    <axis xyz="1 0 0"/><limit lower="0" upper="0.3" effort="10" velocity="1"/></joint>
  <joint name="wrist" type="continuous"><parent link="slider"/><child link="tool"/>
    <axis xyz="0 0 1"/></joint>
</robot>)";

TEST(UrdfLoaderTest, RobotLinksMayBeMasslessAndLimitsAreRead) {
  const std::string path = WriteTemp("qd_massless_arm.urdf", kMasslessBaseArm);
  const Scene scene = ReadSceneText(
      "name: s\ndimension: 3\ntime_step: 0.01\n"
      "robots:\n  - {name: arm, urdf: " +
          path + ", friction: 0.5, stiffness: 100, initial: [0.2, 0.1, 0]}\n",
      "inline.yaml", TempFolder().string());
  EXPECT_EQ(scene.nq, 3);
  EXPECT_EQ(scene.bodies[scene.BodyIndex("arm/base_link")].mass, 0.0);
  EXPECT_EQ(scene.bodies[scene.BodyIndex("arm/tool")].mass, 0.0);
  EXPECT_EQ(scene.bodies[scene.BodyIndex("arm/upper")].mass, 1.0);
  const auto joint_of = [&](const char* body) -> const Joint& {
    return scene.joints[scene.bodies[scene.BodyIndex(body)].parent_joint];
  };
  EXPECT_EQ(joint_of("arm/upper").lower_limit, -0.5);
  EXPECT_EQ(joint_of("arm/upper").upper_limit, 1.25);
  EXPECT_EQ(joint_of("arm/slider").lower_limit, 0.0);
  EXPECT_EQ(joint_of("arm/slider").upper_limit, 0.3);
  EXPECT_EQ(joint_of("arm/tool").lower_limit, -std::numeric_limits<double>::infinity());
  EXPECT_EQ(joint_of("arm/tool").upper_limit, std::numeric_limits<double>::infinity());
  // A robot cannot start outside its limits.
  try {
    ReadSceneText(
        "name: s\ndimension: 3\ntime_step: 0.01\n"
        "robots:\n  - {name: arm, urdf: " +
            path + ", friction: 0.5, stiffness: 100, initial: [0.2, 0.4, 0]}\n",
        "inline.yaml", TempFolder().string());
    FAIL() << "no error for a start outside the limits";
  } catch (const SceneError& e) {
    EXPECT_NE(
        std::string(e.what()).find("position 0.4 of arm/extend is outside its limits [0, 0.3]"),
        std::string::npos)
        << e.what();
  }
}

TEST(UrdfLoaderTest, ObjectFixedToTheWorldMayBeMassless) {
  const std::string path =
      WriteTemp("qd_massless_table.urdf",
                "<robot name=\"t\"><link name=\"top\"><collision><geometry><box size=\"1 1 0.1\"/>"
                "</geometry></collision></link></robot>");
  const Scene scene = ReadSceneText(
      "name: s\ndimension: 3\ntime_step: 0.01\n"
      "objects:\n  - {name: table, joint: fixed, urdf: " +
          path + ", friction: 0.5, pose: {xyz: [0, 0, 0]}}\n",
      "inline.yaml", TempFolder().string());
  EXPECT_EQ(scene.bodies[scene.BodyIndex("table/top")].mass, 0.0);
  EXPECT_EQ(scene.nq, 0);
}

}  // namespace
}  // namespace quasidyn
