#pragma once
// A settings block written as JSON by its schema (model/settings_schema.h), nested by the
// declared paths, as plan files record the planning settings they were made with
// (docs/plan-format.md). The scene file's reader reads it back (io/settings_reader.h: JSON is
// YAML): ±∞, which JSON lacks, is written "Infinity" / "-Infinity"; a list of numbers that is
// empty (not given) and an optional sub-block that is off are left out; a kNames value that is
// one of its stand-alone names is written as that name, else as a list.

#include <nlohmann/json.hpp>
#include <vector>

#include "quasidyn/model/settings_schema.h"

namespace quasidyn {

// The schema-free part: values[i] of specs[i], left out where active[i] is false.
nlohmann::json SettingValuesToJson(const std::vector<SettingSpec>& specs,
                                   const std::vector<SettingValue>& values,
                                   const std::vector<bool>& active,
                                   const std::vector<std::string>& sections_on);

template <typename T>
nlohmann::json SettingsBlockToJson(const SettingsSchema<T>& schema, const T& settings) {
  std::vector<SettingValue> values;
  std::vector<bool> active;
  for (const auto& setting : schema.settings()) {
    values.push_back(setting.get(settings));
    active.push_back(schema.Active(setting, settings));
  }
  std::vector<std::string> sections_on;
  for (const SettingSectionSpec& section : schema.sections())
    if (schema.SectionOn(section.name, settings)) sections_on.push_back(section.name);
  return SettingValuesToJson(schema.specs(), values, active, sections_on);
}

}  // namespace quasidyn
