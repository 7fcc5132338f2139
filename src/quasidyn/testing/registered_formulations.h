#pragma once
// The registered formulations a test runs a property on, chosen by what they can step and by
// their declared capabilities (stepping/formulation_info.h), never by a list of names: a
// formulation registered later is held to the same test. Header only; include it where the
// formulations layer is linked.

#include <functional>
#include <string>
#include <vector>

#include "quasidyn/formulations/registry.h"

namespace quasidyn::testing {

// The registered formulations, in registration order, that can step `scene` (WhyCannotStep
// empty) and whose capabilities `keep` accepts (every one when `keep` is empty).
inline std::vector<std::string> FormulationsThatStep(
    const ScenePtr& scene, const std::function<bool(const FormulationCapabilities&)>& keep = {}) {
  std::vector<std::string> names;
  for (const FormulationPlugin* plugin : FormulationRegistry::Global().Plugins()) {
    if (keep && !keep(plugin->info.capabilities)) continue;
    if (WhyCannotStep(scene, *plugin).empty()) names.push_back(plugin->info.name);
  }
  return names;
}

// A gradient (CalcDiff gives A and B) of a step whose state is the configuration alone: what the
// finite-difference checks of testing/gradient_checks.h take.
inline bool DifferentiableInConfiguration(const FormulationCapabilities& can) {
  return can.differentiable() && can.state == StateKind::kConfiguration;
}

// The same, commanded by the robots' positions: the formulations whose command a test's
// commanded positions are.
inline bool DifferentiableInConfigurationByPositions(const FormulationCapabilities& can) {
  return DifferentiableInConfiguration(can) && can.command == CommandKind::kRobotPositions;
}

}  // namespace quasidyn::testing
