#include "quasidyn/geometry/convex_quadrics.h"

#include <gtest/gtest.h>

#include <Eigen/Eigenvalues>
#include <cmath>
#include <random>

#include "quasidyn/geometry/polytope_facets.h"

namespace quasidyn {
namespace {

using Eigen::Vector3d;

constexpr double kTight = 1e-12;

ConvexQuadricSet SetOf(const Shape& shape) {
  ConvexQuadricSet set;
  const Outcome outcome = ConvexQuadricSetFromShape(shape, &set);
  EXPECT_TRUE(outcome.ok()) << outcome.message();
  return set;
}

Shape Box(double x, double y, double z) {
  Shape s;
  s.type = ShapeType::kBox;
  s.size = Vector3d(x, y, z);
  return s;
}

void ExpectConvexAndUnitOnSurface(const ConvexQuadricSet& set, const Vector3d& surface_point,
                                  int active) {
  for (const Quadric& q : set.inequalities) {
    EXPECT_GE(Eigen::SelfAdjointEigenSolver<Eigen::Matrix3d>(q.A).eigenvalues().minCoeff(),
              -kTight);
  }
  EXPECT_NEAR(set.inequalities[active].Value(surface_point), 0.0, kTight);
  EXPECT_NEAR(set.inequalities[active].Gradient(surface_point).norm(), 1.0, kTight);
  EXPECT_NEAR(set.MaxValue(surface_point), 0.0, kTight);
}

TEST(ConvexQuadrics, BoxIsSixPlanesWithDistancesOutsideItsFaces) {
  const ConvexQuadricSet box = SetOf(Box(2, 4, 6));
  ASSERT_EQ(box.size(), 6);
  EXPECT_NEAR(box.MaxValue(Vector3d::Zero()), -1.0, kTight);  // nearest face at 1 m
  ExpectConvexAndUnitOnSurface(box, Vector3d(1, 0.5, -2), 0);
  EXPECT_NEAR(box.MaxValue(Vector3d(0.2, 0.1, 3.5)), 0.5, kTight);  // 0.5 m above the top face
  EXPECT_NEAR(box.bounding_radius, std::sqrt(1 + 4 + 9), kTight);
}

TEST(ConvexQuadrics, CylinderIsTheDiskConstraintAndTwoEndPlanes) {
  Shape s;
  s.type = ShapeType::kCylinder;
  s.radius = 1.0;
  s.length = 5.0;
  const ConvexQuadricSet cylinder = SetOf(s);
  ASSERT_EQ(cylinder.size(), 3);
  const Vector3d side(std::cos(0.3), std::sin(0.3), 1.7);
  ExpectConvexAndUnitOnSurface(cylinder, side, 0);
  EXPECT_NEAR(cylinder.inequalities[0].Gradient(side).z(), 0.0, kTight);  // radial
  ExpectConvexAndUnitOnSurface(cylinder, Vector3d(0.3, -0.2, 2.5), 1);
  ExpectConvexAndUnitOnSurface(cylinder, Vector3d(0.3, -0.2, -2.5), 2);
  // (d² − r²)/(2r) at d = 2: 1.5, the distance 1 to first order.
  EXPECT_NEAR(cylinder.inequalities[0].Value(Vector3d(2, 0, 0)), 1.5, kTight);
}

TEST(ConvexQuadrics, SphereAndEllipsoid) {
  Shape s;
  s.type = ShapeType::kSphere;
  s.radius = 0.5;
  const ConvexQuadricSet sphere = SetOf(s);
  ExpectConvexAndUnitOnSurface(sphere, Vector3d(0.3, 0.0, 0.4), 0);
  const ConvexQuadricSet ellipsoid = EllipsoidQuadricSet(Vector3d(1, 2, 3));
  ExpectConvexAndUnitOnSurface(ellipsoid, Vector3d(1, 0, 0), 0);  // smallest axis: |∇f| = 1
  const Vector3d p(0.6, 0.8 * 2 * std::cos(0.4), 0.8 * 3 * std::sin(0.4));
  EXPECT_NEAR(ellipsoid.inequalities[0].Value(p), 0.0, kTight);
  EXPECT_NEAR(ellipsoid.inequalities[0].Gradient(Vector3d(0, 0, 3)).norm(), 1.0 / 3.0, kTight);
  EXPECT_DOUBLE_EQ(ellipsoid.bounding_radius, 3.0);
}

TEST(ConvexQuadrics, HalfSpaceIsUnbounded) {
  Shape s;
  s.type = ShapeType::kHalfSpace;
  const ConvexQuadricSet half = SetOf(s);
  EXPECT_FALSE(half.bounded());
  EXPECT_DOUBLE_EQ(half.MaxValue(Vector3d(5, -3, 0.25)), 0.25);
}

TEST(ConvexQuadrics, ConvexPolytopesGetTheirHullsFacets) {
  Shape cube;
  cube.type = ShapeType::kConvex;
  for (int i = 0; i < 8; ++i)
    cube.vertices.emplace_back(i & 1 ? 1 : -1, i & 2 ? 1 : -1, i & 4 ? 1 : -1);
  cube.vertices.emplace_back(0, 0, 0);    // interior point: no facet
  cube.vertices.emplace_back(0, 0, 1.0);  // on the top face: merged into it
  const ConvexQuadricSet set = SetOf(cube);
  EXPECT_EQ(set.size(), 6);
  std::mt19937 random(4);
  std::uniform_real_distribution<double> u(-2, 2);
  const ConvexQuadricSet box = SetOf(Box(2, 2, 2));
  for (int trial = 0; trial < 50; ++trial) {
    const Vector3d p(u(random), u(random), u(random));
    EXPECT_NEAR(set.MaxValue(p), box.MaxValue(p), 1e-12);  // the same set
  }
  Shape tetra;
  tetra.type = ShapeType::kConvex;
  tetra.vertices = {Vector3d(0, 0, 0), Vector3d(1, 0, 0), Vector3d(0, 1, 0), Vector3d(0, 0, 1)};
  const ConvexQuadricSet t = SetOf(tetra);
  EXPECT_EQ(t.size(), 4);
  EXPECT_NEAR(t.MaxValue(Vector3d(1, 1, 1) / 3.0), 0.0, kTight);  // on the slanted face
  EXPECT_NEAR(t.MaxValue(Vector3d(0.1, 0.1, 0.1)), -0.1, kTight);
}

TEST(ConvexQuadrics, ShapesWithoutSuchInequalitiesAreNamed) {
  ConvexQuadricSet set;
  Shape capsule;
  capsule.type = ShapeType::kCapsule;
  capsule.radius = 0.1;
  capsule.length = 0.3;
  Outcome outcome = ConvexQuadricSetFromShape(capsule, &set);
  EXPECT_FALSE(outcome.ok());
  EXPECT_EQ(set.size(), 0);
  EXPECT_NE(outcome.message().find("capsule"), std::string::npos) << outcome.message();
  Shape flat;
  flat.type = ShapeType::kConvex;
  flat.vertices = {Vector3d(0, 0, 0), Vector3d(1, 0, 0), Vector3d(0, 1, 0), Vector3d(1, 1, 0)};
  outcome = ConvexQuadricSetFromShape(flat, &set);
  EXPECT_FALSE(outcome.ok());
  EXPECT_EQ(set.size(), 0);
  EXPECT_FALSE(outcome.message().empty());
  std::vector<Vector3d> many;
  for (int i = 0; i <= kMaxPolytopeFacetVertices; ++i) {
    many.emplace_back(std::cos(i), std::sin(i), std::sin(3.0 * i));
  }
  std::vector<PolytopeFacet> facets = {PolytopeFacet()};
  outcome = ConvexHullFacets(many, &facets);
  EXPECT_FALSE(outcome.ok());
  EXPECT_TRUE(facets.empty());
  EXPECT_NE(outcome.message().find("at most"), std::string::npos) << outcome.message();
}

TEST(ConvexQuadrics, TransformKeepsValuesAndGradients) {
  Shape s;
  s.type = ShapeType::kCylinder;
  s.radius = 0.3;
  s.length = 0.8;
  const ConvexQuadricSet old_set = SetOf(s);
  Eigen::Isometry3d X = Eigen::Isometry3d::Identity();
  X.linear() = Eigen::AngleAxisd(0.7, Vector3d(1, 2, -1).normalized()).toRotationMatrix();
  X.translation() = Vector3d(0.5, -1.0, 2.0);
  const ConvexQuadricSet new_set = TransformQuadricSet(old_set, X);
  for (const Vector3d& eta : {Vector3d(0.1, 0.2, 0.3), Vector3d(-1, 0.5, 2)}) {
    for (int i = 0; i < old_set.size(); ++i) {
      const Quadric& a = old_set.inequalities[i];
      const Quadric& b = new_set.inequalities[i];
      EXPECT_NEAR(b.Value(eta), a.Value(X * eta), 1e-12);
      // ∇_η f = Rᵀ ∇_ξ f.
      EXPECT_LT((b.Gradient(eta) - X.linear().transpose() * a.Gradient(X * eta)).norm(), 1e-12);
    }
  }
  EXPECT_LT((X * new_set.bounding_center - old_set.bounding_center).norm(), 1e-12);
}

}  // namespace
}  // namespace quasidyn
