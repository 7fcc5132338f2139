#pragma once
// What one setting is, as its block's schema declares it once (model/settings_schema.h): its key
// in the block, its name on the command line and in Python, its type, unit, range, default and
// one line of docs. Every face of the setting is made from this: the YAML reader
// (io/settings_reader.h), the JSON writer (io/settings_json.h), the command line's flags
// (apps/quasidyn/setting_flags.h), Python's keywords and stubs (python/src/setting_keywords.h),
// the range check and the docs' tables (`quasidyn settings`).

#include <cstdint>
#include <limits>
#include <string>
#include <variant>
#include <vector>

namespace quasidyn {

enum class SettingKind {
  kBool,     // true | false
  kInteger,  // a whole number (int64 in a SettingValue)
  kNumber,   // a real number
  kChoice,   // one name of a fixed list (an enum)
  kNumbers,  // a list of real numbers (a vector)
  kNames,    // one name of a fixed list, or a list of free names (planning's grasp_anchors)
};

// "bool", "integer", "number", "choice", "numbers", "names".
const char* SettingKindName(SettingKind kind);

// A setting's value, whatever its kind: bool (kBool), int64 (kInteger), double (kNumber),
// string (kChoice), vector<double> (kNumbers), vector<string> (kNames).
using SettingValue = std::variant<bool, std::int64_t, double, std::string, std::vector<double>,
                                  std::vector<std::string>>;

struct SettingSpec {
  // Its key in the block, nested maps joined by dots: "metric.kappa" is `metric: {kappa: ...}`.
  std::string path;
  // The command line's flag (--name, '_' written '-') and Python's keyword; by default the path
  // with its dots written '_' ("plant_check.substeps" -> plant_check_substeps).
  std::string name;
  // The command line's flag, written as a name, when it is not `name` ("std" for Python's
  // u_std: --std); empty: the name's.
  std::string flag;
  SettingKind kind = SettingKind::kNumber;
  std::string unit;  // SI, e.g. "m", "s", "1/(N·m)"; empty for a pure number or a count
  // kNumber, kInteger and each entry of kNumbers: lower <= value <= upper, strictly where open.
  double lower = -std::numeric_limits<double>::infinity();
  double upper = std::numeric_limits<double>::infinity();
  bool lower_open = false, upper_open = false;
  bool finite = true;  // kNumber: ±∞ refused (false: allowed within the bounds, "may be ∞")
  // kInteger: what the field's C++ type holds (not part of the documented range).
  std::int64_t type_min = std::numeric_limits<std::int64_t>::min();
  std::int64_t type_max = std::numeric_limits<std::int64_t>::max();
  int size = -1;  // kNumbers: the number of entries, -1 any (a scene's sizes are checked later)
  // kChoice: the names; kNames: the names that stand alone (a list holds other names).
  std::vector<std::string> choices;
  std::string noun;  // kChoice, kNames: what a name is, for "unknown <noun> 'x' (a, b)"
  std::string doc;   // one line: what it does, citing its source where it has one
  // What an absent value means (the block struct's default, SettingValueText), filled by
  // SettingsSchema::specs().
  std::string default_text;
  // The optional sub-block it belongs to (SettingsSchema::Section), empty for none.
  std::string section;
};

// The range as the docs and the command line's help give it: "> 0", "[1, 1024]",
// "(0, 1]", "> 0 or ∞", "exact | log-barrier", "true | false", "any".
std::string SettingRangeText(const SettingSpec& spec);

// The value as the docs, messages and the command line's help write it: 0.001, 1024,
// log-barrier, true, [0, 1, 2], inf.
std::string SettingValueText(const SettingValue& value);

// Why `value` is not a value of `spec` (its kind, its range, its size, its choices), or empty,
// without the setting's name: "must be > 0 [m] (got -1)", "must be >= 1 (got 0)",
// "must be finite", "must be in (0, 1] (got 1.5)", "entry 2 must be >= 0 (got -1)",
// "unknown metric 'magic' (exact, log-barrier, randomized)". An integer given for a number is
// taken as that number; an empty list of numbers is a list not given (no problem), and so is an
// empty list for a number (an optional number unset, SettingsSchema::Number).
std::string SettingProblem(const SettingSpec& spec, const SettingValue& value);

// A path's parts: "metric.kappa" -> "metric" and "kappa"; "seed" -> "" and "seed".
std::string SettingPathParent(const std::string& path);
std::string SettingPathKey(const std::string& path);

// `value` as the kind of `spec` (an integer for a number becomes a double); unchanged otherwise.
SettingValue CoerceSetting(const SettingSpec& spec, SettingValue value);

}  // namespace quasidyn
