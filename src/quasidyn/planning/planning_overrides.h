#pragma once
// A scene's planning block (model/planning_settings.h) with the settings a caller gives by name
// on top, as the command line (`quasidyn plan --goal ... --seed ...`) and Python
// (`quasidyn.plan(scene, goal, seed=...)`) give them (model/settings_schema.h): one place that
// applies and checks them for both faces.

#include "quasidyn/model/planning_settings.h"
#include "quasidyn/model/scene.h"

namespace quasidyn {

// The scene's planning block (defaults when it has none) with `overrides` (by
// PlanningSettingsSchema's names: "goal", "kappa", "plant_check_substeps", ...; a setting of
// an optional sub-block turns it on), checked as a query about to run (first the scene's
// formulation, CheckPlannableFormulation of planning/rrt.h, "formulation.type: ..."; then
// ValidatePlanningSettings of planning/rrt.h): throws std::invalid_argument
// "planning.<field>: <problem>" for the first problem (an unknown metric, a negative seed, a
// goal of the wrong size, an unknown setting, ...).
PlanningSettings ResolvePlanningSettings(const Scene& scene, const SettingOverrides& overrides);

}  // namespace quasidyn
