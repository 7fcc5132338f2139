#include "quasidyn/scenes/scene_loading.h"

#include <cmath>

#include "quasidyn/common/argument_check.h"
#include "quasidyn/common/closest_name.h"
#include "quasidyn/formulations/registry.h"
#include "quasidyn/geometry/scene_shapes.h"
#include "quasidyn/io/scene_document.h"
#include "quasidyn/io/scene_from_memory.h"
#include "quasidyn/scenes/scene_validation.h"

namespace quasidyn {

namespace {

// The scene of `document`, each part checked where a reader of the file meets it: the header's
// formulation block, the models (with the keys the formulations add to objects), the
// formulations' keys, the planning and MPC blocks, and last the collision shapes by the
// geometry (degenerate convex shapes), each refusal at the shape's file and line.
Scene Load(const SceneDocument& document) {
  const FormulationRegistry& registry = FormulationRegistry::Global();
  CheckFormulationBlock(registry, document);
  Scene scene = document.ReadModels(ExtensionObjectKeys(registry));
  ReadSceneKeys(registry, document.root(), &scene);
  document.ReadSettings(&scene);
  CheckCollisionShapes(scene, "LoadScene");
  return scene;
}

}  // namespace

Scene LoadScene(const std::string& path,
                const std::map<std::string, std::string>& package_folders) {
  return Load(SceneDocument::FromFile(path, package_folders));
}

Scene LoadSceneFromString(const std::string& yaml_text, const std::string& name_for_errors,
                          const std::string& base_directory) {
  return Load(SceneDocument::FromText(yaml_text, name_for_errors, base_directory));
}

Scene LoadSceneFromMemory(const std::string& yaml_text, const std::string& name_for_errors,
                          const std::map<std::string, std::string>& files) {
  return Load(SceneDocumentFromMemory(yaml_text, name_for_errors, files));
}

Scene WithFormulation(const Scene& scene, const std::optional<std::string>& name,
                      const ParameterBlock& parameters, const char* where) {
  const FormulationRegistry& registry = FormulationRegistry::Global();
  Scene edited = scene;
  if (name) {
    const std::vector<std::string> names = registry.FormulationNames();
    QUASIDYN_CHECK_ARGUMENT(registry.Find(*name) != nullptr, where,
                            "unknown formulation '" + *name + "'" + DidYouMean(*name, names) +
                                "; registered: " + JoinNames(names));
    edited.formulation.name = *name;
    edited.formulation.source = ValueSource{"", 0, where};
  }
  for (const ParameterValue& value : parameters.values()) {
    const bool remove = value.value.size() == 1 && std::isnan(value.value(0, 0));
    // A removal still names a known key, so that a misspelt one is not dropped silently.
    if (remove)
      registry.CheckParameterKey(value.key, value.source);
    else
      registry.CheckParameter(value.key, value.value, value.source);
    if (remove)
      edited.formulation.parameters.Erase(value.key);
    else
      edited.formulation.parameters.Set(value.key, value.value, value.source);
  }
  CheckSceneBlock(registry, edited.formulation.name, edited.formulation.parameters);
  return edited;
}

}  // namespace quasidyn
