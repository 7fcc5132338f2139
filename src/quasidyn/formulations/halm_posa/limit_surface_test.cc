// The limit surface of limit_surface.h: the closed forms of the uniform-pressure footprint
// against the quadrature, the transform to the body origin, and ∂A/∂θ against differences.

#include "quasidyn/formulations/halm_posa/limit_surface.h"

#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "quasidyn/scenes/scene_loading.h"
#include "quasidyn/testing/matrix_compare.h"

namespace quasidyn {
namespace {

// One planar object with the given shapes (YAML flow list) and optional limit surface.
Scene ObjectScene(const std::string& shapes, const std::string& limit = "") {
  return LoadSceneFromString(R"(name: footprint
dimension: 2
gravity: [0, 0, 0]
time_step: 0.025
objects:
  - name: slab
    joint: planar
    body: {mass: 1, inertia: {principal: [1, 1, 1]}, shapes: )" +
                                 shapes + "}\n" + limit + "    initial: [0.3, -0.2, 0.7]\n",
                             "footprint.yaml", "");
}

// The midpoint quadrature's resolution (512 cells per side, limit_surface.h): the indicator of a
// curved outline is off by about one cell along it, so relative errors of order 1e-3.
constexpr double kQuadratureTolerance = 3e-3;

TEST(LimitSurface, CircleClosedFormMatchesQuadrature) {
  const double r = 0.4;
  const UniformPressureFootprint disk = FootprintOf(
      ObjectScene("[{type: sphere, radius: 0.4, friction: 1, pose: {x: 0.1, y: 0.2}}]"), 0);
  EXPECT_NEAR(disk.mean_distance, 2 * r / 3, 1e-15);  // ∫ρ·2πρ dρ / (πr²)
  EXPECT_NEAR(disk.area, M_PI * r * r, 1e-15);
  EXPECT_TRUE(testing::MatricesNear(disk.centroid, Eigen::Vector2d(0.1, 0.2), 1e-15));
  // The same disk twice: a union of two shapes goes to the quadrature.
  const UniformPressureFootprint twice =
      FootprintOf(ObjectScene("[{type: sphere, radius: 0.4, friction: 1, pose: {x: 0.1, y: 0.2}}, "
                              "{type: sphere, radius: 0.4, friction: 1, pose: {x: 0.1, y: 0.2}}]"),
                  0);
  EXPECT_NEAR(twice.mean_distance, disk.mean_distance, kQuadratureTolerance * disk.mean_distance);
  EXPECT_NEAR(twice.area, disk.area, kQuadratureTolerance * disk.area);
  EXPECT_TRUE(testing::MatricesNear(twice.centroid, disk.centroid, kQuadratureTolerance * r));
}

TEST(LimitSurface, RectangleClosedFormMatchesQuadratureOfItsHalves) {
  // A square of side 2: mean distance (√2 + ln(1 + √2))/3 from its centre.
  const UniformPressureFootprint square =
      FootprintOf(ObjectScene("[{type: box, size: [2, 2, 1], friction: 1}]"), 0);
  EXPECT_NEAR(square.mean_distance, (std::sqrt(2.0) + std::log(1 + std::sqrt(2.0))) / 3, 1e-15);
  // A 2 × 6 rectangle, turned by 0.3 rad, against its two 2 × 3 halves (quadrature).
  const UniformPressureFootprint whole = FootprintOf(
      ObjectScene("[{type: box, size: [2, 6, 1], friction: 1, pose: {theta: 0.3}}]"), 0);
  const Eigen::Vector2d up = Eigen::Rotation2Dd(0.3) * Eigen::Vector2d(0, 1.5);
  const UniformPressureFootprint halves = FootprintOf(
      ObjectScene("[{type: box, size: [2, 3, 1], friction: 1, pose: {x: " + std::to_string(up.x()) +
                  ", y: " + std::to_string(up.y()) +
                  ", theta: 0.3}}, {type: box, size: [2, 3, 1], friction: 1, pose: {x: " +
                  std::to_string(-up.x()) + ", y: " + std::to_string(-up.y()) + ", theta: 0.3}}]"),
      0);
  EXPECT_NEAR(whole.area, 12, 1e-12);
  EXPECT_NEAR(halves.area, whole.area, kQuadratureTolerance * whole.area);
  EXPECT_NEAR(halves.mean_distance, whole.mean_distance,
              kQuadratureTolerance * whole.mean_distance);
  EXPECT_TRUE(testing::MatricesNear(halves.centroid, whole.centroid, kQuadratureTolerance));
}

TEST(LimitSurface, DefaultAboutAnOffsetCentroidTurnsOnlyUnderTorqueAboutIt) {
  // A disk centred at c = (0.1, 0.2) in the body frame: a force through c does not turn it, and
  // a pure torque turns it about c (the origin's velocity is ω ẑ × (0 − c)).
  const UniformPressureFootprint disk = FootprintOf(
      ObjectScene("[{type: sphere, radius: 0.4, friction: 1, pose: {x: 0.1, y: 0.2}}]"), 0);
  const Eigen::Matrix3d A = UniformPressureLimitSurface(disk);
  const Eigen::Vector2d c = disk.centroid, f(0.7, -1.1);
  const Eigen::Vector3d through_c(f.x(), f.y(), c.x() * f.y() - c.y() * f.x());
  const Eigen::Vector3d V = A * through_c;
  EXPECT_NEAR(V.z(), 0.0, 1e-15);
  EXPECT_TRUE(testing::MatricesNear(V.head<2>(), f, 1e-15));  // scale a = 1 m/(N·s)
  const Eigen::Vector3d spin = A * Eigen::Vector3d(0, 0, 1);
  const double rho = 2 * 0.4 / 3;
  EXPECT_NEAR(spin.z(), 1 / (rho * rho), 1e-12);
  EXPECT_TRUE(
      testing::MatricesNear(spin.head<2>(), spin.z() * Eigen::Vector2d(c.y(), -c.x()), 1e-12));
  EXPECT_TRUE(testing::MatricesNear(A, A.transpose(), 0.0));
}

TEST(LimitSurface, WorldFormAndItsDerivative) {
  Eigen::Matrix3d body;
  body << 2, 0.3, 0.1, 0.3, 1, -0.2, 0.1, -0.2, 4;
  const double theta = 0.8, step = 1e-6;
  const Eigen::Matrix3d fd =
      (WorldLimitSurface(body, theta + step) - WorldLimitSurface(body, theta - step)) / (2 * step);
  // Central difference: truncation O(step²·|A|), round-off O(ε|A|/step).
  EXPECT_TRUE(testing::MatricesNear(WorldLimitSurfaceDerivative(body, theta), fd, 1e-9));
  // A = R̃ Ã R̃ᵀ keeps the rotational entry and rotates the translational block.
  EXPECT_NEAR(WorldLimitSurface(body, theta)(2, 2), body(2, 2), 1e-15);
  EXPECT_TRUE(testing::MatricesNear(WorldLimitSurface(body, 0.0), body, 0.0));
}

TEST(LimitSurface, SceneValueOverridesTheDefault) {
  const Scene given = ObjectScene("[{type: sphere, radius: 0.4, friction: 1}]",
                                  "    limit_surface: {principal: [2, 3, 4]}\n");
  const std::vector<ObjectLimitSurface> surfaces = ObjectLimitSurfaces(given);
  ASSERT_EQ(surfaces.size(), 1u);
  EXPECT_EQ(surfaces[0].v_start, 0);
  EXPECT_TRUE(testing::MatricesNear(surfaces[0].body,
                                    Eigen::Vector3d(2, 3, 4).asDiagonal().toDenseMatrix(), 0.0));
  const Scene fallback = ObjectScene("[{type: sphere, radius: 0.4, friction: 1}]");
  EXPECT_NEAR(ObjectLimitSurfaces(fallback)[0].body(2, 2), std::pow(1.5 / 0.4, 2), 1e-12);
}

}  // namespace
}  // namespace quasidyn
