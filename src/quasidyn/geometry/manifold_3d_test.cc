// Contact manifolds through the public ContactManifold3d. Expected points are worked out
// by hand in the comments and compared as unordered sets.
#include "quasidyn/geometry/manifold_3d.h"

#include <gtest/gtest.h>

#include <cmath>
#include <numbers>

#include "quasidyn/geometry/manifold_3d_scratch.h"
#include "quasidyn/geometry/narrow_phase_3d.h"

namespace quasidyn {
namespace {

// Against a half-space everything is closed form: rounding only.
constexpr double kExactTol = 1e-12;
// Pairs between boxes (closed form) and through GJK/EPA (convex_distance_3d.h; a flat face
// of a cylinder is exact there too): rounding of unit-sized poses only.
constexpr double kPairTol = 1e-12;

Shape Manifold3dMakeBox(double x, double y, double z) {
  Shape s;
  s.type = ShapeType::kBox;
  s.size = {x, y, z};
  return s;
}
Shape Manifold3dMakeCylinder(double r, double l) {
  Shape s;
  s.type = ShapeType::kCylinder;
  s.radius = r;
  s.length = l;
  return s;
}
Shape Manifold3dMakeCapsule(double r, double l) {
  Shape s;
  s.type = ShapeType::kCapsule;
  s.radius = r;
  s.length = l;
  return s;
}
Shape Manifold3dMakeSphere(double r) {
  Shape s;
  s.type = ShapeType::kSphere;
  s.radius = r;
  return s;
}
Shape MakeHalfSpace() {
  Shape s;
  s.type = ShapeType::kHalfSpace;
  return s;
}

Eigen::Isometry3d Manifold3dPose(double x, double y, double z, double angle = 0.0,
                                 const Eigen::Vector3d& axis = Eigen::Vector3d::UnitZ()) {
  Eigen::Isometry3d X = Eigen::Isometry3d::Identity();
  X.translation() = Eigen::Vector3d(x, y, z);
  X.linear() = Eigen::AngleAxisd(angle, axis.normalized()).toRotationMatrix();
  return X;
}

struct Expected {
  Eigen::Vector3d p_A;
  double phi;
};

// Every expected point matches exactly one manifold point (p_A and φ), and vice versa;
// every point has the given normal and p_A − p_B = φ n.
void ExpectManifold(const std::vector<ContactPoint>& manifold,
                    const std::vector<Expected>& expected, const Eigen::Vector3d& normal,
                    double tol) {
  ASSERT_EQ(manifold.size(), expected.size());
  std::vector<bool> used(manifold.size(), false);
  for (const Expected& e : expected) {
    bool found = false;
    for (size_t i = 0; i < manifold.size() && !found; ++i) {
      if (!used[i] && (manifold[i].p_A - e.p_A).norm() <= tol &&
          std::abs(manifold[i].phi - e.phi) <= tol) {
        used[i] = found = true;
      }
    }
    EXPECT_TRUE(found) << "no manifold point at " << e.p_A.transpose() << " with φ " << e.phi;
  }
  for (const ContactPoint& c : manifold) {
    EXPECT_NEAR((c.normal - normal).norm(), 0.0, tol);
    EXPECT_NEAR((c.p_A - c.p_B - c.phi * c.normal).norm(), 0.0, tol);
  }
}

const Eigen::Vector3d kUp = Eigen::Vector3d::UnitZ();

TEST(Manifold3d, BoxFlatOnHalfSpaceGivesItsFourBottomCorners) {
  const Shape box = Manifold3dMakeBox(1, 2, 0.5);
  for (double tolerance : {0.0, 1e-3}) {
    ExpectManifold(ContactManifold3d(box, Manifold3dPose(0, 0, 0.25), MakeHalfSpace(),
                                     Eigen::Isometry3d::Identity(), tolerance),
                   {{{0.5, 1, 0}, 0}, {{-0.5, 1, 0}, 0}, {{0.5, -1, 0}, 0}, {{-0.5, -1, 0}, 0}},
                   kUp, kExactTol);
  }
}

TEST(Manifold3d, BoxLiftedGivesOwnDistanceOrNothing) {
  const Shape box = Manifold3dMakeBox(1, 2, 0.5);
  const Eigen::Isometry3d I = Eigen::Isometry3d::Identity();
  EXPECT_TRUE(
      ContactManifold3d(box, Manifold3dPose(0, 0, 0.26), MakeHalfSpace(), I, 0.005).empty());
  ExpectManifold(ContactManifold3d(box, Manifold3dPose(0, 0, 0.253), MakeHalfSpace(), I, 0.005),
                 {{{0.5, 1, 0.003}, 0.003},
                  {{-0.5, 1, 0.003}, 0.003},
                  {{0.5, -1, 0.003}, 0.003},
                  {{-0.5, -1, 0.003}, 0.003}},
                 kUp, kExactTol);
}

TEST(Manifold3d, TiltedBoxOnHalfSpaceGivesEachCornersDistance) {
  // Box (1, 2, 0.5) turned by α about x. Its bottom corners (x, ±1, −0.25) sit at height
  // H ± sin α − 0.25 cos α; with H = sin α + 0.25 cos α the y = −1 edge touches (φ = 0)
  // and the y = +1 corners are 2 sin α up. The top corners are ~0.5 up: never in contact.
  const double alpha = 0.01;
  const double height = std::sin(alpha) + 0.25 * std::cos(alpha);
  const Shape box = Manifold3dMakeBox(1, 2, 0.5);
  const Eigen::Isometry3d I = Eigen::Isometry3d::Identity();
  const double y_low = -std::cos(alpha) + 0.25 * std::sin(alpha);
  const double y_high = std::cos(alpha) + 0.25 * std::sin(alpha);
  const double up = 2 * std::sin(alpha);
  for (double sink : {0.0, 0.004}) {  // touching, then pushed 4 mm into the table
    const Eigen::Isometry3d X = Manifold3dPose(0, 0, height - sink, alpha, {1, 0, 0});
    ExpectManifold(ContactManifold3d(box, X, MakeHalfSpace(), I, 0.05),
                   {{{0.5, y_low, -sink}, -sink},
                    {{-0.5, y_low, -sink}, -sink},
                    {{0.5, y_high, up - sink}, up - sink},
                    {{-0.5, y_high, up - sink}, up - sink}},
                   kUp, kExactTol);
    // A tolerance below 2 sin α keeps only the low edge.
    EXPECT_EQ(ContactManifold3d(box, X, MakeHalfSpace(), I, 0.01).size(), 2u);
  }
}

TEST(Manifold3d, HalfSpaceFirstFlipsEveryPoint) {
  const auto manifold =
      ContactManifold3d(MakeHalfSpace(), Eigen::Isometry3d::Identity(), Manifold3dMakeBox(1, 1, 1),
                        Manifold3dPose(0, 0, 0.49), 0.0);
  ASSERT_EQ(manifold.size(), 4u);
  for (const ContactPoint& c : manifold) {
    EXPECT_NEAR((c.normal + kUp).norm(), 0.0, kExactTol);
    EXPECT_NEAR(c.phi, -0.01, kExactTol);
    EXPECT_NEAR(c.p_A.z(), 0.0, kExactTol);    // the plane's witness
    EXPECT_NEAR(c.p_B.z(), -0.01, kExactTol);  // the box corner
    EXPECT_NEAR(std::abs(c.p_B.x()), 0.5, kExactTol);
  }
}

TEST(Manifold3d, CylinderStandingOnHalfSpaceGivesEightRimPoints) {
  // Radius 0.5: rim samples at angles k·45° of the cylinder frame, turned 0.2 about z.
  const auto manifold =
      ContactManifold3d(Manifold3dMakeCylinder(0.5, 1.0), Manifold3dPose(1, 2, 0.5, 0.2),
                        MakeHalfSpace(), Eigen::Isometry3d::Identity(), 0.0);
  std::vector<Expected> expected;
  for (int k = 0; k < 8; ++k) {
    const double angle = 0.2 + k * std::numbers::pi / 4;
    expected.push_back({{1 + 0.5 * std::cos(angle), 2 + 0.5 * std::sin(angle), 0}, 0});
  }
  ExpectManifold(manifold, expected, kUp, kExactTol);
}

TEST(Manifold3d, CapsuleLyingOnHalfSpaceGivesItsSegmentEnds) {
  ExpectManifold(ContactManifold3d(Manifold3dMakeCapsule(0.2, 1.0),
                                   Manifold3dPose(0, 0, 0.19, std::numbers::pi / 2, {0, 1, 0}),
                                   MakeHalfSpace(), Eigen::Isometry3d::Identity(), 0.0),
                 {{{0.5, 0, -0.01}, -0.01}, {{-0.5, 0, -0.01}, -0.01}}, kUp, kExactTol);
}

TEST(Manifold3d, SphereGivesTheClosestPairAlone) {
  const auto manifold =
      ContactManifold3d(Manifold3dMakeSphere(0.5), Manifold3dPose(0.1, 0, 0.99),
                        Manifold3dMakeBox(1, 1, 1), Eigen::Isometry3d::Identity(), 0.0);
  ExpectManifold(manifold, {{{0.1, 0, 0.49}, -0.01}}, kUp, kExactTol);
}

TEST(Manifold3d, BoxOnBiggerBoxGivesItsFourCorners) {
  // Unit cube resting on a 4 × 4 × 1 slab whose top is z = 0.5.
  ExpectManifold(
      ContactManifold3d(Manifold3dMakeBox(1, 1, 1), Manifold3dPose(0.3, -0.2, 1.0),
                        Manifold3dMakeBox(4, 4, 1), Eigen::Isometry3d::Identity(), 1e-4),
      {{{0.8, 0.3, 0.5}, 0}, {{-0.2, 0.3, 0.5}, 0}, {{0.8, -0.7, 0.5}, 0}, {{-0.2, -0.7, 0.5}, 0}},
      kUp, kPairTol);
}

TEST(Manifold3d, BoxOnSmallerBoxGivesTheClippedOverlap) {
  // 2 × 2 plate at x offset 0.8 on a unit cube: overlap x in [−0.2, 0.5], y in [−0.5, 0.5],
  // 0.01 deep.
  ExpectManifold(ContactManifold3d(Manifold3dMakeBox(2, 2, 1), Manifold3dPose(0.8, 0, 0.99),
                                   Manifold3dMakeBox(1, 1, 1), Eigen::Isometry3d::Identity(), 0.0),
                 {{{-0.2, 0.5, 0.49}, -0.01},
                  {{0.5, 0.5, 0.49}, -0.01},
                  {{-0.2, -0.5, 0.49}, -0.01},
                  {{0.5, -0.5, 0.49}, -0.01}},
                 kUp, kPairTol);
}

TEST(Manifold3d, CubeTurned45DegreesOnCubeGivesTheOctagon) {
  // Square |x|, |y| <= 0.5 ∩ square |x| + |y| <= 0.5 √2: corners at (±0.5, ±(√2/2 − 0.5))
  // and (±(√2/2 − 0.5), ±0.5), all 8 in contact.
  const double c = std::sqrt(0.5) - 0.5;
  std::vector<Expected> expected;
  for (double sx : {-1.0, 1.0}) {
    for (double sy : {-1.0, 1.0}) {
      expected.push_back({{0.5 * sx, c * sy, 0.495}, -0.005});
      expected.push_back({{c * sx, 0.5 * sy, 0.495}, -0.005});
    }
  }
  ExpectManifold(ContactManifold3d(Manifold3dMakeBox(1, 1, 1),
                                   Manifold3dPose(0, 0, 0.995, std::numbers::pi / 4),
                                   Manifold3dMakeBox(1, 1, 1), Eigen::Isometry3d::Identity(), 0.0),
                 expected, kUp, kPairTol);
}

// The features of each clipped point (FeaturesOfClippedPoint3d), for pairs whose features
// are known by hand; A's manifold is built in a scratch that records the clipping's choices.
int CountFeatureKinds(const Shape& a, const Eigen::Isometry3d& X_WA, const Shape& b,
                      const Eigen::Isometry3d& X_WB, double tolerance, int kinds[3]) {
  Manifold3dScratch scratch;
  ManifoldPoints points;
  ContactManifoldFromClosest3d(a, X_WA, b, X_WB, SignedDistance3d(a, X_WA, b, X_WB), tolerance,
                               &scratch, &points);
  int named = 0;
  for (const ContactPoint& p : points) {
    ClippedPointFeatures3d features;
    if (!FeaturesOfClippedPoint3d(scratch, p, &features)) continue;
    ++kinds[features.kind];
    ++named;
  }
  return named;
}

TEST(Manifold3d, FeaturesNameEachClippedPoint) {
  // Unit cube on the 4 × 4 slab: its four bottom corners (the cube's face is incident).
  int on_slab[3] = {0, 0, 0};
  EXPECT_EQ(
      CountFeatureKinds(Manifold3dMakeBox(1, 1, 1), Manifold3dPose(0.3, -0.2, 1.0),
                        Manifold3dMakeBox(4, 4, 1), Eigen::Isometry3d::Identity(), 1e-4, on_slab),
      4);
  EXPECT_EQ(on_slab[ClippedPointFeatures3d::kIncidentVertex], 4);
  // The 2 × 2 plate over the unit cube (BoxOnSmallerBox...): the plate's edge x = −0.2 cut by
  // the cube's side planes y = ±0.5, and the cube's corners (0.5, ±0.5) inside the plate.
  int plate[3] = {0, 0, 0};
  EXPECT_EQ(
      CountFeatureKinds(Manifold3dMakeBox(2, 2, 1), Manifold3dPose(0.8, 0, 0.99),
                        Manifold3dMakeBox(1, 1, 1), Eigen::Isometry3d::Identity(), 0.0, plate),
      4);
  EXPECT_EQ(plate[ClippedPointFeatures3d::kIncidentEdgeCut], 2);
  EXPECT_EQ(plate[ClippedPointFeatures3d::kReferenceVertex], 2);
  // Against a half-space nothing is clipped: no features named.
  int none[3] = {0, 0, 0};
  EXPECT_EQ(CountFeatureKinds(Manifold3dMakeBox(1, 1, 1), Manifold3dPose(0, 0, 0.49),
                              MakeHalfSpace(), Eigen::Isometry3d::Identity(), 0.0, none),
            0);
}

TEST(Manifold3d, WholeSceneRotatedMovesTheManifoldRigidly) {
  // The box-on-smaller-box scene under a rigid motion X: every point moves with it.
  const Eigen::Isometry3d X = Manifold3dPose(0.3, -1.0, 2.0, 0.7, {1, -2, 0.5});
  std::vector<Expected> expected;
  for (const Eigen::Vector3d& p :
       {Eigen::Vector3d(-0.2, 0.5, 0.49), Eigen::Vector3d(0.5, 0.5, 0.49),
        Eigen::Vector3d(-0.2, -0.5, 0.49), Eigen::Vector3d(0.5, -0.5, 0.49)}) {
    expected.push_back({X * p, -0.01});
  }
  ExpectManifold(ContactManifold3d(Manifold3dMakeBox(2, 2, 1), X * Manifold3dPose(0.8, 0, 0.99),
                                   Manifold3dMakeBox(1, 1, 1), X, 0.0),
                 expected, X.linear() * kUp, kPairTol);
}

TEST(Manifold3d, CylinderStandingOnBoxGivesEightRimPoints) {
  std::vector<Expected> expected;
  for (int k = 0; k < 8; ++k) {
    const double angle = k * std::numbers::pi / 4;
    expected.push_back({{0.5 * std::cos(angle), 0.5 * std::sin(angle), 0.5}, 0});
  }
  ExpectManifold(ContactManifold3d(Manifold3dMakeCylinder(0.5, 1.0), Manifold3dPose(0, 0, 1.0),
                                   Manifold3dMakeBox(2, 2, 1), Eigen::Isometry3d::Identity(), 1e-4),
                 expected, kUp, kPairTol);
}

TEST(Manifold3d, CapsuleLyingOnBoxGivesItsSegmentEnds) {
  ExpectManifold(ContactManifold3d(Manifold3dMakeCapsule(0.2, 1.0),
                                   Manifold3dPose(0.1, 0.2, 0.69, std::numbers::pi / 2, {0, 1, 0}),
                                   Manifold3dMakeBox(4, 4, 1), Eigen::Isometry3d::Identity(), 0.0),
                 {{{0.6, 0.2, 0.49}, -0.01}, {{-0.4, 0.2, 0.49}, -0.01}}, kUp, kPairTol);
}

TEST(Manifold3d, ManyClippedPointsAreCappedAtEight) {
  // The rim octagon (circumradius 0.5) clipped by a 0.8 × 0.8 square: its 4 axis
  // vertices (0.5 from the axis) are cut, each replaced by 2 points, 12 in all; the cap
  // keeps 8 of them, all in contact and inside the square.
  const auto manifold =
      ContactManifold3d(Manifold3dMakeCylinder(0.5, 1.0), Manifold3dPose(0, 0, 0.99),
                        Manifold3dMakeBox(0.8, 0.8, 1), Eigen::Isometry3d::Identity(), 0.0);
  ASSERT_EQ(manifold.size(), static_cast<size_t>(kMaxManifoldPoints));
  for (const ContactPoint& c : manifold) {
    EXPECT_NEAR(c.phi, -0.01, kPairTol);
    EXPECT_LE(std::abs(c.p_A.x()), 0.4 + kPairTol);
    EXPECT_LE(std::abs(c.p_A.y()), 0.4 + kPairTol);
    EXPECT_NEAR(c.p_B.z(), 0.5, kPairTol);
    for (const ContactPoint& other : manifold) {
      if (&other != &c) {
        EXPECT_GT((other.p_A - c.p_A).norm(), 1e-3);
      }
    }
  }
}

TEST(Manifold3d, NegativeToleranceThrows) {
  EXPECT_THROW(ContactManifold3d(Manifold3dMakeSphere(1), Eigen::Isometry3d::Identity(),
                                 MakeHalfSpace(), Eigen::Isometry3d::Identity(), -1e-3),
               std::invalid_argument);
}

}  // namespace
}  // namespace quasidyn
