// The usable ranges of the positive physical inputs (model/physical_ranges.h): their text, the
// boundaries (accepted) and the values just outside (refused), subnormals and 0, and the docs'
// table (docs/scene-format.md, "Limits"), which must list every range as declared.

#include "quasidyn/model/physical_ranges.h"

#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <limits>
#include <sstream>
#include <string>

namespace quasidyn {
namespace {

TEST(PhysicalRanges, TextAndProblemNameTheRangeAndTheValue) {
  EXPECT_EQ(PhysicalRangeText(kTimeStepRange), "[1e-06, 10] s");
  EXPECT_EQ(PhysicalRangeText(kFrictionRange), "0 or [1e-06, 100]");
  EXPECT_EQ(PhysicalRangeProblem(kTimeStepRange, 1e-320),
            "must lie within [1e-06, 10] s, got 1e-320");
  EXPECT_EQ(PhysicalRangeProblem(kTimeStepRange, 1e-320, "1e-320"),
            "must lie within [1e-06, 10] s, got 1e-320");
  EXPECT_EQ(PhysicalRangeProblem(kContactToleranceRange, -1.0),
            "must be 0 or lie within [1e-09, 1e+12] m, got -1");
  EXPECT_EQ(PhysicalRangeProblem(kMassRange, 1.0), "");
}

// Every range: its bounds are usable, the next doubles outside are not, nor any subnormal, NaN
// or infinity; 0 only where the range allows it.
TEST(PhysicalRanges, BoundsAcceptedJustOutsideSubnormalAndNonFiniteRefused) {
  const double inf = std::numeric_limits<double>::infinity();
  for (const PhysicalRange* range : AllPhysicalRanges()) {
    SCOPED_TRACE(std::string(range->quantity));
    ASSERT_LT(range->min, range->max);
    EXPECT_TRUE(std::isnormal(range->min));
    EXPECT_TRUE(InPhysicalRange(*range, range->min));
    EXPECT_TRUE(InPhysicalRange(*range, range->max));
    EXPECT_FALSE(InPhysicalRange(*range, std::nextafter(range->min, 0.0)));
    EXPECT_FALSE(InPhysicalRange(*range, std::nextafter(range->max, inf)));
    for (double bad : {5e-324, 1e-310, std::numeric_limits<double>::min() / 2, -range->min, inf,
                       -inf, std::nan("")})
      EXPECT_FALSE(InPhysicalRange(*range, bad)) << bad;
    EXPECT_EQ(InPhysicalRange(*range, 0.0), range->zero_allowed);
    EXPECT_FALSE(range->reason.empty());
  }
}

// docs/scene-format.md's table of ranges has one row per range, its quantity and its text as
// PhysicalRangeText writes them: the docs are this declaration.
TEST(PhysicalRanges, TheDocsTableListsEveryRangeAsDeclared) {
  std::ifstream file(std::string(QUASIDYN_SOURCE_DIR) + "/docs/scene-format.md");
  ASSERT_TRUE(file.good());
  std::stringstream text;
  text << file.rdbuf();
  for (const PhysicalRange* range : AllPhysicalRanges()) {
    const std::string row =
        "| " + std::string(range->quantity) + " | " + PhysicalRangeText(*range) + " |";
    EXPECT_NE(text.str().find(row), std::string::npos) << "missing docs row: " << row;
  }
}

}  // namespace
}  // namespace quasidyn
