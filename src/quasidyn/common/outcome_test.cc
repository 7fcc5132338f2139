#include "quasidyn/common/outcome.h"

#include <gtest/gtest.h>

namespace quasidyn {
namespace {

TEST(Outcome, OkIsTruthyWithoutAMessage) {
  const Outcome ok = Outcome::Ok();
  EXPECT_TRUE(ok.ok());
  EXPECT_TRUE(static_cast<bool>(ok));
  EXPECT_TRUE(ok.message().empty());
  EXPECT_TRUE(Outcome().ok());
}

TEST(Outcome, FailureIsFalsyAndCarriesItsMessage) {
  Outcome failed = Outcome::Failure("pair 'a' / 'b': GJK did not converge");
  EXPECT_FALSE(failed.ok());
  EXPECT_FALSE(static_cast<bool>(failed));
  EXPECT_EQ(failed.message(), "pair 'a' / 'b': GJK did not converge");
  EXPECT_EQ(failed.TakeMessage(), "pair 'a' / 'b': GJK did not converge");
  // Even an empty message is a failure: failing is not told by the text.
  EXPECT_FALSE(Outcome::Failure("").ok());
}

}  // namespace
}  // namespace quasidyn
