#pragma once
// Substring checks of the tests' expected error messages (header only).

#include <string>

namespace quasidyn::testing {

// True when `part` occurs in `text`.
inline bool Contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

}  // namespace quasidyn::testing
