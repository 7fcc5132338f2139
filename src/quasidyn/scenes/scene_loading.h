#pragma once
// Scene files (docs/scene-format.md), read once and checked once: io reads the document as the
// scene format defines it (io/scene_document.h), and this layer checks it against everything
// registered where a reader of the file meets each part: the `formulation:` block's name and
// parameters against the registry (formulations/registry.h), the keys formulations add to
// objects read by their owners (scene_validation.h), and the collision shapes by the geometry
// (geometry/scene_shapes.h). Every bad input throws SceneError naming the file, the 1-based line
// and the field.

#include <map>
#include <optional>
#include <string>

#include "quasidyn/model/formulation_choice.h"
#include "quasidyn/model/scene.h"

namespace quasidyn {

// Reads the YAML file at `path`; relative model paths resolve against the file's folder.
// `package_folders` (NAME: folder) are searched for package:// names after the scene's own
// `packages:` (the command line's --package; docs/model-files.md, "Packages").
Scene LoadScene(const std::string& path,
                const std::map<std::string, std::string>& package_folders = {});

// Reads a scene from `yaml_text`; `name_for_errors` stands for the file in error messages and
// in Scene::source_file; relative model paths resolve against `base_directory`.
Scene LoadSceneFromString(const std::string& yaml_text, const std::string& name_for_errors,
                          const std::string& base_directory);

// A scene whose YAML and referenced model files are held in memory (io/scene_from_memory.h).
Scene LoadSceneFromMemory(const std::string& yaml_text, const std::string& name_for_errors,
                          const std::map<std::string, std::string>& files);

// `scene` with its formulation block's name replaced by `name` (when given) and `parameters`
// set on top of its own (a value of one NaN removes the key), checked as the loader
// checks a file's block; `where` names the caller in errors.
Scene WithFormulation(const Scene& scene, const std::optional<std::string>& name,
                      const ParameterBlock& parameters, const char* where);

}  // namespace quasidyn
