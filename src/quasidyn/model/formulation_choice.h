#pragma once
// Which formulation steps a scene and with which parameters, as a scene file, the command line
// or Python gave them: a registered name (formulations/registry.h) and named values, each with
// the place it came from, so that the formulation that reads a value can say where a bad one
// is. The model layer knows no formulation: the names and the parameters' meaning belong to the
// formulations (formulations/<name>/), which read them through formulations/parameters.h.

#include <Eigen/Core>
#include <initializer_list>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "quasidyn/model/value_source.h"

namespace quasidyn {

struct ParameterValue {
  std::string key;
  Eigen::MatrixXd value;  // a number is 1 × 1, a list n × 1, a list of lists n × m
  ValueSource source;
};

// Named parameter values in the order they were given; a key appears at most once.
class ParameterBlock {
 public:
  ParameterBlock() = default;
  // Numbers given in code (source: the key itself), e.g. {{"kappa", 100.0}}.
  ParameterBlock(std::initializer_list<std::pair<std::string, double>> numbers);

  const ParameterValue* Find(const std::string& key) const;
  // Sets `key`, replacing an earlier value of it.
  void Set(const std::string& key, Eigen::MatrixXd value, ValueSource source);
  void Set(const std::string& key, double value, ValueSource source);
  void Set(const std::string& key, double value);  // source: the key
  void Erase(const std::string& key);
  // `overrides`' values on top of this block's (theirs replace ours).
  ParameterBlock With(const ParameterBlock& overrides) const;

  const std::vector<ParameterValue>& values() const { return values_; }
  bool empty() const { return values_.empty(); }

 private:
  std::vector<ParameterValue> values_;
};

// The scene file's `formulation:` block (docs/scene-format.md): `type` and the parameters.
struct SceneFormulation {
  std::string name = "qp";
  ValueSource source;  // of `type` (the scene's whole-formulation problems are reported there)
  ParameterBlock parameters;
};

// A formulation chosen for a step model (formulations/registry.h, MakeStepModel): unset parts
// are the scene's own.
struct FormulationChoice {
  FormulationChoice() = default;
  FormulationChoice(std::string formulation_name, ParameterBlock formulation_parameters = {},
                    std::optional<double> step = std::nullopt)
      : name(std::move(formulation_name)),
        parameters(std::move(formulation_parameters)),
        time_step(step) {}
  FormulationChoice(const char* formulation_name, ParameterBlock formulation_parameters = {},
                    std::optional<double> step = std::nullopt)
      : FormulationChoice(std::string(formulation_name), std::move(formulation_parameters), step) {}

  std::string name;                 // a registered formulation; empty: the scene's
  ParameterBlock parameters;        // on top of the scene's block (these win)
  std::optional<double> time_step;  // h [s], finite and > 0; unset: the scene's time_step
  // false: `parameters` alone, the scene's block ignored (a choice made from a model's own
  // resolved values, Linearizer(model, ...)).
  bool use_scene_parameters = true;
};

}  // namespace quasidyn
