#pragma once
// A scene file (YAML, format in docs/scene-format.md) read as the scene format defines it, part
// by part in the order its reader meets them, so that the layer that knows the formulations
// (scenes/scene_loading.h, LoadScene: what programs call) checks what the format leaves to
// them where that part is read, and a file's first defect is the error, wherever it is:
//
//   SceneDocument document = SceneDocument::FromFile(path);
//       the YAML, the top-level keys, name ... friction_combination, and the `formulation:`
//       block as written (formulation(): type and parameters, each value with its file:line)
//   Scene scene = document.ReadModels(extension_object_keys);
//       packages, environment, objects, robots, collision_filter: the Scene built and checked
//   ... the keys objects carry beyond the format, read from document.root() ...
//   document.ReadSettings(&scene);
//       the planning: and mpc: blocks
//
// io knows no formulation: nothing here checks the formulation block's type or parameters
// against a formulation, and the keys an object may carry beyond the format's own (ecp's
// `impulses`, ...) are the caller's to name. Every bad input throws SceneError naming the file,
// the 1-based line and the field. A file of the reference quasistatic simulator (a system file,
// `model_directive:`, or a Drake model-directive file, `directives:`) is read whole by FromFile
// and FromText as io/qsim_system_file.h says (docs/qsim-files.md): formulation qp with the
// objects' mass term as its parameters, no keys beyond the format's. A side file (`base:`,
// io/side_file.h) is its base file's document with the side file's start and its `planning:`
// and `mpc:` blocks in place of the base's; the scene's source_file is the side file.

#include <exception>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "quasidyn/io/package_folders.h"
#include "quasidyn/io/yaml_reader.h"
#include "quasidyn/model/formulation_choice.h"
#include "quasidyn/model/scene.h"

namespace quasidyn {

struct QsimScene;
struct SideFile;

class SceneDocument {
 public:
  // Reads the YAML file at `path`; relative model paths resolve against the file's folder.
  // `package_folders` (NAME: folder) are the command line's --package folders of package://
  // names, searched after the scene's own `packages:` (io/package_folders.h).
  static SceneDocument FromFile(const std::string& path,
                                const std::map<std::string, std::string>& package_folders = {});
  // Reads a scene from `yaml_text`; `name_for_errors` stands for the file in error messages and
  // in Scene::source_file; relative model paths resolve against `base_directory`.
  static SceneDocument FromText(const std::string& yaml_text, const std::string& name_for_errors,
                                const std::string& base_directory,
                                const std::map<std::string, std::string>& package_folders = {});

  // The `formulation:` block as written: `type` (at formulation.type) and the parameters in file
  // order, each a number (1 × 1), a list (n × 1) or a list of equal lists (n × m) with its
  // file:line; unchecked. Without a block, the scene's default (qp, no parameters); for a
  // reference simulator's file, qp with its mass term (at the key that gives it). When a
  // parameter cannot be read (not a number, list or list of lists), the parameters before it.
  const SceneFormulation& formulation() const { return header_.formulation; }
  // Throws the SceneError of the block's first parameter that cannot be read, if any: a reader
  // that checks the type and the parameters before it calls this after those checks, so that the
  // first defect of the block is the error, as the file's order has it (ReadModels calls it
  // first).
  void ThrowUnreadFormulationValue() const;
  // True when the file writes a `formulation:` block (its type is then a name to check).
  bool has_formulation_block() const { return has_formulation_block_; }
  // The document the keys beyond the scene format are read from (ecp's objects[].impulses, ...):
  // the file's root map; an empty map for a reference simulator's file, which has none.
  const YamlValue& root() const { return root_; }

  // The scene's models (packages, environment, objects, robots, collision_filter), assembled
  // and checked (io/scene_builder.h), with the header and formulation() above. An object entry
  // may carry, besides the format's keys, those of `extension_object_keys` (read by no one
  // here); any other key fails at its line with the closest allowed one.
  Scene ReadModels(const std::vector<std::string>& extension_object_keys = {}) const;
  // The `planning:` and `mpc:` blocks into `scene` (ReadModels' scene).
  void ReadSettings(Scene* scene) const;

  // Keeps `resource` alive as long as this document: the private folder of a scene whose files
  // are held in memory (io/scene_from_memory.h), read from until ReadModels returns.
  void KeepAlive(std::shared_ptr<const void> resource) { kept_.push_back(std::move(resource)); }

 private:
  explicit SceneDocument(YamlValue root) : root_(std::move(root)) {}

  YamlValue root_;
  Scene header_;  // name ... friction_combination, formulation; source_file
  bool has_formulation_block_ = false;
  std::exception_ptr unread_formulation_value_;  // ThrowUnreadFormulationValue's error, or null
  std::string base_directory_;
  PackageSearch packages_;                 // the command line's (--package)
  std::shared_ptr<const QsimScene> qsim_;  // a reference simulator's file, read whole; or null
  // A side file (io/side_file.h): what it gives, and its root (its blocks); the members above
  // are its base file's. Null for other files.
  std::shared_ptr<const SideFile> side_;
  std::optional<YamlValue> side_root_;
  std::vector<std::shared_ptr<const void>> kept_;
};

// The scene of a file in the scene format alone: SceneDocument's parts in order, no object key
// beyond the format's, the formulation block unchecked, no shape checked by the geometry. For
// readers that need no formulation (io's tests); programs call scenes/scene_loading.h.
Scene ReadSceneFile(const std::string& path,
                    const std::map<std::string, std::string>& package_folders = {});
Scene ReadSceneText(const std::string& yaml_text, const std::string& name_for_errors,
                    const std::string& base_directory,
                    const std::map<std::string, std::string>& package_folders = {});

}  // namespace quasidyn
