#pragma once
// The one error policy of quasidyn (docs/architecture.md, "Errors"):
//  * a caller's mistake (a vector of the wrong size, a NaN in an input, a setting out of its
//    documented range, a data object made by another model) throws std::invalid_argument
//    whose message names the function and the argument, e.g.
//      "Calc: q has size 6, expected n_q = 7";
//  * a numerical outcome (a solver that stops without an answer, a point where a derivative
//    does not exist) is never an exception: it is a status and a message in the result.
// Every argument check of the library goes through the helpers below, so the messages read
// alike (as Pinocchio's argument-size check does for its algorithms).

#include <Eigen/Core>
#include <string>
#include <string_view>

namespace quasidyn {

// Throws std::invalid_argument("<where>: <message>").
[[noreturn]] void ThrowInvalidArgument(std::string_view where, std::string_view message);

// Throws std::invalid_argument("<where>: <message>") when `condition` is false; `message` is
// any expression convertible to std::string_view and is evaluated only then.
#define QUASIDYN_CHECK_ARGUMENT(condition, where, message)                  \
  do {                                                                      \
    if (!(condition)) ::quasidyn::ThrowInvalidArgument((where), (message)); \
  } while (false)

// "<where>: <name> has size <actual>, expected <expected_name> = <expected>" unless equal.
// expected_name says what the size is (e.g. "n_q"); it may be empty.
void CheckSize(std::string_view where, std::string_view name, Eigen::Index actual,
               Eigen::Index expected, std::string_view expected_name = "");

// "<where>: <name>[i] is not finite (nan)" for the first non-finite entry.
void CheckFinite(std::string_view where, std::string_view name,
                 const Eigen::Ref<const Eigen::VectorXd>& x);

// CheckSize, then CheckFinite.
void CheckVector(std::string_view where, std::string_view name,
                 const Eigen::Ref<const Eigen::VectorXd>& x, Eigen::Index expected,
                 std::string_view expected_name = "");

// "<where>: <name> must be finite and > 0 (got <value>)" (and the >= 0 variant), for settings
// with a documented range.
void CheckPositive(std::string_view where, std::string_view name, double value);
void CheckNonNegative(std::string_view where, std::string_view name, double value);

// The shortest text that reads back to the same double (std::to_chars), for messages.
std::string NumberText(double value);

}  // namespace quasidyn
