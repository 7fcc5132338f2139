#pragma once
// Where `package://NAME/...` points (ROS's package URIs in URDF and SDF mesh file names,
// io/model_uri.h), found without a ROS installation, in this order (docs/model-files.md,
// "Packages"):
//
//   1. the scene file's `packages:` map (NAME: folder, relative to the scene file);
//   2. the command line's `--package NAME=DIR` (repeatable), or a C++/Python caller's map;
//   3. the ROS_PACKAGE_PATH environment variable (folders separated by ':'): each folder is a
//      package itself or holds packages up to kPackageSearchDepth levels below it (a folder
//      whose package.xml's <name> is NAME, or, failing that, a folder named NAME);
//   4. walking up from the model file's folder: the nearest folder whose package.xml names
//      NAME; then, as the last resort, the nearest folder at or above the model's folder that
//      is named NAME or holds a folder named NAME.
//
// When nothing is found, the error names every place searched.

#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace quasidyn {

// A package's folder as the scene or the command line gives it.
struct PackageFolder {
  std::string folder;  // absolute, or relative to the working directory
  std::string origin;  // where it was given, for messages: "scene.yaml:4: packages.arm"
};

// The package maps given to a model file's reader (ModelFileOptions::packages).
struct PackageSearch {
  std::map<std::string, PackageFolder> scene;         // the scene file's `packages:`
  std::map<std::string, PackageFolder> command_line;  // `--package NAME=DIR`
};

// How many folder levels below a ROS_PACKAGE_PATH entry packages are looked for (a catkin or
// colcon workspace's src/ holds them one or two levels down).
inline constexpr int kPackageSearchDepth = 3;

// The <name> of the package.xml in `folder` (trimmed), or nullopt when there is none or it
// has no <name>.
std::optional<std::string> PackageXmlName(const std::string& folder);

// The folder of package `name`, or nullopt; *searched (when given) receives one line per
// place looked at, in order, for the error of an unresolved package.
std::optional<std::string> FindPackageFolder(const std::string& name,
                                             const std::string& model_directory,
                                             const PackageSearch& search,
                                             std::vector<std::string>* searched);

// "NAME=DIR" of the command line's --package split at its first '='; throws
// std::invalid_argument naming the text when NAME or DIR is empty.
std::pair<std::string, std::string> ParsePackageArgument(const std::string& text);

}  // namespace quasidyn
