#pragma once
// Loads a scene file (YAML, format in docs/scene-format.md) into a Scene (model/scene.h).
// Every bad input throws SceneError naming the file, the 1-based line and the field.

#include <string>

#include "quasidyn/model/scene.h"

namespace quasidyn {

// Reads the YAML file at `path`; relative URDF paths resolve against the file's folder.
Scene LoadScene(const std::string& path);

// Reads a scene from `yaml_text`; `name_for_errors` stands for the file in error messages and
// in Scene::source_file; relative URDF paths resolve against `base_directory`.
Scene LoadSceneFromString(const std::string& yaml_text, const std::string& name_for_errors,
                          const std::string& base_directory);

}  // namespace quasidyn
