#pragma once
// A settings block of a scene file (planning:, mpc:) read by its schema (model/settings_schema.h):
// the keys allowed at every level come from the declared paths, each value is read as its kind
// and checked against its declared range where it stands, so a problem is a SceneError
// `file:line: <block>.<path>: <problem>`:
//   scene.yaml:21: planning.metric.kappa: must be > 0 [1/(N·m)] (got -1)
// An optional sub-block (goal_connection:) is turned on by its key, with its defaults.

#include <functional>
#include <string>
#include <vector>

#include "quasidyn/io/field_lines.h"
#include "quasidyn/io/yaml_reader.h"
#include "quasidyn/model/settings_schema.h"

namespace quasidyn {

// The schema-free part: for every spec given in `block`, `set(i, value)` with the value read as
// specs[i]'s kind and checked; `enable(section)` for every optional sub-block present. Every
// value read goes into *lines by its path.
void ReadSettingValues(const std::vector<SettingSpec>& specs,
                       const std::vector<SettingSectionSpec>& sections, const YamlValue& block,
                       const std::function<void(const std::string& section)>& enable,
                       const std::function<void(size_t index, const SettingValue& value)>& set,
                       FieldLines* lines);

// Reads what `block` gives of `schema`'s settings into *out; the rest keep *out's values.
template <typename T>
void ReadSettingsBlock(const SettingsSchema<T>& schema, const YamlValue& block, T* out,
                       FieldLines* lines) {
  const auto& settings = schema.settings();
  ReadSettingValues(
      schema.specs(), schema.sections(), block,
      [&](const std::string& section) { schema.EnableSection(section, out); },
      [&](size_t i, const SettingValue& value) { settings[i].set(value, out); }, lines);
}

}  // namespace quasidyn
