#pragma once
// gtest names made from the library's own names: gtest allows letters, digits and underscores
// only, and formulation names have dashes ("log-barrier-cone" → "log_barrier_cone").

#include <gtest/gtest.h>

#include <string>

namespace quasidyn::testing {

// `name` with every '-' as '_'.
inline std::string GtestName(std::string name) {
  for (char& c : name)
    if (c == '-') c = '_';
  return name;
}

// The name generator of a test instantiated over single names (formulations, examples).
struct NameOfParam {
  template <typename Name>
  std::string operator()(const ::testing::TestParamInfo<Name>& info) const {
    return GtestName(std::string(info.param));
  }
};

}  // namespace quasidyn::testing
