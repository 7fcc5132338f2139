#include "quasidyn/contact/friction_cone.h"

#include <gtest/gtest.h>

#include <limits>
#include <numbers>
#include <random>

namespace quasidyn {
namespace {

constexpr double kEps = std::numeric_limits<double>::epsilon();

TEST(CombineFriction, RulesMatchTheirFormulas) {
  EXPECT_DOUBLE_EQ(CombineFriction(FrictionCombination::kMin, 0.3, 0.8), 0.3);
  EXPECT_DOUBLE_EQ(CombineFriction(FrictionCombination::kGeometricMean, 0.25, 1.0), 0.5);
  EXPECT_DOUBLE_EQ(CombineFriction(FrictionCombination::kHarmonic, 0.5, 1.0), 2.0 / 3.0);
  EXPECT_DOUBLE_EQ(CombineFriction(FrictionCombination::kHarmonic, 0.0, 0.0), 0.0);
  EXPECT_THROW(CombineFriction(FrictionCombination::kMin, -0.1, 0.5), std::invalid_argument);
  EXPECT_THROW(CombineFriction(FrictionCombination::kMin, std::nan(""), 0.5),
               std::invalid_argument);
}

TEST(TangentBasis, OrthonormalAndRightHandedForRandomNormals) {
  std::mt19937 rng(7);
  std::normal_distribution<double> gauss;
  for (int trial = 0; trial < 1000; ++trial) {
    Eigen::Vector3d n(gauss(rng), gauss(rng), gauss(rng));
    if (trial == 0) n = -Eigen::Vector3d::UnitZ();  // the construction's delicate case
    if (trial == 1) n = Eigen::Vector3d::UnitZ();
    n.normalize();
    Eigen::Vector3d t1, t2;
    TangentBasis(n, false, &t1, &t2);
    EXPECT_NEAR(t1.norm(), 1.0, 10 * kEps);
    EXPECT_NEAR(t2.norm(), 1.0, 10 * kEps);
    EXPECT_NEAR(t1.dot(n), 0.0, 10 * kEps);
    EXPECT_NEAR(t2.dot(n), 0.0, 10 * kEps);
    EXPECT_NEAR(t1.dot(t2), 0.0, 10 * kEps);
    EXPECT_LT((t1.cross(t2) - n).norm(), 10 * kEps);
  }
}

// Side contacts have horizontal normals whose n_z is ±round-off: the basis must not depend on
// that sign. Across n_z = 0 the basis changes by O(|Δn|), checked against a step of 1e-6
// rad, for normals all around the horizon; and the two poles give the documented frames.
TEST(TangentBasis, ContinuousAcrossHorizontalNormals) {
  const double tilt = 1e-6;
  for (int i = 0; i < 36; ++i) {
    const double azimuth = 2.0 * std::numbers::pi * i / 36;
    const Eigen::Vector3d horizontal(std::cos(azimuth), std::sin(azimuth), 0.0);
    Eigen::Vector3d up1, up2, down1, down2;
    TangentBasis((horizontal + tilt * Eigen::Vector3d::UnitZ()).normalized(), false, &up1, &up2);
    TangentBasis((horizontal - tilt * Eigen::Vector3d::UnitZ()).normalized(), false, &down1,
                 &down2);
    // A smooth unit-vector field moves by at most a few times the normal's own change.
    EXPECT_LT((up1 - down1).norm(), 4 * 2 * tilt) << "azimuth " << azimuth;
    EXPECT_LT((up2 - down2).norm(), 4 * 2 * tilt) << "azimuth " << azimuth;
  }
  Eigen::Vector3d t1, t2;
  TangentBasis(Eigen::Vector3d::UnitZ(), false, &t1, &t2);
  EXPECT_LT((t1 - Eigen::Vector3d::UnitX()).norm(), kEps);
  EXPECT_LT((t2 - Eigen::Vector3d::UnitY()).norm(), kEps);
  TangentBasis(-Eigen::Vector3d::UnitZ(), false, &t1, &t2);
  EXPECT_LT((t1 - Eigen::Vector3d::UnitX()).norm(), kEps);
  EXPECT_LT((t2 + Eigen::Vector3d::UnitY()).norm(), kEps);
}

TEST(TangentBasis, PlanarTangentLiesInThePlane) {
  const Eigen::Vector3d n = Eigen::Vector3d(0.6, 0.8, 0.0);
  Eigen::Vector3d t1, t2;
  TangentBasis(n, true, &t1, &t2);
  EXPECT_LT((t1 - Eigen::Vector3d(-0.8, 0.6, 0.0)).norm(), 10 * kEps);
  EXPECT_LT((t2 - Eigen::Vector3d::UnitZ()).norm(), 10 * kEps);
}

TEST(FrictionRays, BalancedUnitRaysInTheTangentPlane) {
  const Eigen::Vector3d n = Eigen::Vector3d(1, 2, 3).normalized();
  Eigen::Vector3d t1, t2;
  TangentBasis(n, false, &t1, &t2);
  for (int nd : {3, 4, 8, 16}) {
    const Eigen::Matrix3Xd rays = FrictionRays(t1, t2, nd, false);
    ASSERT_EQ(rays.cols(), nd);
    EXPECT_LT(rays.rowwise().sum().norm(), 100 * kEps);  // balanced: the rays sum to zero
    for (int j = 0; j < nd; ++j) {
      EXPECT_NEAR(rays.col(j).norm(), 1.0, 10 * kEps);
      EXPECT_NEAR(rays.col(j).dot(n), 0.0, 10 * kEps);
    }
  }
  EXPECT_THROW(FrictionRays(t1, t2, 2, false), std::invalid_argument);
  const Eigen::Matrix3Xd planar = FrictionRays(t1, t2, 8, true);
  ASSERT_EQ(planar.cols(), 2);
  EXPECT_LT((planar.col(0) + planar.col(1)).norm(), kEps);
}

}  // namespace
}  // namespace quasidyn
