#include "quasidyn/geometry/narrow_phase_2d.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>
#include <random>
#include <stdexcept>

namespace quasidyn {
namespace {

using Eigen::Vector3d;

// Coordinates in these tests are O(1) m; the closed-form values below are exact up to a
// few roundings, so 1e-12 m (about 4500 ε at 1 m) is a generous round-off bound.
constexpr double kTol = 1e-12;
constexpr double kPi = std::numbers::pi;

Eigen::Isometry3d Pose(double x, double y, double theta = 0.0) {
  Eigen::Isometry3d X = Eigen::Isometry3d::Identity();
  X.translation() = Vector3d(x, y, 0.0);
  X.linear() = Eigen::AngleAxisd(theta, Vector3d::UnitZ()).toRotationMatrix();
  return X;
}

Shape Circle(double radius) {
  Shape s;
  s.type = ShapeType::kSphere;
  s.radius = radius;
  return s;
}

Shape Rectangle(double sx, double sy) {
  Shape s;
  s.type = ShapeType::kBox;
  s.size = Vector3d(sx, sy, 1.0);
  return s;
}

Shape Stadium(double radius, double length) {
  Shape s;
  s.type = ShapeType::kCapsule;
  s.radius = radius;
  s.length = length;
  return s;
}

Shape Polygon(const std::vector<Eigen::Vector2d>& vertices) {
  Shape s;
  s.type = ShapeType::kConvex;
  for (const auto& v : vertices) s.vertices.emplace_back(v.x(), v.y(), 0.0);
  return s;
}

Shape HalfPlane() {
  Shape s;
  s.type = ShapeType::kHalfSpace;
  return s;
}

void ExpectVectorNear(const Vector3d& actual, const Vector3d& expected, double tol = kTol) {
  EXPECT_NEAR((actual - expected).norm(), 0.0, tol)
      << "actual " << actual.transpose() << ", expected " << expected.transpose();
}

void ExpectContact(const ContactPoint& c, double phi, const Vector3d& normal, const Vector3d& p_A,
                   const Vector3d& p_B) {
  EXPECT_NEAR(c.phi, phi, kTol);
  ExpectVectorNear(c.normal, normal);
  ExpectVectorNear(c.p_A, p_A);
  ExpectVectorNear(c.p_B, p_B);
}

// Sorts manifold points by their witness point on A (x, then y), to compare as sets.
std::vector<ContactPoint> SortedByPA(std::vector<ContactPoint> points) {
  std::sort(points.begin(), points.end(), [](const ContactPoint& a, const ContactPoint& b) {
    if (std::abs(a.p_A.x() - b.p_A.x()) > 1e-9) return a.p_A.x() < b.p_A.x();
    return a.p_A.y() < b.p_A.y();
  });
  return points;
}

// ---- circle – circle ---------------------------------------------------------------------

TEST(SignedDistance2d, CircleCircleSeparatedTouchingPenetrating) {
  // B: r = 1 at the origin; A: r = 0.5. Distance of centres 5 along (0.6, 0.8).
  ExpectContact(SignedDistance2d(Circle(0.5), Pose(3, 4), Circle(1.0), Pose(0, 0)), 3.5,
                Vector3d(0.6, 0.8, 0), Vector3d(2.7, 3.6, 0), Vector3d(0.6, 0.8, 0));
  ExpectContact(SignedDistance2d(Circle(0.5), Pose(1.5, 0), Circle(1.0), Pose(0, 0)), 0.0,
                Vector3d(1, 0, 0), Vector3d(1, 0, 0), Vector3d(1, 0, 0));
  ExpectContact(SignedDistance2d(Circle(0.5), Pose(0, 1), Circle(1.0), Pose(0, 0)), -0.5,
                Vector3d(0, 1, 0), Vector3d(0, 0.5, 0), Vector3d(0, 1, 0));
}

TEST(SignedDistance2d, ConcentricCirclesUsePlusY) {
  const ContactPoint c = SignedDistance2d(Circle(0.5), Pose(2, 3), Circle(1.0), Pose(2, 3));
  ExpectContact(c, -1.5, Vector3d(0, 1, 0), Vector3d(2, 2.5, 0), Vector3d(2, 4, 0));
}

// ---- half-plane --------------------------------------------------------------------------

TEST(SignedDistance2d, CircleOnHalfPlaneBothOrders) {
  // Half-plane y <= 1; circle r = 0.5 centred at (2, 1.2): 0.3 deep.
  ExpectContact(SignedDistance2d(Circle(0.5), Pose(2, 1.2), HalfPlane(), Pose(0, 1)), -0.3,
                Vector3d(0, 1, 0), Vector3d(2, 0.7, 0), Vector3d(2, 1, 0));
  ExpectContact(SignedDistance2d(HalfPlane(), Pose(0, 1), Circle(0.5), Pose(2, 1.2)), -0.3,
                Vector3d(0, -1, 0), Vector3d(2, 1, 0), Vector3d(2, 0.7, 0));
}

TEST(SignedDistance2d, RotatedHalfPlane) {
  // Rotated by 90°, the outward normal R·(0, 1) = (−1, 0): the half-plane is x >= 0.
  const ContactPoint c =
      SignedDistance2d(Circle(0.5), Pose(-2, 5), HalfPlane(), Pose(0, 0, kPi / 2));
  ExpectContact(c, 1.5, Vector3d(-1, 0, 0), Vector3d(-1.5, 5, 0), Vector3d(0, 5, 0));
}

TEST(ContactManifold2d, RectangleFlatOnHalfPlaneGivesBottomCorners) {
  const auto points =
      SortedByPA(ContactManifold2d(Rectangle(2, 1), Pose(0, 0.5), HalfPlane(), Pose(0, 0), 0.01));
  ASSERT_EQ(points.size(), 2u);
  ExpectContact(points[0], 0.0, Vector3d(0, 1, 0), Vector3d(-1, 0, 0), Vector3d(-1, 0, 0));
  ExpectContact(points[1], 0.0, Vector3d(0, 1, 0), Vector3d(1, 0, 0), Vector3d(1, 0, 0));
  // The single closest pair of a flat face is the middle of the face.
  ExpectContact(SignedDistance2d(Rectangle(2, 1), Pose(0, 0.5), HalfPlane(), Pose(0, 0)), 0.0,
                Vector3d(0, 1, 0), Vector3d(0, 0, 0), Vector3d(0, 0, 0));
}

TEST(ContactManifold2d, TiltedRectangleOnHalfPlaneHasPerCornerPhi) {
  // Rectangle 2 × 1 centred at (0, 0.6), turned by θ = 0.1 rad: its bottom corners (∓1, −0.5)
  // are at heights 0.6 ∓ sin θ − 0.5 cos θ.
  const double theta = 0.1;
  const double phi_left = 0.6 - std::sin(theta) - 0.5 * std::cos(theta);
  const double phi_right = 0.6 + std::sin(theta) - 0.5 * std::cos(theta);
  ASSERT_LT(phi_left, 0.01);
  ASSERT_GT(phi_right, 0.01);
  const Eigen::Isometry3d X = Pose(0, 0.6, theta);
  auto narrow = ContactManifold2d(Rectangle(2, 1), X, HalfPlane(), Pose(0, 0), 0.01);
  ASSERT_EQ(narrow.size(), 1u);
  const Vector3d left = X * Vector3d(-1, -0.5, 0);
  ExpectContact(narrow[0], phi_left, Vector3d(0, 1, 0), left, Vector3d(left.x(), 0, 0));

  auto wide = SortedByPA(ContactManifold2d(Rectangle(2, 1), X, HalfPlane(), Pose(0, 0), 0.3));
  ASSERT_EQ(wide.size(), 2u);
  const Vector3d right = X * Vector3d(1, -0.5, 0);
  ExpectContact(wide[0], phi_left, Vector3d(0, 1, 0), left, Vector3d(left.x(), 0, 0));
  ExpectContact(wide[1], phi_right, Vector3d(0, 1, 0), right, Vector3d(right.x(), 0, 0));
}

TEST(ContactManifold2d, LiftedAboveToleranceGivesNothing) {
  EXPECT_TRUE(
      ContactManifold2d(Rectangle(2, 1), Pose(0, 0.52), HalfPlane(), Pose(0, 0), 0.01).empty());
  EXPECT_EQ(
      ContactManifold2d(Rectangle(2, 1), Pose(0, 0.505), HalfPlane(), Pose(0, 0), 0.01).size(), 2u);
}

TEST(ContactManifold2d, StadiumOnHalfPlane) {
  // Lying: both segment ends touch. Standing: only the lower end is within tolerance.
  const auto lying =
      SortedByPA(ContactManifold2d(Stadium(0.25, 2), Pose(0, 0.25), HalfPlane(), Pose(0, 0), 0.01));
  ASSERT_EQ(lying.size(), 2u);
  ExpectContact(lying[0], 0.0, Vector3d(0, 1, 0), Vector3d(-1, 0, 0), Vector3d(-1, 0, 0));
  ExpectContact(lying[1], 0.0, Vector3d(0, 1, 0), Vector3d(1, 0, 0), Vector3d(1, 0, 0));
  const auto standing =
      ContactManifold2d(Stadium(0.25, 2), Pose(3, 1.2, kPi / 2), HalfPlane(), Pose(0, 0), 0.01);
  ASSERT_EQ(standing.size(), 1u);
  ExpectContact(standing[0], -0.05, Vector3d(0, 1, 0), Vector3d(3, -0.05, 0), Vector3d(3, 0, 0));
}

// ---- rectangle – rectangle --------------------------------------------------------------

TEST(ContactManifold2d, RectangleOnLargerRectangleGivesItsBottomCorners) {
  // B: 4 × 1 at the origin (top face y = 0.5). A: unit square centred at (1, 0.9), 0.1 deep.
  const auto points = SortedByPA(
      ContactManifold2d(Rectangle(1, 1), Pose(1, 0.9), Rectangle(4, 1), Pose(0, 0), 0.01));
  ASSERT_EQ(points.size(), 2u);
  ExpectContact(points[0], -0.1, Vector3d(0, 1, 0), Vector3d(0.5, 0.4, 0), Vector3d(0.5, 0.5, 0));
  ExpectContact(points[1], -0.1, Vector3d(0, 1, 0), Vector3d(1.5, 0.4, 0), Vector3d(1.5, 0.5, 0));
}

TEST(ContactManifold2d, OverhangingRectangleGivesOverlapEndsInBothOrders) {
  // A: unit square centred at (2.2, 1.0) touching B's top; they overlap for x in [1.7, 2].
  const auto points = SortedByPA(
      ContactManifold2d(Rectangle(1, 1), Pose(2.2, 1.0), Rectangle(4, 1), Pose(0, 0), 0.01));
  ASSERT_EQ(points.size(), 2u);
  ExpectContact(points[0], 0.0, Vector3d(0, 1, 0), Vector3d(1.7, 0.5, 0), Vector3d(1.7, 0.5, 0));
  ExpectContact(points[1], 0.0, Vector3d(0, 1, 0), Vector3d(2.0, 0.5, 0), Vector3d(2.0, 0.5, 0));
  const auto swapped = SortedByPA(
      ContactManifold2d(Rectangle(4, 1), Pose(0, 0), Rectangle(1, 1), Pose(2.2, 1.0), 0.01));
  ASSERT_EQ(swapped.size(), 2u);
  ExpectContact(swapped[0], 0.0, Vector3d(0, -1, 0), Vector3d(1.7, 0.5, 0), Vector3d(1.7, 0.5, 0));
  ExpectContact(swapped[1], 0.0, Vector3d(0, -1, 0), Vector3d(2.0, 0.5, 0), Vector3d(2.0, 0.5, 0));
  // The single closest pair is the middle of the overlap.
  ExpectContact(SignedDistance2d(Rectangle(1, 1), Pose(2.2, 1.0), Rectangle(4, 1), Pose(0, 0)), 0.0,
                Vector3d(0, 1, 0), Vector3d(1.85, 0.5, 0), Vector3d(1.85, 0.5, 0));
}

TEST(ContactManifold2d, CornerToCornerIsOnePoint) {
  // A's lower-left corner (2.3, 0.9) faces B's upper-right corner (2, 0.5): offset (0.3, 0.4).
  const auto points =
      ContactManifold2d(Rectangle(1, 1), Pose(2.8, 1.4), Rectangle(4, 1), Pose(0, 0), 1.0);
  ASSERT_EQ(points.size(), 1u);
  ExpectContact(points[0], 0.5, Vector3d(0.6, 0.8, 0), Vector3d(2.3, 0.9, 0), Vector3d(2, 0.5, 0));
}

TEST(ContactManifold2d, DiamondCornerIntoFaceIsOnePoint) {
  // Unit square turned 45°: its lowest vertex is √2/2 below its centre; 0.05 deep.
  const double y = 0.5 + std::sqrt(0.5) - 0.05;
  const auto points =
      ContactManifold2d(Rectangle(1, 1), Pose(0.3, y, kPi / 4), Rectangle(4, 1), Pose(0, 0), 0.01);
  ASSERT_EQ(points.size(), 1u);
  ExpectContact(points[0], -0.05, Vector3d(0, 1, 0), Vector3d(0.3, 0.45, 0), Vector3d(0.3, 0.5, 0));
}

TEST(SignedDistance2d, DeepRectangleOverlapUsesMinimumSeparatingAxis) {
  // A (unit square at (0, 0.2)) inside B (4 × 1): overlaps along +y 0.8, along −y 1.2,
  // along ±x 2.5 — the minimum is +y.
  const auto points =
      SortedByPA(ContactManifold2d(Rectangle(1, 1), Pose(0, 0.2), Rectangle(4, 1), Pose(0, 0), 0));
  ASSERT_EQ(points.size(), 2u);
  ExpectContact(points[0], -0.8, Vector3d(0, 1, 0), Vector3d(-0.5, -0.3, 0),
                Vector3d(-0.5, 0.5, 0));
  ExpectContact(points[1], -0.8, Vector3d(0, 1, 0), Vector3d(0.5, -0.3, 0), Vector3d(0.5, 0.5, 0));
}

// ---- stadium, circle, polygon -------------------------------------------------------------

TEST(SignedDistance2d, CircleOverStadiumFaceAndEnd) {
  // Stadium: segment (−1, 0)–(1, 0), r = 0.25. Circle r = 0.5.
  ExpectContact(SignedDistance2d(Circle(0.5), Pose(0.3, 1.0), Stadium(0.25, 2), Pose(0, 0)), 0.25,
                Vector3d(0, 1, 0), Vector3d(0.3, 0.5, 0), Vector3d(0.3, 0.25, 0));
  // Beyond the end: centre offset (0.6, 0.8) from the end point (1, 0).
  const auto end =
      ContactManifold2d(Circle(0.5), Pose(1.6, 0.8), Stadium(0.25, 2), Pose(0, 0), 0.3);
  ASSERT_EQ(end.size(), 1u);
  ExpectContact(end[0], 0.25, Vector3d(0.6, 0.8, 0), Vector3d(1.3, 0.4, 0), Vector3d(1.15, 0.2, 0));
}

TEST(SignedDistance2d, CrossingStadiums) {
  // A: vertical segment x = 0.5, y ∈ [−1, 1]; B: horizontal segment y = 0, x ∈ [−1, 1].
  // The cores' Minkowski difference is x ∈ [−0.5, 1.5] × y ∈ [−1, 1]: the origin is 0.5
  // from its side x = −0.5, so A leaves along +x after 0.5, plus both radii.
  const auto points = ContactManifold2d(Stadium(0.25, 2), Pose(0.5, 0, kPi / 2), Stadium(0.25, 2),
                                        Pose(0, 0), 0.01);
  ASSERT_EQ(points.size(), 1u);
  ExpectContact(points[0], -1.0, Vector3d(1, 0, 0), Vector3d(0.25, 0, 0), Vector3d(1.25, 0, 0));
}

TEST(SignedDistance2d, PolygonIsHullOfItsVertices) {
  // Triangle (0,0), (2,0), (0,2) given out of order with an interior point. The circle at
  // (2, 2) is √2 from the hypotenuse x + y = 2, along (1, 1)/√2.
  const Shape triangle = Polygon({{2, 0}, {0.5, 0.5}, {0, 2}, {0, 0}});
  const Vector3d n = Vector3d(1, 1, 0).normalized();
  ExpectContact(SignedDistance2d(Circle(0.5), Pose(2, 2), triangle, Pose(0, 0)),
                std::sqrt(2.0) - 0.5, n, Vector3d(2, 2, 0) - 0.5 * n, Vector3d(1, 1, 0));
}

TEST(ContactManifold2d, TriangleRestingOnHalfPlane) {
  const Shape triangle = Polygon({{0, 0}, {2, 0}, {0, 2}});
  const auto points =
      SortedByPA(ContactManifold2d(triangle, Pose(1, 0), HalfPlane(), Pose(0, 0), 0.01));
  ASSERT_EQ(points.size(), 2u);
  ExpectContact(points[0], 0.0, Vector3d(0, 1, 0), Vector3d(1, 0, 0), Vector3d(1, 0, 0));
  ExpectContact(points[1], 0.0, Vector3d(0, 1, 0), Vector3d(3, 0, 0), Vector3d(3, 0, 0));
}

// ---- bad input ----------------------------------------------------------------------------

TEST(NarrowPhase2d, RejectsBadInput) {
  Shape cylinder;
  cylinder.type = ShapeType::kCylinder;
  cylinder.radius = 1;
  cylinder.length = 1;
  EXPECT_THROW(SignedDistance2d(cylinder, Pose(0, 0), Circle(1), Pose(3, 0)),
               std::invalid_argument);
  EXPECT_THROW(SignedDistance2d(HalfPlane(), Pose(0, 0), HalfPlane(), Pose(0, 1)),
               std::invalid_argument);
  EXPECT_THROW(SignedDistance2d(Circle(0.0), Pose(0, 0), Circle(1), Pose(3, 0)),
               std::invalid_argument);
  EXPECT_THROW(SignedDistance2d(Rectangle(1, -1), Pose(0, 0), Circle(1), Pose(3, 0)),
               std::invalid_argument);
  EXPECT_THROW(
      SignedDistance2d(Polygon({{0, 0}, {1, 1}, {2, 2}}), Pose(0, 0), Circle(1), Pose(3, 0)),
      std::invalid_argument);
  EXPECT_THROW(ContactManifold2d(Circle(1), Pose(0, 0), Circle(1), Pose(3, 0), -0.1),
               std::invalid_argument);
  EXPECT_THROW(ContactManifold2d(Circle(1), Pose(0, 0), Circle(1), Pose(3, 0),
                                 std::numeric_limits<double>::quiet_NaN()),
               std::invalid_argument);
}

// ---- independent check: the separating-axis characterisation ------------------------------

// The support function h(u) = max_{x ∈ shape} x·u of a bounded planar shape, computed from
// the Shape description directly (not through PlanarShape2d): vertices of the rectangle or
// polygon, the segment ends of the stadium, plus the radius.
double SupportOf(const Shape& shape, const Eigen::Isometry3d& X, const Eigen::Vector2d& u) {
  std::vector<Vector3d> points_S;
  double radius = 0.0;
  switch (shape.type) {
    case ShapeType::kSphere:
      points_S = {Vector3d::Zero()};
      radius = shape.radius;
      break;
    case ShapeType::kCapsule:
      points_S = {Vector3d(-shape.length / 2, 0, 0), Vector3d(shape.length / 2, 0, 0)};
      radius = shape.radius;
      break;
    case ShapeType::kBox:
      for (double sx : {-0.5, 0.5}) {
        for (double sy : {-0.5, 0.5})
          points_S.emplace_back(sx * shape.size.x(), sy * shape.size.y(), 0);
      }
      break;
    default:
      points_S = shape.vertices;
  }
  double best = -std::numeric_limits<double>::infinity();
  for (const Vector3d& p : points_S) best = std::max(best, (X * p).head<2>().dot(u));
  return best + radius;
}

TEST(SignedDistance2d, MatchesMaximumGapOverSampledDirections) {
  // For convex A and B, φ = max over unit u of  min_{a∈A} a·u − max_{b∈B} b·u
  //                      = max_u [ −h_A(−u) − h_B(u) ],
  // separated or not (separating hyperplane theorem; Minkowski difference depth). With
  // N sampled directions the sampled maximum lies below φ by at most D·(2π/N), D bounding
  // the Minkowski difference's radius. φ must never be below a sampled gap (round-off
  // aside), and p_A, p_B must be the supporting points along ∓normal with p_A − p_B = φ n.
  std::mt19937 random(7);
  std::uniform_real_distribution<double> size(0.2, 1.5);
  std::uniform_real_distribution<double> position(-1.5, 1.5);
  std::uniform_real_distribution<double> angle(-kPi, kPi);
  auto random_shape = [&](int kind) {
    switch (kind % 4) {
      case 0:
        return Circle(size(random));
      case 1:
        return Rectangle(size(random), size(random));
      case 2:
        return Stadium(0.5 * size(random), size(random));
      default: {
        std::vector<Eigen::Vector2d> v;
        for (int i = 0; i < 6; ++i) v.emplace_back(position(random) / 1.5, position(random) / 1.5);
        return Polygon(v);
      }
    }
  };
  constexpr int kDirections = 20000;
  // Every point of A − B is within 2 (1.5√2 + 1.5) of the origin (centres within 1.5√2,
  // shapes within 1.5 of their centre), so the gap is Lipschitz in u with that constant and
  // the nearest sample is at most π/N away in angle.
  const double kSupportLipschitz = 2 * (1.5 * std::sqrt(2.0) + 1.5);
  int penetrating = 0, separated = 0;
  for (int trial = 0; trial < 64; ++trial) {
    const Shape a = random_shape(trial);
    const Shape b = random_shape(trial / 4 + 1);
    const Eigen::Isometry3d X_A = Pose(position(random), position(random), angle(random));
    const Eigen::Isometry3d X_B = Pose(position(random), position(random), angle(random));
    const ContactPoint c = SignedDistance2d(a, X_A, b, X_B);
    double sampled_max = -std::numeric_limits<double>::infinity();
    for (int k = 0; k < kDirections; ++k) {
      const double t = 2 * kPi * k / kDirections;
      const Eigen::Vector2d u(std::cos(t), std::sin(t));
      sampled_max = std::max(sampled_max, -SupportOf(a, X_A, -u) - SupportOf(b, X_B, u));
    }
    SCOPED_TRACE("trial " + std::to_string(trial));
    EXPECT_GE(c.phi, sampled_max - kTol);
    EXPECT_LE(c.phi, sampled_max + kSupportLipschitz * kPi / kDirections);
    (c.phi < 0 ? penetrating : separated) += 1;
    const Eigen::Vector2d n = c.normal.head<2>();
    EXPECT_NEAR(n.norm(), 1.0, kTol);
    EXPECT_EQ(c.normal.z(), 0.0);
    ExpectVectorNear(c.p_A - c.p_B, c.phi * c.normal, 1e-11);
    EXPECT_NEAR(c.p_A.head<2>().dot(-n), SupportOf(a, X_A, -n), 1e-11);
    EXPECT_NEAR(c.p_B.head<2>().dot(n), SupportOf(b, X_B, n), 1e-11);

    // Swapping the arguments gives the same φ, the opposite normal and swapped witnesses.
    const ContactPoint swapped = SignedDistance2d(b, X_B, a, X_A);
    EXPECT_NEAR(swapped.phi, c.phi, kTol);
    ExpectVectorNear(swapped.normal, -c.normal, 1e-9);
    // The deepest manifold point has the signed distance's φ.
    const auto manifold = ContactManifold2d(a, X_A, b, X_B, std::max(0.0, c.phi) + 0.05);
    ASSERT_FALSE(manifold.empty());
    double deepest = std::numeric_limits<double>::infinity();
    for (const ContactPoint& p : manifold) deepest = std::min(deepest, p.phi);
    EXPECT_NEAR(deepest, c.phi, 1e-11);
  }
  // The random poses cover both regimes.
  EXPECT_GE(penetrating, 10);
  EXPECT_GE(separated, 10);
}

}  // namespace
}  // namespace quasidyn
