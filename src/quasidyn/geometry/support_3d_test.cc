// The allocation-free SupportFeature3d overload. Expected values are worked out by hand in
// the comments.
#include "quasidyn/geometry/support_3d.h"

#include <gtest/gtest.h>

#include <cmath>
#include <numbers>
#include <vector>

namespace quasidyn {
namespace {

TEST(SupportFeature3d, BoxTopFaceInBothForms) {
  Shape box;
  box.type = ShapeType::kBox;
  box.size = Eigen::Vector3d(2.0, 4.0, 6.0);
  Eigen::Isometry3d X_WS = Eigen::Isometry3d::Identity();
  X_WS.translation() = Eigen::Vector3d(1.0, 0.0, 0.0);
  // Along +z the 4 corners with z = +3 tie; world x = 1 ± 1, y = ±2.
  PointList feature;
  SupportFeature3d(box, X_WS, Eigen::Vector3d::UnitZ(), 0.0, &feature);
  const std::vector<Eigen::Vector3d> as_vector =
      SupportFeature3d(box, X_WS, Eigen::Vector3d::UnitZ(), 0.0);
  ASSERT_EQ(feature.size(), 4u);
  ASSERT_EQ(as_vector.size(), 4u);
  for (size_t i = 0; i < 4; ++i) {
    EXPECT_EQ(feature[i], as_vector[i]);
    EXPECT_EQ(feature[i].z(), 3.0);
    EXPECT_EQ(std::abs(feature[i].x() - 1.0), 1.0);
    EXPECT_EQ(std::abs(feature[i].y()), 2.0);
  }
}

TEST(SupportFeature3d, ConvexFaceLargerThanTheInlineStorage) {
  // A prism over a regular 24-gon of radius 1, z in {0, 1}: its top face has 24 vertices,
  // more than kInlinePoints, so the feature spills to the heap and must keep all of them.
  constexpr int kSides = 24;
  static_assert(kSides > static_cast<int>(kInlinePoints));
  Shape prism;
  prism.type = ShapeType::kConvex;
  for (int k = 0; k < kSides; ++k) {
    const double angle = 2.0 * std::numbers::pi * k / kSides;
    prism.vertices.emplace_back(std::cos(angle), std::sin(angle), 0.0);
    prism.vertices.emplace_back(std::cos(angle), std::sin(angle), 1.0);
  }
  PointList feature;
  SupportFeature3d(prism, Eigen::Isometry3d::Identity(), Eigen::Vector3d::UnitZ(), 0.0, &feature);
  ASSERT_EQ(feature.size(), static_cast<size_t>(kSides));
  for (size_t i = 0; i < feature.size(); ++i) {
    EXPECT_EQ(feature[i], prism.vertices[2 * i + 1]);  // the top vertices, in input order
  }
}

}  // namespace
}  // namespace quasidyn
