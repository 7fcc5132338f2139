#pragma once
// Tests of functions that return an Outcome (common/outcome.h): IsOk(F(...)) is an assertion
// result that carries the failure's message, so that a failed assertion prints it, e.g.
//   ASSERT_TRUE(testing::IsOk(model.Distance(a, b, X_WB, &point)));
// A test of what a failure says keeps the Outcome and reads its message():
//   const Outcome outcome = model.Distance(a, b, X_WB, &point);
//   EXPECT_FALSE(outcome.ok());
//   EXPECT_NE(outcome.message().find("'a' / 'b'"), std::string::npos) << outcome.message();

#include <gtest/gtest.h>

#include "quasidyn/common/outcome.h"

namespace quasidyn::testing {

// Success when `outcome` is ok; otherwise a failure with its message.
inline ::testing::AssertionResult IsOk(const Outcome& outcome) {
  if (outcome.ok()) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << outcome.message();
}

}  // namespace quasidyn::testing
