#include "setting_flags.h"

#include <algorithm>
#include <cctype>
#include <cstdint>

namespace quasidyn::cli {
namespace {

std::string Help(const SettingSpec& spec) {
  std::string help = spec.doc;
  if (!help.empty()) help[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(help[0])));
  if (!spec.unit.empty()) help += " [" + spec.unit + "]";
  const std::string range = SettingRangeText(spec);
  if (spec.kind != SettingKind::kBool && range != "any") help += ", " + range;
  if (!spec.default_text.empty() && spec.default_text != "[]")
    help += " (default " + spec.default_text + ")";
  return help;
}

template <typename V>
void Add(CLI::App* command, const SettingSpec& spec, SettingOverrides* overrides,
         int max_items = 1) {
  const std::string name = spec.name;
  CLI::Option* option = command->add_option_function<V>(
      SettingFlag(spec),
      [name, overrides](const V& value) {
        overrides->push_back({name, SettingValue(value)});
      },
      Help(spec));
  if (max_items > 1) {
    if (spec.size > 0)
      option->expected(spec.size);
    else
      option->expected(1, max_items);
  }
}

}  // namespace

std::string SettingFlag(const std::string& name) {
  std::string flag = "--" + name;
  std::replace(flag.begin(), flag.end(), '_', '-');
  return flag;
}

std::string SettingFlag(const SettingSpec& spec) {
  return SettingFlag(spec.flag.empty() ? spec.name : spec.flag);
}

void AddSettingFlags(CLI::App* command, const std::vector<SettingSpec>& specs,
                     SettingOverrides* overrides, const std::vector<std::string>& skip) {
  constexpr int kManyItems = 1 << 20;
  for (const SettingSpec& spec : specs) {
    if (std::find(skip.begin(), skip.end(), spec.name) != skip.end()) continue;
    switch (spec.kind) {
      case SettingKind::kBool: {
        const std::string name = spec.name;
        const std::string flag = SettingFlag(spec);
        command
            ->add_flag_function(
                flag + ",!--no-" + flag.substr(2),
                [name, overrides](std::int64_t count) {
                  overrides->push_back({name, count > 0});
                },
                Help(spec))
            // A value given as --flag=VALUE must read as a boolean (CLI11 2.1 would otherwise
            // throw its integer conversion's bare "stoll" out of the parse).
            ->check(CLI::Validator(
                [](std::string& value) -> std::string {
                  try {
                    CLI::detail::to_flag_value(value);
                    return {};
                  } catch (const std::exception&) {
                    return "'" + value + "' is not true or false";
                  }
                },
                ""));
        break;
      }
      case SettingKind::kInteger:
        Add<std::int64_t>(command, spec, overrides);
        break;
      case SettingKind::kNumber:
        Add<double>(command, spec, overrides);
        break;
      case SettingKind::kChoice:
        Add<std::string>(command, spec, overrides);
        break;
      case SettingKind::kNumbers:
        Add<std::vector<double>>(command, spec, overrides, kManyItems);
        break;
      case SettingKind::kNames:
        Add<std::vector<std::string>>(command, spec, overrides, kManyItems);
        break;
    }
  }
}

}  // namespace quasidyn::cli
