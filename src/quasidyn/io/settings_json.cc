#include "quasidyn/io/settings_json.h"

#include <cmath>

namespace quasidyn {
namespace {

using nlohmann::json;

json Number(double x) {
  if (std::isinf(x)) return x > 0 ? "Infinity" : "-Infinity";
  return x;
}

json ValueToJson(const SettingSpec& spec, const SettingValue& value) {
  struct ToJson {
    const SettingSpec& spec;
    json operator()(bool b) const { return b; }
    json operator()(std::int64_t n) const { return n; }
    json operator()(double x) const { return Number(x); }
    json operator()(const std::string& s) const { return s; }
    json operator()(const std::vector<double>& x) const {
      json out = json::array();
      for (const double v : x) out.push_back(Number(v));
      return out;
    }
    json operator()(const std::vector<std::string>& names) const {
      if (names.size() == 1)
        for (const std::string& choice : spec.choices)
          if (names[0] == choice) return choice;
      return names;
    }
  };
  return std::visit(ToJson{spec}, value);
}

// The object at `path`'s parent inside *root, made on the way.
json& ParentObject(json* root, const std::string& path) {
  json* at = root;
  size_t start = 0;
  for (size_t dot = path.find('.'); dot != std::string::npos; dot = path.find('.', start)) {
    at = &(*at)[path.substr(start, dot - start)];
    start = dot + 1;
  }
  return *at;
}

}  // namespace

json SettingValuesToJson(const std::vector<SettingSpec>& specs,
                         const std::vector<SettingValue>& values, const std::vector<bool>& active,
                         const std::vector<std::string>& sections_on) {
  json out = json::object();
  for (const std::string& section : sections_on) out[section] = json::object();
  for (size_t i = 0; i < specs.size(); ++i) {
    if (!active[i]) continue;
    const SettingValue& value = values[i];
    if (std::holds_alternative<std::vector<double>>(value) &&
        std::get<std::vector<double>>(value).empty())
      continue;  // not given
    ParentObject(&out, specs[i].path)[SettingPathKey(specs[i].path)] = ValueToJson(specs[i], value);
  }
  return out;
}

}  // namespace quasidyn
