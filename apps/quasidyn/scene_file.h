#pragma once
// Loads a scene file for a subcommand and writes what the loader ignored (Scene::warnings: an
// SDF <plugin>, an MJCF <actuator>, a URDF <material>, ...) to stderr at the warning level, one
// line each:
//   quasidyn: <command>: warning: <the element, the file and what is ignored>
// The command line's `--package NAME=DIR` (repeatable, before or after the subcommand) gives
// the folder of package NAME for the package:// file names of the scene's model files, searched
// after the scene's own `packages:` (docs/model-files.md, "Packages").

#include <CLI/CLI.hpp>
#include <map>
#include <string>

#include "quasidyn/model/scene.h"

namespace quasidyn::cli {

Scene LoadSceneFile(const std::string& path, const char* command);

// Adds `--package NAME=DIR` to `app` (its subcommands reach it by fallthrough) and forgets the
// folders of an earlier command line. DIR must be a folder (std::invalid_argument otherwise).
void AddPackageOption(CLI::App& app);

// The folders given by --package on this command line (NAME: DIR).
const std::map<std::string, std::string>& PackageFolders();

}  // namespace quasidyn::cli
