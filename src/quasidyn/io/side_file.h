#pragma once
// A side file (docs/qsim-files.md, "Side files"): a small YAML file next to a scene file that
// the user keeps unchanged (a system file of the reference quasistatic simulator, a Drake
// model-directive file, or a scene file), which adds what that file cannot say:
//
//   base: package://quasistatic_simulator/q_sys/planar_hand_ball.yml  # or a relative path
//   initial:                  # q0 per model (the others keep the base's), or a list: all of q0
//     sphere: [0.0, 0.5, 0.0]
//   planning: {goal: [...], ...}   # the scene format's `planning:` block, in place of the base's
//   mpc: {...}                     # the scene format's `mpc:` block, in place of the base's
//   conventions: {joint_limits: enforced}  # the keys given replace the base's conventions
//
// SceneDocument (io/scene_document.h) reads it as one more kind of scene file: the base read as
// its kind is, the start given to the builder (SceneBuilder::SetStarts), the blocks read
// against the built scene. `base` resolves against the side file's folder, or as a
// package://NAME/... or file:// name (io/model_uri.h: the base's `--package` folders too).

#include <map>
#include <optional>
#include <string>

#include "quasidyn/io/package_folders.h"
#include "quasidyn/io/scene_builder.h"
#include "quasidyn/io/yaml_reader.h"
#include "quasidyn/model/simulator_conventions.h"

namespace quasidyn {

// True for a side file: a map with the top-level key `base`.
bool IsSideFile(const YamlValue& root);

// What a side file gives besides its blocks (read against the scene: SceneDocument).
struct SideFile {
  std::string base_path;  // the base scene file, resolved
  SourceLocation base_where;
  StartOverrides starts;  // `initial:`
  // `conventions:` (model/simulator_conventions.h), as written: the keys it gives replace the
  // base's (a qsim file's parity mode planned with the robots' joint limits: joint_limits:
  // enforced); absent, the base's conventions.
  std::optional<YamlValue> conventions;
};

// Reads `root` (IsSideFile): checks its keys (base, initial, planning, mpc, conventions), resolves
// `base` against `base_directory` and `packages` and checks that it is a file, and reads
// `initial`: a map of model names to their q0, or a list of n_q numbers. Throws SceneError at the
// line of the first problem.
SideFile ReadSideFile(const YamlValue& root, const std::string& base_directory,
                      const PackageSearch& packages);

// The base's conventions with the side file's `conventions:` keys in place of theirs, each key
// and value checked (SceneError at its line; SceneDocument::ReadModels calls it). A
// friction_ray_basis of quasidyn on a 3D base with 2 rays (qsim's ±x̂ × n pair, which only its
// basis has) is a SceneError at the block's line.
SimulatorConventions SideConventions(const SideFile& side, const SimulatorConventions& base,
                                     int friction_rays, bool planar);

// The base file of the file at `path` when it is a side file (resolved as ReadSideFile does,
// `package_folders` the command line's --package), else nullopt. For `quasidyn convert`, which
// writes the base with the side file's start and blocks.
std::optional<std::string> SideFileBase(const std::string& path,
                                        const std::map<std::string, std::string>& package_folders);

}  // namespace quasidyn
