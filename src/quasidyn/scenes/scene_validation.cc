#include "quasidyn/scenes/scene_validation.h"

#include "quasidyn/common/closest_name.h"
#include "quasidyn/model/scene_error.h"

namespace quasidyn {

void CheckFormulationBlock(const FormulationRegistry& registry, const SceneDocument& document) {
  const SceneFormulation& formulation = document.formulation();
  const bool written = document.has_formulation_block();
  const std::string& name = formulation.name;
  if (written) {
    const std::vector<std::string> names = registry.FormulationNames();
    if (registry.Find(name) == nullptr) {
      const ValueSource& type = formulation.source;
      throw SceneError(type.file, type.line, type.field,
                       "unknown formulation '" + name + "'" + DidYouMean(name, names) + " (" +
                           JoinNames(names) + ")");
    }
  }
  for (const ParameterValue& parameter : formulation.parameters.values())
    CheckSceneParameter(registry, name, parameter.key, parameter.value, parameter.source);
  document.ThrowUnreadFormulationValue();
  if (written) CheckSceneBlock(registry, name, formulation.parameters);
}

void CheckSceneParameter(const FormulationRegistry& registry, const std::string& formulation,
                         const std::string& key, const Eigen::MatrixXd& value,
                         const ValueSource& source) {
  const FormulationPlugin& plugin = registry.Get(formulation);
  std::vector<std::string> keys;
  for (const ParameterSpec& spec : plugin.parameters) {
    if (spec.key == key) return CheckParameter(spec, value, source);
    keys.push_back(spec.key);
  }
  std::vector<std::string> owners, all_keys;
  for (const FormulationPlugin* other : registry.Plugins()) {
    for (const ParameterSpec& spec : other->parameters) {
      if (spec.key == key) owners.push_back(other->info.name);
      all_keys.push_back(spec.key);
    }
  }
  const std::string own = keys.empty() ? formulation + " takes no parameters"
                                       : formulation + "'s parameters: " + JoinNames(keys);
  if (owners.empty())
    FailAt(source, "unknown formulation parameter '" + key + "'" + DidYouMean(key, all_keys) +
                       " (" + own + ")");
  FailAt(source, formulation + " takes no parameter '" + key + "': it is a parameter of " +
                     JoinNames(owners) + " (" + own + ")");
}

void CheckSceneBlock(const FormulationRegistry& registry, const std::string& formulation,
                     const ParameterBlock& parameters) {
  const FormulationPlugin& plugin = registry.Get(formulation);
  if (plugin.check_parameters) plugin.check_parameters(parameters);
}

std::vector<std::string> ExtensionObjectKeys(const FormulationRegistry& registry) {
  std::vector<std::string> keys;
  for (const FormulationPlugin* plugin : registry.Plugins())
    for (const SceneKeySpec& key : plugin->scene_keys)
      if (key.container == "objects") keys.push_back(key.key);
  return keys;
}

void ReadSceneKeys(const FormulationRegistry& registry, const YamlValue& root, Scene* scene) {
  for (const FormulationPlugin* plugin : registry.Plugins())
    if (plugin->read_scene_keys) plugin->read_scene_keys(root, scene);
}

}  // namespace quasidyn
