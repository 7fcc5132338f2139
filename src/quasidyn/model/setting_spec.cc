#include "quasidyn/model/setting_spec.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <sstream>

#include "quasidyn/common/argument_check.h"

namespace quasidyn {
namespace {

std::string Join(const std::vector<std::string>& names, const char* separator) {
  std::string out;
  for (size_t i = 0; i < names.size(); ++i) {
    if (i > 0) out += separator;
    out += names[i];
  }
  return out;
}

std::string UnitText(const SettingSpec& spec) {
  return spec.unit.empty() ? "" : " [" + spec.unit + "]";
}

// "> 0", ">= 1", "<= 3", "(0, 1]", "[0, 1]"; "any" without bounds.
std::string BoundsText(const SettingSpec& spec) {
  const bool has_lower = std::isfinite(spec.lower), has_upper = std::isfinite(spec.upper);
  if (has_lower && has_upper)
    return std::string(spec.lower_open ? "(" : "[") + NumberText(spec.lower) + ", " +
           NumberText(spec.upper) + (spec.upper_open ? ")" : "]");
  if (has_lower) return std::string(spec.lower_open ? "> " : ">= ") + NumberText(spec.lower);
  if (has_upper) return std::string(spec.upper_open ? "< " : "<= ") + NumberText(spec.upper);
  return "any";
}

bool AboveLower(const SettingSpec& spec, double x) {
  return spec.lower_open ? x > spec.lower : x >= spec.lower;
}

bool BelowUpper(const SettingSpec& spec, double x) {
  return spec.upper_open ? x < spec.upper : x <= spec.upper;
}

std::string NumberProblem(const SettingSpec& spec, double x) {
  if (spec.finite && !std::isfinite(x)) return "must be finite";
  if (!spec.finite && x == std::numeric_limits<double>::infinity()) return "";  // "or ∞"
  if (!std::isnan(x) && AboveLower(spec, x) && BelowUpper(spec, x)) return "";
  const bool both = std::isfinite(spec.lower) && std::isfinite(spec.upper);
  return "must be " + std::string(both ? "in " : "") + BoundsText(spec) + UnitText(spec) +
         " (got " + NumberText(x) + ")";
}

// The first bound an integer breaks: "must be >= 1 (got 0)", "must be <= 1024 (got 2000)".
std::string IntegerProblem(const SettingSpec& spec, std::int64_t n) {
  const double x = static_cast<double>(n);
  if (!AboveLower(spec, x) || n < spec.type_min)
    return std::string("must be ") + (spec.lower_open ? "> " : ">= ") +
           (AboveLower(spec, x) ? std::to_string(spec.type_min) : NumberText(spec.lower)) +
           " (got " + std::to_string(n) + ")";
  if (!BelowUpper(spec, x) || n > spec.type_max)
    return std::string("must be ") + (spec.upper_open ? "< " : "<= ") +
           (BelowUpper(spec, x) ? std::to_string(spec.type_max) : NumberText(spec.upper)) +
           " (got " + std::to_string(n) + ")";
  return "";
}

// An empty list is a list not given (a goal the command line may give later).
std::string NumbersProblem(const SettingSpec& spec, const std::vector<double>& x) {
  if (x.empty()) return "";
  if (spec.size >= 0 && static_cast<int>(x.size()) != spec.size)
    return "expected " + std::to_string(spec.size) + " numbers, got " + std::to_string(x.size());
  for (size_t i = 0; i < x.size(); ++i) {
    if (!std::isfinite(x[i]))
      return "entry " + std::to_string(i) + " is not finite (" + NumberText(x[i]) + ")";
    if (!AboveLower(spec, x[i]) || !BelowUpper(spec, x[i]))
      return "entry " + std::to_string(i) + " must be " + BoundsText(spec) + " (got " +
             NumberText(x[i]) + ")";
  }
  return "";
}

std::string UnknownName(const SettingSpec& spec, const std::string& name) {
  return "unknown " + spec.noun + " '" + name + "' (" + Join(spec.choices, ", ") + ")";
}

}  // namespace

const char* SettingKindName(SettingKind kind) {
  switch (kind) {
    case SettingKind::kBool:
      return "bool";
    case SettingKind::kInteger:
      return "integer";
    case SettingKind::kNumber:
      return "number";
    case SettingKind::kChoice:
      return "choice";
    case SettingKind::kNumbers:
      return "numbers";
    case SettingKind::kNames:
      return "names";
  }
  return "?";
}

std::string SettingRangeText(const SettingSpec& spec) {
  switch (spec.kind) {
    case SettingKind::kBool:
      return "true | false";
    case SettingKind::kInteger:
      return BoundsText(spec);
    case SettingKind::kNumber: {
      const std::string bounds = BoundsText(spec);
      return spec.finite ? bounds : bounds + " or ∞";
    }
    case SettingKind::kChoice:
      return Join(spec.choices, " | ");
    case SettingKind::kNumbers: {
      const std::string count = spec.size >= 0 ? std::to_string(spec.size) + " numbers" : "";
      const std::string bounds = BoundsText(spec) == "any" ? "" : "each " + BoundsText(spec);
      if (count.empty()) return bounds.empty() ? "any" : bounds;
      return bounds.empty() ? count : count + ", " + bounds;
    }
    case SettingKind::kNames: {
      std::string out = Join(spec.choices, " | ");
      out += " | [";
      out += spec.noun;
      out += ", ...]";
      return out;
    }
  }
  return "";
}

std::string SettingValueText(const SettingValue& value) {
  struct Text {
    std::string operator()(bool b) const { return b ? "true" : "false"; }
    std::string operator()(std::int64_t n) const { return std::to_string(n); }
    std::string operator()(double x) const { return NumberText(x); }
    std::string operator()(const std::string& s) const { return s; }
    std::string operator()(const std::vector<double>& x) const {
      std::string out = "[";
      for (size_t i = 0; i < x.size(); ++i) out += (i > 0 ? ", " : "") + NumberText(x[i]);
      return out + "]";
    }
    std::string operator()(const std::vector<std::string>& names) const {
      if (names.size() == 1) return names[0];
      // Appended, not "[" + ...: GCC 12 misreads operator+ on a literal here (-Wrestrict).
      std::string out = "[";
      out += Join(names, ", ");
      out += "]";
      return out;
    }
  };
  return std::visit(Text{}, value);
}

std::string SettingPathParent(const std::string& path) {
  const size_t dot = path.rfind('.');
  return dot == std::string::npos ? "" : path.substr(0, dot);
}

std::string SettingPathKey(const std::string& path) {
  const size_t dot = path.rfind('.');
  return dot == std::string::npos ? path : path.substr(dot + 1);
}

SettingValue CoerceSetting(const SettingSpec& spec, SettingValue value) {
  if (spec.kind == SettingKind::kNumber && std::holds_alternative<std::int64_t>(value))
    return static_cast<double>(std::get<std::int64_t>(value));
  if (spec.kind == SettingKind::kNames && std::holds_alternative<std::string>(value))
    return std::vector<std::string>{std::get<std::string>(value)};
  return value;
}

std::string SettingProblem(const SettingSpec& spec, const SettingValue& given) {
  const SettingValue value = CoerceSetting(spec, given);
  switch (spec.kind) {
    case SettingKind::kBool:
      if (!std::holds_alternative<bool>(value)) return "must be true or false";
      return "";
    case SettingKind::kInteger:
      if (!std::holds_alternative<std::int64_t>(value)) return "must be an integer";
      return IntegerProblem(spec, std::get<std::int64_t>(value));
    case SettingKind::kNumber:
      if (const auto* unset = std::get_if<std::vector<double>>(&value); unset && unset->empty())
        return "";  // an optional number unset
      if (!std::holds_alternative<double>(value)) return "must be a number";
      return NumberProblem(spec, std::get<double>(value));
    case SettingKind::kChoice: {
      if (!std::holds_alternative<std::string>(value))
        return "must be one of " + Join(spec.choices, ", ");
      const std::string& name = std::get<std::string>(value);
      if (std::find(spec.choices.begin(), spec.choices.end(), name) == spec.choices.end())
        return UnknownName(spec, name);
      return "";
    }
    case SettingKind::kNumbers:
      if (!std::holds_alternative<std::vector<double>>(value)) return "must be a list of numbers";
      return NumbersProblem(spec, std::get<std::vector<double>>(value));
    case SettingKind::kNames:
      if (!std::holds_alternative<std::vector<std::string>>(value))
        return "must be a name or a list of names";
      return "";
  }
  return "";
}

}  // namespace quasidyn
