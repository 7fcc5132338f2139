#pragma once
// Loads a scene whose YAML and referenced files (URDFs) are held in memory, e.g. built into a
// program (`quasidyn demo`), so no scene file has to exist on disk.

#include <map>
#include <string>

#include "quasidyn/io/scene_document.h"
#include "quasidyn/model/scene.h"

namespace quasidyn {

// Reads the scene `yaml_text` (format of docs/scene-format.md); every relative `urdf:` path in
// it must be a key of `files` (path relative to the scene, as written in the YAML, e.g.
// "models/arm7.urdf"), whose value is that file's text. `name_for_errors` stands for the scene
// file in error messages and becomes Scene::source_file.
//
// The URDF reader (io/urdf_loader.h) reads from a path, so the files are staged in a fresh
// private folder under std::filesystem::temp_directory_path(), which is removed before this
// returns (or throws). Errors inside a URDF therefore name "<that folder>/<key>".
//
// Throws std::invalid_argument for a key that is empty, absolute or leaves the folder ("..");
// std::runtime_error when the folder cannot be written; SceneError as SceneDocument::FromText.
// The document keeps the folder until it is destroyed (SceneDocument::KeepAlive): its parts
// read the files (scenes/scene_loading.h's LoadSceneFromMemory reads them all).
SceneDocument SceneDocumentFromMemory(const std::string& yaml_text,
                                      const std::string& name_for_errors,
                                      const std::map<std::string, std::string>& files);

// The scene of SceneDocumentFromMemory in the scene format alone (as ReadSceneText).
Scene ReadSceneFromMemory(const std::string& yaml_text, const std::string& name_for_errors,
                          const std::map<std::string, std::string>& files);

}  // namespace quasidyn
