#include "quasidyn/io/settings_reader.h"

#include <map>
#include <set>

#include "quasidyn/common/closest_name.h"

namespace quasidyn {
namespace {

// The keys each map of the block may hold: the next component of every declared path below it.
std::map<std::string, std::vector<std::string>> AllowedKeys(
    const std::vector<SettingSpec>& specs, const std::vector<SettingSectionSpec>& sections) {
  std::map<std::string, std::vector<std::string>> keys;
  std::set<std::string> added;
  const auto add = [&](const std::string& path) {
    for (std::string p = path; !p.empty(); p = SettingPathParent(p)) {
      if (!added.insert(p).second) break;
      keys[SettingPathParent(p)].push_back(SettingPathKey(p));
    }
  };
  for (const SettingSpec& spec : specs) add(spec.path);
  for (const SettingSectionSpec& section : sections) add(section.name);
  return keys;
}

// The map at `path` inside the block (checked for unknown keys), or nothing when absent.
std::optional<YamlValue> FindMap(const YamlValue& block, const std::string& path,
                                 const std::map<std::string, std::vector<std::string>>& keys,
                                 FieldLines* lines, std::map<std::string, YamlValue>* found) {
  if (path.empty()) return block;
  if (const auto it = found->find(path); it != found->end()) return it->second;
  const std::optional<YamlValue> parent =
      FindMap(block, SettingPathParent(path), keys, lines, found);
  if (!parent) return std::nullopt;
  std::optional<YamlValue> map = parent->Find(SettingPathKey(path));
  if (!map) return std::nullopt;
  map->CheckKeys(keys.at(path));
  lines->Add(path, *map);
  found->emplace(path, *map);
  return map;
}

SettingValue ReadNames(const SettingSpec& spec, const YamlValue& value) {
  if (value.IsSequence()) {
    std::vector<std::string> names;
    for (const YamlValue& item : value.Items()) names.push_back(item.AsString());
    return names;
  }
  const std::string name = value.IsScalar() ? value.AsString() : "";
  for (const std::string& choice : spec.choices)
    if (name == choice) return std::vector<std::string>{name};
  value.Fail("expected " + JoinNames(spec.choices, ", ") + " or a list [" + spec.noun +
             ", ...] (got '" + name + "')");
}

SettingValue ReadValue(const SettingSpec& spec, const YamlValue& value) {
  switch (spec.kind) {
    case SettingKind::kBool:
      return value.AsBool();
    case SettingKind::kInteger:
      return value.AsInt64();
    case SettingKind::kNumber:
      return spec.finite ? value.AsDouble() : value.AsNumberOrInfinity();
    case SettingKind::kChoice:
      return value.AsString();
    case SettingKind::kNumbers: {
      const Eigen::VectorXd x = value.AsVector();
      return std::vector<double>(x.data(), x.data() + x.size());
    }
    case SettingKind::kNames:
      return ReadNames(spec, value);
  }
  value.Fail("unreadable setting");
}

}  // namespace

void ReadSettingValues(const std::vector<SettingSpec>& specs,
                       const std::vector<SettingSectionSpec>& sections, const YamlValue& block,
                       const std::function<void(const std::string& section)>& enable,
                       const std::function<void(size_t index, const SettingValue& value)>& set,
                       FieldLines* lines) {
  const auto keys = AllowedKeys(specs, sections);
  block.CheckKeys(keys.count("") > 0 ? keys.at("") : std::vector<std::string>{});
  std::map<std::string, YamlValue> maps;
  for (const SettingSectionSpec& section : sections) {
    const std::optional<YamlValue> map = block.Find(section.name);
    if (!map) continue;
    FindMap(block, section.name, keys, lines, &maps);  // `section: {}` turns it on, with defaults
    enable(section.name);
  }
  for (size_t i = 0; i < specs.size(); ++i) {
    const SettingSpec& spec = specs[i];
    const std::optional<YamlValue> map =
        FindMap(block, SettingPathParent(spec.path), keys, lines, &maps);
    if (!map) continue;
    const std::optional<YamlValue> value = map->Find(SettingPathKey(spec.path));
    if (!value) continue;
    lines->Add(spec.path, *value);
    const SettingValue read = ReadValue(spec, *value);
    const std::string problem = SettingProblem(spec, read);
    if (!problem.empty()) value->Fail(problem);
    set(i, read);
  }
}

}  // namespace quasidyn
