#pragma once
// Typed, checked access to a YAML document. Every value knows the file it came from, its
// 1-based line and its field path (e.g. "objects[2].body.mass"), so every problem becomes a
// SceneError that names all three. Numbers must be finite (YAML's .nan and .inf are
// rejected), maps can be checked for unknown keys, and a missing required key is an error at
// the line of the map that lacks it.

#include <yaml-cpp/yaml.h>

#include <Eigen/Core>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "quasidyn/model/physical_ranges.h"
#include "quasidyn/model/value_source.h"

namespace quasidyn {

class YamlValue {
 public:
  // `file` names the document in error messages; `path` is this value's field path.
  // `key_line` (1-based, 0 = none) is the line of the map key holding this value; errors
  // about the value are reported there, which is where a reader looks for "mass: -1".
  YamlValue(const YAML::Node& node, std::shared_ptr<const std::string> file, std::string path,
            int key_line = 0);

  // Parses `text`; a syntax error becomes a SceneError at the offending line.
  static YamlValue Parse(const std::string& text, const std::string& file);

  const std::string& file() const { return *file_; }
  const std::string& path() const { return path_; }
  int line() const;  // 1-based: the key's line when there is a key, else the value's
  [[noreturn]] void Fail(const std::string& problem) const;

  bool IsMap() const { return node_.IsMap(); }
  bool IsSequence() const { return node_.IsSequence(); }
  bool IsScalar() const { return node_.IsScalar(); }

  // Map access. Each throws unless this value is a map.
  bool Has(const std::string& key) const;
  YamlValue Get(const std::string& key) const;  // throws "missing required field"
  std::optional<YamlValue> Find(const std::string& key) const;
  std::vector<std::string> Keys() const;  // in file order
  // Throws at the first key not in `allowed` (and on a duplicated key).
  void CheckKeys(const std::vector<std::string>& allowed) const;

  // Sequence access. Each throws unless this value is a sequence.
  std::vector<YamlValue> Items() const;

  // Scalars. Each throws when the value is not of the requested kind.
  std::string AsString() const;
  double AsDouble() const;                                // finite
  double AsDouble(double min, bool min_inclusive) const;  // finite and > (or >=) min
  // A finite number within `range` (model/physical_ranges.h), else a SceneError such as
  // "scene.yaml:4: time_step: must lie within [1e-06, 10] s, got 1e-320".
  double AsDouble(const PhysicalRange& range) const;
  int AsInt() const;
  std::int64_t AsInt64() const;
  // A number within the scene's limits, or ±∞ written .inf, -.inf, Infinity or -Infinity (the
  // spelling of JSON files, which have no infinity); NaN is refused.
  double AsNumberOrInfinity() const;
  bool AsBool() const;
  // A sequence of finite numbers; expected_size < 0 accepts any length.
  Eigen::VectorXd AsVector(int expected_size = -1) const;
  Eigen::Vector3d AsVector3() const { return AsVector(3); }

 private:
  YAML::Node node_;
  std::shared_ptr<const std::string> file_;
  std::string path_;
  int key_line_ = 0;
};

// Where `value` is: its file, 1-based line and field path, for errors raised after reading
// (model/value_source.h).
inline ValueSource LocationOf(const YamlValue& value) {
  return {value.file(), value.line(), value.path()};
}

}  // namespace quasidyn
