#include "quasidyn/simulation/trajectory_file.h"

#include <filesystem>
#include <fstream>
#include <iterator>
#include <stdexcept>
#include <string>
#include <vector>

#include "quasidyn/common/argument_check.h"
#include "quasidyn/common/atomic_file_writer.h"
#include "quasidyn/files/npz_archive.h"
#include "quasidyn/simulation/trajectory_csv.h"
#include "quasidyn/simulation/trajectory_json.h"
#include "quasidyn/simulation/trajectory_npz.h"

namespace quasidyn {
namespace {

namespace fs = std::filesystem;

bool EndsWith(const std::string& text, const std::string& suffix) {
  return text.size() >= suffix.size() &&
         text.compare(text.size() - suffix.size(), suffix.size(), suffix) == 0;
}

enum class Format { kJson, kNpz, kCsv };

Format FormatOf(const std::string& path) {
  if (EndsWith(path, ".npz")) return Format::kNpz;
  if (EndsWith(path, ".csv")) return Format::kCsv;
  return Format::kJson;
}

std::string ReadBytes(const std::string& path) {
  std::ifstream file(path, std::ios::binary);
  if (!file) throw std::runtime_error("cannot open trajectory file '" + path + "'");
  std::string bytes((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
  if (file.bad()) throw std::runtime_error("cannot read trajectory file '" + path + "'");
  return bytes;
}

}  // namespace

const std::vector<std::string>& TrajectoryFileExtensions() {
  static const std::vector<std::string> extensions = {".json", ".npz", ".csv"};
  return extensions;
}

Trajectory KeepEveryKthStep(const Trajectory& trajectory, int every) {
  QUASIDYN_CHECK_ARGUMENT(every >= 1, "KeepEveryKthStep",
                          "every must be >= 1 (got " + std::to_string(every) + ")");
  if (every == 1) return trajectory;
  Trajectory kept = trajectory;
  kept.steps.clear();
  for (size_t i = 0; i < trajectory.steps.size(); ++i) {
    const TrajectoryStep& step = trajectory.steps[i];
    if (step.k % every == 0 || i + 1 == trajectory.steps.size()) kept.steps.push_back(step);
  }
  return kept;
}

std::string SceneFileForTrajectory(const std::string& scene_file,
                                   const std::string& trajectory_path) {
  std::error_code error;
  if (scene_file.empty() || !fs::is_regular_file(scene_file, error)) return scene_file;
  const fs::path scene = fs::absolute(scene_file, error).lexically_normal();
  const fs::path folder = fs::absolute(trajectory_path, error).parent_path().lexically_normal();
  if (error) return scene.string();
  const fs::path relative = scene.lexically_relative(folder);
  return relative.empty() ? scene.string() : relative.generic_string();
}

std::string SceneFileFromTrajectory(const std::string& recorded,
                                    const std::string& trajectory_path) {
  if (recorded.empty() || fs::path(recorded).is_absolute()) return recorded;
  std::error_code error;
  const fs::path beside = (fs::path(trajectory_path).parent_path() / recorded).lexically_normal();
  if (fs::exists(beside, error)) return beside.string();
  return recorded;  // relative to the working folder (files of older versions), or missing
}

void WriteTrajectory(const Trajectory& trajectory, const std::string& path,
                     const TrajectoryWriteOptions& options) {
  QUASIDYN_CHECK_ARGUMENT(!path.empty(), "WriteTrajectory", "the output path is empty");
  QUASIDYN_CHECK_ARGUMENT(options.every >= 1, "WriteTrajectory",
                          "every must be >= 1 (got " + std::to_string(options.every) + ")");
  Trajectory written = KeepEveryKthStep(trajectory, options.every);
  written.scene_file = SceneFileForTrajectory(trajectory.scene_file, path);
  switch (FormatOf(path)) {
    case Format::kJson:
      WriteTrajectoryFile(written, path, options.indent);
      break;
    case Format::kNpz:
      WriteFileAtomically(path, NpzToBytes(TrajectoryToNpz(written)));
      break;
    case Format::kCsv:
      WriteFileAtomically(path, TrajectoryToCsv(written));
      break;
  }
}

TrajectoryFileNotFoundError::TrajectoryFileNotFoundError(const std::string& path)
    : std::runtime_error("cannot open trajectory file '" + path + "': no such file"), path_(path) {}

Trajectory ReadTrajectory(const std::string& path) {
  std::error_code error;
  if (!fs::exists(path, error)) throw TrajectoryFileNotFoundError(path);
  Trajectory trajectory;
  switch (FormatOf(path)) {
    case Format::kJson:
      trajectory = ReadTrajectoryFile(path);
      break;
    case Format::kNpz:
      try {
        trajectory = TrajectoryFromNpz(NpzFromBytes(ReadBytes(path)));
      } catch (const std::invalid_argument& e) {
        throw std::invalid_argument(path + ": " + e.what());
      }
      break;
    case Format::kCsv:
      throw std::invalid_argument(path +
                                  ": a CSV trajectory is written for spreadsheets and plots, not "
                                  "read back: read the run's .json or .npz file");
  }
  trajectory.scene_file = SceneFileFromTrajectory(trajectory.scene_file, path);
  return trajectory;
}

}  // namespace quasidyn
