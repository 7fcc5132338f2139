#include "quasidyn/common/argument_check.h"

#include <charconv>
#include <cmath>
#include <stdexcept>

namespace quasidyn {

void ThrowInvalidArgument(std::string_view where, std::string_view message) {
  std::string text(where);
  text += ": ";
  text += message;
  throw std::invalid_argument(text);
}

std::string NumberText(double value) {
  char buffer[32];
  const auto result = std::to_chars(buffer, buffer + sizeof(buffer), value);
  return std::string(buffer, result.ptr);
}

void CheckSize(std::string_view where, std::string_view name, Eigen::Index actual,
               Eigen::Index expected, std::string_view expected_name) {
  if (actual == expected) return;
  std::string message(name);
  message += " has size " + std::to_string(actual) + ", expected ";
  if (!expected_name.empty()) {
    message += expected_name;
    message += " = ";
  }
  message += std::to_string(expected);
  ThrowInvalidArgument(where, message);
}

void CheckFinite(std::string_view where, std::string_view name,
                 const Eigen::Ref<const Eigen::VectorXd>& x) {
  for (Eigen::Index i = 0; i < x.size(); ++i) {
    if (std::isfinite(x[i])) continue;
    std::string message(name);
    // Appended piece by piece: "[" + std::string&& trips GCC 12's -Wrestrict (GCC bug 105329).
    message += '[';
    message += std::to_string(i);
    message += "] is not finite (";
    message += NumberText(x[i]);
    message += ')';
    ThrowInvalidArgument(where, message);
  }
}

void CheckVector(std::string_view where, std::string_view name,
                 const Eigen::Ref<const Eigen::VectorXd>& x, Eigen::Index expected,
                 std::string_view expected_name) {
  CheckSize(where, name, x.size(), expected, expected_name);
  CheckFinite(where, name, x);
}

void CheckPositive(std::string_view where, std::string_view name, double value) {
  if (value > 0 && std::isfinite(value)) return;
  ThrowInvalidArgument(
      where, std::string(name) + " must be finite and > 0 (got " + NumberText(value) + ")");
}

void CheckNonNegative(std::string_view where, std::string_view name, double value) {
  if (value >= 0 && std::isfinite(value)) return;
  ThrowInvalidArgument(
      where, std::string(name) + " must be finite and >= 0 (got " + NumberText(value) + ")");
}

}  // namespace quasidyn
