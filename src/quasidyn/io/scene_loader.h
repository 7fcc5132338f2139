#pragma once
// Reads a scene file (YAML, format in docs/scene-format.md) into a Scene (model/scene.h), with
// the formulations' keys (the `formulation:` block, the keys they add to objects) read through
// `keys` (formulation_keys.h; the registry's: formulations/scene_loading.h's LoadScene is what
// programs call). Every bad input throws SceneError naming the file, the 1-based line and the
// field. A file of the reference quasistatic simulator (a system file, `model_directive:`, or a
// Drake model-directive file, `directives:`) is read as io/qsim_system_file.h says
// (docs/qsim-files.md).

#include <map>
#include <string>

#include "quasidyn/io/formulation_keys.h"
#include "quasidyn/model/scene.h"

namespace quasidyn {

// Reads the YAML file at `path`; relative URDF paths resolve against the file's folder.
// `package_folders` (NAME: folder) are the command line's --package folders of package:// names,
// searched after the scene's own `packages:` (io/package_folders.h).
Scene ReadSceneFile(const std::string& path, const FormulationKeys& keys,
                    const std::map<std::string, std::string>& package_folders = {});

// Reads a scene from `yaml_text`; `name_for_errors` stands for the file in error messages and
// in Scene::source_file; relative URDF paths resolve against `base_directory`.
Scene ReadSceneText(const std::string& yaml_text, const std::string& name_for_errors,
                    const std::string& base_directory, const FormulationKeys& keys,
                    const std::map<std::string, std::string>& package_folders = {});

}  // namespace quasidyn
