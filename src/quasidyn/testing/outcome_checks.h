#pragma once
// Tests of functions that return an Outcome (common/outcome.h): Ok(F(...), &message) is whether
// F succeeded, with its failure's message (empty when ok) kept for the assertion's text and for
// checks of what it says, e.g.
//   ASSERT_TRUE(testing::Ok(model.Distance(a, b, X_WB, &point), &message)) << message;

#include <string>

#include "quasidyn/common/outcome.h"

namespace quasidyn::testing {

inline bool Ok(Outcome outcome, std::string* message) {
  *message = outcome.TakeMessage();
  return outcome.ok();
}

}  // namespace quasidyn::testing
