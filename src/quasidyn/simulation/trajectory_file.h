#pragma once
// Trajectory files of every format, chosen by the file name's extension, and what every
// format shares: where the scene file is recorded, and the thinning of `--every K`
// (docs/trajectory-format.md).
//
//   .npz                          NumPy arrays (trajectory_npz.h): binary, exact, compact,
//                                 fast; np.load reads it
//   .csv                          one row per step (trajectory_csv.h), for spreadsheets and
//                                 plots; written only, ReadTrajectory refuses it
//   .json (and any other name)    the JSON of trajectory_json.h (readable, bit for bit); the
//                                 command line accepts only the extensions above
//
// The scene file is recorded relative to the trajectory file's folder (or absolute when no
// relative path exists), so a trajectory finds its scene from any working folder; reading
// resolves it back against the trajectory's folder (files of older versions, whose path was
// relative to the working folder, are still found when that path exists).

#include <stdexcept>
#include <string>
#include <vector>

#include "quasidyn/simulation/trajectory.h"

namespace quasidyn {

// The extensions WriteTrajectory chooses a format by: ".json", ".npz", ".csv".
const std::vector<std::string>& TrajectoryFileExtensions();

struct TrajectoryWriteOptions {
  // Keep every K-th step (K >= 1): steps k with k % K == 0, and always the last step, so the
  // final configuration and the end of the run are kept. 1 keeps every step.
  int every = 1;
  // JSON only: spaces of indentation, or compact when < 0.
  int indent = -1;
};

// The trajectory with only the steps `every` keeps (header unchanged; steps_done stays the
// number of steps simulated). Throws std::invalid_argument for every < 1.
Trajectory KeepEveryKthStep(const Trajectory& trajectory, int every);

// Writes `trajectory` to `path` in the format of its extension, atomically
// (common/atomic_file_writer.h). Throws std::invalid_argument for an empty path or bad options;
// std::runtime_error naming the path when it cannot be written.
void WriteTrajectory(const Trajectory& trajectory, const std::string& path,
                     const TrajectoryWriteOptions& options = {});

// A trajectory file that does not exist (ReadTrajectory). path() is the path looked for.
// Python raises it as quasidyn.TrajectoryFileNotFoundError, also a FileNotFoundError.
class TrajectoryFileNotFoundError : public std::runtime_error {
 public:
  explicit TrajectoryFileNotFoundError(const std::string& path);
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

// Reads a file of any format WriteTrajectory writes (by its extension) but CSV. Throws
// TrajectoryFileNotFoundError (a std::runtime_error) when nothing exists at `path`,
// std::runtime_error naming the path for an unreadable file, std::invalid_argument (prefixed
// with the path) for bad content and for a .csv path.
Trajectory ReadTrajectory(const std::string& path);

// The scene path to write into a trajectory file at `trajectory_path`: relative to its folder
// when `scene_file` names an existing file, else `scene_file` unchanged ("" for scenes built in
// memory, "embedded:..." for the demo's).
std::string SceneFileForTrajectory(const std::string& scene_file,
                                   const std::string& trajectory_path);

// The scene path recorded in a trajectory file read from `trajectory_path`, as a path usable
// from the working folder: joined to the trajectory's folder when that file exists, else as
// recorded (older files: relative to the working folder); "" stays "".
std::string SceneFileFromTrajectory(const std::string& recorded,
                                    const std::string& trajectory_path);

}  // namespace quasidyn
