#include "quasidyn/geometry/planar_shape_2d.h"

#include <gtest/gtest.h>

#include <cmath>
#include <numbers>
#include <stdexcept>

namespace quasidyn {
namespace {

using Eigen::Vector2d;

constexpr double kPlanarShape2dTol = 1e-12;  // round-off bound for O(1) m coordinates (≈ 4500 ε)

TEST(MakePlanarShape2d, CoresAndRadii) {
  Shape stadium;
  stadium.type = ShapeType::kCapsule;
  stadium.radius = 0.1;
  stadium.length = 2.0;
  const PlanarShape2d s = MakePlanarShape2d(stadium);
  ASSERT_EQ(s.core.size(), 2u);  // segment along S's x
  EXPECT_EQ(s.core[0], Vector2d(-1, 0));
  EXPECT_EQ(s.core[1], Vector2d(1, 0));
  EXPECT_EQ(s.radius, 0.1);

  Shape box;
  box.type = ShapeType::kBox;
  box.size = Eigen::Vector3d(2, 1, 5);
  const PlanarShape2d r = MakePlanarShape2d(box);
  ASSERT_EQ(r.core.size(), 4u);
  EXPECT_EQ(r.core[0], Vector2d(-1, -0.5));  // counter-clockwise from the lower left
  EXPECT_EQ(r.core[1], Vector2d(1, -0.5));
  EXPECT_EQ(r.core[2], Vector2d(1, 0.5));
  EXPECT_EQ(r.radius, 0.0);

  Shape half_space;
  half_space.type = ShapeType::kHalfSpace;
  const PlanarShape2d h = MakePlanarShape2d(half_space);
  EXPECT_TRUE(h.is_half_plane);
  EXPECT_EQ(h.normal, Vector2d(0, 1));
}

TEST(TransformPlanarShape2d, RotatesAboutZThenTranslates) {
  Shape box;
  box.type = ShapeType::kBox;
  box.size = Eigen::Vector3d(2, 1, 1);
  Eigen::Isometry3d X = Eigen::Isometry3d::Identity();
  X.translation() = Eigen::Vector3d(3, 4, 0);
  X.linear() = Eigen::AngleAxisd(std::numbers::pi / 2, Eigen::Vector3d::UnitZ()).toRotationMatrix();
  // Corner (1, −0.5) turned by 90° is (0.5, 1), then moved by (3, 4).
  const PlanarShape2d world = TransformPlanarShape2d(MakePlanarShape2d(box), X);
  EXPECT_LT((world.core[1] - Vector2d(3.5, 5)).norm(), kPlanarShape2dTol);
  Shape half_space;
  half_space.type = ShapeType::kHalfSpace;
  const PlanarShape2d plane = TransformPlanarShape2d(MakePlanarShape2d(half_space), X);
  EXPECT_LT((plane.normal - Vector2d(-1, 0)).norm(), kPlanarShape2dTol);
  EXPECT_LT((plane.point - Vector2d(3, 4)).norm(), kPlanarShape2dTol);
}

TEST(MakePlanarShape2d, RejectsBadShapes) {
  Shape cylinder;
  cylinder.type = ShapeType::kCylinder;
  cylinder.radius = cylinder.length = 1;
  EXPECT_THROW(MakePlanarShape2d(cylinder), std::invalid_argument);
  Shape stadium;
  stadium.type = ShapeType::kCapsule;
  stadium.radius = 0.1;
  stadium.length = 0.0;
  EXPECT_THROW(MakePlanarShape2d(stadium), std::invalid_argument);
  Shape polygon;
  polygon.type = ShapeType::kConvex;
  polygon.vertices = {{0, 0, 0}, {1, 0, 0}};
  EXPECT_THROW(MakePlanarShape2d(polygon), std::invalid_argument);
  Shape circle;
  circle.radius = std::nan("");
  EXPECT_THROW(MakePlanarShape2d(circle), std::invalid_argument);
}

}  // namespace
}  // namespace quasidyn
