#include "quasidyn/formulations/parameters.h"

#include <cmath>
#include <sstream>
#include <stdexcept>

#include "quasidyn/common/argument_check.h"

namespace quasidyn {

ParameterSpec NumberParameter(std::string key, std::string unit, double lower, bool strictly,
                              std::string default_text, std::string description,
                              std::string label) {
  ParameterSpec spec;
  spec.key = std::move(key);
  spec.unit = std::move(unit);
  spec.range = std::string(strictly ? "> " : ">= ") + NumberText(lower);
  spec.default_text = std::move(default_text);
  spec.description = std::move(description);
  spec.number = true;
  const std::string unit_text = spec.unit == "-" ? "" : " [" + spec.unit + "]";
  spec.problem = [key = label.empty() ? spec.key : label, lower, strictly,
                  unit_text](const Eigen::MatrixXd& value) -> std::string {
    const std::string range = key + " must be " + (strictly ? "> " : ">= ") + NumberText(lower);
    if (value.size() != 1) return range + unit_text + ", a number, not a list";
    const double x = value(0, 0);
    if (!std::isfinite(x)) return key + " must be finite (got " + NumberText(x) + ")";
    if (strictly ? !(x > lower) : !(x >= lower))
      return range + unit_text + " (got " + NumberText(x) + ")";
    return "";
  };
  return spec;
}

ParameterSpec NumberParameter(std::string key, const PhysicalRange& range, std::string default_text,
                              std::string description, std::string label) {
  ParameterSpec spec;
  spec.key = std::move(key);
  spec.unit = std::string(range.unit);
  spec.range = PhysicalRangeText(range);
  spec.default_text = std::move(default_text);
  spec.description = std::move(description);
  spec.number = true;
  spec.problem = [key = label.empty() ? spec.key : label,
                  &range](const Eigen::MatrixXd& value) -> std::string {
    if (value.size() != 1) return key + " must be a number in " + PhysicalRangeText(range);
    const double x = value(0, 0);
    if (!std::isfinite(x)) return key + " must be finite (got " + NumberText(x) + ")";
    const std::string problem = PhysicalRangeProblem(range, x);
    return problem.empty() ? "" : key + " " + problem;
  };
  return spec;
}

std::string ParameterText(const Eigen::MatrixXd& value) {
  if (value.size() == 1) return NumberText(value(0, 0));
  std::ostringstream out;
  out << "[";
  for (Eigen::Index i = 0; i < value.rows(); ++i) {
    if (i > 0) out << ", ";
    if (value.cols() > 1) out << "[";
    for (Eigen::Index j = 0; j < value.cols(); ++j)
      out << (j > 0 ? ", " : "") << NumberText(value(i, j));
    if (value.cols() > 1) out << "]";
  }
  out << "]";
  return out.str();
}

void CheckParameter(const ParameterSpec& spec, const Eigen::MatrixXd& value,
                    const ValueSource& source) {
  if (!spec.problem) return;
  const std::string problem = spec.problem(value);
  if (!problem.empty()) FailAt(source, problem);
}

FormulationParameters::FormulationParameters(std::string formulation,
                                             const std::vector<ParameterSpec>& specs,
                                             ParameterBlock block)
    : formulation_(std::move(formulation)),
      specs_(specs),
      block_(std::move(block)),
      own_source_{"", 0, "formulation " + formulation_} {
  for (const ParameterSpec& spec : specs_)
    if (const ParameterValue* given = block_.Find(spec.key))
      CheckParameter(spec, given->value, given->source);
}

const ParameterSpec& FormulationParameters::Spec(const std::string& key) const {
  for (const ParameterSpec& spec : specs_)
    if (spec.key == key) return spec;
  ThrowInvalidArgument("formulation " + formulation_,
                       "reads parameter '" + key + "', which it does not declare");
}

std::optional<Eigen::MatrixXd> FormulationParameters::Value(const std::string& key) const {
  Spec(key);
  const ParameterValue* given = block_.Find(key);
  if (given == nullptr) return std::nullopt;
  return given->value;
}

std::optional<double> FormulationParameters::Number(const std::string& key) const {
  const std::optional<Eigen::MatrixXd> value = Value(key);
  if (!value) return std::nullopt;
  if (value->size() != 1) Fail(key, "must be a number, not a list");
  return (*value)(0, 0);
}

double FormulationParameters::Number(const std::string& key, double fallback) const {
  const std::optional<double> value = Number(key);
  return value ? *value : fallback;
}

const ValueSource& FormulationParameters::Source(const std::string& key) const {
  const ParameterValue* given = block_.Find(key);
  return given != nullptr ? given->source : own_source_;
}

void FormulationParameters::Fail(const std::string& key, const std::string& problem) const {
  FailAt(Source(key), problem);
}

}  // namespace quasidyn
