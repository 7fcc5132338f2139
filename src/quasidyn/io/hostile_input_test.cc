// Inputs a hostile but fair user gave the loader: each crashed the process (stack
// overflow, abort), allocated without bound or was accepted with a wrong value before the
// loader limits of io/loader_limits.h. Large inputs are generated here, not committed.

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <limits>
#include <stdexcept>
#include <string>
#include <utility>

#include "quasidyn/files/utf8.h"
#include "quasidyn/files/xml_tags.h"
#include "quasidyn/io/loader_limits.h"
#include "quasidyn/io/mjcf_loader.h"
#include "quasidyn/io/scene_document.h"
#include "quasidyn/io/sdf_loader.h"
#include "quasidyn/io/urdf_loader.h"
#include "quasidyn/model/scene_error.h"
#include "quasidyn/testing/scratch_files.h"

namespace quasidyn {
namespace {

// `text` as the file `name` in this test program's own scratch folder (mkdtemp: concurrent test
// processes never share it), removed with everything in it when the program exits.
std::string WriteTemp(const std::string& name, const std::string& text) {
  static const testing::ScratchDirectory folder;
  const std::string path = (folder / name).string();
  std::ofstream(path) << text;
  return path;
}

const char* kInertial =
    "<inertial><mass value=\"1\"/>"
    "<inertia ixx=\"1\" ixy=\"0\" ixz=\"0\" iyy=\"1\" iyz=\"0\" izz=\"1\"/></inertial>";

// A one-joint robot whose arm link holds `collision` and whose joint carries `joint_extra`
// (attribute text placed before name=) and axis `axis`.
std::string Robot(const std::string& collision, const std::string& joint_extra = "",
                  const std::string& axis = "0 0 1") {
  return std::string("<robot name=\"r\"><link name=\"base\">") + kInertial +
         "</link><link name=\"arm\">" + kInertial + collision + "</link><joint " + joint_extra +
         " name=\"hinge\" type=\"continuous\"><parent link=\"base\"/><child link=\"arm\"/>"
         "<axis xyz=\"" +
         axis + "\"/></joint></robot>";
}

UrdfOptions Options() {
  UrdfOptions options;
  options.instance_name = "r";
  options.where = {"scene.yaml", 7, "robots[0].urdf"};
  return options;
}

std::string LoadError(const std::string& path) {
  try {
    LoadUrdfInstance(path, Options());
  } catch (const SceneError& e) {
    EXPECT_EQ(e.line(), 7) << e.what();  // the scene line naming the URDF
    return e.what();
  }
  ADD_FAILURE() << path << " loaded without error";
  return "";
}

// std::regex recursed once per character: ~30,000 spaces in a <capsule> tag overflowed the stack.
TEST(HostileUrdfTest, CapsuleTagWithThirtyThousandSpacesLoads) {
  const std::string capsule = "<collision><geometry><capsule" + std::string(30000, ' ') +
                              "radius=\"0.1\" length=\"0.5\"/></geometry></collision>";
  const InstanceSpec spec =
      LoadUrdfInstance(WriteTemp("qd_long_capsule.urdf", Robot(capsule)), Options());
  ASSERT_EQ(spec.bodies.size(), 2u);
  ASSERT_EQ(spec.bodies[1].shapes.size(), 1u);
  EXPECT_EQ(spec.bodies[1].shapes[0].shape.type, ShapeType::kCapsule);
  EXPECT_EQ(spec.bodies[1].shapes[0].shape.radius, 0.1);
  EXPECT_EQ(spec.bodies[1].shapes[0].shape.length, 0.5);
}

TEST(HostileUrdfTest, FortyKilobyteCommentInsideACapsuleLoads) {
  const std::string capsule = "<collision><geometry><capsule radius=\"0.1\" length=\"0.5\"><!--" +
                              std::string(40000, 'x') + "--></capsule></geometry></collision>";
  const InstanceSpec spec =
      LoadUrdfInstance(WriteTemp("qd_comment_capsule.urdf", Robot(capsule)), Options());
  EXPECT_EQ(spec.bodies[1].shapes.at(0).shape.type, ShapeType::kCapsule);
}

TEST(HostileUrdfTest, SixtyKilobyteAttributeBeforeTheJointNameLoads) {
  const std::string extra = "note=\"" + std::string(60000, 'y') + "\"";
  const InstanceSpec spec =
      LoadUrdfInstance(WriteTemp("qd_long_joint.urdf", Robot("", extra)), Options());
  ASSERT_EQ(spec.joints.size(), 2u);
  EXPECT_EQ(spec.joints[1].name, "r/hinge");
}

// urdfdom's XML parser recursed per element: 60,000 nested elements overflowed the stack.
TEST(HostileUrdfTest, DeeplyNestedElementsAreRejectedBeforeParsing) {
  std::string nested;
  for (int i = 0; i < 60000; ++i) nested += "<x>";
  for (int i = 0; i < 60000; ++i) nested += "</x>";
  const std::string message = LoadError(WriteTemp("qd_deep.urdf", Robot(nested)));
  EXPECT_NE(message.find("nested"), std::string::npos) << message;
  EXPECT_NE(message.find("at most " + std::to_string(kMaxXmlDepth)), std::string::npos);
}

// The old tag scanner left malformed XML to urdfdom, whose message had no line; tinyxml2
// refuses it with the line of the fault before any model parser reads the file.
TEST(HostileUrdfTest, MalformedXmlIsRejectedWithItsLine) {
  const std::string unclosed =
      "<robot name=\"r\">\n<link name=\"base\">\n<inertial>\n</link>\n</robot>\n";
  std::string message = LoadError(WriteTemp("qd_unclosed.urdf", unclosed));
  // The line of the element left open, which tinyxml2 names.
  EXPECT_NE(message.find("qd_unclosed.urdf:3: malformed XML"), std::string::npos) << message;
  EXPECT_NE(message.find("name=inertial"), std::string::npos) << message;
  const std::string bad_attribute = "<robot name=\"r\">\n\n<link name=base/>\n</robot>\n";
  message = LoadError(WriteTemp("qd_bad_attribute.urdf", bad_attribute));
  EXPECT_NE(message.find("qd_bad_attribute.urdf:3: malformed XML"), std::string::npos) << message;
  message = LoadError(WriteTemp("qd_truncated.urdf", Robot("").substr(0, 60)));
  EXPECT_NE(message.find("malformed XML"), std::string::npos) << message;
}

// SDF and MJCF alike: refused with file:line before libsdformat or MuJoCo read the file.
TEST(HostileModelFileTest, MalformedSdfAndMjcfAreRejectedWithTheirLine) {
  ModelFileOptions options;
  options.instance_name = "m";
  options.where = {"scene.yaml", 7, "objects[0].sdf"};
  const std::string sdf =
      "<sdf version=\"1.7\">\n<model name=\"m\">\n<link name=\"a\">\n"
      "</model>\n</sdf>\n";
  const std::string mjcf =
      "<mujoco>\n<worldbody>\n<body name=\"b\" pos=0/>\n</worldbody>\n"
      "</mujoco>\n";
  for (const auto& [name, text] : {std::pair<std::string, std::string>{"qd_bad.sdf", sdf},
                                   std::pair<std::string, std::string>{"qd_bad.xml", mjcf}}) {
    const std::string path = WriteTemp(name, text);
    try {
      if (name == "qd_bad.sdf") {
        LoadSdfInstance(path, options);
      } else {
        LoadMjcfInstance(path, options);
      }
      ADD_FAILURE() << name << " loaded";
    } catch (const SceneError& e) {
      EXPECT_NE(std::string(e.what()).find(name + ":3: malformed XML"), std::string::npos)
          << e.what();
    }
  }
}

TEST(HostileUrdfTest, CapsuleWithContentIsRejected) {
  const std::string capsule =
      "<collision><geometry><capsule radius=\"0.1\" length=\"0.5\"><x/></capsule>"
      "</geometry></collision>";
  const std::string message = LoadError(WriteTemp("qd_full_capsule.urdf", Robot(capsule)));
  EXPECT_NE(message.find("<capsule> must be empty"), std::string::npos) << message;
}

TEST(HostileUrdfTest, InvalidUtf8LinkNameIsRejected) {
  std::string robot = Robot("");
  robot.replace(robot.find("arm"), 3,
                "a\xff"
                "m");
  robot.replace(robot.find("\"arm\""), 5,
                "\"a\xff"
                "m\"");
  const std::string message = LoadError(WriteTemp("qd_utf8.urdf", robot));
  EXPECT_NE(message.find("not valid UTF-8"), std::string::npos) << message;
}

TEST(HostileUrdfTest, OversizedFileIsRejectedBeforeReading) {
  const std::string path = WriteTemp("qd_huge.urdf", Robot(""));
  std::filesystem::resize_file(path, kMaxUrdfFileBytes + 1);  // sparse: no disk used
  const std::string message = LoadError(path);
  std::filesystem::remove(path);
  EXPECT_NE(message.find("at most " + std::to_string(kMaxUrdfFileBytes)), std::string::npos);
}

// |axis|² overflowed (1e200) or underflowed (1e-170): both were later "not a unit axis".
TEST(HostileUrdfTest, AxesOfExtremeMagnitudeAreNormalisedExactly) {
  for (const std::string axis : {"1e200 0 0", "1e-170 0 0", "0 -3e-300 0"}) {
    const std::string urdf = WriteTemp("qd_axis.urdf", Robot("", "", axis));
    const Scene scene = ReadSceneText(
        "name: s\ndimension: 3\ntime_step: 0.01\nrobots:\n  - {name: r, urdf: " + urdf +
            ", friction: 0.5, stiffness: 10, initial: [0]}\n",
        "inline.yaml", "");
    const Joint& hinge = scene.joints[scene.bodies[scene.BodyIndex("r/arm")].parent_joint];
    const Eigen::Vector3d expected =
        axis[0] == '0' ? Eigen::Vector3d(0, -1, 0) : Eigen::Vector3d(1, 0, 0);
    EXPECT_EQ(hinge.axis, expected) << axis;
  }
}

TEST(HostileSceneTest, OversizedSceneTextIsRejectedBeforeParsing) {
  const std::string text(kMaxSceneFileBytes + 1, '#');
  try {
    ReadSceneText(text, "big.yaml", "");
    FAIL();
  } catch (const SceneError& e) {
    EXPECT_NE(std::string(e.what()).find("at most"), std::string::npos) << e.what();
  }
}

TEST(HostileSceneTest, TooManyVelocitiesIsRejectedAtTheInstanceThatExceeds) {
  const int objects = kMaxVelocities / 6 + 1;  // floating objects, 6 velocities each
  std::string yaml = "name: many\ndimension: 3\ntime_step: 0.01\nobjects:\n";
  for (int i = 0; i < objects; ++i) {
    yaml += "  - {name: o" + std::to_string(i) +
            ", joint: floating, body: {mass: 1, inertia: from_shapes, shapes: [{type: sphere, "
            "radius: 0.1, friction: 0.5}]}, initial: [0, 0, " +
            std::to_string(i) + ", 1, 0, 0, 0]}\n";
  }
  try {
    ReadSceneText(yaml, "many.yaml", "");
    FAIL();
  } catch (const SceneError& e) {
    EXPECT_EQ(e.line(), 4 + objects) << e.what();  // the last object's line
    EXPECT_NE(std::string(e.what()).find("at most " + std::to_string(kMaxVelocities)),
              std::string::npos)
        << e.what();
  }
}

// Scene.command_at(nan) read out of bounds (a segfault in Python).
TEST(HostileSceneTest, CommandAtNanThrowsAndInfinitiesClampToTheEnds) {
  const Scene scene =
      ReadSceneFile(std::string(QUASIDYN_SOURCE_DIR) + "/examples/planar_gripper/scene.yaml");
  EXPECT_THROW(scene.CommandAt(std::numeric_limits<double>::quiet_NaN()), std::invalid_argument);
  const double inf = std::numeric_limits<double>::infinity();
  EXPECT_EQ(scene.CommandAt(-inf), scene.CommandAt(-1.0));
  EXPECT_EQ(scene.CommandAt(inf), scene.CommandAt(scene.ScheduleEnd()));
}

}  // namespace
}  // namespace quasidyn
