// AllFinite (all_finite.h): true for finite values of every size, false for a NaN, +inf or −inf
// at any place, in the four-wide part of the pass and in its tail alike.
#include "quasidyn/common/all_finite.h"

#include <gtest/gtest.h>

#include <limits>
#include <vector>

namespace quasidyn {
namespace {

TEST(AllFiniteTest, FindsANonFiniteValueAtEveryPlaceOfEverySize) {
  const double non_finite[] = {std::numeric_limits<double>::quiet_NaN(),
                               std::numeric_limits<double>::infinity(),
                               -std::numeric_limits<double>::infinity()};
  for (int count = 0; count <= 9; ++count) {
    std::vector<double> v(count);
    for (int i = 0; i < count; ++i) v[i] = (i % 2 ? -1.0 : 1.0) * 1e300 * (i + 1) / 10.0;
    EXPECT_TRUE(AllFinite(v.data(), count)) << count << " values";
    for (int at = 0; at < count; ++at) {
      for (const double bad : non_finite) {
        std::vector<double> w = v;
        w[at] = bad;
        EXPECT_FALSE(AllFinite(w.data(), count)) << count << " values, " << bad << " at " << at;
      }
    }
  }
  const double huge[] = {std::numeric_limits<double>::max(), -std::numeric_limits<double>::max(),
                         std::numeric_limits<double>::denorm_min(), -0.0};
  EXPECT_TRUE(AllFinite(huge, 4));  // v − v is 0 even where v + v would overflow
}

}  // namespace
}  // namespace quasidyn
