// Python keywords of a settings block (setting_keywords.h).

#include "setting_keywords.h"

#include <pybind11/stl.h>

#include <cstdint>

#include "quasidyn/common/closest_name.h"
#include "quasidyn/control/settings_blocks.h"

namespace py = pybind11;

namespace quasidyn::python {
namespace {

[[noreturn]] void WrongType(const char* who, const std::string& key, py::handle value,
                            const char* expected) {
  throw py::type_error(std::string(who) + ": keyword '" + key + "' cannot take a " +
                       std::string(py::str(py::type::of(value).attr("__name__"))) + " (it takes " +
                       expected + ")");
}

SettingValue Convert(const char* who, const SettingSpec& spec, py::handle value) {
  const std::string& key = spec.name;
  switch (spec.kind) {
    case SettingKind::kBool:
      if (!py::isinstance<py::bool_>(value)) WrongType(who, key, value, "a bool");
      return value.cast<bool>();
    case SettingKind::kInteger:
      if (py::isinstance<py::bool_>(value) || !py::isinstance<py::int_>(value))
        WrongType(who, key, value, "an int");
      return value.cast<std::int64_t>();
    case SettingKind::kNumber:
      if (py::isinstance<py::bool_>(value) ||
          !(py::isinstance<py::float_>(value) || py::isinstance<py::int_>(value)))
        WrongType(who, key, value, "a float");
      return value.cast<double>();
    case SettingKind::kChoice:
      if (!py::isinstance<py::str>(value)) WrongType(who, key, value, "a str");
      return value.cast<std::string>();
    case SettingKind::kNumbers:
      try {
        return value.cast<std::vector<double>>();
      } catch (const py::cast_error&) {
        WrongType(who, key, value, "a sequence of floats");
      }
    case SettingKind::kNames:
      if (py::isinstance<py::str>(value))
        return std::vector<std::string>{value.cast<std::string>()};
      try {
        return value.cast<std::vector<std::string>>();
      } catch (const py::cast_error&) {
        WrongType(who, key, value, "a str or a sequence of str");
      }
  }
  WrongType(who, key, value, "a value");
}

py::dict SpecDict(const SettingSpec& spec) {
  py::dict d;
  d["path"] = spec.path;
  d["name"] = spec.name;
  d["kind"] = SettingKindName(spec.kind);
  d["unit"] = spec.unit;
  d["range"] = SettingRangeText(spec);
  d["default"] = spec.default_text;
  d["doc"] = spec.doc;
  d["section"] = spec.section;
  return d;
}

}  // namespace

py::dict TakeSettingKeywords(const char* who, const std::vector<SettingSpec>& specs,
                             const py::kwargs& kwargs, SettingOverrides* overrides) {
  py::dict rest;
  for (const auto& item : kwargs) {
    const std::string key = py::cast<std::string>(item.first);
    const SettingSpec* spec = nullptr;
    for (const SettingSpec& s : specs)
      if (s.name == key) spec = &s;
    if (spec == nullptr) {
      rest[item.first] = item.second;
      continue;
    }
    if (item.second.is_none()) continue;  // not given
    overrides->push_back({key, Convert(who, *spec, item.second)});
  }
  return rest;
}

void RefuseUnknownKeywords(const char* who, const py::dict& rest,
                           const std::vector<SettingSpec>& specs,
                           const std::vector<std::string>& allowed) {
  std::vector<std::string> names = allowed;
  for (const SettingSpec& spec : specs) names.push_back(spec.name);
  for (const auto& item : rest) {
    const std::string key = py::cast<std::string>(item.first);
    bool known = false;
    for (const std::string& name : allowed) known = known || name == key;
    if (!known)
      throw py::type_error(std::string(who) + ": unexpected keyword argument '" + key + "'" +
                           DidYouMean(key, names));
  }
}

std::string SettingsDocMarker(const std::string& block) { return "[settings: " + block + "]"; }

std::string SettingsDocMarker(const std::string& block, const std::vector<std::string>& names) {
  std::string marker = "[settings: " + block + ":";
  for (size_t i = 0; i < names.size(); ++i) marker += (i > 0 ? ", " : " ") + names[i];
  return marker + "]";
}

void BindSettings(py::module_& m) {
  m.def(
      "_settings",
      [] {
        py::dict blocks;
        for (const SettingsBlockInfo& block : SettingsBlocks()) {
          py::list settings;
          for (const SettingSpec& spec : block.specs) settings.append(SpecDict(spec));
          py::dict d;
          d["doc"] = block.doc;
          d["settings"] = settings;
          blocks[py::str(block.name)] = d;
        }
        return blocks;
      },
      "Every settings block of the library: its doc and its settings (path, name, kind, unit, "
      "range, default, doc, section), as declared once in C++ (docs/python.md); the stubs' "
      "keywords and the docs' tables are made from them.");
}

}  // namespace quasidyn::python
