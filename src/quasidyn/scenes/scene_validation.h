#pragma once
// What the scene format leaves to the formulations (docs/scene-format.md), checked against a
// registry (formulations/registry.h): the `formulation:` block's type and parameters, and the
// keys formulations add to objects (ecp's `impulses`, halm-posa's `limit_surface`) with their
// readers' checks. Every failure is a SceneError at the value's file:line (or, for a value a
// program gave, std::invalid_argument naming it: model/value_source.h, FailAt).
// scene_loading.h calls these where a file's reader meets each part (io/scene_document.h).

#include <Eigen/Core>
#include <string>
#include <vector>

#include "quasidyn/formulations/registry.h"
#include "quasidyn/io/scene_document.h"
#include "quasidyn/io/yaml_reader.h"
#include "quasidyn/model/formulation_choice.h"
#include "quasidyn/model/scene.h"

namespace quasidyn {

// A scene's formulation block as io read it (io/scene_document.h): when the file writes one
// (has_formulation_block), its type must be a registered name (at formulation.type, with the
// closest one); each parameter must be one of that formulation's, in its range
// (CheckSceneParameter), in file order up to a value io could not read (whose error comes then);
// a written block must satisfy the formulation's check as a whole (CheckSceneBlock).
void CheckFormulationBlock(const FormulationRegistry& registry, const SceneDocument& document);

// Checks the value of parameter `key` of the block of a scene that names `formulation` (fails at
// `source`: a key that formulation does not take, naming the formulations that do, or the
// closest key; a value out of its range).
void CheckSceneParameter(const FormulationRegistry& registry, const std::string& formulation,
                         const std::string& key, const Eigen::MatrixXd& value,
                         const ValueSource& source);

// What a block that names `formulation` must satisfy as a whole (FormulationPlugin::
// check_parameters: two parameters that exclude each other, a gain matrix's size), failing at
// the offending value.
void CheckSceneBlock(const FormulationRegistry& registry, const std::string& formulation,
                     const ParameterBlock& parameters);

// The keys an object entry may carry besides the scene format's own: every registered
// formulation's scene keys whose container is "objects", in registration order.
std::vector<std::string> ExtensionObjectKeys(const FormulationRegistry& registry);

// After the scene is built from `root`: every formulation reads its keys into
// scene->extensions and checks what it needs of a scene that names it
// (FormulationPlugin::read_scene_keys).
void ReadSceneKeys(const FormulationRegistry& registry, const YamlValue& root, Scene* scene);

}  // namespace quasidyn
