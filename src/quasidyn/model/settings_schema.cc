#include "quasidyn/model/settings_schema.h"

#include <algorithm>

#include "quasidyn/common/closest_name.h"

namespace quasidyn::settings_detail {

std::string DefaultSettingName(const std::string& path) {
  std::string name = path;
  std::replace(name.begin(), name.end(), '.', '_');
  return name;
}

void ThrowSettingProblem(const std::string& block, const std::string& field,
                         const std::string& problem) {
  throw std::invalid_argument(block + "." + field + ": " + problem);
}

std::string SettingNameSuggestion(const std::vector<SettingSpec>& specs, const std::string& name) {
  std::vector<std::string> names;
  for (const SettingSpec& spec : specs) names.push_back(spec.name);
  return DidYouMean(name, names);
}

}  // namespace quasidyn::settings_detail
