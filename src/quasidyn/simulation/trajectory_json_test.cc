#include "quasidyn/simulation/trajectory_json.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

#include "quasidyn/formulations/registry.h"
#include "quasidyn/scenes/scene_loading.h"
#include "quasidyn/simulation/rollout.h"
#include "quasidyn/testing/program_settings.h"
#include "quasidyn/testing/scratch_files.h"
#include "quasidyn/testing/trajectories.h"

namespace quasidyn {
namespace {

using nlohmann::json;
const std::string kTrajectoryJsonExamples = std::string(QUASIDYN_SOURCE_DIR) + "/examples/";

using testing::AwkwardTrajectory;
using testing::ExpectSameTrajectory;

TEST(TrajectoryJsonTest, AwkwardNumbersRoundTripBitForBit) {
  const Trajectory original = AwkwardTrajectory();
  // Through text, as a file would carry it.
  const std::string text = TrajectoryToJson(original).dump();
  const Trajectory back = TrajectoryFromJson(json::parse(text));
  ExpectSameTrajectory(original, back);
}

TEST(TrajectoryJsonTest, NonFiniteNumbersAreNamedStrings) {
  const json j = TrajectoryToJson(AwkwardTrajectory());
  const json& solver = j["steps"][0]["solver"];
  EXPECT_EQ(solver["primal_residual"], "NaN");
  EXPECT_EQ(solver["dual_residual"], "Infinity");
  EXPECT_EQ(solver["complementarity_gap"], "-Infinity");
  EXPECT_TRUE(solver["solve_time"].is_number());
}

TEST(TrajectoryJsonTest, HeaderHoldsTheDocumentedFields) {
  const json j = TrajectoryToJson(AwkwardTrajectory());
  EXPECT_EQ(j["format"], "quasidyn-trajectory");
  EXPECT_EQ(j["format_version"], 1);
  EXPECT_EQ(j["scene"]["file"], "dir/scene.yaml");
  EXPECT_EQ(j["formulation"]["type"], "log-barrier");
  EXPECT_EQ(j["formulation"]["time_step"], 0.1);
  EXPECT_EQ(j["nq_a"], 2);
  EXPECT_EQ(j["status"], "max_iterations");
  EXPECT_EQ(j["steps"][0]["contacts"].size(), 2u);
}

TEST(TrajectoryJsonTest, SimulatedRolloutRoundTripsThroughAFile) {
  const ScenePtr scene = std::make_shared<const Scene>(
      LoadScene(kTrajectoryJsonExamples + "planar_gripper/scene.yaml"));
  const Trajectory original =
      Rollout(*MakeStepModel(scene, testing::SceneProgramSettings(*scene)), {24, {}});
  ASSERT_TRUE(original.completed()) << original.message;
  const testing::ScratchDirectory dir;
  const std::string path = (dir / "trajectory.json").string();
  WriteTrajectoryFile(original, path, 2);
  const Trajectory back = ReadTrajectoryFile(path);
  ExpectSameTrajectory(original, back);
}

TEST(TrajectoryJsonTest, BadContentNamesTheField) {
  json j = TrajectoryToJson(AwkwardTrajectory());
  auto expect_error = [](const json& bad, const std::string& field) {
    try {
      TrajectoryFromJson(bad);
      ADD_FAILURE() << "accepted a bad " << field;
    } catch (const std::invalid_argument& e) {
      EXPECT_NE(std::string(e.what()).find(field), std::string::npos) << e.what();
    }
  };
  json bad = j;
  bad["steps"][0]["q"].erase(0);
  expect_error(bad, "steps[0].q");
  bad = j;
  bad["steps"][0]["contacts"][1]["normal"][2] = "up";
  expect_error(bad, "steps[0].contacts[1].normal[2]");
  bad = j;
  bad.erase("q0");
  expect_error(bad, "q0");
  bad = j;
  bad["format_version"] = 99;
  expect_error(bad, "format_version");
  bad = j;
  bad["steps"][0]["status"] = "fine";
  expect_error(bad, "steps[0].status");
  bad = j;
  bad["formulation"]["time_step"] = -0.1;
  expect_error(bad, "formulation.time_step");
  bad = j;
  bad["steps_requested"] = 0;  // fewer than the steps held
  expect_error(bad, "steps");
}

TEST(TrajectoryJsonTest, MissingOrMalformedFileNamesThePath) {
  const testing::ScratchDirectory dir;
  EXPECT_THROW(ReadTrajectoryFile((dir / "missing/traj.json").string()), std::runtime_error);
  const std::string path = (dir / "not_json.json").string();
  testing::WriteWholeFile(path, "{ not json");
  try {
    ReadTrajectoryFile(path);
    ADD_FAILURE() << "accepted a malformed file";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find(path), std::string::npos) << e.what();
  }
  EXPECT_THROW(WriteTrajectoryFile(AwkwardTrajectory(),
                                   testing::UnwritablePath(dir.path(), "traj.json").string()),
               std::runtime_error);
  EXPECT_THROW(WriteTrajectoryFile(AwkwardTrajectory(), ""), std::invalid_argument);
}

TEST(TrajectoryJsonTest, AWriteThatFailsMidwayKeepsThePreviousFile) {
  const testing::ScratchDirectory dir;
  const std::filesystem::path path = dir / "traj.json";
  testing::WriteWholeFile(path, "previous");
  {
    const testing::FileSizeLimit limit(64);  // the file cannot grow past 64 bytes
    try {
      WriteTrajectoryFile(AwkwardTrajectory(), path.string());
      ADD_FAILURE() << "wrote past the file-size limit";
    } catch (const std::runtime_error& e) {
      EXPECT_NE(std::string(e.what()).find(path.string()), std::string::npos) << e.what();
    }
  }
  EXPECT_EQ(testing::ReadWholeFile(path), "previous");
  EXPECT_EQ(testing::FileNames(dir.path()), std::vector<std::string>{"traj.json"});
}

}  // namespace
}  // namespace quasidyn
