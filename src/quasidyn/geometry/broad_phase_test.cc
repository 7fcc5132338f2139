#include "quasidyn/geometry/broad_phase.h"

#include <gtest/gtest.h>

#include <cmath>
#include <numbers>
#include <random>
#include <stdexcept>

namespace quasidyn {
namespace {

using Eigen::Vector3d;

constexpr double kBroadPhaseTol = 1e-12;  // round-off bound for O(1) m coordinates (≈ 4500 ε)
constexpr double kPi = std::numbers::pi;

Eigen::Isometry3d Pose(const Vector3d& p, const Eigen::AngleAxisd& rotation) {
  Eigen::Isometry3d X = Eigen::Isometry3d::Identity();
  X.translation() = p;
  X.linear() = rotation.toRotationMatrix();
  return X;
}

void ExpectBox(const Aabb& box, const Vector3d& lower, const Vector3d& upper) {
  EXPECT_FALSE(box.unbounded);
  EXPECT_LT((box.lower - lower).norm(), kBroadPhaseTol) << box.lower.transpose();
  EXPECT_LT((box.upper - upper).norm(), kBroadPhaseTol) << box.upper.transpose();
}

TEST(ComputeWorldAabb, SpatialShapes) {
  const Eigen::AngleAxisd none(0, Vector3d::UnitZ());
  Shape sphere;
  sphere.type = ShapeType::kSphere;
  sphere.radius = 0.5;
  ExpectBox(ComputeWorldAabb(sphere, Pose({1, 2, 3}, none), false), {0.5, 1.5, 2.5},
            {1.5, 2.5, 3.5});

  // Box 2 × 1 × 0.5 turned 45° about z: x and y half widths (1 + 0.5) √2/2.
  Shape box;
  box.type = ShapeType::kBox;
  box.size = Vector3d(2, 1, 0.5);
  const double h = 1.5 * std::sqrt(0.5);
  ExpectBox(
      ComputeWorldAabb(box, Pose({0, 0, 1}, Eigen::AngleAxisd(kPi / 4, Vector3d::UnitZ())), false),
      {-h, -h, 0.75}, {h, h, 1.25});

  // Capsule r = 0.1, l = 1, axis turned onto world x.
  Shape capsule;
  capsule.type = ShapeType::kCapsule;
  capsule.radius = 0.1;
  capsule.length = 1.0;
  ExpectBox(ComputeWorldAabb(capsule,
                             Pose({0, 0, 0}, Eigen::AngleAxisd(kPi / 2, Vector3d::UnitY())), false),
            {-0.6, -0.1, -0.1}, {0.6, 0.1, 0.1});

  // Cylinder r = 0.2, l = 1, axis tilted 45° in the x-z plane, a = (√½, 0, √½): along x and
  // z the half width is √½·0.5 + 0.2·√½; along y it is the full radius 0.2.
  Shape cylinder;
  cylinder.type = ShapeType::kCylinder;
  cylinder.radius = 0.2;
  cylinder.length = 1.0;
  const double c = std::sqrt(0.5) * (0.5 + 0.2);
  ExpectBox(ComputeWorldAabb(cylinder,
                             Pose({0, 0, 0}, Eigen::AngleAxisd(kPi / 4, Vector3d::UnitY())), false),
            {-c, -0.2, -c}, {c, 0.2, c});

  Shape convex;
  convex.type = ShapeType::kConvex;
  convex.vertices = {{0, 0, 0}, {1, 0, 0}, {0, 2, 0}, {0, 0, 3}};
  ExpectBox(ComputeWorldAabb(convex, Pose({1, 1, 1}, none), false), {1, 1, 1}, {2, 3, 4});

  Shape half_space;
  half_space.type = ShapeType::kHalfSpace;
  EXPECT_TRUE(ComputeWorldAabb(half_space, Pose({0, 0, 0}, none), false).unbounded);
}

TEST(ComputeWorldAabb, PlanarShapesHaveZeroZExtent) {
  const Eigen::AngleAxisd quarter(kPi / 2, Vector3d::UnitZ());
  Shape stadium;  // segment along S's x, turned onto world y
  stadium.type = ShapeType::kCapsule;
  stadium.radius = 0.1;
  stadium.length = 1.0;
  ExpectBox(ComputeWorldAabb(stadium, Pose({1, 0, 0}, quarter), true), {0.9, -0.6, 0},
            {1.1, 0.6, 0});
  Shape rectangle;  // sz is ignored in planar scenes
  rectangle.type = ShapeType::kBox;
  rectangle.size = Vector3d(2, 1, 7);
  ExpectBox(ComputeWorldAabb(rectangle, Pose({0, 0, 0}, quarter), true), {-0.5, -1, 0},
            {0.5, 1, 0});
  Shape cylinder;
  cylinder.type = ShapeType::kCylinder;
  cylinder.radius = cylinder.length = 1;
  EXPECT_THROW(ComputeWorldAabb(cylinder, Pose({0, 0, 0}, quarter), true), std::invalid_argument);
  Shape bad_circle;
  bad_circle.radius = -1;
  EXPECT_THROW(ComputeWorldAabb(bad_circle, Pose({0, 0, 0}, quarter), true), std::invalid_argument);
}

Aabb Box(const Vector3d& lower, const Vector3d& upper) { return Aabb{lower, upper, false}; }

Aabb Unbounded() {
  Aabb box;
  box.unbounded = true;
  return box;
}

TEST(AabbsWithinTolerance, GapAlongOneAxis) {
  const Aabb a = Box({0, 0, 0}, {1, 1, 1});
  const Aabb b = Box({1.3, 0.5, 0.5}, {2, 2, 2});  // 0.3 apart along x
  EXPECT_FALSE(AabbsWithinTolerance(a, b, 0.29));
  EXPECT_TRUE(AabbsWithinTolerance(a, b, 0.31));
  EXPECT_TRUE(AabbsWithinTolerance(b, a, 0.31));
  EXPECT_TRUE(AabbsWithinTolerance(a, Unbounded(), 0.0));
}

TEST(OverlappingPairs, HandBuiltScene) {
  const std::vector<Aabb> boxes = {
      Box({0, 0, 0}, {1, 1, 0}),      // 0
      Box({5, 0, 0}, {6, 1, 0}),      // 1: far from all bounded boxes
      Unbounded(),                    // 2: unbounded
      Box({0.5, 0.5, 0}, {2, 2, 0}),  // 3: overlaps 0
      Box({2.05, 0, 0}, {3, 1, 0}),   // 4: 0.05 from 3
      Unbounded(),                    // 5: unbounded
  };
  using Pairs = std::vector<std::pair<int, int>>;
  EXPECT_EQ(
      OverlappingPairs(boxes, 0.0),
      Pairs({{0, 2}, {0, 3}, {0, 5}, {1, 2}, {1, 5}, {2, 3}, {2, 4}, {2, 5}, {3, 5}, {4, 5}}));
  EXPECT_EQ(OverlappingPairs(boxes, 0.1), Pairs({{0, 2},
                                                 {0, 3},
                                                 {0, 5},
                                                 {1, 2},
                                                 {1, 5},
                                                 {2, 3},
                                                 {2, 4},
                                                 {2, 5},
                                                 {3, 4},
                                                 {3, 5},
                                                 {4, 5}}));
  EXPECT_THROW(OverlappingPairs(boxes, -1.0), std::invalid_argument);
}

TEST(OverlappingPairs, MatchesAllPairsTest) {
  // The sweep must find exactly the pairs the all-pairs test finds, in (i, j) order.
  std::mt19937 random(3);
  std::uniform_real_distribution<double> corner(-5.0, 5.0);
  std::uniform_real_distribution<double> extent(0.0, 1.5);
  std::vector<Aabb> boxes;
  for (int i = 0; i < 200; ++i) {
    const Vector3d lower(corner(random), corner(random), corner(random));
    boxes.push_back(Box(lower, lower + Vector3d(extent(random), extent(random), extent(random))));
  }
  boxes[17].unbounded = true;
  const double tolerance = 0.2;
  std::vector<std::pair<int, int>> expected;
  for (int i = 0; i < 200; ++i) {
    for (int j = i + 1; j < 200; ++j) {
      if (AabbsWithinTolerance(boxes[i], boxes[j], tolerance)) expected.emplace_back(i, j);
    }
  }
  EXPECT_GT(expected.size(), 250u);  // not a vacuous comparison (199 come from box 17)
  EXPECT_EQ(OverlappingPairs(boxes, tolerance), expected);
}

}  // namespace
}  // namespace quasidyn
