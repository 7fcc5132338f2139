// No SDF or MJCF element lost in silence (io/sdf_loader.h, io/mjcf_loader.h): a size libsdformat
// would fill with its default (a 1 m cylinder), a misspelt <collision>, Drake's joints are
// errors at the file's line; Drake's other tags, a visual that cannot be drawn, an MJCF world
// visual are warnings; the reference quasistatic simulator's 1e-7 m corner spheres load, and a
// sphere below 1 nm is refused at its model file's line (io/loader_limits.h,
// kMinSphereRadius). Each test failed before (the model loaded changed, or the error named no
// model-file line).

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "quasidyn/io/scene_document.h"
#include "quasidyn/model/scene_error.h"
#include "quasidyn/testing/contains_text.h"
#include "quasidyn/testing/scratch_files.h"

namespace quasidyn {
namespace {

const testing::ScratchDirectory& LossScratch() {
  static const testing::ScratchDirectory folder;
  return folder;
}

std::string Write(const std::string& name, const std::string& text) {
  return LossScratch().Write(name, text);
}

using testing::Contains;

// A scene of one floating object read from `model` (key `key`: sdf or mjcf) written as `text`.
Scene LoadObject(const std::string& key, const std::string& model, const std::string& text) {
  Write(model, text);
  const std::string scene = Write(model + ".yaml",
                                  "name: s\ndimension: 3\ntime_step: 0.01\nobjects:\n"
                                  "  - {name: o, joint: floating, " +
                                      key + ": " + model + (key == "sdf" ? ", friction: 0.5" : "") +
                                      ",\n     initial: [0, 0, 0.1, 1, 0, 0, 0]}\n");
  return ReadSceneFile(scene);
}

std::string ErrorOf(const std::string& key, const std::string& model, const std::string& text) {
  try {
    LoadObject(key, model, text);
  } catch (const SceneError& e) {
    EXPECT_EQ(e.line(), 5) << e.what();  // the scene's line naming the model file
    return e.what();
  }
  ADD_FAILURE() << model << " loaded without error";
  return "";
}

std::string Sdf(const std::string& link) {
  return R"(<?xml version="1.0"?>
<sdf version="1.7" xmlns:drake="http://drake.mit.edu">
  <model name="thing">
    <link name="body">
      <inertial><mass>0.5</mass>
        <inertia><ixx>1e-3</ixx><iyy>1e-3</iyy><izz>1e-3</izz><ixy>0</ixy><ixz>0</ixz><iyz>0</iyz></inertia>
      </inertial>
)" + link +
         R"(
    </link>
  </model>
</sdf>
)";
}

TEST(SdfLoss, CylinderWithoutLengthIsRefusedAtItsLine) {
  const std::string message = ErrorOf("sdf", "no_length.sdf", Sdf(R"(
      <collision name="can"><geometry><cylinder><radius>0.05</radius></cylinder></geometry></collision>)"));
  EXPECT_TRUE(Contains(message,
                       "no_length.sdf:9: link 'body' <collision> 'can': <cylinder> has "
                       "no <length>"))
      << message;
}

TEST(SdfLoss, DrakeTagsAreWarnedAndAnUnreadableVisualDropped) {
  const Scene scene = LoadObject("sdf", "drake.sdf", Sdf(R"(
      <collision name="block">
        <geometry><box><size>0.1 0.1 0.1</size></box></geometry>
        <drake:proximity_properties><drake:hunt_crossley_dissipation>1</drake:hunt_crossley_dissipation></drake:proximity_properties>
      </collision>
      <visual name="can"><geometry><cylinder><radius>0.05</radius></cylinder></geometry></visual>
      <visual name="look"><geometry><mesh><uri>package://qd_no_such_package/look.obj</uri></mesh></geometry></visual>)"));
  ASSERT_EQ(scene.geometries.size(), 1u);
  EXPECT_TRUE(scene.visuals.empty());  // the body draws its collision box
  std::string all;
  for (const std::string& warning : scene.warnings) all += warning + "\n";
  const std::string path = (LossScratch() / "drake.sdf").string();
  EXPECT_TRUE(Contains(all, path + ":11: <drake:proximity_properties> ignored")) << all;
  EXPECT_TRUE(Contains(all, path + ":11: <drake:hunt_crossley_dissipation> ignored")) << all;
  EXPECT_TRUE(Contains(all, path + ":13: link 'body' <visual> 'can' dropped: <cylinder> has no "
                                   "<length>"))
      << all;
  EXPECT_TRUE(Contains(all, path + ":14: link 'body' <visual> 'look': mesh "
                                   "package://qd_no_such_package/look.obj is not drawn"))
      << all;
}

TEST(SdfLoss, DrakeJointsAndMisspeltElementsAreRefusedAtTheirLines) {
  const std::string joint = ErrorOf("sdf", "drake_joint.sdf", Sdf(R"(
      <drake:joint name="p" type="planar"><drake:parent>world</drake:parent></drake:joint>)"));
  EXPECT_TRUE(Contains(joint,
                       "drake_joint.sdf:9: <drake:joint> (Drake's extension) changes the "
                       "kinematics"))
      << joint;
  const std::string misspelt = ErrorOf("sdf", "misspelt.sdf", Sdf(R"(
      <colision name="c"><geometry><sphere><radius>0.05</radius></sphere></geometry></colision>)"));
  EXPECT_TRUE(Contains(misspelt,
                       "misspelt.sdf:9: <colision> in a <link> is not an SDF element "
                       "(did you mean <collision>?)"))
      << misspelt;
}

// The reference quasistatic simulator marks a box's contact points with 1e-7 m spheres at its
// corners: they load. A sphere below kMinSphereRadius (1e-9 m) is refused at its line.
TEST(SdfLoss, CornerSpheresLoadAndTooSmallASphereNamesItsLine) {
  std::string corners;
  for (int i = 0; i < 8; ++i) {
    const double x = (i & 1) ? 0.05 : -0.05, y = (i & 2) ? 0.05 : -0.05, z = (i & 4) ? 0.05 : -0.05;
    corners += "      <collision name=\"corner" + std::to_string(i) + "\"><pose>" +
               std::to_string(x) + " " + std::to_string(y) + " " + std::to_string(z) +
               " 0 0 0</pose><geometry><sphere><radius>1e-7</radius></sphere></geometry>"
               "</collision>\n";
  }
  const Scene scene = LoadObject("sdf", "corners.sdf", Sdf(corners));
  ASSERT_EQ(scene.geometries.size(), 8u);
  EXPECT_EQ(scene.geometries[0].shape.radius, 1e-7);
  const std::string message = ErrorOf("sdf", "tiny.sdf", Sdf(R"(
      <collision name="dust"><geometry><sphere><radius>1e-10</radius></sphere></geometry></collision>)"));
  EXPECT_TRUE(Contains(message,
                       "tiny.sdf:9: link 'body' <collision> 'dust': radius must lie in "
                       "[1e-09, 1000] m (got 1e-10)"))
      << message;
}

TEST(MjcfLoss, WorldVisualIsWarnedAndATinySphereNamesItsLine) {
  const Scene scene = LoadObject("mjcf", "world_visual.xml", R"(<mujoco model="m">
  <worldbody>
    <geom name="backdrop" type="box" size="1 1 0.01" pos="0 0 -1" contype="0" conaffinity="0"/>
    <body name="ball" pos="0 0 0.1">
      <freejoint/>
      <geom name="point" type="sphere" size="1e-7" mass="0.1"/>
      <geom name="core" type="sphere" size="0.02" mass="0.1"/>
    </body>
  </worldbody>
</mujoco>
)");
  EXPECT_EQ(scene.geometries.size(), 2u);
  std::string all;
  for (const std::string& warning : scene.warnings) all += warning + "\n";
  EXPECT_TRUE(Contains(all,
                       "world_visual.xml:3: geom 'backdrop' of body 'world': contype = "
                       "conaffinity = 0 (a visual)"))
      << all;
  const std::string message = ErrorOf("mjcf", "tiny.xml", R"(<mujoco model="m">
  <worldbody>
    <body name="ball" pos="0 0 0.1">
      <freejoint/>
      <geom name="core" type="sphere" size="0.02" mass="0.1"/>
      <geom name="dust" type="sphere" size="1e-10" mass="0.1"/>
    </body>
  </worldbody>
</mujoco>
)");
  EXPECT_TRUE(Contains(message,
                       "tiny.xml:6: geom 'dust' of body 'ball': radius must lie in "
                       "[1e-09, 1000] m (got 1e-10)"))
      << message;
}

}  // namespace
}  // namespace quasidyn
