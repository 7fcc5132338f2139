#include "quasidyn/model/formulation_choice.h"

#include <algorithm>
#include <stdexcept>

namespace quasidyn {

ParameterBlock::ParameterBlock(std::initializer_list<std::pair<std::string, double>> numbers) {
  for (const auto& [key, value] : numbers) Set(key, value);
}

const ParameterValue* ParameterBlock::Find(const std::string& key) const {
  const auto it = std::find_if(values_.begin(), values_.end(),
                               [&key](const ParameterValue& v) { return v.key == key; });
  return it == values_.end() ? nullptr : &*it;
}

void ParameterBlock::Set(const std::string& key, Eigen::MatrixXd value, ValueSource source) {
  for (ParameterValue& existing : values_) {
    if (existing.key == key) {
      existing.value = std::move(value);
      existing.source = std::move(source);
      return;
    }
  }
  values_.push_back(ParameterValue{key, std::move(value), std::move(source)});
}

void ParameterBlock::Set(const std::string& key, double value, ValueSource source) {
  Set(key, Eigen::MatrixXd::Constant(1, 1, value), std::move(source));
}

void ParameterBlock::Set(const std::string& key, double value) {
  Set(key, value, ValueSource{"", 0, key});
}

void ParameterBlock::Erase(const std::string& key) {
  values_.erase(std::remove_if(values_.begin(), values_.end(),
                               [&key](const ParameterValue& v) { return v.key == key; }),
                values_.end());
}

ParameterBlock ParameterBlock::With(const ParameterBlock& overrides) const {
  ParameterBlock merged = *this;
  for (const ParameterValue& v : overrides.values_) merged.Set(v.key, v.value, v.source);
  return merged;
}

}  // namespace quasidyn
