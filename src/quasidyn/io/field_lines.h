#pragma once
// The YAML values a block reader has read, by field path inside the block ("bounds.lower"), so
// that a problem found when the whole block is checked is reported at the line of its field:
// the field's own value, else its enclosing map's ("bounds"), else the block's (a field left
// out). Used by the planning: and mpc: readers.

#include <map>
#include <string>

#include "quasidyn/io/yaml_reader.h"

namespace quasidyn {

class FieldLines {
 public:
  // Keeps a reference to `block`: it must outlive this object.
  explicit FieldLines(const YamlValue& block) : block_(block) {}
  void Add(const std::string& field, const YamlValue& value) { values_.emplace(field, value); }
  const YamlValue& At(std::string field) const {
    while (true) {
      const auto it = values_.find(field);
      if (it != values_.end()) return it->second;
      const size_t dot = field.rfind('.');
      if (dot == std::string::npos) return block_;
      field.resize(dot);
    }
  }

 private:
  const YamlValue& block_;
  std::map<std::string, YamlValue> values_;
};

}  // namespace quasidyn
