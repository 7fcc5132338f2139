#include "quasidyn/io/planning_reader.h"

#include <string>

#include "quasidyn/io/field_lines.h"
#include "quasidyn/io/settings_reader.h"
#include "quasidyn/model/scene_error.h"

namespace quasidyn {

PlanningSettings ReadPlanningSettings(const YamlValue& block, const Scene& scene) {
  PlanningSettings settings;
  FieldLines lines(block);
  ReadSettingsBlock(PlanningSettingsSchema(), block, &settings, &lines);
  if (const auto problem = CheckPlanningSettings(settings, scene, /*complete=*/false)) {
    const YamlValue& where = lines.At(problem->field);
    // Fields without a value of their own (objects, robots) are named inside the block.
    if (where.path() == block.path() && problem->field != "")
      throw SceneError(where.file(), where.line(), block.path() + "." + problem->field,
                       problem->problem);
    where.Fail(problem->problem);
  }
  return settings;
}

}  // namespace quasidyn
