// Every number of a URDF, SDF or MJCF file is finite and within ±1e12 (io/model_file_numbers.h,
// io/loader_limits.h): model files written to a scratch folder and loaded from a scene as a
// scene loads them; errors name the file, the line, the named element and the field.

#include "quasidyn/io/model_file_numbers.h"

#include <gtest/gtest.h>

#include <string>

#include "quasidyn/files/xml_tags.h"
#include "quasidyn/io/scene_document.h"
#include "quasidyn/model/scene_error.h"
#include "quasidyn/testing/contains_text.h"
#include "quasidyn/testing/scratch_files.h"

namespace quasidyn {
namespace {

using testing::ScratchDirectory;
using testing::WriteWholeFile;

// `text` with the first "@" replaced by `value`.
std::string With(std::string text, const std::string& value) {
  return text.replace(text.find('@'), 1, value);
}

// Writes `model` as `file` in `folder` and loads a scene of one robot (`key`: urdf, sdf or
// mjcf) with one joint from it; returns the SceneError's message, or "loaded".
std::string LoadRobot(const ScratchDirectory& folder, const std::string& key,
                      const std::string& file, const std::string& model) {
  WriteWholeFile(folder / file, model);
  const std::string friction = key == "mjcf" ? "" : ", friction: 0.5";
  try {
    ReadSceneText("name: s\ndimension: 3\ntime_step: 0.01\nrobots:\n  - {name: r, " + key + ": " +
                      file + friction + ", stiffness: 10, initial: [0]}\n",
                  "scene.yaml", folder.path().string());
  } catch (const SceneError& e) {
    return e.what();
  }
  return "loaded";
}

using testing::Contains;

const std::string kLimit = "must lie within +-1e+12 (larger numbers overflow the step), got ";

// A URDF robot with one revolute joint j1; "@" is the joint's <origin xyz> (line 12).
const std::string kUrdf = R"(<?xml version="1.0"?>
<robot name="r">
  <link name="base">
    <inertial><mass value="1"/><inertia ixx="1" ixy="0" ixz="0" iyy="1" iyz="0" izz="1"/></inertial>
  </link>
  <link name="arm">
    <inertial><mass value="1"/><inertia ixx="1" ixy="0" ixz="0" iyy="1" iyz="0" izz="1"/></inertial>
    <collision><geometry><box size="0.1 0.1 0.1"/></geometry></collision>
  </link>
  <joint name="j1" type="revolute">
    <parent link="base"/><child link="arm"/>
    <origin xyz="@" rpy="0 0 0"/>
    <axis xyz="0 0 1"/><limit lower="-1" upper="1" effort="10" velocity="1"/>
  </joint>
</robot>
)";

TEST(ModelFileNumbers, UrdfOriginOf1e308IsRefusedNamingFileLineJointAndAttribute) {
  ScratchDirectory folder;
  const std::string error = LoadRobot(folder, "urdf", "arm.urdf", With(kUrdf, "1e308 0 0"));
  EXPECT_TRUE(Contains(error, "arm.urdf:12: joint j1: origin xyz[0]: " + kLimit + "1e+308"))
      << error;
}

TEST(ModelFileNumbers, UrdfNanAndInfinityAreRefused) {
  ScratchDirectory folder;
  const std::string nan = LoadRobot(folder, "urdf", "arm.urdf", With(kUrdf, "0 nan 0"));
  EXPECT_TRUE(Contains(nan, "arm.urdf:12: joint j1: origin xyz[1]: must be finite, got nan"))
      << nan;
  const std::string inf = LoadRobot(folder, "urdf", "arm.urdf", With(kUrdf, "0 0 inf"));
  EXPECT_TRUE(Contains(inf, "arm.urdf:12: joint j1: origin xyz[2]: must be finite, got inf"))
      << inf;
}

TEST(ModelFileNumbers, UrdfJustInsideTheLimitLoadsJustOutsideIsRefused) {
  ScratchDirectory folder;
  EXPECT_EQ(LoadRobot(folder, "urdf", "arm.urdf", With(kUrdf, "1e12 0 -1e12")), "loaded");
  const std::string outside = LoadRobot(folder, "urdf", "arm.urdf", With(kUrdf, "0 0 -1.1e12"));
  EXPECT_TRUE(Contains(outside, "arm.urdf:12: joint j1: origin xyz[2]: " + kLimit + "-1.1e+12"))
      << outside;
}

// Numbers of links (masses, inertias, shape sizes) name the link; a single number has no index.
TEST(ModelFileNumbers, UrdfLinkNumbersNameTheLink) {
  ScratchDirectory folder;
  std::string model = With(kUrdf, "0 0 0");
  model.replace(model.find("<mass value=\"1\"/><inertia ixx=\"1\"", model.find("\"arm\"")),
                std::string("<mass value=\"1\"/>").size(), "<mass value=\"2e12\"/>");
  const std::string mass = LoadRobot(folder, "urdf", "arm.urdf", model);
  EXPECT_TRUE(Contains(mass, "arm.urdf:7: link arm: mass value: " + kLimit + "2e+12")) << mass;
  model = With(kUrdf, "0 0 0");
  model.replace(model.find("0.1 0.1 0.1"), 11, "0.1 0.1 1e400");
  const std::string box = LoadRobot(folder, "urdf", "arm.urdf", model);
  EXPECT_TRUE(Contains(box, "arm.urdf:8: link arm: box size[2]: " + kLimit + "1e400")) << box;
}

// Names are not numbers: a robot, link and joint named "1e400" or "nan" load.
TEST(ModelFileNumbers, UrdfLinkNamed1e400IsNotRefused) {
  ScratchDirectory folder;
  std::string model = With(kUrdf, "0 0 0");
  model.replace(model.find("\"arm\""), 5, "\"1e400\"");
  model.replace(model.find("\"arm\""), 5, "\"1e400\"");
  model.replace(model.find("\"j1\""), 4, "\"nan\"");
  model.replace(model.find("\"r\""), 3, "\"inf\"");
  EXPECT_EQ(LoadRobot(folder, "urdf", "arm.urdf", model), "loaded");
}

// A SDF robot: a base fixed to the world and a revolute joint j1 to link "upper", whose <pose>
// is "@" (line 8).
const std::string kSdf = R"(<?xml version="1.0"?>
<sdf version="1.7">
  <model name="m">
    <link name="base">
      <collision name="plate"><geometry><box><size>0.2 0.2 0.02</size></box></geometry></collision>
    </link>
    <link name="upper">
      <pose>@</pose>
      <inertial><mass>1.0</mass>
        <inertia><ixx>0.01</ixx><iyy>0.01</iyy><izz>0.01</izz></inertia></inertial>
    </link>
    <joint name="mount" type="fixed"><parent>world</parent><child>base</child></joint>
    <joint name="j1" type="revolute"><parent>base</parent><child>upper</child>
      <axis><xyz>0 1 0</xyz><limit><lower>-1</lower><upper>1</upper></limit></axis>
    </joint>
  </model>
</sdf>
)";

TEST(ModelFileNumbers, SdfPoseOf1e308NanAndInfinityAreRefused) {
  ScratchDirectory folder;
  const std::string large = LoadRobot(folder, "sdf", "arm.sdf", With(kSdf, "1e308 0 0 0 0 0"));
  EXPECT_TRUE(Contains(large, "arm.sdf:8: link upper: pose[0]: " + kLimit + "1e+308")) << large;
  const std::string nan = LoadRobot(folder, "sdf", "arm.sdf", With(kSdf, "0 0 0 NaN 0 0"));
  EXPECT_TRUE(Contains(nan, "arm.sdf:8: link upper: pose[3]: must be finite, got NaN")) << nan;
  const std::string inf = LoadRobot(folder, "sdf", "arm.sdf", With(kSdf, "0 0 0 0 0 -inf"));
  EXPECT_TRUE(Contains(inf, "arm.sdf:8: link upper: pose[5]: must be finite, got -inf")) << inf;
}

TEST(ModelFileNumbers, SdfJustInsideTheLimitLoadsJustOutsideIsRefused) {
  ScratchDirectory folder;
  EXPECT_EQ(LoadRobot(folder, "sdf", "arm.sdf", With(kSdf, "1e12 0 0 0 0 0")), "loaded");
  const std::string outside = LoadRobot(folder, "sdf", "arm.sdf", With(kSdf, "0 1.1e12 0 0 0 0"));
  EXPECT_TRUE(Contains(outside, "arm.sdf:8: link upper: pose[1]: " + kLimit + "1.1e+12"))
      << outside;
}

// SDFormat writes "no limit" as ±1e16 (its default): accepted and read as no limit; a joint
// limit between 1e12 and 1e16 is refused, naming the joint.
TEST(ModelFileNumbers, SdfNoLimitSpelling1e16LoadsLargerFiniteLimitIsRefused) {
  ScratchDirectory folder;
  std::string model = With(kSdf, "0 0 0 0 0 0");
  model.replace(model.find("<lower>-1</lower>"), 17, "<lower>-1e16</lower>");
  EXPECT_EQ(LoadRobot(folder, "sdf", "arm.sdf", model), "loaded");
  model.replace(model.find("<upper>1</upper>"), 16, "<upper>2e12</upper>");
  const std::string error = LoadRobot(folder, "sdf", "arm.sdf", model);
  EXPECT_TRUE(Contains(error, "arm.sdf:14: joint j1: upper: " + kLimit + "2e+12")) << error;
}

// libsdformat normalises an axis with overflow (1e200 0 0 became a zero axis, refused later
// without file or line): an SDF axis obeys the limit (a URDF axis need only be finite).
TEST(ModelFileNumbers, SdfAxisOf1e200IsRefused) {
  ScratchDirectory folder;
  std::string model = With(kSdf, "0 0 0 0 0 0");
  model.replace(model.find("<xyz>0 1 0</xyz>"), 16, "<xyz>0 1e200 0</xyz>");
  const std::string error = LoadRobot(folder, "sdf", "arm.sdf", model);
  EXPECT_TRUE(Contains(error, "arm.sdf:14: joint j1: xyz[1]: " + kLimit + "1e+200")) << error;
}

// A physics engine's own parameters, which no formulation reads (Gazebo's <ode> contact
// stiffness kp, as Drake's schunk_wsg_50_with_tip.sdf gives it: 1e13), load beyond the limit;
// they must still be finite.
TEST(ModelFileNumbers, SdfOdeContactStiffnessBeyondTheLimitLoadsNanIsRefused) {
  ScratchDirectory folder;
  std::string model = With(kSdf, "0 0 0 0 0 0");
  const std::string plate = "<size>0.2 0.2 0.02</size></box></geometry>";
  model.replace(model.find(plate), plate.size(),
                plate + "<surface><contact><ode><kp>@</kp><kd>1</kd></ode></contact></surface>");
  EXPECT_EQ(LoadRobot(folder, "sdf", "arm.sdf", With(model, "1e+13")), "loaded");
  const std::string nan = LoadRobot(folder, "sdf", "arm.sdf", With(model, "nan"));
  EXPECT_TRUE(Contains(nan, "arm.sdf:5: collision plate: kp: must be finite, got nan")) << nan;
}

TEST(ModelFileNumbers, SdfLinkNamed1e400IsNotRefused) {
  ScratchDirectory folder;
  std::string model = With(kSdf, "0 0 0 0 0 0");
  model.replace(model.find("\"upper\""), 7, "\"1e400\"");
  model.replace(model.find("<child>upper</child>"), 20, "<child>1e400</child>");
  EXPECT_EQ(LoadRobot(folder, "sdf", "arm.sdf", model), "loaded");
}

// A MJCF robot: body b (its pos "@", line 3) with hinge j1 and box geom g.
const std::string kMjcf = R"(<mujoco model="m">
  <worldbody>
    <body name="b" pos="@">
      <joint name="j1" type="hinge" axis="0 1 0" range="-45 45" limited="true"/>
      <geom name="g" type="box" size="0.05 0.05 0.05"/>
    </body>
  </worldbody>
</mujoco>
)";

TEST(ModelFileNumbers, MjcfBodyPosOf1e308NanAndInfinityAreRefused) {
  ScratchDirectory folder;
  const std::string large = LoadRobot(folder, "mjcf", "arm.xml", With(kMjcf, "1e308 0 0"));
  EXPECT_TRUE(Contains(large, "arm.xml:3: body b: body pos[0]: " + kLimit + "1e+308")) << large;
  const std::string nan = LoadRobot(folder, "mjcf", "arm.xml", With(kMjcf, "0 nan 0"));
  EXPECT_TRUE(Contains(nan, "arm.xml:3: body b: body pos[1]: must be finite, got nan")) << nan;
  const std::string inf = LoadRobot(folder, "mjcf", "arm.xml", With(kMjcf, "0 0 inf"));
  EXPECT_TRUE(Contains(inf, "arm.xml:3: body b: body pos[2]: must be finite, got inf")) << inf;
}

TEST(ModelFileNumbers, MjcfJustInsideTheLimitLoadsJustOutsideIsRefused) {
  ScratchDirectory folder;
  EXPECT_EQ(LoadRobot(folder, "mjcf", "arm.xml", With(kMjcf, "0 0 1e12")), "loaded");
  const std::string outside = LoadRobot(folder, "mjcf", "arm.xml", With(kMjcf, "1.1e12 0 0"));
  EXPECT_TRUE(Contains(outside, "arm.xml:3: body b: body pos[0]: " + kLimit + "1.1e+12"))
      << outside;
  // A geom's number names the geom; a joint's names the joint.
  std::string model = With(kMjcf, "0 0 0");
  model.replace(model.find("0.05 0.05 0.05"), 14, "0.05 0.05 1.1e12");
  const std::string geom = LoadRobot(folder, "mjcf", "arm.xml", model);
  EXPECT_TRUE(Contains(geom, "arm.xml:5: geom g: geom size[2]: " + kLimit + "1.1e+12")) << geom;
  model = With(kMjcf, "0 0 0");
  model.replace(model.find("-45 45"), 6, "-45 4.5e12");
  const std::string joint = LoadRobot(folder, "mjcf", "arm.xml", model);
  EXPECT_TRUE(Contains(joint, "arm.xml:4: joint j1: joint range[1]: " + kLimit + "4.5e+12"))
      << joint;
}

TEST(ModelFileNumbers, MjcfBodyNamed1e400IsNotRefused) {
  ScratchDirectory folder;
  std::string model = With(kMjcf, "0 0 0");
  model.replace(model.find("\"b\""), 3, "\"1e400\"");
  model.replace(model.find("\"g\""), 3, "\"nan\"");
  EXPECT_EQ(LoadRobot(folder, "mjcf", "arm.xml", model), "loaded");
}

// The check on a file's text: every spelling strtod reads as NaN, an infinity or an overflow,
// also through character references and CDATA; comments and non-numbers are left alone.
std::string ProblemIn(const std::string& xml) {
  const std::optional<ModelFileNumberProblem> problem =
      FindModelFileNumberProblem(ScanXmlTags(xml));
  return problem ? std::to_string(problem->line) + ": " + problem->problem : "none";
}

TEST(ModelFileNumbers, EverySpellingOfNanInfinityAndOverflowIsCaught) {
  for (const std::string value : {"NAN", "-nan", "nan(123)", "+Inf", "-INFINITY", "infinity",
                                  "1e400", "-1E+400", "0x1p2000", "&#49;e400", "1e&#x34;00"}) {
    const std::string problem =
        ProblemIn("<robot name=\"r\"><link name=\"a\"><inertial><mass value=\"" + value +
                  "\"/></inertial></link></robot>");
    EXPECT_TRUE(Contains(problem, "1: link a: mass value: must")) << value << ": " << problem;
  }
  EXPECT_EQ(ProblemIn("<sdf><model name=\"m\"><link name=\"a\">\n<pose>0 0\n"
                      "<![CDATA[ 0 1e400 ]]> 0</pose></link></model></sdf>"),
            "3: link a: pose[3]: " + kLimit + "1e400");
  EXPECT_EQ(ProblemIn("<mujoco>\n<option\n  gravity=\"0 0 -1e13\"/></mujoco>"),
            "3: option gravity[2]: " + kLimit + "-1e+13");
  // Not checked: comments, names, non-numeric words, fields that are not numbers, an
  // underflow (read as 0), a URDF axis (normalised without overflow), other roots.
  EXPECT_EQ(ProblemIn("<robot name=\"1e400\"><!-- <mass value=\"nan\"/> -->"
                      "<link name=\"nan\"><inertial><mass value=\"heavy 1e-400\"/></inertial>"
                      "<visual><material name=\"m\"><color rgba=\"1 1 1 1e400\"/></material>"
                      "</visual></link><joint name=\"j\"><axis xyz=\"1e300 0 0\"/></joint>"
                      "</robot>"),
            "none");
  EXPECT_EQ(ProblemIn("<other><pose>1e400</pose></other>"), "none");
  // A URDF axis must still be finite.
  EXPECT_EQ(ProblemIn("<robot><joint name=\"j\"><axis xyz=\"1e400 0 0\"/></joint></robot>"),
            "1: joint j: axis xyz[0]: must be finite, got 1e400");
}

}  // namespace
}  // namespace quasidyn
