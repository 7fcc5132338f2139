#pragma once
// Reads a scene file's optional `planning:` block (docs/scene-format.md, "Planning") into a
// PlanningSettings (model/planning_settings.h) and checks it against the loaded scene with
// CheckPlanningSettings, so that every problem is a SceneError at the line of the field, e.g.
//   scene.yaml:48: planning.goal: expected n_q,u = 3 numbers (the objects' q), got 2
// The block may leave the goal or the bounds out (the command line may give them); what it
// gives must be valid.

#include "quasidyn/io/yaml_reader.h"
#include "quasidyn/model/planning_settings.h"
#include "quasidyn/model/scene.h"

namespace quasidyn {

// Reads `block` (the value of the key `planning`) for the loaded `scene`.
PlanningSettings ReadPlanningSettings(const YamlValue& block, const Scene& scene);

}  // namespace quasidyn
