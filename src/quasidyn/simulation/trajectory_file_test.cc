#include "quasidyn/simulation/trajectory_file.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <limits>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "quasidyn/formulations/registry.h"
#include "quasidyn/scenes/scene_loading.h"
#include "quasidyn/simulation/rollout.h"
#include "quasidyn/simulation/trajectory_npz.h"
#include "quasidyn/testing/program_settings.h"
#include "quasidyn/testing/scratch_files.h"
#include "quasidyn/testing/trajectories.h"

namespace quasidyn {
namespace {

namespace fs = std::filesystem;
const std::string kTrajectoryFileExamples = std::string(QUASIDYN_SOURCE_DIR) + "/examples/";

Trajectory GripperRollout(GradientMode gradients) {
  const ScenePtr scene = std::make_shared<const Scene>(
      LoadScene(kTrajectoryFileExamples + "planar_gripper/scene.yaml"));
  RolloutOptions options{24, {}};
  options.gradients = gradients;
  return Rollout(*MakeStepModel(scene, testing::SceneProgramSettings(*scene)), options);
}

// The compact format holds everything the JSON does, bit for bit.
TEST(TrajectoryFileTest, NpzRoundTripsEveryFieldBitForBit) {
  testing::ScratchDirectory dir;
  const Trajectory awkward = testing::AwkwardTrajectory();
  const std::string path = (dir.path() / "awkward.npz").string();
  WriteTrajectory(awkward, path);
  testing::ExpectSameTrajectory(ReadTrajectory(path), awkward);
  for (GradientMode mode : {GradientMode::kAAndB, GradientMode::kBOnly, GradientMode::kNone}) {
    const Trajectory rollout = GripperRollout(mode);
    WriteTrajectory(rollout, (dir.path() / "gripper.npz").string());
    WriteTrajectory(rollout, (dir.path() / "gripper.json").string());
    const Trajectory from_npz = ReadTrajectory((dir.path() / "gripper.npz").string());
    testing::ExpectSameTrajectory(from_npz, ReadTrajectory((dir.path() / "gripper.json").string()));
    // The scene path is written relative to the file and read back resolved.
    EXPECT_TRUE(
        fs::equivalent(from_npz.scene_file, kTrajectoryFileExamples + "planar_gripper/scene.yaml"));
  }
  // Smaller than the JSON (without gradients, whose many exact zeros JSON writes as "0").
  EXPECT_LT(fs::file_size(dir.path() / "gripper.npz"), fs::file_size(dir.path() / "gripper.json"));
}

// Version 2's state arrays (k, t, q, v) start with the start's row: k = 0, t = 0, q0.
TEST(TrajectoryFileTest, NpzStateArraysStartWithTheStart) {
  const Trajectory rollout = GripperRollout(GradientMode::kNone);
  const NpzArchive archive = TrajectoryToNpz(rollout);
  const auto n = static_cast<std::int64_t>(rollout.steps.size());
  EXPECT_EQ(archive.at("format_version").i64[0], 2);
  EXPECT_EQ(archive.at("q").shape, (std::vector<std::int64_t>{n + 1, rollout.nq}));
  EXPECT_EQ(archive.at("t").shape, (std::vector<std::int64_t>{n + 1}));
  EXPECT_EQ(archive.at("u").shape, (std::vector<std::int64_t>{n, rollout.nq - rollout.nq_u}));
  EXPECT_EQ(archive.at("k").i64[0], 0);
  EXPECT_EQ(archive.at("t").f64[0], 0.0);
  for (int i = 0; i < rollout.nq; ++i) EXPECT_EQ(archive.at("q").f64[i], rollout.q0[i]);
  // A row 0 that is not q0 is a damaged file.
  NpzArchive damaged = archive;
  damaged["q"].f64[0] += 1.0;
  try {
    TrajectoryFromNpz(damaged);
    FAIL();
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("q: row 0 must equal q0"), std::string::npos) << e.what();
  }
}

// Files of version 1 (one row per step in k, t, q, v; the start only in q0, v0) are still read.
TEST(TrajectoryFileTest, NpzVersion1FilesAreStillRead) {
  const Trajectory rollout = GripperRollout(GradientMode::kNone);
  NpzArchive old = TrajectoryToNpz(rollout);
  old["format_version"].i64 = {1};
  for (const char* name : {"k", "t", "q"}) {
    NpyArray& array = old[name];
    const std::int64_t width = array.shape.size() > 1 ? array.shape[1] : 1;
    if (array.type == NpyArray::Type::kInt64)
      array.i64.erase(array.i64.begin(), array.i64.begin() + width);
    else
      array.f64.erase(array.f64.begin(), array.f64.begin() + width);
    array.shape[0] -= 1;
  }
  testing::ExpectSameTrajectory(TrajectoryFromNpz(old), rollout);
  old["format_version"].i64 = {3};
  EXPECT_THROW(TrajectoryFromNpz(old), std::invalid_argument);
}

// The rows of a CSV file without quoted cells, each split at its commas.
std::vector<std::vector<std::string>> ReadCsvCells(const std::string& path) {
  std::ifstream file(path);
  std::vector<std::vector<std::string>> rows;
  for (std::string line; std::getline(file, line);) {
    std::vector<std::string> cells;
    std::stringstream row(line);
    for (std::string cell; std::getline(row, cell, ',');) cells.push_back(cell);
    if (!line.empty() && line.back() == ',') cells.push_back("");
    rows.push_back(cells);
  }
  return rows;
}

// .csv writes real CSV (it wrote JSON before): a header of named columns, a row for the start
// and one per step, numbers that read back to the same double; it is not read back.
TEST(TrajectoryFileTest, CsvHasOneRowPerStepWithNamedColumns) {
  testing::ScratchDirectory dir;
  const Trajectory run = GripperRollout(GradientMode::kNone);
  const std::string path = (dir.path() / "gripper.csv").string();
  WriteTrajectory(run, path);
  const std::vector<std::vector<std::string>> rows = ReadCsvCells(path);
  ASSERT_EQ(rows.size(), run.steps.size() + 2);
  const std::vector<std::string>& header = rows[0];
  const size_t nq = run.q0.size(), nu = run.CommandSize();
  ASSERT_EQ(header.size(), 5 + nq + nu);
  EXPECT_EQ(header[0], "k");
  EXPECT_EQ(header[1], "t");
  EXPECT_EQ(header[2], "status");
  EXPECT_EQ(header[5], "q:" + run.coordinate_names[0]);
  EXPECT_EQ(header[5 + nq], "u:" + run.coordinate_names[run.nq_u]);
  for (const std::vector<std::string>& row : rows) EXPECT_EQ(row.size(), header.size());
  EXPECT_EQ(rows[1][0], "0");
  EXPECT_EQ(rows[1][5 + nq], "");  // no command before the first step
  for (size_t i = 0; i < nq; ++i) EXPECT_EQ(std::stod(rows[1][5 + i]), run.q0[i]);
  for (size_t k = 0; k < run.steps.size(); ++k) {
    const TrajectoryStep& step = run.steps[k];
    const std::vector<std::string>& row = rows[k + 2];
    EXPECT_EQ(row[0], std::to_string(step.k));
    EXPECT_EQ(std::stod(row[1]), step.t);
    EXPECT_EQ(row[2], ToString(step.status));
    EXPECT_EQ(row[4], std::to_string(step.contacts.size()));
    for (size_t i = 0; i < nq; ++i) EXPECT_EQ(std::stod(row[5 + i]), step.q[i]) << k << " " << i;
    for (size_t i = 0; i < nu; ++i) EXPECT_EQ(std::stod(row[5 + nq + i]), step.u[i]);
  }
  EXPECT_THROW(ReadTrajectory(path), std::invalid_argument);
  EXPECT_EQ(TrajectoryFileExtensions(), (std::vector<std::string>{".json", ".npz", ".csv"}));
}

TEST(TrajectoryFileTest, EveryKthStepKeepsTheLastAndTheCount) {
  const Trajectory full = GripperRollout(GradientMode::kNone);
  const Trajectory kept = KeepEveryKthStep(full, 5);
  ASSERT_EQ(kept.steps.size(), 5u);  // 5, 10, 15, 20 and the last, 24
  EXPECT_EQ(kept.steps[0].k, 5);
  EXPECT_EQ(kept.steps.back().k, 24);
  EXPECT_EQ(kept.steps.back().q, full.steps.back().q);
  EXPECT_TRUE(kept.completed());
  EXPECT_THROW(KeepEveryKthStep(full, 0), std::invalid_argument);
  testing::ScratchDirectory dir;
  TrajectoryWriteOptions options;
  options.every = 5;
  for (const char* name : {"every.json", "every.npz"}) {
    const std::string path = (dir.path() / name).string();
    WriteTrajectory(full, path, options);
    const Trajectory read = ReadTrajectory(path);
    EXPECT_EQ(read.steps.size(), 5u) << name;
    EXPECT_EQ(read.steps_done, 24) << name;
    EXPECT_TRUE(read.completed()) << name;
  }
}

TEST(TrajectoryFileTest, TheSceneIsStoredRelativeToTheTrajectory) {
  testing::ScratchDirectory dir;
  fs::create_directories(dir.path() / "deep/er");
  const fs::path scene = fs::path(kTrajectoryFileExamples) / "planar_gripper/scene.yaml";
  const std::string stored =
      SceneFileForTrajectory(scene.string(), (dir.path() / "deep/er/t.json").string());
  EXPECT_FALSE(fs::path(stored).is_absolute());
  EXPECT_TRUE(fs::equivalent(dir.path() / "deep/er" / stored, scene));
  // Back: resolved against the trajectory's folder, whatever the working folder.
  EXPECT_TRUE(fs::equivalent(
      SceneFileFromTrajectory(stored, (dir.path() / "deep/er/t.json").string()), scene));
  // Files that are not on disk keep their text.
  EXPECT_EQ(SceneFileForTrajectory("embedded:arm_cubes/scene.yaml", "t.json"),
            "embedded:arm_cubes/scene.yaml");
  EXPECT_EQ(SceneFileForTrajectory("", "t.json"), "");
}

TEST(TrajectoryFileTest, BadNpzContentNamesTheArray) {
  testing::ScratchDirectory dir;
  const std::string path = (dir.path() / "bad.npz").string();
  NpzArchive archive = TrajectoryToNpz(testing::AwkwardTrajectory());
  archive["q"].shape = {7, 7};
  testing::WriteWholeFile(path, NpzToBytes([&] {
                            NpzArchive a = archive;
                            a["q"].f64.assign(49, 0.0);
                            return a;
                          }()));
  try {
    ReadTrajectory(path);
    FAIL();
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("bad.npz: q: expected shape (2, 3)"), std::string::npos)
        << e.what();
  }
  EXPECT_THROW(ReadTrajectory((dir.path() / "missing.npz").string()), std::runtime_error);
}

// A missing file of either format is told apart from an unreadable one, with the path.
TEST(TrajectoryFileTest, AMissingFileIsTrajectoryFileNotFoundErrorWithThePath) {
  testing::ScratchDirectory dir;
  for (const char* name : {"missing.json", "missing.npz"}) {
    const std::string path = (dir.path() / name).string();
    try {
      ReadTrajectory(path);
      FAIL() << name;
    } catch (const TrajectoryFileNotFoundError& e) {
      EXPECT_EQ(e.path(), path);
      EXPECT_NE(std::string(e.what()).find(path), std::string::npos) << e.what();
    }
  }
  // A folder exists: another error than "not found".
  try {
    ReadTrajectory(dir.path().string());
    FAIL();
  } catch (const TrajectoryFileNotFoundError& e) {
    FAIL() << e.what();
  } catch (const std::exception&) {
  }
}

// A non-finite number outside the solver's residuals is a damaged file in either format, named
// with the file and the step (a time "NaN" was read as NaN and accepted); the residuals' NaN and
// ±∞ still round-trip (NpzRoundTripsEveryFieldBitForBit).
TEST(TrajectoryFileTest, ANonFiniteValueOutsideTheResidualsIsAnErrorNamingTheStep) {
  testing::ScratchDirectory dir;
  const Trajectory good = testing::AwkwardTrajectory();
  ASSERT_FALSE(good.steps.empty());
  const auto expect_refused = [](const std::string& path, const std::string& field) {
    try {
      ReadTrajectory(path);
      ADD_FAILURE() << path << " was read";
    } catch (const std::invalid_argument& e) {
      const std::string message = e.what();
      EXPECT_NE(message.find(path + ": "), std::string::npos) << message;
      EXPECT_NE(message.find(field + ": must be a finite number"), std::string::npos) << message;
    }
  };
  for (const char* extension : {".json", ".npz"}) {
    SCOPED_TRACE(extension);
    Trajectory bad = good;
    bad.steps[0].t = std::numeric_limits<double>::quiet_NaN();
    const std::string time_path = (dir.path() / (std::string("time") + extension)).string();
    WriteTrajectory(bad, time_path);
    expect_refused(time_path, "steps[0] (k = " + std::to_string(bad.steps[0].k) + ").t");
    bad = good;
    bad.steps.back().q[0] = -std::numeric_limits<double>::infinity();
    const std::string q_path = (dir.path() / (std::string("q") + extension)).string();
    WriteTrajectory(bad, q_path);
    expect_refused(q_path, "steps[" + std::to_string(bad.steps.size() - 1) +
                               "] (k = " + std::to_string(bad.steps.back().k) + ").q[0]");
  }
  // The JSON's string where a number belongs, written by hand.
  const std::string hand = (dir.path() / "hand.json").string();
  WriteTrajectory(good, hand);
  std::string text = testing::ReadWholeFile(hand);
  const size_t t = text.find("\"t\":");
  ASSERT_NE(t, std::string::npos);
  const size_t end = text.find_first_of(",}", t);
  text.replace(t, end - t, "\"t\":\"NaN\"");
  testing::WriteWholeFile(hand, text);
  expect_refused(hand, "steps[0] (k = " + std::to_string(good.steps[0].k) + ").t");
}

}  // namespace
}  // namespace quasidyn
