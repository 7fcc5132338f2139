// Every positive physical input of a scene file is refused at load outside its usable range
// (model/physical_ranges.h), with file:line, the key and the range; its boundary values load.
// One test per family: time step and duration, mass and inertia (the scene's and a URDF's),
// stiffness and damping, contact tolerance, friction (the qsim parameters' in qsim_files_test.cc).

#include <gtest/gtest.h>

#include <string>

#include "quasidyn/io/scene_document.h"
#include "quasidyn/model/scene_error.h"
#include "quasidyn/testing/contains_text.h"
#include "quasidyn/testing/scratch_files.h"

namespace quasidyn {
namespace {

using testing::Contains;

// A planar scene of a box and a one-joint robot; "@TS", "@MASS", "@INERTIA", "@K", "@D",
// "@TOL", "@MU" are the values under test (each on its own line, given below).
std::string SceneText(const std::string& key, const std::string& value) {
  std::string text =
      "name: s\n"                                                      // 1
      "dimension: 2\n"                                                 // 2
      "time_step: @TS\n"                                               // 3
      "duration: @DUR\n"                                               // 4
      "contact_tolerance: @TOL\n"                                      // 5
      "objects:\n"                                                     // 6
      "  - name: box\n"                                                // 7
      "    joint: planar\n"                                            // 8
      "    body:\n"                                                    // 9
      "      mass: @MASS\n"                                            // 10
      "      inertia: {principal: [1, 1, @INERTIA]}\n"                 // 11
      "      shapes:\n"                                                // 12
      "        - {type: box, size: [0.1, 0.1, 0.1], friction: @MU}\n"  // 13
      "    initial: [0, 0.05, 0]\n"                                    // 14
      "robots:\n"                                                      // 15
      "  - name: finger\n"                                             // 16
      "    joints: [{name: x, type: prismatic, axis: [1, 0, 0], parent: world, child: tip}]\n"
      "    bodies: [{name: tip, mass: 1, inertia: {principal: [1, 1, 1]}, shapes: [{type: "
      "sphere, radius: 0.01, friction: 0.5}]}]\n"  // 18
      "    stiffness: @K\n"                        // 19
      "    damping: @D\n"                          // 20
      "    initial: [0.5]\n";                      // 21
  const std::pair<const char*, const char*> defaults[] = {
      {"@TS", "0.01"},   {"@DUR", "1"},  {"@TOL", "0.01"}, {"@MASS", "1"},
      {"@INERTIA", "1"}, {"@MU", "0.5"}, {"@K", "100"},    {"@D", "0"}};
  for (const auto& [mark, fallback] : defaults) {
    const std::string v = mark == key ? value : fallback;
    text.replace(text.find(mark), std::string(mark).size(), v);
  }
  return text;
}

// "loaded", or the SceneError's message.
std::string Load(const std::string& key, const std::string& value) {
  try {
    ReadSceneText(SceneText(key, value), "scene.yaml", "");
  } catch (const SceneError& e) {
    return e.what();
  }
  return "loaded";
}

void ExpectRefused(const std::string& key, const std::string& value, const std::string& where,
                   const std::string& range) {
  const std::string error = Load(key, value);
  EXPECT_TRUE(Contains(error, where + ": " + range + ", got " + value)) << error;
}

TEST(PhysicalRangeInputs, TheBaseSceneLoads) { EXPECT_EQ(Load("", ""), "loaded"); }

// Issue 71's reproducer: a positive subnormal time step loaded and the first step stopped with
// "QpSolver::Setup: h[2] is not finite (-inf)"; now the loader refuses it at its line.
TEST(PhysicalRangeInputs, TimeStepAndDuration) {
  const std::string range = "must lie within [1e-06, 10] s";
  for (const char* bad : {"1e-320", "5e-324", "1e-310", "9.99e-07", "10.0001", "0", "-0.01"})
    ExpectRefused("@TS", bad, "scene.yaml:3: time_step", range);
  for (const char* good : {"1e-06", "10"}) EXPECT_EQ(Load("@TS", good), "loaded") << good;
  for (const char* bad : {"1e-320", "1.1e7"})
    ExpectRefused("@DUR", bad, "scene.yaml:4: duration", "must lie within [1e-06, 1e+07] s");
  for (const char* good : {"1e-06", "1e7"}) EXPECT_EQ(Load("@DUR", good), "loaded") << good;
}

TEST(PhysicalRangeInputs, MassAndInertia) {
  for (const char* bad : {"5e-324", "9e-07", "1.1e6"})
    ExpectRefused("@MASS", bad, "scene.yaml:10: objects[0].body.mass",
                  "must lie within [1e-06, 1e+06] kg");
  for (const char* good : {"1e-06", "1e6"}) EXPECT_EQ(Load("@MASS", good), "loaded") << good;
  for (const char* bad : {"1e-320", "1e-19", "2e9"})
    ExpectRefused("@INERTIA", bad, "scene.yaml:11: objects[0].body.inertia.principal[2]",
                  "must be 0 or lie within [1e-18, 1e+09] kg m^2");
  for (const char* good : {"1e-18", "1e9"}) EXPECT_EQ(Load("@INERTIA", good), "loaded") << good;
  // 0 is within the range (a model file's singular link); the body's check still wants a
  // positive definite inertia.
  EXPECT_TRUE(Contains(Load("@INERTIA", "0"), "positive definite"));
}

TEST(PhysicalRangeInputs, StiffnessAndDamping) {
  for (const char* bad : {"1e-310", "9e-4", "2e9"})
    ExpectRefused("@K", bad, "scene.yaml:19: robots[0].stiffness",
                  "must lie within [0.001, 1e+09] N/m or N m/rad");
  for (const char* good : {"0.001", "1e9"}) EXPECT_EQ(Load("@K", good), "loaded") << good;
  // A list's entries are checked where the list is, by the scene builder.
  EXPECT_TRUE(Contains(Load("@K", "[1e-310]"),
                       "scene.yaml:19: robots[0].stiffness: stiffness must lie within [0.001, "
                       "1e+09] N/m or N m/rad, got 1e-310"));
  for (const char* bad : {"1e-310", "2e9"})
    ExpectRefused("@D", bad, "scene.yaml:20: robots[0].damping",
                  "must be 0 or lie within [1e-06, 1e+09] N s/m or N m s/rad");
  for (const char* good : {"0", "1e-06", "1e9"}) EXPECT_EQ(Load("@D", good), "loaded") << good;
}

TEST(PhysicalRangeInputs, ContactToleranceAndFriction) {
  for (const char* bad : {"1e-310", "1e-10"})
    ExpectRefused("@TOL", bad, "scene.yaml:5: contact_tolerance",
                  "must be 0 or lie within [1e-09, 1e+12] m");
  // Beyond 1e12 the scene files' own limit refuses it first.
  EXPECT_TRUE(
      Contains(Load("@TOL", "1.5e12"), "scene.yaml:5: contact_tolerance: must lie within +-1e+12"));
  for (const char* good : {"0", "1e-09", "1000", "1e12"})
    EXPECT_EQ(Load("@TOL", good), "loaded") << good;
  for (const char* bad : {"1e-310", "9e-7", "100.5"})
    ExpectRefused("@MU", bad, "scene.yaml:13: objects[0].body.shapes[0].friction",
                  "must be 0 or lie within [1e-06, 100]");
  for (const char* good : {"0", "1e-06", "100"}) EXPECT_EQ(Load("@MU", good), "loaded") << good;
}

// A URDF link's mass and principal moments, at the URDF's line: 0 stays allowed (a robot's
// massless link, a rotationally singular link's iyy = 0); a subnormal or absurd one is refused.
TEST(PhysicalRangeInputs, UrdfMassAndInertia) {
  testing::ScratchDirectory folder;
  const auto load = [&](const std::string& mass, const std::string& iyy) {
    testing::WriteWholeFile(
        folder / "arm.urdf",
        "<?xml version=\"1.0\"?>\n<robot name=\"r\">\n  <link name=\"base\"/>\n"
        "  <link name=\"arm\">\n    <inertial><mass value=\"" +
            mass + "\"/><inertia ixx=\"1\" ixy=\"0\" ixz=\"0\" iyy=\"" + iyy +
            "\" iyz=\"0\" izz=\"1\"/></inertial>\n"
            "    <collision><geometry><box size=\"0.1 0.1 0.1\"/></geometry></collision>\n"
            "  </link>\n  <joint name=\"j1\" type=\"revolute\">\n"
            "    <parent link=\"base\"/><child link=\"arm\"/><axis xyz=\"0 0 1\"/>\n"
            "    <limit effort=\"1\" velocity=\"1\"/>\n  </joint>\n</robot>\n");
    try {
      ReadSceneText(
          "name: s\ndimension: 3\ntime_step: 0.01\nrobots:\n  - {name: r, urdf: arm.urdf, "
          "friction: 0.5, stiffness: 10, initial: [0]}\n",
          "scene.yaml", folder.path().string());
    } catch (const SceneError& e) {
      return std::string(e.what());
    }
    return std::string("loaded");
  };
  // iyy = 0 is within the range, and a robot link's singular inertia loads (with a warning,
  // scenes/singular_robot_inertia_test.cc); an object's is refused (MassAndInertia).
  EXPECT_EQ(load("1", "0"), "loaded");
  EXPECT_EQ(load("1", "1e-18"), "loaded");
  const std::string iyy = load("1", "1e-300");
  EXPECT_TRUE(Contains(iyy,
                       "arm.urdf:5: link arm: inertia iyy: must be 0 or lie within [1e-18, "
                       "1e+09] kg m^2, got 1e-300"))
      << iyy;
  const std::string mass = load("5e-324", "1");
  EXPECT_TRUE(Contains(mass,
                       "arm.urdf:5: link arm: mass value: must be 0 or lie within [1e-06, "
                       "1e+06] kg, got 5e-324"))
      << mass;
}

// A model file's friction (SDF <mu>) meets the scene's friction range, at the collision's line.
TEST(PhysicalRangeInputs, SdfFriction) {
  testing::ScratchDirectory folder;
  const auto load = [&](const std::string& mu) {
    testing::WriteWholeFile(
        folder / "box.sdf",
        "<?xml version=\"1.0\"?>\n<sdf version=\"1.7\">\n  <model name=\"box\">\n"
        "    <link name=\"body\">\n      <inertial><mass>0.5</mass>\n"
        "        <inertia><ixx>0.001</ixx><iyy>0.001</iyy><izz>0.001</izz>"
        "<ixy>0</ixy><ixz>0</ixz><iyz>0</iyz></inertia>\n      </inertial>\n"
        "      <collision name=\"block\">\n"  // line 8
        "        <geometry><box><size>0.1 0.1 0.1</size></box></geometry>\n"
        "        <surface><friction><ode><mu>" +
            mu +
            "</mu></ode></friction></surface>\n      </collision>\n    </link>\n"
            "  </model>\n</sdf>\n");
    try {
      ReadSceneText(
          "name: s\ndimension: 3\ntime_step: 0.01\nobjects:\n  - {name: box, joint: floating, "
          "sdf: box.sdf, initial: [0, 0, 0.05, 1, 0, 0, 0]}\n",
          "scene.yaml", folder.path().string());
    } catch (const SceneError& e) {
      return std::string(e.what());
    }
    return std::string("loaded");
  };
  EXPECT_EQ(load("0.6"), "loaded");
  EXPECT_EQ(load("0"), "loaded");  // frictionless
  const std::string tiny = load("1e-9");
  EXPECT_TRUE(Contains(tiny,
                       "box.sdf:8: link 'body' <collision> 'block': friction: must be 0 or lie "
                       "within [1e-06, 100], got 1e-09"))
      << tiny;
}

}  // namespace
}  // namespace quasidyn
