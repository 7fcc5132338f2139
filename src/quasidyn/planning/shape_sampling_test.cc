#include "quasidyn/planning/shape_sampling.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

namespace quasidyn {
namespace {

constexpr int kSamples = 4000;
constexpr double kOnSurface = 1e-12;  // [m], round-off of the sampled coordinates

Shape MakeShape(ShapeType type) {
  Shape s;
  s.type = type;
  s.radius = 0.05;
  s.length = 0.2;
  s.size = Eigen::Vector3d(0.2, 0.1, 0.06);
  s.vertices = {{0.1, 0, 0}, {-0.05, 0.08, 0}, {-0.05, -0.08, 0}, {0, 0, 0.1}};
  return s;
}

// Signed distance of p to the shape's surface (closed forms; > 0 outside).
double SignedDistance(const Shape& s, bool planar, const Eigen::Vector3d& p) {
  switch (s.type) {
    case ShapeType::kSphere:
      return p.norm() - s.radius;
    case ShapeType::kBox: {
      Eigen::Vector3d half = 0.5 * s.size;
      if (planar) half.z() = 1e9;
      const Eigen::Vector3d d = p.cwiseAbs() - half;
      return d.cwiseMax(0.0).norm() + std::min(d.maxCoeff(), 0.0);
    }
    case ShapeType::kCapsule: {
      const Eigen::Vector3d axis = planar ? Eigen::Vector3d::UnitX() : Eigen::Vector3d::UnitZ();
      const double t = std::clamp(p.dot(axis), -0.5 * s.length, 0.5 * s.length);
      return (p - t * axis).norm() - s.radius;
    }
    case ShapeType::kCylinder: {
      const Eigen::Vector2d d(p.head<2>().norm() - s.radius, std::abs(p.z()) - 0.5 * s.length);
      return d.cwiseMax(0.0).norm() + std::min(d.maxCoeff(), 0.0);
    }
    default:
      return 0.0;
  }
}

struct ShapeSamplingCase {
  ShapeType type;
  bool planar;
};

class SurfaceSamples : public ::testing::TestWithParam<ShapeSamplingCase> {};

TEST_P(SurfaceSamples, LieOnTheSurfaceWithOutwardUnitNormals) {
  const Shape shape = MakeShape(GetParam().type);
  const bool planar = GetParam().planar;
  Xoshiro256StarStar generator(11);
  for (int i = 0; i < kSamples; ++i) {
    const SurfacePoint s = SampleSurfacePoint(shape, planar, &generator);
    ASSERT_NEAR(s.normal.norm(), 1.0, 1e-12);
    if (planar) {
      ASSERT_EQ(s.point.z(), 0.0);
      ASSERT_EQ(s.normal.z(), 0.0);
    }
    ASSERT_NEAR(SignedDistance(shape, planar, s.point), 0.0, kOnSurface) << s.point.transpose();
    // Outward: a step along the normal leaves the shape, one against it enters it.
    ASSERT_GT(SignedDistance(shape, planar, s.point + 1e-4 * s.normal), 0.0);
    ASSERT_LT(SignedDistance(shape, planar, s.point - 1e-4 * s.normal), 0.0);
  }
}

INSTANTIATE_TEST_SUITE_P(Shapes, SurfaceSamples,
                         ::testing::Values(ShapeSamplingCase{ShapeType::kSphere, false},
                                           ShapeSamplingCase{ShapeType::kBox, false},
                                           ShapeSamplingCase{ShapeType::kCapsule, false},
                                           ShapeSamplingCase{ShapeType::kCylinder, false},
                                           ShapeSamplingCase{ShapeType::kSphere, true},
                                           ShapeSamplingCase{ShapeType::kBox, true},
                                           ShapeSamplingCase{ShapeType::kCapsule, true}),
                         // Named by shape and dimension (the default name prints the struct's
                         // bytes, padding included, which differ from build to build).
                         [](const ::testing::TestParamInfo<ShapeSamplingCase>& param_info) {
                           return std::string(ShapeTypeName(param_info.param.type)) +
                                  (param_info.param.planar ? "Planar" : "3D");
                         });

// Uniform in area: the share of box samples on the ±x faces is their share of the area,
// within 4 standard deviations of a binomial proportion.
TEST(SurfaceSamples, BoxFacesAreSampledByArea) {
  const Shape box = MakeShape(ShapeType::kBox);
  Xoshiro256StarStar generator(5);
  int on_x = 0;
  for (int i = 0; i < kSamples; ++i)
    on_x += std::abs(SampleSurfacePoint(box, false, &generator).normal.x()) == 1.0;
  const Eigen::Vector3d& s = box.size;
  const double p = s.y() * s.z() / (s.y() * s.z() + s.x() * s.z() + s.x() * s.y());
  EXPECT_NEAR(static_cast<double>(on_x) / kSamples, p, 4 * std::sqrt(p * (1 - p) / kSamples));
}

TEST(SurfaceSamples, ConvexSamplesAreVerticesAndHalfSpacesAreRefused) {
  const Shape convex = MakeShape(ShapeType::kConvex);
  Xoshiro256StarStar generator(2);
  const SurfacePoint s = SampleSurfacePoint(convex, false, &generator);
  bool is_vertex = false;
  for (const Eigen::Vector3d& v : convex.vertices) is_vertex |= v == s.point;
  EXPECT_TRUE(is_vertex);
  EXPECT_THROW(SampleSurfacePoint(MakeShape(ShapeType::kHalfSpace), false, &generator),
               std::invalid_argument);
}

TEST(RobotAnchors, RoundShapesTouchWithTheirCore) {
  Xoshiro256StarStar generator(3);
  const RobotAnchor sphere = SampleRobotAnchor(MakeShape(ShapeType::kSphere), false, &generator);
  EXPECT_EQ(sphere.anchor, Eigen::Vector3d::Zero());
  EXPECT_EQ(sphere.offset, 0.05);
  for (bool planar : {false, true}) {
    const RobotAnchor capsule =
        SampleRobotAnchor(MakeShape(ShapeType::kCapsule), planar, &generator);
    EXPECT_EQ(capsule.offset, 0.05);
    EXPECT_LE(capsule.anchor.norm(), 0.1);
    EXPECT_EQ(capsule.anchor[planar ? 2 : 0], 0.0);
  }
  const RobotAnchor box = SampleRobotAnchor(MakeShape(ShapeType::kBox), false, &generator);
  EXPECT_EQ(box.offset, 0.0);
  EXPECT_NEAR(SignedDistance(MakeShape(ShapeType::kBox), false, box.anchor), 0.0, kOnSurface);
}

}  // namespace
}  // namespace quasidyn
