#include <gtest/gtest.h>

#include <cmath>

#include "quasidyn/stepping/body_motion.h"

namespace quasidyn {
namespace {

TEST(BodyMotion, ShapeBoundingRadiiReachTheFurthestPoint) {
  Shape sphere;
  sphere.radius = 0.05;
  EXPECT_DOUBLE_EQ(ShapeBoundingRadius(sphere), 0.05);
  Shape box;
  box.type = ShapeType::kBox;
  box.size << 0.2, 0.4, 0.4;  // half diagonal √(0.01 + 0.04 + 0.04) = 0.3
  EXPECT_DOUBLE_EQ(ShapeBoundingRadius(box), 0.3);
  Shape capsule;
  capsule.type = ShapeType::kCapsule;
  capsule.radius = 0.01;
  capsule.length = 0.08;
  EXPECT_DOUBLE_EQ(ShapeBoundingRadius(capsule), 0.05);
  Shape cylinder;
  cylinder.type = ShapeType::kCylinder;
  cylinder.radius = 0.03;
  cylinder.length = 0.08;  // √(0.03² + 0.04²) = 0.05
  EXPECT_DOUBLE_EQ(ShapeBoundingRadius(cylinder), 0.05);
  Shape convex;
  convex.type = ShapeType::kConvex;
  convex.vertices = {{0.1, 0, 0}, {0, 0.2, 0}, {0, 0, -0.3}, {0.01, 0.01, 0.01}};
  EXPECT_DOUBLE_EQ(ShapeBoundingRadius(convex), 0.3);
  Shape half_space;
  half_space.type = ShapeType::kHalfSpace;
  EXPECT_TRUE(std::isinf(ShapeBoundingRadius(half_space)));
}

// m = ‖Δp‖ + θ r: a translation alone, a rotation about the origin alone (the arc θ r, which
// bounds the chord 2 r sin(θ/2) that a point at r really moves), and both; the angle of R⁺Rᵀ
// whatever R is, small and near π.
TEST(BodyMotion, MotionIsTranslationPlusAngleTimesRadius) {
  Eigen::Isometry3d start = Eigen::Isometry3d::Identity();
  start.linear() = Eigen::AngleAxisd(0.7, Eigen::Vector3d(1, 2, 3).normalized()).toRotationMatrix();
  start.translation() << 0.1, -0.2, 0.3;
  Eigen::Isometry3d end = start;
  end.translation() += Eigen::Vector3d(0.03, 0.04, 0.0);
  EXPECT_NEAR(BodyMotionMeter::Motion(start, end, 0.5), 0.05, 1e-15);
  for (double angle : {1e-9, 0.3, 3.1}) {
    SCOPED_TRACE(angle);
    end = start;
    end.linear() =
        Eigen::AngleAxisd(angle, Eigen::Vector3d(0, 1, 1).normalized()).toRotationMatrix() *
        start.linear();
    EXPECT_NEAR(BodyMotionMeter::Motion(start, end, 0.2), angle * 0.2, 1e-12 * (1 + angle));
    end.translation() += Eigen::Vector3d(0, 0, 0.01);
    EXPECT_NEAR(BodyMotionMeter::Motion(start, end, 0.2), 0.01 + angle * 0.2, 1e-12);
  }
}

}  // namespace
}  // namespace quasidyn
