// Closed-form pairs, through the public SignedDistance3d (so the dispatch and the argument
// swap are tested too). Expected values are worked out by hand in the comments.
#include "quasidyn/geometry/closed_form_3d.h"

#include <gtest/gtest.h>

#include <cmath>
#include <numbers>

#include "quasidyn/geometry/narrow_phase_3d.h"

namespace quasidyn {
namespace {

// Closed forms are exact: errors are rounding of O(1) numbers.
constexpr double kClosedForm3dTol = 1e-12;

Shape Sphere(double r) {
  Shape s;
  s.type = ShapeType::kSphere;
  s.radius = r;
  return s;
}
Shape Box(double x, double y, double z) {
  Shape s;
  s.type = ShapeType::kBox;
  s.size = {x, y, z};
  return s;
}
Shape Capsule(double r, double l) {
  Shape s;
  s.type = ShapeType::kCapsule;
  s.radius = r;
  s.length = l;
  return s;
}
Shape Cylinder(double r, double l) {
  Shape s;
  s.type = ShapeType::kCylinder;
  s.radius = r;
  s.length = l;
  return s;
}
Shape HalfSpace() {
  Shape s;
  s.type = ShapeType::kHalfSpace;
  return s;
}

Eigen::Isometry3d At(double x, double y, double z) {
  Eigen::Isometry3d X = Eigen::Isometry3d::Identity();
  X.translation() = Eigen::Vector3d(x, y, z);
  return X;
}
Eigen::Isometry3d Rotated(const Eigen::Isometry3d& X, double angle, const Eigen::Vector3d& axis) {
  Eigen::Isometry3d Y = X;
  Y.linear() = Eigen::AngleAxisd(angle, axis.normalized()).toRotationMatrix();
  return Y;
}

void ExpectContact(const ContactPoint& c, double phi, const Eigen::Vector3d& normal,
                   const Eigen::Vector3d& p_A, const Eigen::Vector3d& p_B) {
  EXPECT_NEAR(c.phi, phi, kClosedForm3dTol);
  EXPECT_NEAR((c.normal - normal).norm(), 0.0, kClosedForm3dTol) << c.normal.transpose();
  EXPECT_NEAR((c.p_A - p_A).norm(), 0.0, kClosedForm3dTol) << c.p_A.transpose();
  EXPECT_NEAR((c.p_B - p_B).norm(), 0.0, kClosedForm3dTol) << c.p_B.transpose();
  EXPECT_NEAR(c.normal.norm(), 1.0, kClosedForm3dTol);
  EXPECT_NEAR((c.p_A - c.p_B - c.phi * c.normal).norm(), 0.0, kClosedForm3dTol);
}

// Swapping the arguments keeps φ, swaps the witnesses and negates the normal.
void ExpectSwapFlips(const Shape& a, const Eigen::Isometry3d& X_WA, const Shape& b,
                     const Eigen::Isometry3d& X_WB) {
  const ContactPoint ab = SignedDistance3d(a, X_WA, b, X_WB);
  const ContactPoint ba = SignedDistance3d(b, X_WB, a, X_WA);
  EXPECT_NEAR(ab.phi, ba.phi, kClosedForm3dTol);
  EXPECT_NEAR((ab.normal + ba.normal).norm(), 0.0, kClosedForm3dTol);
  EXPECT_NEAR((ab.p_A - ba.p_B).norm(), 0.0, kClosedForm3dTol);
  EXPECT_NEAR((ab.p_B - ba.p_A).norm(), 0.0, kClosedForm3dTol);
}

TEST(ClosedForm3d, SphereSphere) {
  const Shape a = Sphere(1.0), b = Sphere(1.5);
  // Centres 3 apart on z: φ = 3 − 2.5.
  ExpectContact(SignedDistance3d(a, At(0, 0, 3), b, At(0, 0, 0)), 0.5, {0, 0, 1}, {0, 0, 2},
                {0, 0, 1.5});
  ExpectContact(SignedDistance3d(a, At(0, 0, 2.5), b, At(0, 0, 0)), 0.0, {0, 0, 1}, {0, 0, 1.5},
                {0, 0, 1.5});
  // Centres 2 apart along (0.6, 0.8, 0): φ = 2 − 2.5.
  ExpectContact(SignedDistance3d(a, At(1.2, 1.6, 0), b, At(0, 0, 0)), -0.5, {0.6, 0.8, 0},
                {0.6, 0.8, 0}, {0.9, 1.2, 0});
  // Coincident centres: documented fallback normal +z.
  ExpectContact(SignedDistance3d(a, At(0, 0, 0), b, At(0, 0, 0)), -2.5, {0, 0, 1}, {0, 0, -1},
                {0, 0, 1.5});
  ExpectSwapFlips(a, At(1.2, 1.6, 0), b, At(0, 0, 0));
}

TEST(ClosedForm3d, SphereBox) {
  const Shape a = Sphere(0.5), b = Box(2, 4, 6);  // half sides (1, 2, 3)
  ExpectContact(SignedDistance3d(a, At(0, 0, 4), b, At(0, 0, 0)), 0.5, {0, 0, 1}, {0, 0, 3.5},
                {0, 0, 3});
  ExpectContact(SignedDistance3d(a, At(0, 0, 3.5), b, At(0, 0, 0)), 0.0, {0, 0, 1}, {0, 0, 3},
                {0, 0, 3});
  ExpectContact(SignedDistance3d(a, At(0, 0, 3.2), b, At(0, 0, 0)), -0.3, {0, 0, 1}, {0, 0, 2.7},
                {0, 0, 3});
  // Corner region: closest box point (1, 2, 3), offset (1, 1, 1).
  const Eigen::Vector3d diagonal = Eigen::Vector3d::Ones().normalized();
  ExpectContact(SignedDistance3d(a, At(2, 3, 4), b, At(0, 0, 0)), std::sqrt(3.0) - 0.5, diagonal,
                Eigen::Vector3d(2, 3, 4) - 0.5 * diagonal, {1, 2, 3});
  // Centre inside, 0.2 below the +x face (other faces 2 and 3 away): φ = −0.2 − 0.5.
  ExpectContact(SignedDistance3d(a, At(0.8, 0, 0), b, At(0, 0, 0)), -0.7, {1, 0, 0}, {0.3, 0, 0},
                {1, 0, 0});
  // Box turned 90° about z and moved to (1, 0, 0): its world half extent along x is 2.
  const Eigen::Isometry3d X_WB = Rotated(At(1, 0, 0), std::numbers::pi / 2, {0, 0, 1});
  ExpectContact(SignedDistance3d(a, At(4, 0, 0), b, X_WB), 0.5, {1, 0, 0}, {3.5, 0, 0}, {3, 0, 0});
  ExpectSwapFlips(a, At(0.8, 0, 0), b, At(0, 0, 0));
}

TEST(ClosedForm3d, SphereCapsule) {
  const Shape a = Sphere(1.0), b = Capsule(0.5, 2.0);  // core z in [−1, 1]
  ExpectContact(SignedDistance3d(a, At(3, 0, 0.5), b, At(0, 0, 0)), 1.5, {1, 0, 0}, {2, 0, 0.5},
                {0.5, 0, 0.5});
  ExpectContact(SignedDistance3d(a, At(0, 0, 4), b, At(0, 0, 0)), 1.5, {0, 0, 1}, {0, 0, 3},
                {0, 0, 1.5});
  ExpectContact(SignedDistance3d(a, At(1.5, 0, 0), b, At(0, 0, 0)), 0.0, {1, 0, 0}, {0.5, 0, 0},
                {0.5, 0, 0});
  ExpectContact(SignedDistance3d(a, At(1, 0, 0), b, At(0, 0, 0)), -0.5, {1, 0, 0}, {0, 0, 0},
                {0.5, 0, 0});
  // Centre on the core: fallback normal = capsule's x.
  ExpectContact(SignedDistance3d(a, At(0, 0, 0.2), b, At(0, 0, 0)), -1.5, {1, 0, 0}, {-1, 0, 0.2},
                {0.5, 0, 0.2});
  ExpectSwapFlips(a, At(1, 0, 0.3), b, At(0, 0, 0));
}

TEST(ClosedForm3d, SphereCylinder) {
  const Shape a = Sphere(0.5), b = Cylinder(1.0, 2.0);  // radius 1, z in [−1, 1]
  ExpectContact(SignedDistance3d(a, At(3, 0, 0), b, At(0, 0, 0)), 1.5, {1, 0, 0}, {2.5, 0, 0},
                {1, 0, 0});
  ExpectContact(SignedDistance3d(a, At(0.5, 0, 2), b, At(0, 0, 0)), 0.5, {0, 0, 1}, {0.5, 0, 1.5},
                {0.5, 0, 1});
  ExpectContact(SignedDistance3d(a, At(1.5, 0, 0), b, At(0, 0, 0)), 0.0, {1, 0, 0}, {1, 0, 0},
                {1, 0, 0});
  // Rim region: closest cylinder point (1, 0, 1), offset (1, 0, 1).
  const Eigen::Vector3d n = Eigen::Vector3d(1, 0, 1).normalized();
  ExpectContact(SignedDistance3d(a, At(2, 0, 2), b, At(0, 0, 0)), std::sqrt(2.0) - 0.5, n,
                Eigen::Vector3d(2, 0, 2) - 0.5 * n, {1, 0, 1});
  // Inside, 0.1 below the top (side depth 1): exits through the top.
  ExpectContact(SignedDistance3d(a, At(0, 0, 0.9), b, At(0, 0, 0)), -0.6, {0, 0, 1}, {0, 0, 0.4},
                {0, 0, 1});
  // Inside, 0.2 from the side, 1 from the ends: exit sideways.
  ExpectContact(SignedDistance3d(a, At(0, -0.8, 0), b, At(0, 0, 0)), -0.7, {0, -1, 0}, {0, -0.3, 0},
                {0, -1, 0});
  // Cylinder lying along world x (turned 90° about y): a sphere above it at z = 2.
  const Eigen::Isometry3d X_WB = Rotated(At(0, 0, 0), std::numbers::pi / 2, {0, 1, 0});
  ExpectContact(SignedDistance3d(a, At(0.3, 0, 2), b, X_WB), 0.5, {0, 0, 1}, {0.3, 0, 1.5},
                {0.3, 0, 1});
  ExpectSwapFlips(a, At(0.2, 0.3, 0.9), b, At(0, 0, 0));
}

TEST(ClosedForm3d, CapsuleCapsule) {
  const Shape a = Capsule(0.5, 2.0), b = Capsule(0.5, 2.0);
  const Eigen::Isometry3d along_x = Rotated(At(0, 0, 3), std::numbers::pi / 2, {0, 1, 0});
  // A horizontal at z = 3 over B vertical (core top at z = 1): core gap 2, φ = 1.
  ExpectContact(SignedDistance3d(a, along_x, b, At(0, 0, 0)), 1.0, {0, 0, 1}, {0, 0, 2.5},
                {0, 0, 1.5});
  // Parallel cores, A shifted by (1.5, 0, 0.5): overlap z in [−0.5, 1], middle 0.25.
  ExpectContact(SignedDistance3d(a, At(1.5, 0, 0.5), b, At(0, 0, 0)), 0.5, {1, 0, 0}, {1, 0, 0.25},
                {0.5, 0, 0.25});
  ExpectContact(SignedDistance3d(a, At(1.0, 0, 0.5), b, At(0, 0, 0)), 0.0, {1, 0, 0},
                {0.5, 0, 0.25}, {0.5, 0, 0.25});
  ExpectContact(SignedDistance3d(a, At(0.6, 0, 0.5), b, At(0, 0, 0)), -0.4, {1, 0, 0},
                {0.1, 0, 0.25}, {0.5, 0, 0.25});
  // Crossing cores at the origin (A along x, B along y): fallback x × y = +z, φ = −1.
  const Eigen::Isometry3d A_x = Rotated(At(0, 0, 0), std::numbers::pi / 2, {0, 1, 0});
  const Eigen::Isometry3d B_y = Rotated(At(0, 0, 0), std::numbers::pi / 2, {1, 0, 0});
  const ContactPoint crossing = SignedDistance3d(a, A_x, b, B_y);
  EXPECT_NEAR(crossing.phi, -1.0, kClosedForm3dTol);
  EXPECT_NEAR(std::abs(crossing.normal.z()), 1.0, kClosedForm3dTol);
  EXPECT_NEAR((crossing.p_A - crossing.p_B - crossing.phi * crossing.normal).norm(), 0.0,
              kClosedForm3dTol);
  ExpectSwapFlips(a, along_x, b, At(0.1, 0.2, 0));
}

TEST(ClosedForm3d, ShapesAgainstHalfSpace) {
  const Shape plane = HalfSpace();
  const Eigen::Isometry3d X_WP = Eigen::Isometry3d::Identity();
  // Sphere r = 1 at height 0.5: φ = −0.5.
  ExpectContact(SignedDistance3d(Sphere(1.0), At(2, 0, 0.5), plane, X_WP), -0.5, {0, 0, 1},
                {2, 0, -0.5}, {2, 0, 0});
  ExpectContact(SignedDistance3d(Sphere(1.0), At(2, 0, 1.0), plane, X_WP), 0.0, {0, 0, 1},
                {2, 0, 0}, {2, 0, 0});
  // Cube of side 2 turned 45° about z at height 0.5: bottom face centre at z = −0.5.
  ExpectContact(SignedDistance3d(Box(2, 2, 2), Rotated(At(0, 0, 0.5), 0.7, {0, 0, 1}), plane, X_WP),
                -0.5, {0, 0, 1}, {0, 0, -0.5}, {0, 0, 0});
  // Same cube turned 45° about x at height 2: lowest edge (along x) at z = 2 − √2.
  const double edge = 2.0 - std::sqrt(2.0);
  ExpectContact(
      SignedDistance3d(Box(2, 2, 2), Rotated(At(0, 0, 2), std::numbers::pi / 4, {1, 0, 0}), plane,
                       X_WP),
      edge, {0, 0, 1}, {0, 0, edge}, {0, 0, 0});
  // Cylinder r = 1, l = 2 tilted 30° about x at height 2: its lowest point is the rim point
  // (0, −1, −1) of S, at height 2 − (cos 30° + sin 30°).
  const double tilt = std::numbers::pi / 6;
  const ContactPoint cylinder =
      SignedDistance3d(Cylinder(1.0, 2.0), Rotated(At(0, 0, 2), tilt, {1, 0, 0}), plane, X_WP);
  EXPECT_NEAR(cylinder.phi, 2.0 - std::cos(tilt) - std::sin(tilt), kClosedForm3dTol);
  // R_x(θ) maps the rim point (0, −1, −1) to (0, −cos θ + sin θ, −sin θ − cos θ).
  EXPECT_NEAR((cylinder.p_A - Eigen::Vector3d(0, std::sin(tilt) - std::cos(tilt),
                                              2.0 - std::sin(tilt) - std::cos(tilt)))
                  .norm(),
              0.0, kClosedForm3dTol);
  // Capsule r = 0.5, l = 2 lying along x at z = 0.3: φ = −0.2 at the core's middle.
  ExpectContact(
      SignedDistance3d(Capsule(0.5, 2.0), Rotated(At(0, 0, 0.3), std::numbers::pi / 2, {0, 1, 0}),
                       plane, X_WP),
      -0.2, {0, 0, 1}, {0, 0, -0.2}, {0, 0, 0});
  // Tetrahedron turned 180° about x and lifted by 0.25: vertex (0,0,1) ends at z = −0.75.
  Shape tetra;
  tetra.type = ShapeType::kConvex;
  tetra.vertices = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {0, 0, 1}};
  ExpectContact(
      SignedDistance3d(tetra, Rotated(At(0, 0, 0.25), std::numbers::pi, {1, 0, 0}), plane, X_WP),
      -0.75, {0, 0, 1}, {0, 0, -0.75}, {0, 0, 0});
  // A wall: the plane frame turned 90° about x (normal R_x(90°) z = (0, −1, 0)) at y = 5.
  const Eigen::Isometry3d wall = Rotated(At(0, 5, 0), std::numbers::pi / 2, {1, 0, 0});
  ExpectContact(SignedDistance3d(Sphere(1.0), At(0, 2, 0), plane, wall), 2.0, {0, -1, 0}, {0, 3, 0},
                {0, 5, 0});
  // Half-space first: the normal flips.
  ExpectContact(SignedDistance3d(plane, wall, Sphere(1.0), At(0, 2, 0)), 2.0, {0, 1, 0}, {0, 5, 0},
                {0, 3, 0});
  ExpectSwapFlips(Box(1, 2, 3), Rotated(At(0, 0, 0.5), 0.3, {1, 1, 0}), plane, X_WP);
}

TEST(ClosedForm3d, BadInputThrowsNamingTheProblem) {
  const Eigen::Isometry3d I = Eigen::Isometry3d::Identity();
  EXPECT_THROW(SignedDistance3d(HalfSpace(), I, HalfSpace(), I), std::invalid_argument);
  EXPECT_THROW(SignedDistance3d(Sphere(0.0), I, HalfSpace(), I), std::invalid_argument);
  EXPECT_THROW(SignedDistance3d(Box(1, -1, 1), I, Sphere(1), I), std::invalid_argument);
  EXPECT_THROW(SignedDistance3d(Capsule(1, 0), I, Sphere(1), I), std::invalid_argument);
  Shape flat;
  flat.type = ShapeType::kConvex;
  flat.vertices = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {1, 1, 0}};
  EXPECT_THROW(SignedDistance3d(flat, I, Sphere(1), I), std::invalid_argument);
  Eigen::Isometry3d bad = I;
  bad.translation().x() = std::nan("");
  EXPECT_THROW(SignedDistance3d(Sphere(1), bad, Sphere(1), I), std::invalid_argument);
  try {
    SignedDistance3d(Sphere(-2.0), I, Sphere(1), I);
    FAIL() << "expected a throw";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("radius"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace quasidyn
