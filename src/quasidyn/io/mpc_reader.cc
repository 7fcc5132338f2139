#include "quasidyn/io/mpc_reader.h"

#include "quasidyn/io/field_lines.h"
#include "quasidyn/io/settings_reader.h"
#include "quasidyn/model/scene_error.h"

namespace quasidyn {

MpcSettings ReadMpcSettings(const YamlValue& block, const Scene& scene) {
  MpcSettings s;
  FieldLines lines(block);
  ReadSettingsBlock(MpcSettingsSchema(), block, &s, &lines);
  if (const auto problem = CheckMpcSettings(s, scene, /*complete=*/false)) {
    const YamlValue& where = lines.At(problem->field);
    if (where.path() == block.path())
      throw SceneError(where.file(), where.line(), block.path() + "." + problem->field,
                       problem->problem);
    where.Fail(problem->problem);
  }
  return s;
}

}  // namespace quasidyn
