// Articulated objects from model files and inline (docs/scene-format.md, "Articulated
// objects"): a door on a hinge read from URDF (a root link named `world`, Drake's way), SDF (a
// joint whose parent is `world`, as the reference quasistatic simulator's models write it, with
// a massless "ghost" link between two joints) and MJCF (a hinge on the top body), placed by the
// scene's `pose`; and the errors of each way of getting it wrong, at the scene's line. Each of
// these scenes was refused before articulated objects existed ("an object cannot have a
// revolute joint").

#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "quasidyn/io/scene_document.h"
#include "quasidyn/kinematics/kinematics.h"
#include "quasidyn/model/scene_error.h"
#include "quasidyn/testing/contains_text.h"
#include "quasidyn/testing/scratch_files.h"

namespace quasidyn {
namespace {

const testing::ScratchDirectory& Scratch() {
  static const testing::ScratchDirectory folder;
  return folder;
}

using testing::Contains;

// A 3D scene with one object read from `key` (urdf, sdf, mjcf) `file` written as `model`, and
// the object's other keys `object_keys` (e.g. "pose: {xyz: [1, 0, 0]}, initial: [0.3]").
Scene LoadObjectScene(const std::string& key, const std::string& file, const std::string& model,
                      const std::string& object_keys) {
  Scratch().Write(file, model);
  const std::string scene = Scratch().Write(
      file + ".yaml", "name: s\ndimension: 3\ntime_step: 0.01\nobjects:\n  - {name: door, " + key +
                          ": " + file + (key == "mjcf" ? ", " : ", friction: 0.5, ") + object_keys +
                          "}\n");
  return ReadSceneFile(scene);
}

std::string ObjectLoadError(const std::string& key, const std::string& file,
                            const std::string& model, const std::string& object_keys) {
  try {
    LoadObjectScene(key, file, model, object_keys);
  } catch (const SceneError& error) {
    return error.what();
  }
  return "(loaded)";
}

const char* const kUrdfDoor = R"(<robot name="door">
  <link name="world"/>
  <link name="board">
    <inertial><mass value="5"/><origin xyz="0.4 0 0"/>
      <inertia ixx="0.4" ixy="0" ixz="0" iyy="0.7" iyz="0" izz="0.3"/></inertial>
    <collision><origin xyz="0.4 0 0"/><geometry><box size="0.8 0.04 1"/></geometry></collision>
  </link>
  <joint name="hinge" type="revolute">
    <parent link="world"/><child link="board"/><origin xyz="0 0 0.5"/><axis xyz="0 0 1"/>
    <limit lower="0" upper="1.5" effort="0" velocity="1"/>
  </joint>
</robot>
)";

// The qsim way: a joint to `world` in the file, a massless ghost link between two joints.
const char* const kSdfDoor = R"(<?xml version="1.0"?>
<sdf version="1.7">
  <model name="door">
    <joint name="lift" type="prismatic">
      <parent>world</parent><child>ghost</child>
      <axis><xyz>0 0 1</xyz><limit><effort>0</effort></limit></axis>
    </joint>
    <link name="ghost"><pose>0 0 0.5 0 0 0</pose></link>
    <joint name="hinge" type="revolute">
      <parent>ghost</parent><child>board</child>
      <axis><xyz>0 0 1</xyz><limit><lower>0</lower><upper>1.5</upper><effort>0</effort></limit></axis>
    </joint>
    <link name="board">
      <pose>0 0 0.5 0 0 0</pose>
      <inertial><mass>5</mass><pose>0.4 0 0 0 0 0</pose>
        <inertia><ixx>0.4</ixx><iyy>0.7</iyy><izz>0.3</izz></inertia></inertial>
      <collision name="panel"><pose>0.4 0 0 0 0 0</pose>
        <geometry><box><size>0.8 0.04 1</size></box></geometry></collision>
    </link>
  </model>
</sdf>
)";

const char* const kMjcfDoor = R"(<mujoco model="door">
  <compiler angle="radian"/>
  <worldbody>
    <body name="board" pos="0 0 0.5">
      <joint name="hinge" type="hinge" axis="0 0 1" limited="true" range="0 1.5"/>
      <geom type="box" size="0.4 0.02 0.5" pos="0.4 0 0" mass="5"/>
    </body>
  </worldbody>
</mujoco>
)";

// The board's pose in the world at hinge angle θ, placed at `pose` (1, 0, 0): the hinge 0.5 m up.
void ExpectBoardAt(const Scene& scene, const Eigen::VectorXd& q, double theta) {
  Kinematics kinematics(BorrowScene(scene));
  kinematics.Update(q);
  const Eigen::Isometry3d X_WB = kinematics.BodyPose(scene.BodyIndex("door/board"));
  EXPECT_LT((X_WB.translation() - Eigen::Vector3d(1.0, 0.0, 0.5)).norm(), 1e-12);
  const Eigen::Matrix3d R = Eigen::AngleAxisd(theta, Eigen::Vector3d::UnitZ()).toRotationMatrix();
  EXPECT_LT((X_WB.linear() - R).norm(), 1e-12);
}

TEST(ArticulatedObjects, ADoorOnItsHingeLoadsFromUrdfSdfAndMjcf) {
  {
    SCOPED_TRACE("urdf");
    const Scene scene =
        LoadObjectScene("urdf", "door.urdf", kUrdfDoor, "pose: {xyz: [1, 0, 0]}, initial: [0.3]");
    ASSERT_EQ(scene.nq_u, 1);
    const Joint& hinge = scene.joints[scene.instances[0].joints[0]];
    EXPECT_EQ(hinge.type, JointType::kRevolute);
    EXPECT_EQ(hinge.parent_body, 0);
    EXPECT_EQ(hinge.stiffness, 0.0);  // un-actuated
    EXPECT_EQ(hinge.upper_limit, 1.5);
    ExpectBoardAt(scene, scene.q0, 0.3);
  }
  {
    SCOPED_TRACE("sdf");
    const Scene scene = LoadObjectScene("sdf", "door.sdf", kSdfDoor,
                                        "pose: {xyz: [1, 0, -0.5]}, initial: [0.5, 0.3]");
    ASSERT_EQ(scene.nq_u, 2);  // lift (prismatic) then hinge
    EXPECT_EQ(scene.bodies[scene.BodyIndex("door/ghost")].mass, 0.0);
    ExpectBoardAt(scene, scene.q0, 0.3);  // lifted 0.5 m from z = −0.5 + 0.5
  }
  {
    SCOPED_TRACE("mjcf");
    const Scene scene =
        LoadObjectScene("mjcf", "door.xml", kMjcfDoor, "pose: {xyz: [1, 0, 0]}, initial: [0.3]");
    ASSERT_EQ(scene.nq_u, 1);
    EXPECT_EQ(scene.joints[scene.instances[0].joints[0]].type, JointType::kRevolute);
    ExpectBoardAt(scene, scene.q0, 0.3);
  }
}

TEST(ArticulatedObjects, EachWayOfGettingItWrongIsNamed) {
  // The file has a joint to the world, and the scene gives one too.
  const std::string both_sdf =
      ObjectLoadError("sdf", "e1.sdf", kSdfDoor, "joint: floating, initial: [0, 0]");
  EXPECT_TRUE(Contains(both_sdf, "e1.sdf:4: joint 'lift'")) << both_sdf;
  EXPECT_TRUE(Contains(both_sdf, "leave `joint:` out")) << both_sdf;
  const std::string both_mjcf =
      ObjectLoadError("mjcf", "e2.xml", kMjcfDoor, "joint: fixed, pose: {}");
  EXPECT_TRUE(Contains(both_mjcf, "leave out the object's `joint:`")) << both_mjcf;
  // No `joint:` and none in the file: the URDF's root link is not `world`.
  std::string no_world = kUrdfDoor;
  no_world.replace(no_world.find("<link name=\"world\"/>"), 20, "<link name=\"frame\"/>");
  no_world.replace(no_world.find("<parent link=\"world\"/>"), 22, "<parent link=\"frame\"/>");
  const std::string urdf_error = ObjectLoadError("urdf", "e3.urdf", no_world, "initial: [0.3]");
  EXPECT_TRUE(Contains(urdf_error, "declares no joint to the world")) << urdf_error;
  EXPECT_TRUE(Contains(urdf_error, "e3.urdf.yaml:5: objects[0]")) << urdf_error;
  // With `joint: fixed` the same file is a door in a fixed frame.
  const Scene fixed_frame =
      LoadObjectScene("urdf", "e3.urdf", no_world, "joint: fixed, pose: {}, initial: [0.3]");
  EXPECT_EQ(fixed_frame.nq_u, 1);
  // A joint that moves no mass.
  std::string massless = kSdfDoor;
  massless.replace(massless.find("<mass>5</mass>"), 14, "<mass>0</mass>");
  massless.replace(massless.find("<ixx>0.4</ixx><iyy>0.7</iyy><izz>0.3</izz>"), 42,
                   "<ixx>0</ixx><iyy>0</iyy><izz>0</izz>");
  const std::string mass_error = ObjectLoadError("sdf", "e4.sdf", massless, "initial: [0, 0]");
  EXPECT_TRUE(Contains(mass_error, "joint 'door/lift' of object 'door' moves no mass"))
      << mass_error;
  // A model file's object without a joint to the world and without `joint:`.
  const std::string free_body =
      "<mujoco><worldbody><body name=\"b\"><geom type=\"sphere\" size=\"0.1\"/></body>"
      "</worldbody></mujoco>\n";
  const std::string neither = ObjectLoadError("mjcf", "e5.xml", free_body, "initial: []");
  EXPECT_TRUE(Contains(neither, "has no joint to the world")) << neither;
}

TEST(ArticulatedObjects, InlineArticulatedObjectsTakeBodiesAndJoints) {
  const std::string head =
      "name: s\ndimension: 2\ntime_step: 0.01\nobjects:\n"
      "  - name: door\n"
      "    bodies:\n"
      "      - {name: a, mass: 1, inertia: from_shapes, shapes: [{type: sphere, radius: 0.1, "
      "friction: 0}]}\n"
      "      - {name: b, mass: 1, inertia: from_shapes, shapes: [{type: sphere, radius: 0.1, "
      "friction: 0}]}\n"
      "    joints:\n"
      "      - {name: hinge, type: revolute, parent: world, child: a, axis: [0, 0, 1]}\n";
  const Scene two_links = ReadSceneText(
      head +
          "      - {name: slide, type: prismatic, parent: a, child: b, pose: {x: 0.5},"
          " axis: [1, 0, 0]}\n    initial: [0.1, 0.2]\n",
      "two_links.yaml", ".");
  EXPECT_EQ(two_links.nq_u, 2);
  EXPECT_EQ(two_links.nq_a, 0);
  const auto error_of = [&](const std::string& tail) {
    try {
      ReadSceneText(head + tail, "bad.yaml", ".");
    } catch (const SceneError& error) {
      return std::string(error.what());
    }
    return std::string("(loaded)");
  };
  const std::string two_roots = error_of(
      "      - {name: other, type: revolute, parent: world, child: b, axis: [0, 0, 1]}\n"
      "    initial: [0.1, 0.2]\n");
  EXPECT_TRUE(Contains(two_roots,
                       "bad.yaml:5: objects[0].name: an object must have exactly one "
                       "joint to the world (it has 2)"))
      << two_roots;
  const std::string with_joint = error_of(
      "      - {name: slide, type: prismatic, parent: a, child: b, axis: [1, 0, 0]}\n"
      "    joint: planar\n    initial: [0.1, 0.2]\n");
  EXPECT_TRUE(Contains(with_joint,
                       "bad.yaml:12: objects[0].joint: an inline articulated "
                       "object's joints, to the world too, are in `joints`"))
      << with_joint;
}

}  // namespace
}  // namespace quasidyn
