#pragma once
// The scene keys that belong to formulations rather than to the scene format: the names a
// `formulation: {type: ...}` may give, the parameters of the block, and the keys formulations
// add to objects (ecp's impulses, halm-posa's limit_surface). The scene loader reads them
// through this interface, which the formulation registry implements
// (formulations/registry.h); io itself knows no formulation.

#include <Eigen/Core>
#include <string>
#include <vector>

#include "quasidyn/io/yaml_reader.h"
#include "quasidyn/model/formulation_choice.h"
#include "quasidyn/model/scene.h"

namespace quasidyn {

class FormulationKeys {
 public:
  virtual ~FormulationKeys() = default;

  // The names `type` may take.
  virtual std::vector<std::string> FormulationNames() const = 0;
  // Checks the value of parameter `key` of the block of a scene that names `formulation`
  // (fails at `source` through FailAt: a key that formulation does not take, a value out of
  // its range).
  virtual void CheckSceneParameter(const std::string& formulation, const std::string& key,
                                   const Eigen::MatrixXd& value,
                                   const ValueSource& source) const = 0;
  // Checks what a block that names `formulation` must satisfy as a whole (two parameters that
  // exclude each other), failing at the offending value.
  virtual void CheckSceneBlock(const std::string& formulation,
                               const ParameterBlock& parameters) const = 0;
  // The keys an object entry may carry besides the scene format's own.
  virtual std::vector<std::string> ObjectKeys() const = 0;
  // After the scene is built from `root`: every formulation reads its keys into
  // scene->extensions and checks what it needs of a scene that names it.
  virtual void ReadSceneKeys(const YamlValue& root, Scene* scene) const = 0;
};

}  // namespace quasidyn
