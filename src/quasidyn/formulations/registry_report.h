#pragma once
// The registered formulations as data and as text, what `quasidyn formulations` prints and
// Python's quasidyn.formulations() returns: per formulation its name, title, docs page,
// capabilities, parameters (key, unit, range, default, description) and scene keys.

#include <nlohmann/json.hpp>
#include <string>

#include "quasidyn/formulations/registry.h"

namespace quasidyn {

// [{name, title, docs, state: "configuration"|"configuration and velocity", command, planar,
//   spatial, robots, external_forces, joint_limits, robot_inertia, differentiable, no_gradient,
//   exact_linearization, smoothed_linearization, parameters: [{key, unit, range, default,
//   description}], scene_keys: [{key, container, description}]}], in registration order.
nlohmann::json DescribeFormulations(const FormulationRegistry& registry);

// A capability table, one row per formulation, then each one's parameters and scene keys.
std::string FormulationsText(const FormulationRegistry& registry);

}  // namespace quasidyn
