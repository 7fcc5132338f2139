// No URDF element lost in silence (io/urdf_audit.h): URDFs as Drake's and ROS's examples write
// them load with every link, joint and collision shape, the ignorable elements named in
// warnings at their lines; what urdfdom would drop and matters to physics is an error at the
// URDF's line. Each test failed before the audit (urdfdom dropped the elements, the file
// loaded, or the error named no line).

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "quasidyn/io/urdf_loader.h"
#include "quasidyn/model/scene_error.h"
#include "quasidyn/testing/contains_text.h"
#include "quasidyn/testing/scratch_files.h"

namespace quasidyn {
namespace {

const testing::ScratchDirectory& Scratch() {
  static const testing::ScratchDirectory folder;
  return folder;
}

std::string Write(const std::string& name, const std::string& text) {
  return Scratch().Write(name, text);
}

UrdfOptions Options() {
  UrdfOptions options;
  options.instance_name = std::string("r");  // not = "r": GCC 12's -Wrestrict (bug 105329)
  options.friction = 0.5;
  options.where = {"scene.yaml", 5, "robots[0].urdf"};
  return options;
}

// The message of the SceneError loading `path` throws (at the scene's line 5), or "" (a
// failure) when it loads.
std::string ErrorOf(const std::string& path) {
  try {
    LoadUrdfInstance(path, Options());
  } catch (const SceneError& e) {
    EXPECT_EQ(e.line(), 5) << e.what();
    return e.what();
  }
  ADD_FAILURE() << path << " loaded without error";
  return "";
}

using testing::Contains;

std::string Joined(const std::vector<std::string>& lines) {
  std::string all;
  for (const std::string& line : lines) all += line + "\n";
  return all;
}

const char* kInertial =
    "<inertial><mass value=\"1\"/>"
    "<inertia ixx=\"0.01\" ixy=\"0\" ixz=\"0\" iyy=\"0.01\" iyz=\"0\" izz=\"0.01\"/></inertial>";

// Written as Drake's examples write URDFs: an unnamed <material> inside a visual (urdfdom gave
// up on the link there, before its collision), a named one, drake: tags on collisions, joints
// and the robot, a <drake:capsule>.
const std::string kDrakeStyle = std::string(R"(<?xml version="1.0"?>
<robot xmlns:drake="http://drake.mit.edu" name="drake_style">
  <material name="grey"><color rgba="0.5 0.5 0.5 1"/></material>
  <link name="base">
    )") + kInertial + R"(
    <visual>
      <geometry><box size="0.2 0.2 0.1"/></geometry>
      <material><color rgba="0.9 0.9 0.9 1"/></material>
    </visual>
    <collision>
      <geometry><box size="0.2 0.2 0.1"/></geometry>
      <drake:proximity_properties><drake:mu_dynamic value="0.5"/></drake:proximity_properties>
    </collision>
  </link>
  <link name="arm">
    )" + kInertial + R"(
    <visual><geometry><cylinder radius="0.05" length="0.4"/></geometry><material name="grey"/></visual>
    <collision><geometry><drake:capsule radius="0.05" length="0.3"/></geometry></collision>
  </link>
  <joint name="j1" type="revolute">
    <parent link="base"/><child link="arm"/><axis xyz="0 0 1"/>
    <limit lower="-1" upper="1" effort="10" velocity="1"/>
    <drake:acceleration lower="-10" upper="10"/>
  </joint>
  <drake:collision_filter_group name="group">
    <drake:member link="base"/><drake:member link="arm"/>
    <drake:ignored_collision_filter_group name="group"/>
  </drake:collision_filter_group>
</robot>
)";

TEST(UrdfAudit, DrakeStyleUrdfKeepsEveryCollisionAndWarnsAtTheLines) {
  const std::string path = Write("drake_style.urdf", kDrakeStyle);
  const InstanceSpec spec = LoadUrdfInstance(path, Options());
  ASSERT_EQ(spec.bodies.size(), 2u);
  ASSERT_EQ(spec.bodies[0].shapes.size(), 1u);  // base: its box, after the unnamed material
  EXPECT_EQ(spec.bodies[0].shapes[0].shape.type, ShapeType::kBox);
  EXPECT_EQ(spec.bodies[0].visuals.size(), 1u);
  ASSERT_EQ(spec.bodies[1].shapes.size(), 1u);  // arm: the drake:capsule
  EXPECT_EQ(spec.bodies[1].shapes[0].shape.type, ShapeType::kCapsule);
  EXPECT_EQ(spec.bodies[1].shapes[0].shape.length, 0.3);
  ASSERT_EQ(spec.joints.size(), 2u);
  EXPECT_EQ(spec.joints[1].upper_limit, 1.0);
  const std::string all = Joined(spec.warnings);
  EXPECT_TRUE(Contains(all, path + ":3: <material> ignored")) << all;
  EXPECT_TRUE(Contains(all, "(2 in the file, the first at this line)")) << all;
  EXPECT_TRUE(Contains(all, path + ":8: <material> without a name ignored")) << all;
  EXPECT_TRUE(Contains(all, path + ":12: <drake:proximity_properties> ignored")) << all;
  EXPECT_TRUE(Contains(all, path + ":23: <drake:acceleration> ignored")) << all;
  EXPECT_TRUE(Contains(all, path + ":25: <drake:collision_filter_group> ignored")) << all;
  EXPECT_TRUE(Contains(all, "collision_filter:")) << all;
  // The collision's line travels with its shape, for a size refused later.
  EXPECT_TRUE(
      Contains(spec.bodies[1].shapes[0].where.field, "drake_style.urdf:18: link 'arm' <collision>"))
      << spec.bodies[1].shapes[0].where.field;
}

TEST(UrdfAudit, DrakeStyleCylinderWithoutLengthIsRefusedAtItsLine) {
  std::string urdf = kDrakeStyle;
  const std::string capsule = "<drake:capsule radius=\"0.05\" length=\"0.3\"/>";
  urdf.replace(urdf.find(capsule), capsule.size(), "<cylinder radius=\"0.05\"/>");
  const std::string path = Write("drake_cylinder.urdf", urdf);
  const std::string message = ErrorOf(path);
  EXPECT_TRUE(Contains(message, "scene.yaml:5: robots[0].urdf: " + path +
                                    ":18: link 'arm' <collision>: <cylinder> has no `length`"))
      << message;
}

TEST(UrdfAudit, VisualUrdfdomCannotReadIsDroppedAndTheCollisionsStay) {
  const std::string path = Write("bad_visual.urdf", std::string(R"(<robot name="r">
  <link name="base">)") + kInertial + R"(
    <visual><geometry><cylinder radius="0.05"/></geometry></visual>
    <visual><origin xyz="1 2"/><geometry><box size="0.1 0.1 0.1"/></geometry></visual>
    <collision><geometry><sphere radius="0.05"/></geometry></collision>
  </link>
</robot>
)");
  const InstanceSpec spec = LoadUrdfInstance(path, Options());
  ASSERT_EQ(spec.bodies[0].shapes.size(), 1u);
  EXPECT_TRUE(spec.bodies[0].visuals.empty());
  const std::string all = Joined(spec.warnings);
  EXPECT_TRUE(Contains(all, path + ":3: link 'base' <visual> dropped: <cylinder> has no `length`"))
      << all;
  // A malformed origin urdfdom refuses: found by comparing what it loaded with the file.
  EXPECT_TRUE(Contains(all, path + ":4: link 'base' <visual> dropped: urdfdom could not read it"))
      << all;
}

TEST(UrdfAudit, CollisionUrdfdomCannotReadIsRefusedAtItsLine) {
  const std::string path = Write("bad_origin.urdf", std::string(R"(<robot name="r">
  <link name="base">)") + kInertial + R"(
    <collision><geometry><sphere radius="0.05"/></geometry></collision>
    <collision><origin xyz="1 2"/><geometry><sphere radius="0.05"/></geometry></collision>
  </link>
</robot>
)");
  const std::string message = ErrorOf(path);
  EXPECT_TRUE(Contains(message, path + ":4: link 'base' <collision> 1 was not read by urdfdom"))
      << message;
}

TEST(UrdfAudit, MisspeltElementsAreRefusedAndUnknownOnesWarned) {
  const std::string misspelt = Write("misspelt.urdf", std::string(R"(<robot name="r">
  <link name="base">)") + kInertial + R"(
    <colision><geometry><sphere radius="0.05"/></geometry></colision>
  </link>
</robot>
)");
  const std::string message = ErrorOf(misspelt);
  EXPECT_TRUE(Contains(message, misspelt + ":3: <colision> in link 'base' is not a URDF element "
                                           "(did you mean <collision>?)"))
      << message;
  const std::string unknown = Write("unknown.urdf", std::string(R"(<robot name="r">
  <link name="base">)") + kInertial + R"(
    <self_collision_checking/>
  </link>
</robot>
)");
  const std::string all = Joined(LoadUrdfInstance(unknown, Options()).warnings);
  EXPECT_TRUE(Contains(all, unknown + ":3: <self_collision_checking> in link 'base' ignored"))
      << all;
}

TEST(UrdfAudit, WhatUrdfdomWouldDropOrRefuseIsAnErrorAtItsLine) {
  struct Case {
    std::string name, body, expected;
  };
  const std::string base = std::string("<link name=\"base\">") + kInertial + "</link>\n";
  const std::vector<Case> cases = {
      {"no_mass", "<link name=\"base\"><inertial><inertia ixx=\"1\"/></inertial></link>",
       ":2: link 'base' <inertial> has no <mass value="},
      {"no_izz",
       "<link name=\"base\"><inertial><mass value=\"1\"/>"
       "<inertia ixx=\"1\" ixy=\"0\" ixz=\"0\" iyy=\"1\" iyz=\"0\"/></inertial></link>",
       ":2: link 'base' <inertial> needs <inertia> with ixx, ixy, ixz, iyy, iyz and izz"},
      {"no_geometry", "<link name=\"base\"><collision><origin xyz=\"0 0 0\"/></collision></link>",
       ":2: link 'base' <collision>: it has no <geometry>"},
      {"ellipsoid",
       "<link name=\"base\"><collision><geometry><drake:ellipsoid a=\"1\" b=\"1\" c=\"1\"/>"
       "</geometry></collision></link>",
       "<drake:ellipsoid> is not a geometry quasidyn reads"},
      {"nameless_link",
       "<link><collision><geometry><sphere radius=\"1\"/></geometry></collision>"
       "</link>",
       ":2: a <link> without a name"},
      {"no_effort",
       base + "<link name=\"arm\"/>\n<joint name=\"j1\" type=\"revolute\"><parent link=\"base\"/>"
              "<child link=\"arm\"/><limit lower=\"0\" upper=\"1\"/></joint>",
       ":4: joint 'j1': a revolute joint needs <limit effort=\"...\" velocity=\"...\">"},
      {"drake_joint",
       base + "<drake:joint name=\"p\" type=\"planar\"><parent link=\"world\"/>"
              "<child link=\"base\"/></drake:joint>",
       ":3: <drake:joint> (Drake's extension) changes the kinematics"},
      {"xacro", "<xacro:macro name=\"leg\"><link name=\"${name}\"/></xacro:macro>\n" + base,
       ":2: <xacro:macro>: this is a xacro file"},
  };
  for (const Case& c : cases) {
    const std::string path =
        Write(c.name + ".urdf", "<robot name=\"r\" xmlns:xacro=\"x\">\n" + c.body + "\n</robot>\n");
    const std::string message = ErrorOf(path);
    EXPECT_TRUE(Contains(message, path + c.expected) || Contains(message, c.expected))
        << c.name << ": " << message;
    EXPECT_TRUE(Contains(message, path + ":")) << c.name << ": " << message;
  }
}

}  // namespace
}  // namespace quasidyn
