#include "quasidyn/io/solid_inertia.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <numbers>
#include <stdexcept>

namespace quasidyn {
namespace {

constexpr double kTol = 1e-12;

TEST(SolidInertiaTest, SphereIsTwoFifthsMrSquared) {
  Shape s;
  s.type = ShapeType::kSphere;
  s.radius = 0.1;
  const Eigen::Matrix3d I = SolidInertia(s, 2.0);
  EXPECT_NEAR(I(0, 0), 0.4 * 2.0 * 0.01, kTol);
  EXPECT_NEAR(I(2, 2), 0.4 * 2.0 * 0.01, kTol);
  EXPECT_NEAR(I(0, 1), 0.0, kTol);
}

TEST(SolidInertiaTest, BoxMatchesCuboidFormula) {
  Shape s;
  s.type = ShapeType::kBox;
  s.size = {1.0, 2.0, 3.0};
  const Eigen::Matrix3d I = SolidInertia(s, 12.0);
  EXPECT_NEAR(I(0, 0), 4.0 + 9.0, kTol);
  EXPECT_NEAR(I(1, 1), 1.0 + 9.0, kTol);
  EXPECT_NEAR(I(2, 2), 1.0 + 4.0, kTol);
}

// A capsule's inertia, checked against an independent estimate: numerical integration over
// a grid of the solid (midpoint rule), whose error shrinks like the cell size squared.
TEST(SolidInertiaTest, CapsuleMatchesNumericalIntegration) {
  Shape s;
  s.type = ShapeType::kCapsule;
  s.radius = 0.5;
  s.length = 2.0;
  const double mass = 3.0;
  const int n = 120;
  const double half_extent_z = s.length / 2 + s.radius;
  const double dx = 2 * s.radius / n, dz = 2 * half_extent_z / n;
  double volume = 0, ixx = 0, izz = 0;
  for (int i = 0; i < n; ++i) {
    for (int j = 0; j < n; ++j) {
      for (int k = 0; k < n; ++k) {
        const double x = -s.radius + (i + 0.5) * dx, y = -s.radius + (j + 0.5) * dx;
        const double z = -half_extent_z + (k + 0.5) * dz;
        const double core_z = std::clamp(z, -s.length / 2, s.length / 2);
        if (x * x + y * y + (z - core_z) * (z - core_z) > s.radius * s.radius) continue;
        const double dv = dx * dx * dz;
        volume += dv;
        ixx += (y * y + z * z) * dv;
        izz += (x * x + y * y) * dv;
      }
    }
  }
  const Eigen::Matrix3d I = SolidInertia(s, mass);
  // Grid error: about (cell / size)² relative; 120 cells give well under 1 %.
  EXPECT_NEAR(I(0, 0), mass * ixx / volume, 0.01 * I(0, 0));
  EXPECT_NEAR(I(1, 1), mass * ixx / volume, 0.01 * I(1, 1));
  EXPECT_NEAR(I(2, 2), mass * izz / volume, 0.01 * I(2, 2));
  // The planar convention puts the capsule's axis on x.
  const Eigen::Matrix3d I_planar = SolidInertia(s, mass, 0);
  EXPECT_NEAR(I_planar(0, 0), I(2, 2), kTol);
  EXPECT_NEAR(I_planar(2, 2), I(0, 0), kTol);
}

TEST(SolidInertiaTest, CylinderMatchesFormula) {
  Shape s;
  s.type = ShapeType::kCylinder;
  s.radius = 1.0;
  s.length = 2.0;
  const Eigen::Matrix3d I = SolidInertia(s, 6.0);
  EXPECT_NEAR(I(2, 2), 3.0, kTol);
  EXPECT_NEAR(I(0, 0), 6.0 * (3.0 + 4.0) / 12.0, kTol);
}

TEST(SolidInertiaTest, RejectsHalfSpaceAndBadMass) {
  Shape s;
  s.type = ShapeType::kHalfSpace;
  EXPECT_THROW(SolidInertia(s, 1.0), std::invalid_argument);
  s.type = ShapeType::kSphere;
  s.radius = 1.0;
  EXPECT_THROW(SolidInertia(s, 0.0), std::invalid_argument);
}

}  // namespace
}  // namespace quasidyn
