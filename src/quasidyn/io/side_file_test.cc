// Side files (io/side_file.h, docs/qsim-files.md "Side files"): a system file of the reference
// quasistatic simulator, or a scene file, read unchanged with the side file's start and its
// planning: block; the side file's errors at its file:line.

#include <gtest/gtest.h>

#include <string>

#include "quasidyn/io/scene_document.h"
#include "quasidyn/model/scene_error.h"
#include "quasidyn/model/simulator_conventions.h"
#include "quasidyn/testing/qsim_models.h"
#include "quasidyn/testing/scratch_files.h"

namespace quasidyn {
namespace {

using namespace testing::qsim;  // the models (testing/qsim_models.h)

// q = (ball_a: x y z qw qx qy qz, ball_b: the same, arm: shoulder, elbow).
constexpr const char* kSide = R"(base: ../q_sys/system.yml
initial:
  ball_a: [0.1, 0, 0.05, 1, 0, 0, 0]
  arm: [0.3, 0.5]
planning:
  goal: [0.2, 0, 0.05, 1, 0, 0, 0, 0, 0.4, 0.05, 1, 0, 0, 0]
  bounds: {lower: [0, -0.1, 0, -0.1, 0.3, 0], upper: [0.3, 0.1, 0.1, 0.1, 0.5, 0.1]}
)";

class SideFileTest : public ::testing::Test {
 protected:
  SideFileTest() {
    WriteModels(folder_);
    system_ = folder_.Write("q_sys/system.yml", kSystem);
    std::filesystem::create_directory(folder_ / "mine");
  }
  std::string Side(const std::string& text, const std::string& name = "side.yaml") const {
    return folder_.Write("mine/" + name, text);
  }
  static std::string Replaced(std::string text, const std::string& from, const std::string& to) {
    text.replace(text.find(from), from.size(), to);
    return text;
  }
  std::string ErrorOf(const std::string& text) const {
    try {
      ReadSceneFile(Side(text));
    } catch (const SceneError& e) {
      return e.what();
    }
    return "no error";
  }
  testing::ScratchDirectory folder_;
  std::string system_;
};

TEST_F(SideFileTest, GivesTheSystemItsStartAndPlanningBlock) {
  const Scene base = ReadSceneFile(system_);
  const std::string path = Side(kSide);
  const Scene scene = ReadSceneFile(path);
  ASSERT_EQ(scene.nq, base.nq);
  ASSERT_EQ(scene.nq, 16);
  // Objects first, then the arm.
  const int a = scene.instances[scene.InstanceIndex("ball_a")].q_start;
  const int b = scene.instances[scene.InstanceIndex("ball_b")].q_start;
  EXPECT_EQ(scene.q0.segment(a, 7), (Eigen::VectorXd(7) << 0.1, 0, 0.05, 1, 0, 0, 0).finished());
  EXPECT_EQ(scene.q0.segment(b, 7), base.q0.segment(b, 7));  // not named: the system's
  EXPECT_EQ(scene.q0.tail(2), Eigen::Vector2d(0.3, 0.5));
  EXPECT_NE(scene.q0, base.q0);
  ASSERT_FALSE(base.planning.has_value());
  ASSERT_TRUE(scene.planning.has_value());
  EXPECT_EQ(scene.planning->goal.size(), 14);
  EXPECT_EQ(scene.source_file, path);
  // The rest is the system's.
  EXPECT_EQ(scene.friction_rays, base.friction_rays);
  EXPECT_EQ(scene.gravity, base.gravity);
  EXPECT_EQ(scene.time_step, base.time_step);
}

TEST_F(SideFileTest, AWholeStartIsObjectsThenRobots) {
  const Scene named = ReadSceneFile(Side(kSide));
  std::string whole = "initial: [";
  for (int i = 0; i < named.nq; ++i) whole += (i ? ", " : "") + std::to_string(named.q0[i]);
  whole += "]\n";
  const std::string text =
      Replaced(kSide, "initial:\n  ball_a: [0.1, 0, 0.05, 1, 0, 0, 0]\n  arm: [0.3, 0.5]\n", whole);
  EXPECT_EQ(ReadSceneFile(Side(text, "whole.yaml")).q0, named.q0);
}

TEST_F(SideFileTest, ThePackageNamesTheBase) {
  const std::string text =
      Replaced(kSide, "base: ../q_sys/system.yml", "base: package://my_models/q_sys/system.yml");
  EXPECT_EQ(ReadSceneFile(Side(text)).nq, 16);
}

TEST_F(SideFileTest, ErrorsNameTheSideFileAndTheLine) {
  const auto expect = [&](const std::string& text, const std::string& fragment) {
    const std::string error = ErrorOf(text);
    EXPECT_NE(error.find(fragment), std::string::npos) << error;
  };
  expect(Replaced(kSide, "  arm: [", "  arms: ["),
         "side.yaml:4: initial.arms: no model named 'arms' in the scene (did you mean 'arm'?) "
         "(models: ball_a, ball_b, ground, arm)");
  expect(Replaced(kSide, "arm: [0.3, 0.5]", "arm: [0.3]"),
         "side.yaml:4: initial.arm: must have 2 numbers for arm, got 1");
  expect("base: ../q_sys/system.yml\ninitial: [0, 1]\n",
         "side.yaml:2: initial: must have n_q = 16 numbers (objects first, then robots: ball_a 7, "
         "ball_b 7, arm 2), got 2");
  expect(Replaced(kSide, "system.yml", "sistem.yml"),
         "side.yaml:1: base: the base scene file is not found");
  expect(std::string(kSide) + "mcp: {}\n", "side.yaml:8: mcp: unknown key");
  expect(Replaced(kSide, "goal: [0.2, 0,", "goal: [0,"),
         "side.yaml:6: planning.goal: expected n_q,u = 14 numbers");
  Side(kSide, "inner.yaml");
  expect("base: inner.yaml\n", "side.yaml:1: base: the base is itself a side file");
}

// `conventions:` replaces the keys it gives: a system file's parity mode with the robots' joint
// limits enforced (the planner then keeps the arm within its SDF <limit>s).
TEST_F(SideFileTest, ConventionsReplaceTheKeysTheyGive) {
  const Scene base = ReadSceneFile(system_);
  ASSERT_TRUE(base.conventions == QsimConventions());
  const std::string limited = std::string(kSide) + "conventions: {joint_limits: enforced}\n";
  const Scene scene = ReadSceneFile(Side(limited));
  EXPECT_EQ(scene.conventions.joint_limits, JointLimitRule::kEnforced);
  EXPECT_EQ(scene.conventions.friction_ray_basis, base.conventions.friction_ray_basis);
  EXPECT_EQ(scene.conventions.quaternion_update, base.conventions.quaternion_update);
  EXPECT_EQ(scene.q0, ReadSceneFile(Side(kSide, "parity.yaml")).q0);
  // The arm's elbow has limits [0.2, 2]: a start at 0.1 passes in parity mode, not when enforced.
  const std::string outside = Replaced(kSide, "arm: [0.3, 0.5]", "arm: [0.3, 0.1]");
  EXPECT_EQ(ReadSceneFile(Side(outside, "outside_parity.yaml")).q0.tail(2),
            Eigen::Vector2d(0.3, 0.1));
  const std::string error = ErrorOf(outside + "conventions: {joint_limits: enforced}\n");
  EXPECT_NE(error.find("is outside its limits"), std::string::npos) << error;
  // Problems at the block's lines.
  const auto expect = [&](const std::string& block, const std::string& fragment) {
    const std::string message = ErrorOf(std::string(kSide) + block);
    EXPECT_NE(message.find(fragment), std::string::npos) << message;
  };
  expect("conventions: {joint_limit: enforced}\n", "side.yaml:8: conventions.joint_limit");
  expect("conventions:\n  joint_limits: always\n", "side.yaml:9: conventions.joint_limits");
  expect("conventions: enforced\n", "side.yaml:8: conventions: must be a map");
  // The system's 2 rays are qsim's ±x̂ × n pair: the quasidyn basis has no such pair.
  expect("conventions:\n  friction_ray_basis: quasidyn\n",
         "side.yaml:9: conventions.friction_ray_basis: the base has 2 friction rays");
}

TEST_F(SideFileTest, ReplacesTheBlockOfASceneFile) {
  const std::string example = std::string(QUASIDYN_SOURCE_DIR) + "/examples/planar_hand/scene.yaml";
  const Scene base = ReadSceneFile(example);
  ASSERT_TRUE(base.planning.has_value());
  const Scene scene = ReadSceneFile(
      Side("base: " + example +
           "\ninitial: {ball: [0.01, 0.05, 0]}\n"
           "planning: {goal: [0, 0.05, 1.5], bounds: {lower: [-0.1, 0, -3], upper: [0.1, 0.1, 3]}}"
           "\n"));
  EXPECT_EQ(scene.q0.head(3), Eigen::Vector3d(0.01, 0.05, 0));
  EXPECT_EQ(scene.q0.tail(scene.nq_a), base.q0.tail(base.nq_a));
  EXPECT_EQ(scene.planning->goal, Eigen::Vector3d(0, 0.05, 1.5));
  EXPECT_NE(scene.planning->goal, base.planning->goal);
  // A block the side file leaves out is the base's.
  const Scene start_only = ReadSceneFile(Side("base: " + example + "\n", "start_only.yaml"));
  EXPECT_EQ(start_only.planning->goal, base.planning->goal);
  // A scene file's conventions are replaced key by key too.
  ASSERT_EQ(base.conventions.joint_limits, JointLimitRule::kEnforced);
  const Scene parity = ReadSceneFile(
      Side("base: " + example + "\nconventions: {joint_limits: ignored}\n", "parity.yaml"));
  EXPECT_EQ(parity.conventions.joint_limits, JointLimitRule::kIgnored);
  EXPECT_EQ(parity.conventions.quaternion_update, base.conventions.quaternion_update);
}

}  // namespace
}  // namespace quasidyn
