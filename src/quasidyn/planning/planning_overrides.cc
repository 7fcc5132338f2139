#include "quasidyn/planning/planning_overrides.h"

#include "quasidyn/formulations/registry.h"
#include "quasidyn/planning/rrt.h"

namespace quasidyn {

PlanningSettings ResolvePlanningSettings(const Scene& scene, const SettingOverrides& overrides) {
  // Before the block's own fields.
  CheckPlannableFormulation(ChosenFormulation(scene, FormulationChoice()).info);
  PlanningSettings s = scene.planning.value_or(PlanningSettings{});
  ApplySettingOverrides(PlanningSettingsSchema(), overrides, &s);
  ValidatePlanningSettings(s, scene);
  return s;
}

}  // namespace quasidyn
