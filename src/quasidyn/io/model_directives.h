#pragma once
// Reads a Drake model-directive file (`directives:`, the format of drake/multibody/parsing/
// model_directives.h that the reference quasistatic simulator's `models/*.yml` use) into the
// models it adds and where each is welded (docs/qsim-files.md, "Model directives"):
//
//   add_model       {name, file}: file an SDF or URDF, `package://NAME/...` (io/model_uri.h)
//                   or relative to the directive file's folder
//   add_frame       {name, X_PF: {base_frame, translation [m], rotation: !Rpy {deg | rad: [r,
//                   p, y]} or !AngleAxis {angle_deg, axis}}}: base_frame `world`, an added
//                   frame or a model's link (MODEL::LINK, or LINK of model LINK)
//   add_weld        {parent, child: MODEL::LINK (or LINK of model LINK), X_PC (optional, as
//                   X_PF)}: parent as base_frame; the link is the model's root, fixed there:
//                   in the world, or on the link of another model where the chain of frames
//                   reaches one that is not its model's welded root (a gripper on an arm's
//                   last link: the reader of the models checks that both are robots)
// Frames resolve once every directive is read, as Drake resolves them when the plant is
// finalised (a frame may name a link welded further down).
//   add_directives  {file}: the directives of another file, read in place
//
// Anything else (add_model_instance, add_collision_filter_group, a model's default poses,
// `model_namespace`) fails at its line, naming what quasidyn lacks. Every error names the directive
// file and its line.

#include <Eigen/Core>
#include <optional>
#include <string>
#include <vector>

#include "quasidyn/io/package_folders.h"
#include "quasidyn/io/scene_builder.h"
#include "quasidyn/io/yaml_reader.h"

namespace quasidyn {

// A pose as the scene format writes it (docs/scene-format.md, "Poses"): translation [m] and
// roll, pitch, yaw [rad] with R = Rz(yaw) Ry(pitch) Rx(roll), so that a converted scene
// (io/native_scene_writer.h) rebuilds the very same numbers.
struct XyzRpy {
  Eigen::Vector3d xyz = Eigen::Vector3d::Zero();
  Eigen::Vector3d rpy = Eigen::Vector3d::Zero();
};

Eigen::Isometry3d IsometryOf(const XyzRpy& pose);
// The roll, pitch, yaw of `X`'s rotation (pitch in [−π/2, π/2]).
XyzRpy XyzRpyOf(const Eigen::Isometry3d& X);

struct DirectiveModel {
  std::string name;      // the model instance's name
  std::string file;      // the SDF or URDF, resolved
  SourceLocation where;  // the add_model's `file:` (errors inside the model file go there)
  SourceLocation name_where;
  // Set when an add_weld fixes the model's link `weld_link`: that link's pose in the world, or
  // in the frame of link `weld_parent_link` of model `weld_parent_model` when that is set.
  std::optional<XyzRpy> weld;
  std::string weld_link;
  SourceLocation weld_where;  // the add_weld's `child:`
  std::string weld_parent_model, weld_parent_link;
  SourceLocation weld_parent_where;  // the frame that names that link
};

// A frame placed on a welded model's root link, resolved through the weld: the reader of the
// models checks that `link` is the root of `model`.
struct RootLinkUse {
  std::string model, link;
  SourceLocation where;
};

struct ModelDirectives {
  std::vector<DirectiveModel> models;  // in the order the directives add them
  std::vector<RootLinkUse> root_links;
};

// Reads the directives of `root` (a map with `directives:`); relative file names resolve
// against `base_directory` (the file's folder), those of nested add_directives files (read in
// place) against their own folder.
ModelDirectives ReadModelDirectives(const YamlValue& root, const std::string& base_directory,
                                    const PackageSearch& packages);

// Reads the directive file at `path` (`where`: the key that names it, for a missing file).
ModelDirectives ReadModelDirectivesFile(const std::string& path, const SourceLocation& where,
                                        const PackageSearch& packages);

// The text of the YAML file at `path`, with the scene's size limit; a missing file is a
// SceneFileNotFoundError at `where`.
std::string ReadYamlFileText(const std::string& path, const SourceLocation& where);

}  // namespace quasidyn
