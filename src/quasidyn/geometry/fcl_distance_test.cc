// The FCL reference of the GJK/EPA tests (testing/fcl_distance.h): hand-computed values, and
// FCL against the closed forms where both apply.
#include "quasidyn/testing/fcl_distance.h"

#include <gtest/gtest.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <numbers>

#include "quasidyn/geometry/closed_form_3d.h"

namespace quasidyn {
namespace {

using testing::FclSignedDistance3d;
using testing::kFclCurvedNormalAccuracy;
using testing::kFclCurvedPhiAccuracy;
using testing::kFclDistanceTolerance;

// FCL's answers are accurate to about its distance tolerance; EPA's witness points carry
// errors of the same order in φ. Ten times that tolerance is the budget for φ and points.
constexpr double kPhiTol = 10 * kFclDistanceTolerance;

Shape MakeSphere(double r) {
  Shape s;
  s.type = ShapeType::kSphere;
  s.radius = r;
  return s;
}
Shape MakeBox(double x, double y, double z) {
  Shape s;
  s.type = ShapeType::kBox;
  s.size = {x, y, z};
  return s;
}
Shape MakeCapsule(double r, double l) {
  Shape s;
  s.type = ShapeType::kCapsule;
  s.radius = r;
  s.length = l;
  return s;
}
Shape MakeCylinder(double r, double l) {
  Shape s;
  s.type = ShapeType::kCylinder;
  s.radius = r;
  s.length = l;
  return s;
}
Shape MakeCube(double side) {  // a box given as a convex vertex set
  Shape s;
  s.type = ShapeType::kConvex;
  for (int i = 0; i < 8; ++i) {
    s.vertices.emplace_back((i & 1 ? 0.5 : -0.5) * side, (i & 2 ? 0.5 : -0.5) * side,
                            (i & 4 ? 0.5 : -0.5) * side);
  }
  return s;
}
Eigen::Isometry3d Pose(double x, double y, double z, double angle = 0.0,
                       const Eigen::Vector3d& axis = Eigen::Vector3d::UnitZ()) {
  Eigen::Isometry3d X = Eigen::Isometry3d::Identity();
  X.translation() = Eigen::Vector3d(x, y, z);
  X.linear() = Eigen::AngleAxisd(angle, axis.normalized()).toRotationMatrix();
  return X;
}

// Curved shapes: the documented accuracy of fcl_distance.h. The difference p_A − p_B
// = φ n then carries |φ| times the normal error plus the φ error.
constexpr double kCurvedPhiTol = kFclCurvedPhiAccuracy;
constexpr double kCurvedNormalTol = kFclCurvedNormalAccuracy;

void ExpectNear(const ContactPoint& fcl, const ContactPoint& exact, double phi_tol,
                double normal_tol) {
  const double point_tol = 2 * phi_tol + std::abs(exact.phi) * normal_tol;
  EXPECT_NEAR(fcl.phi, exact.phi, phi_tol);
  EXPECT_NEAR((fcl.normal - exact.normal).norm(), 0.0, normal_tol)
      << "fcl " << fcl.normal.transpose() << " exact " << exact.normal.transpose();
  // Witness points: only their component along the normal is unique for face contacts,
  // so compare p_A − p_B and the heights along the normal.
  EXPECT_NEAR((fcl.p_A - fcl.p_B - (exact.p_A - exact.p_B)).norm(), 0.0, point_tol);
  EXPECT_NEAR(exact.normal.dot(fcl.p_A - exact.p_A), 0.0, point_tol);
  EXPECT_NEAR(fcl.normal.norm(), 1.0, 1e-12);
}

TEST(FclDistance, AgreesWithClosedFormSphereSphere) {
  for (double z : {3.0, 2.2, 1.7}) {  // separated, nearly touching, penetrating
    const Eigen::Isometry3d X_WA = Pose(0.3, 0.4, z);
    const ContactPoint fcl =
        FclSignedDistance3d(MakeSphere(1.0), X_WA, MakeSphere(1.2), Eigen::Isometry3d::Identity());
    const ContactPoint exact =
        SphereSphereDistance3d(X_WA.translation(), 1.0, Eigen::Vector3d::Zero(), 1.2);
    ExpectNear(fcl, exact, kCurvedPhiTol, kCurvedNormalTol);
  }
}

TEST(FclDistance, AgreesWithClosedFormSphereBox) {
  const Eigen::Isometry3d X_WB = Pose(0.1, -0.2, 0.0, 0.4, {1, 2, 3});
  for (const Eigen::Vector3d& offset :
       {Eigen::Vector3d(0, 0, 1.2), Eigen::Vector3d(0.1, 0.2, 0.75), Eigen::Vector3d(1, 1, 1)}) {
    const Eigen::Vector3d center = X_WB * offset;
    const ContactPoint fcl = FclSignedDistance3d(
        MakeSphere(0.4), Pose(center.x(), center.y(), center.z()), MakeBox(1, 1.5, 1), X_WB);
    const ContactPoint exact = SphereBoxDistance3d(center, 0.4, {1, 1.5, 1}, X_WB);
    ExpectNear(fcl, exact, kCurvedPhiTol, kCurvedNormalTol);
  }
}

TEST(FclDistance, AgreesWithClosedFormCapsuleCapsule) {
  const Eigen::Isometry3d X_WB = Pose(0, 0, 0, 0.2, {1, 0, 0});
  for (double z : {1.5, 1.0, 0.8}) {
    const Eigen::Isometry3d X_WA = Pose(0.2, 0.1, z, std::numbers::pi / 2, {0, 1, 0});
    const ContactPoint fcl =
        FclSignedDistance3d(MakeCapsule(0.3, 1.0), X_WA, MakeCapsule(0.2, 2.0), X_WB);
    const ContactPoint exact = CapsuleCapsuleDistance3d(0.3, 1.0, X_WA, 0.2, 2.0, X_WB);
    ExpectNear(fcl, exact, kCurvedPhiTol, kCurvedNormalTol);
  }
}

TEST(FclDistance, ThinHugeBoxActsAsHalfSpace) {
  // A 100 × 100 × 1 slab whose top face is z = 0 against the half-space z <= 0.
  const Shape slab = MakeBox(100, 100, 1);
  const Eigen::Isometry3d X_slab = Pose(0, 0, -0.5);
  const Shape box = MakeBox(0.4, 0.6, 0.8);
  for (double z : {0.8, 0.3}) {
    const Eigen::Isometry3d X_WA = Pose(0.1, 0.2, z, 0.5, {1, 1, 0});
    const ContactPoint fcl = FclSignedDistance3d(box, X_WA, slab, X_slab);
    const ContactPoint exact = ShapeHalfSpaceDistance3d(box, X_WA, Eigen::Isometry3d::Identity());
    ExpectNear(fcl, exact, kPhiTol, 1e-5);  // polytopes: FCL's own tolerance
  }
}

TEST(FclDistance, BoxBoxHandComputed) {
  const Shape cube = MakeBox(1, 1, 1);
  const Eigen::Isometry3d I = Eigen::Isometry3d::Identity();
  // Stacked, offset sideways, 0.2 apart / 0.1 overlapping along z.
  ContactPoint c = FclSignedDistance3d(cube, Pose(0.3, 0.2, 1.2), cube, I);
  EXPECT_NEAR(c.phi, 0.2, kPhiTol);
  EXPECT_NEAR((c.normal - Eigen::Vector3d::UnitZ()).norm(), 0.0, 1e-6);
  c = FclSignedDistance3d(cube, Pose(0.3, 0.2, 0.9), cube, I);
  EXPECT_NEAR(c.phi, -0.1, kPhiTol);
  EXPECT_NEAR((c.normal - Eigen::Vector3d::UnitZ()).norm(), 0.0, 1e-6);
  // Side by side along −y, 0.05 apart: the normal is −y.
  c = FclSignedDistance3d(cube, Pose(0.1, -1.05, 0.2), cube, I);
  EXPECT_NEAR(c.phi, 0.05, kPhiTol);
  EXPECT_NEAR((c.normal + Eigen::Vector3d::UnitY()).norm(), 0.0, 1e-5);
  // Upper cube turned 0.3 rad about x at height 1: its lowest edge is at
  // 1 − 0.5 (cos 0.3 + sin 0.3), so φ = that − 0.5.
  c = FclSignedDistance3d(cube, Pose(0.1, 0, 1.0, 0.3, {1, 0, 0}), cube, I);
  EXPECT_NEAR(c.phi, 0.5 - 0.5 * (std::cos(0.3) + std::sin(0.3)), kPhiTol);
  EXPECT_NEAR((c.normal - Eigen::Vector3d::UnitZ()).norm(), 0.0, 1e-5);
  EXPECT_NEAR((c.p_A - c.p_B - c.phi * c.normal).norm(), 0.0, 2 * kPhiTol);
}

TEST(FclDistance, TouchingFacesStillGetTheFaceNormal) {
  // Exactly touching: the witness points coincide and the probe of fcl_distance.h decides.
  const Shape cube = MakeBox(1, 1, 1);
  const ContactPoint c =
      FclSignedDistance3d(cube, Pose(0.2, 0.1, 1.0), cube, Eigen::Isometry3d::Identity());
  EXPECT_NEAR(c.phi, 0.0, kPhiTol);
  EXPECT_NEAR((c.normal - Eigen::Vector3d::UnitZ()).norm(), 0.0, 1e-5);
}

TEST(FclDistance, OtherPairsHandComputed) {
  const Eigen::Isometry3d I = Eigen::Isometry3d::Identity();
  // Cylinder r 0.5, l 1 standing 0.2 above a unit cube / penetrating 0.1.
  EXPECT_NEAR(FclSignedDistance3d(MakeCylinder(0.5, 1), Pose(0.1, 0, 1.2), MakeBox(1, 1, 1), I).phi,
              0.2, kPhiTol);
  EXPECT_NEAR(FclSignedDistance3d(MakeCylinder(0.5, 1), Pose(0.1, 0, 0.9), MakeBox(1, 1, 1), I).phi,
              -0.1, kPhiTol);
  // Capsule r 0.2, l 1 upright, bottom at 0.1 inside the cube's top face z = 0.5.
  EXPECT_NEAR(FclSignedDistance3d(MakeCapsule(0.2, 1), Pose(0.1, 0, 0.8), MakeBox(1, 1, 1), I).phi,
              -0.4, kPhiTol);
  // Two cylinders side by side (axes parallel to z, 1.3 apart): φ = 1.3 − 1.
  EXPECT_NEAR(
      FclSignedDistance3d(MakeCylinder(0.5, 1), Pose(1.3, 0, 0.2), MakeCylinder(0.5, 2), I).phi,
      0.3, kPhiTol);
  // Cylinder–capsule, end to end along z: gap 0.25.
  EXPECT_NEAR(
      FclSignedDistance3d(MakeCylinder(0.5, 1), Pose(0, 0, 1.75), MakeCapsule(0.3, 2), I).phi,
      1.75 - 0.5 - 1.3, kPhiTol);
  // A cube given as a convex vertex set behaves as the box.
  EXPECT_NEAR(FclSignedDistance3d(MakeCube(1), Pose(0.3, 0.2, 0.9), MakeBox(1, 1, 1), I).phi, -0.1,
              kPhiTol);
  const ContactPoint s = FclSignedDistance3d(MakeSphere(0.5), Pose(0, 0, 1.5), MakeCube(1), I);
  EXPECT_NEAR(s.phi, 0.5, kCurvedPhiTol);
  EXPECT_NEAR((s.normal - Eigen::Vector3d::UnitZ()).norm(), 0.0, kCurvedNormalTol);
  // Convex first and sphere second: the swap flips the normal.
  const ContactPoint t = FclSignedDistance3d(MakeCube(1), I, MakeSphere(0.5), Pose(0, 0, 1.5));
  EXPECT_NEAR((t.normal + Eigen::Vector3d::UnitZ()).norm(), 0.0, kCurvedNormalTol);
}

TEST(FclDistance, RejectsHalfSpace) {
  Shape plane;
  plane.type = ShapeType::kHalfSpace;
  EXPECT_THROW(FclSignedDistance3d(plane, Eigen::Isometry3d::Identity(), MakeSphere(1),
                                   Eigen::Isometry3d::Identity()),
               std::invalid_argument);
}

// Not a check: prints the cost of one call, FCL objects built on every call.
TEST(FclDistance, ReportsCostPerCall) {
  const Shape cube = MakeBox(1, 1, 1);
  const int calls = 2000;
  const auto start = std::chrono::steady_clock::now();
  double sum = 0.0;
  for (int i = 0; i < calls; ++i) {
    sum += FclSignedDistance3d(cube, Pose(0.3, 0.2, 0.9 + 1e-5 * i, 0.1, {1, 0, 0}), cube,
                               Eigen::Isometry3d::Identity())
               .phi;
  }
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::printf("FclSignedDistance3d box-box (penetrating): %.2f us per call\n",
              1e6 * seconds / calls);
  EXPECT_TRUE(std::isfinite(sum));
}

}  // namespace
}  // namespace quasidyn
