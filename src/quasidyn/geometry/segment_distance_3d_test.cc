#include "quasidyn/geometry/segment_distance_3d.h"

#include <gtest/gtest.h>

namespace quasidyn {
namespace {

constexpr double kSegmentDistance3dTol = 1e-14;  // exact arithmetic on small integers and halves

TEST(SegmentDistance3d, SkewSegmentsMeetInTheirInteriors) {
  // P along x at z = 1, Q along y at z = 0: closest points (0.5, 0, 1) and (0.5, 0, 0).
  const auto c = ClosestPointsOfSegments({0, 0, 1}, {1, 0, 1}, {0.5, -1, 0}, {0.5, 1, 0});
  EXPECT_NEAR((c.on_p - Eigen::Vector3d(0.5, 0, 1)).norm(), 0.0, kSegmentDistance3dTol);
  EXPECT_NEAR((c.on_q - Eigen::Vector3d(0.5, 0, 0)).norm(), 0.0, kSegmentDistance3dTol);
  EXPECT_NEAR(c.s, 0.5, kSegmentDistance3dTol);
  EXPECT_NEAR(c.t, 0.5, kSegmentDistance3dTol);
}

TEST(SegmentDistance3d, ClampsToEndPoints) {
  // Q (x = 2, y in [-1, 1]) lies beyond P's end (1, 0, 0): closest is Q's point (2, 0, 0).
  const auto c = ClosestPointsOfSegments({0, 0, 0}, {1, 0, 0}, {2, -1, 0}, {2, 1, 0});
  EXPECT_NEAR((c.on_p - Eigen::Vector3d(1, 0, 0)).norm(), 0.0, kSegmentDistance3dTol);
  EXPECT_NEAR((c.on_q - Eigen::Vector3d(2, 0, 0)).norm(), 0.0, kSegmentDistance3dTol);
}

TEST(SegmentDistance3d, ParallelOverlapGivesMiddleOfOverlap) {
  // P: x in [0, 2] at y = 0; Q: x in [1, 4] at y = 1. Overlap x in [1, 2], middle 1.5.
  const auto c = ClosestPointsOfSegments({0, 0, 0}, {2, 0, 0}, {4, 1, 0}, {1, 1, 0});
  EXPECT_NEAR((c.on_p - Eigen::Vector3d(1.5, 0, 0)).norm(), 0.0, kSegmentDistance3dTol);
  EXPECT_NEAR((c.on_q - Eigen::Vector3d(1.5, 1, 0)).norm(), 0.0, kSegmentDistance3dTol);
}

TEST(SegmentDistance3d, ParallelWithoutOverlapGivesNearestEnds) {
  const auto c = ClosestPointsOfSegments({0, 0, 0}, {1, 0, 0}, {3, 1, 0}, {5, 1, 0});
  EXPECT_NEAR((c.on_p - Eigen::Vector3d(1, 0, 0)).norm(), 0.0, kSegmentDistance3dTol);
  EXPECT_NEAR((c.on_q - Eigen::Vector3d(3, 1, 0)).norm(), 0.0, kSegmentDistance3dTol);
}

TEST(SegmentDistance3d, PointAgainstSegment) {
  const auto c = ClosestPointsOfSegments({0.25, 3, 0}, {0.25, 3, 0}, {0, 0, 0}, {1, 0, 0});
  EXPECT_NEAR((c.on_q - Eigen::Vector3d(0.25, 0, 0)).norm(), 0.0, kSegmentDistance3dTol);
  const auto d = ClosestPointsOfSegments({0, 0, 0}, {1, 0, 0}, {-2, 1, 0}, {-2, 1, 0});
  EXPECT_NEAR((d.on_p - Eigen::Vector3d(0, 0, 0)).norm(), 0.0, kSegmentDistance3dTol);
}

}  // namespace
}  // namespace quasidyn
