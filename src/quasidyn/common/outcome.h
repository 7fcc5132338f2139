#pragma once
// The answer of a computation that can fail for a numerical or geometric reason (GJK/EPA without
// a usable answer, a contact that disappears under a finite difference, a solver that stops):
// ok, or a message saying what failed and where. A caller's mistake is not an outcome: it
// throws std::invalid_argument (common/argument_check.h). This is the one way a function below
// the step reports such a failure (docs/architecture.md, "Errors: one policy"); the step itself
// turns it into a SolverStatus and a message (stepping/step_outcome.h).
//
// Cheap on success: an ok Outcome holds an empty std::string (no heap allocation).

#include <string>
#include <utility>

namespace quasidyn {

class [[nodiscard]] Outcome {
 public:
  // Ok.
  Outcome() = default;
  static Outcome Ok() { return Outcome(); }
  // A failure with its message (should be non-empty: what failed and where).
  static Outcome Failure(std::string message) {
    Outcome outcome;
    outcome.failed_ = true;
    outcome.message_ = std::move(message);
    return outcome;
  }

  bool ok() const { return !failed_; }
  explicit operator bool() const { return ok(); }
  // Empty when ok.
  const std::string& message() const { return message_; }
  // The message, moved out (for a caller that stores it).
  std::string TakeMessage() { return std::move(message_); }

 private:
  bool failed_ = false;
  std::string message_;
};

}  // namespace quasidyn
