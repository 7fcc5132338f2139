#pragma once
// Loads a scene file for a subcommand and writes what the loader ignored (Scene::warnings: an
// SDF <plugin>, an MJCF <actuator>, ...) to stderr at the warning level, one line each:
//   quasidyn: <command>: warning: <the element, the file and what is ignored>

#include <string>

#include "quasidyn/model/scene.h"

namespace quasidyn::cli {

Scene LoadSceneFile(const std::string& path, const char* command);

}  // namespace quasidyn::cli
