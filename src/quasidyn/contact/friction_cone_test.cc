#include "quasidyn/contact/friction_cone.h"

#include <limits>
#include <random>

#include <gtest/gtest.h>

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
