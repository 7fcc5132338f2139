// The scene keys of the second-order formulations (docs/scene-format.md): a robot's `damping`
// (one value or one per actuated joint, Joint::damping) and an instance's `initial_velocity`
// (Scene::v0). Their defects are in bad_scenes_test.cc.

#include <gtest/gtest.h>

#include <string>

#include "quasidyn/io/scene_document.h"

namespace quasidyn {
namespace {

const char* const kScene = R"(
name: keys
dimension: 2
time_step: 0.01
formulation: {type: stewart-trinkle}
environment:
  - {name: ground, type: half_space, friction: 0.5}
objects:
  - name: disk
    joint: planar
    body: {mass: 1, inertia: from_shapes, shapes: [{type: sphere, radius: 0.1, friction: 0.5}]}
    initial: [0, 0.1, 0]
    initial_velocity: [0.5, 0, -2]
  - name: still
    joint: planar
    body: {mass: 1, inertia: from_shapes, shapes: [{type: sphere, radius: 0.1, friction: 0.5}]}
    initial: [1, 0.1, 0]
robots:
  - name: pusher
    bodies:
      - {name: slider, mass: 0.5, inertia: {principal: [1, 1, 1]}}
      - {name: tip, mass: 0.1, inertia: {principal: [1, 1, 1]}}
    joints:
      - {name: x, type: prismatic, parent: world, child: slider, axis: [1, 0, 0]}
      - {name: y, type: prismatic, parent: slider, child: tip, axis: [0, 1, 0]}
    stiffness: 100
    damping: DAMPING
    initial: [-1, 0]
    initial_velocity: [0.25, 0]
)";

Scene LoadWithDamping(const std::string& damping) {
  std::string yaml = kScene;
  yaml.replace(yaml.find("DAMPING"), 7, damping);
  return ReadSceneText(yaml, "keys", "");
}

TEST(SecondOrderKeys, InitialVelocitiesFillV0AndTheRestIsAtRest) {
  const Scene scene = LoadWithDamping("3");
  ASSERT_EQ(scene.v0.size(), scene.nv);
  Eigen::VectorXd expected(8);
  expected << 0.5, 0, -2, 0, 0, 0, 0.25, 0;
  EXPECT_EQ(scene.v0, expected);
}

TEST(SecondOrderKeys, DampingOneValueOrOnePerJoint) {
  const Scene one = LoadWithDamping("3");
  const Scene each = LoadWithDamping("[3, 0]");
  int robot_joints = 0;
  for (const Joint& joint : one.joints) {
    if (joint.stiffness == 0) {
      EXPECT_FALSE(joint.damping.has_value()) << joint.name;  // objects: none
      continue;
    }
    ASSERT_TRUE(joint.damping.has_value());
    EXPECT_EQ(*joint.damping, 3.0);
    ++robot_joints;
  }
  EXPECT_EQ(robot_joints, 2);
  EXPECT_EQ(*each.joints[each.joints.size() - 2].damping, 3.0);
  EXPECT_EQ(*each.joints.back().damping, 0.0);  // 0 is allowed: an undamped impedance
}

TEST(SecondOrderKeys, WithoutTheKeysNoDampingAndNoVelocity) {
  std::string yaml = kScene;
  yaml.erase(yaml.find("    damping: DAMPING\n"), std::string("    damping: DAMPING\n").size());
  for (size_t at = yaml.find("    initial_velocity"); at != std::string::npos;
       at = yaml.find("    initial_velocity"))
    yaml.erase(at, yaml.find('\n', at) - at + 1);
  const Scene scene = ReadSceneText(yaml, "keys", "");
  EXPECT_EQ(scene.v0.size(), 0);
  for (const Joint& joint : scene.joints) EXPECT_FALSE(joint.damping.has_value());
}

}  // namespace
}  // namespace quasidyn
