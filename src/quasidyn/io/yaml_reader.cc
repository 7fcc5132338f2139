#include "quasidyn/io/yaml_reader.h"

#include <cmath>
#include <limits>
#include <set>
#include <sstream>

#include "quasidyn/common/closest_name.h"
#include "quasidyn/files/utf8.h"
#include "quasidyn/io/loader_limits.h"
#include "quasidyn/model/scene_error.h"

namespace quasidyn {
namespace {

std::string Describe(const YAML::Node& node) {
  if (node.IsScalar()) return "'" + node.Scalar() + "'";
  if (node.IsMap()) return "a map";
  if (node.IsSequence()) return "a list";
  return "nothing";
}

std::string Join(const std::vector<std::string>& words) {
  std::string out;
  for (const std::string& w : words) out += (out.empty() ? "" : ", ") + w;
  return out;
}

}  // namespace

YamlValue::YamlValue(const YAML::Node& node, std::shared_ptr<const std::string> file,
                     std::string path, int key_line)
    : node_(node), file_(std::move(file)), path_(std::move(path)), key_line_(key_line) {}

YamlValue YamlValue::Parse(const std::string& text, const std::string& file) {
  auto shared_file = std::make_shared<const std::string>(file);
  try {
    return YamlValue(YAML::Load(text), shared_file, "");
  } catch (const YAML::Exception& e) {
    throw SceneError(file, e.mark.is_null() ? 0 : e.mark.line + 1, "",
                     "YAML syntax error: " + e.msg);
  }
}

int YamlValue::line() const {
  if (key_line_ > 0) return key_line_;
  const YAML::Mark mark = node_.Mark();
  return mark.is_null() ? 0 : mark.line + 1;
}

void YamlValue::Fail(const std::string& problem) const {
  throw SceneError(*file_, line(), path_.empty() ? "<document>" : path_, problem);
}

bool YamlValue::Has(const std::string& key) const { return Find(key).has_value(); }

YamlValue YamlValue::Get(const std::string& key) const {
  std::optional<YamlValue> found = Find(key);
  if (!found) {
    const std::string field = path_.empty() ? key : path_ + "." + key;
    throw SceneError(*file_, line(), field, "missing required field");
  }
  return *found;
}

std::optional<YamlValue> YamlValue::Find(const std::string& key) const {
  if (!node_.IsMap()) Fail("must be a map with keys, got " + Describe(node_));
  for (auto it = node_.begin(); it != node_.end(); ++it) {
    if (it->first.IsScalar() && it->first.Scalar() == key) {
      const YAML::Mark mark = it->first.Mark();
      return YamlValue(it->second, file_, path_.empty() ? key : path_ + "." + key,
                       mark.is_null() ? 0 : mark.line + 1);
    }
  }
  return std::nullopt;
}

std::vector<std::string> YamlValue::Keys() const {
  if (!node_.IsMap()) Fail("must be a map with keys, got " + Describe(node_));
  std::vector<std::string> keys;
  for (auto it = node_.begin(); it != node_.end(); ++it) {
    if (!it->first.IsScalar()) YamlValue(it->first, file_, path_).Fail("keys must be words");
    keys.push_back(it->first.Scalar());
  }
  return keys;
}

void YamlValue::CheckKeys(const std::vector<std::string>& allowed) const {
  if (!node_.IsMap()) Fail("must be a map with keys, got " + Describe(node_));
  std::set<std::string> seen;
  for (auto it = node_.begin(); it != node_.end(); ++it) {
    const YamlValue key(it->first, file_, path_);
    if (!it->first.IsScalar()) key.Fail("map keys must be plain words");
    const std::string name = it->first.Scalar();
    const std::string field = path_.empty() ? name : path_ + "." + name;
    const int key_line = key.line();
    bool known = false;
    for (const std::string& a : allowed) known = known || a == name;
    if (!known) {
      throw SceneError(
          *file_, key_line, field,
          "unknown key" + DidYouMean(name, allowed) + " (allowed: " + Join(allowed) + ")");
    }
    if (!seen.insert(name).second) throw SceneError(*file_, key_line, field, "duplicate key");
  }
}

std::vector<YamlValue> YamlValue::Items() const {
  if (!node_.IsSequence()) Fail("must be a list, got " + Describe(node_));
  std::vector<YamlValue> items;
  for (size_t i = 0; i < node_.size(); ++i) {
    items.emplace_back(node_[i], file_, path_ + "[" + std::to_string(i) + "]");
  }
  return items;
}

std::string YamlValue::AsString() const {
  if (!node_.IsScalar() || node_.Scalar().empty()) {
    Fail("must be a non-empty word, got " + Describe(node_));
  }
  if (!IsValidUtf8(node_.Scalar())) Fail("is not valid UTF-8 text");
  return node_.Scalar();
}

double YamlValue::AsDouble() const {
  if (!node_.IsScalar()) Fail("must be a number, got " + Describe(node_));
  double value = 0.0;
  if (!YAML::convert<double>::decode(node_, value)) {
    Fail("must be a number, got " + Describe(node_));
  }
  if (!std::isfinite(value)) Fail(NumberNotFiniteProblem(Describe(node_)));
  if (std::abs(value) > kMaxSceneNumber) Fail(NumberBeyondLimitProblem(Describe(node_)));
  return value;
}

double YamlValue::AsDouble(double min, bool min_inclusive) const {
  const double value = AsDouble();
  if (min_inclusive ? value < min : value <= min) {
    std::ostringstream out;
    out << "must be " << (min_inclusive ? ">= " : "> ") << min << " (got " << value << ")";
    Fail(out.str());
  }
  return value;
}

double YamlValue::AsDouble(const PhysicalRange& range) const {
  const double value = AsDouble();
  const std::string problem = PhysicalRangeProblem(range, value, node_.Scalar());
  if (!problem.empty()) Fail(problem);
  return value;
}

int YamlValue::AsInt() const {
  if (!node_.IsScalar()) Fail("must be an integer, got " + Describe(node_));
  int value = 0;
  if (!YAML::convert<int>::decode(node_, value)) {
    Fail("must be an integer, got " + Describe(node_));
  }
  return value;
}

std::int64_t YamlValue::AsInt64() const {
  if (!node_.IsScalar()) Fail("must be an integer, got " + Describe(node_));
  long long value = 0;
  if (!YAML::convert<long long>::decode(node_, value)) {
    Fail("must be an integer, got " + Describe(node_));
  }
  return static_cast<std::int64_t>(value);
}

double YamlValue::AsNumberOrInfinity() const {
  if (node_.IsScalar()) {
    const std::string& text = node_.Scalar();
    if (text == "Infinity") return std::numeric_limits<double>::infinity();
    if (text == "-Infinity") return -std::numeric_limits<double>::infinity();
    double value = 0.0;
    if (YAML::convert<double>::decode(node_, value) && std::isinf(value)) return value;
  }
  return AsDouble();
}

bool YamlValue::AsBool() const {
  bool value = false;
  if (!node_.IsScalar() || !YAML::convert<bool>::decode(node_, value)) {
    Fail("must be true or false, got " + Describe(node_));
  }
  return value;
}

Eigen::VectorXd YamlValue::AsVector(int expected_size) const {
  if (!node_.IsSequence()) Fail("must be a list of numbers, got " + Describe(node_));
  const std::vector<YamlValue> items = Items();
  if (expected_size >= 0 && static_cast<int>(items.size()) != expected_size) {
    Fail("must have " + std::to_string(expected_size) + " numbers, got " +
         std::to_string(items.size()));
  }
  Eigen::VectorXd v(items.size());
  for (size_t i = 0; i < items.size(); ++i) v[i] = items[i].AsDouble();
  return v;
}

}  // namespace quasidyn
