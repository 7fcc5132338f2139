#pragma once
// A formulation's parameters: what each one is (ParameterSpec: key, unit, range, default), and
// the checked reading of the values a scene, the command line or Python gave
// (FormulationParameters), each problem reported where the value came from, e.g.
//   scene.yaml:9: formulation.kappa: must be finite and > 0 [1/(N·m)] (got -1)
//   --kappa: must be finite and > 0 [1/(N·m)] (got -1)

#include <Eigen/Core>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "quasidyn/model/formulation_choice.h"
#include "quasidyn/model/physical_ranges.h"

namespace quasidyn {

struct ParameterSpec {
  std::string key;           // its key in the scene's formulation block, e.g. "kappa"
  std::string unit;          // e.g. "1/(N·m)", "-" for a pure number
  std::string range;         // e.g. "> 0", ">= 0", "symmetric positive definite"
  std::string default_text;  // what an absent value means, e.g. "1", "DefaultKappa(scene)"
  std::string description;   // one sentence, citing its source
  bool number = false;       // a single number (NumberParameter), not a list or a matrix
  // Empty when `value` is acceptable, else what is wrong with it (without the key).
  std::function<std::string(const Eigen::MatrixXd& value)> problem;
};

// A number [unit] that is finite and > lower (strictly) or >= lower; problems name it `label`
// (e.g. "feedback scaling c"; default: the key).
ParameterSpec NumberParameter(std::string key, std::string unit, double lower, bool strictly,
                              std::string default_text, std::string description,
                              std::string label = "");

// A number within a positive physical input's usable range (model/physical_ranges.h), its unit
// the range's: "kappa must lie within [1e-06, 1e+12] 1/(N·m), got 1e-320".
ParameterSpec NumberParameter(std::string key, const PhysicalRange& range, std::string default_text,
                              std::string description, std::string label = "");

// The values of `block` that the formulation with parameters `specs` reads. Keys it does not
// declare are left alone: a scene's block may carry the parameters of the formulation it
// names while another formulation steps it (the command line's --formulation).
class FormulationParameters {
 public:
  FormulationParameters(std::string formulation, const std::vector<ParameterSpec>& specs,
                        ParameterBlock block);

  const std::string& formulation() const { return formulation_; }
  const ParameterBlock& block() const { return block_; }

  // The value of `key` (a declared parameter), checked by its spec; empty when not given.
  std::optional<Eigen::MatrixXd> Value(const std::string& key) const;
  // A number parameter (1 × 1), checked; empty when not given.
  std::optional<double> Number(const std::string& key) const;
  double Number(const std::string& key, double fallback) const;
  // Where `key`'s value came from (its ValueSource); the formulation's own when not given.
  const ValueSource& Source(const std::string& key) const;
  // Fails at `key`'s value (FailAt) with `problem`.
  [[noreturn]] void Fail(const std::string& key, const std::string& problem) const;

 private:
  const ParameterSpec& Spec(const std::string& key) const;

  std::string formulation_;
  std::vector<ParameterSpec> specs_;
  ParameterBlock block_;
  ValueSource own_source_;
};

// Checks `value` against `spec` and fails at `source` (FailAt) with "<problem> (got ...)".
void CheckParameter(const ParameterSpec& spec, const Eigen::MatrixXd& value,
                    const ValueSource& source);

// "kappa = 100" style text of a value, for tables and messages.
std::string ParameterText(const Eigen::MatrixXd& value);

}  // namespace quasidyn
