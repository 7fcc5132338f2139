#pragma once
// The one check of the files a command will write, run before any work: every output path
// is non-empty, it is not a directory, no part of its folder is a file, it is none of the run's
// input files (the scene, the URDFs the scene reads, a trajectory), and no two outputs of the run
// are the same file. "The same file" is decided on the file system (std::filesystem::
// equivalent when both exist: links and "./" spellings count), else by comparing
// std::filesystem::weakly_canonical paths. An output whose option writes one format (or a few,
// chosen by the extension) must end in one of its extensions (an existing special file such as
// /dev/null excepted): `--out run.txt` is refused, not written as JSON. The writing itself is
// atomic (src/quasidyn/common/atomic_file_writer.h). A failed check throws std::invalid_argument
// naming the option(s) and the path(s), e.g.
//   "--out 'scene.yaml' is the same file as SCENE 'scene.yaml': an output may not overwrite
//    an input of the run"
// which main.cc turns into a message on stderr and exit code 2.

#include <string>
#include <vector>

#include "quasidyn/model/scene.h"

namespace quasidyn::cli {

// A path given to the command and what names it in messages ("--out", "SCENE",
// "the URDF of robot 'arm'"), and for an output the extensions its option writes (".json",
// ".npz", ".csv"; empty: any name).
struct NamedPath {
  std::string name;
  std::string path;
  std::vector<std::string> extensions = {};
};

// The extensions of the outputs: a trajectory (simulation/trajectory_file.h: .json, .npz, .csv),
// an HTML page, a CSV table, an SVG plot, a plan file (JSON).
const std::vector<std::string>& TrajectoryExtensions();
const std::vector<std::string>& HtmlExtensions();
const std::vector<std::string>& CsvExtensions();
const std::vector<std::string>& SvgExtensions();
const std::vector<std::string>& JsonExtensions();

// The files a scene was read from: its scene file (named `scene_name`) and the URDF of every
// model instance read from one. Empty paths (scenes built in memory) are left out.
std::vector<NamedPath> SceneInputs(const Scene& scene, const std::string& scene_name);

// Throws std::invalid_argument as described above (e.g. "--out 'run.txt': unknown extension
// '.txt'; --out writes .json, .npz or .csv"); once every check passed, creates the
// outputs' folders that do not exist yet (`--out results/run1/traj.json`).
void CheckOutputPaths(const std::vector<NamedPath>& inputs, const std::vector<NamedPath>& outputs);

// For an output folder (`demo --out DIR`): throws std::invalid_argument("<name>: the output
// folder path is empty") for an empty path.
void CheckOutputFolder(const NamedPath& folder);

}  // namespace quasidyn::cli
