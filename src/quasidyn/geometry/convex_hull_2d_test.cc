#include "quasidyn/geometry/convex_hull_2d.h"

#include <gtest/gtest.h>

#include <limits>
#include <stdexcept>

namespace quasidyn {
namespace {

using Eigen::Vector2d;
using Points = std::vector<Vector2d>;

TEST(ConvexHull2d, DropsInteriorCollinearAndRepeatedPoints) {
  // A square with an interior point, a point in the middle of an edge and a repeat.
  const Points hull = ConvexHull2d({{1, 1}, {0, 0}, {0.5, 0.5}, {1, 0}, {0.5, 0}, {0, 1}, {1, 1}});
  const Points expected = {{0, 0}, {1, 0}, {1, 1}, {0, 1}};  // counter-clockwise
  ASSERT_EQ(hull.size(), expected.size());
  for (size_t i = 0; i < hull.size(); ++i) EXPECT_EQ(hull[i], expected[i]) << "vertex " << i;
}

TEST(ConvexHull2d, DegenerateInput) {
  EXPECT_EQ(ConvexHull2d({{2, 3}}), Points({{2, 3}}));
  EXPECT_EQ(ConvexHull2d({{2, 2}, {0, 0}, {1, 1}, {3, 3}}), Points({{0, 0}, {3, 3}}));
  EXPECT_TRUE(ConvexHull2d({}).empty());
}

TEST(ConvexHull2d, LengthToleranceDropsNearlyCollinearVertex) {
  // (1, 1e-7) is 1e-7 m off the edge (0,0)–(2,0).
  const Points points = {{0, 0}, {1, -1e-7}, {2, 0}, {1, 1}};
  EXPECT_EQ(ConvexHull2d(points).size(), 4u);
  EXPECT_EQ(ConvexHull2d(points, 1e-6).size(), 3u);
}

TEST(ConvexHull2d, RejectsBadInput) {
  EXPECT_THROW(ConvexHull2d({{0, 0}, {std::numeric_limits<double>::quiet_NaN(), 1}}),
               std::invalid_argument);
  EXPECT_THROW(ConvexHull2d({{0, 0}}, -1.0), std::invalid_argument);
}

}  // namespace
}  // namespace quasidyn
