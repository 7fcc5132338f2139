#include "quasidyn/contact/friction_cone.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <numbers>
#include <random>
#include <string>
#include <vector>

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
  EXPECT_THROW(FrictionRays(t1, t2, 1, false), std::invalid_argument);
  const Eigen::Matrix3Xd planar = FrictionRays(t1, t2, 8, true);
  ASSERT_EQ(planar.cols(), 2);
  EXPECT_LT((planar.col(0) + planar.col(1)).norm(), kEps);
}

// The reference simulator's frame (QsimTangentBasis) at normals whose values follow by hand from
// its construction (Drake's MakeFromOneUnitVector(n, 2): a = e_i for n's smallest |component|,
// the first of equals; t1 = (a × n)/|a × n|, t2 = n × t1), and its rays R (cos θ_j, sin θ_j, 0)
// with R = [t1 t2 n] (CalcTangentVectors). The values below are exact in binary or one rounding
// from it: 4 ulp.
TEST(QsimTangentBasis, MatchesTheSimulatorsConstructionByHand) {
  struct Case {
    Eigen::Vector3d n, t1, t2;
  };
  const double s45 = std::sqrt(45.0);
  const std::vector<Case> cases = {
      {{0, 0, 1}, {0, -1, 0}, {1, 0, 0}},          // +ẑ: a = x̂ (the first of the two zeros)
      {{0, 0, -1}, {0, 1, 0}, {1, 0, 0}},          // −ẑ
      {{1, 0, 0}, {0, 0, -1}, {0, 1, 0}},          // +x̂: a = ŷ
      {{-1, 0, 0}, {0, 0, 1}, {0, 1, 0}},          // −x̂
      {{0, 1, 0}, {0, 0, 1}, {1, 0, 0}},           // +ŷ: a = x̂
      {{-0.6, 0, 0.8}, {0.8, 0, 0.6}, {0, 1, 0}},  // a = ŷ
      {{2.0 / 7, 3.0 / 7, 6.0 / 7},                // a = x̂, |a × n| = √45/7
       {0, -6 / s45, 3 / s45},
       {s45 / 7, -6 / (7 * s45), -12 / (7 * s45)}},
  };
  constexpr double kUlps = 4 * kEps;
  for (const Case& c : cases) {
    SCOPED_TRACE("n = " + std::to_string(c.n.x()) + ", " + std::to_string(c.n.y()) + ", " +
                 std::to_string(c.n.z()));
    Eigen::Vector3d t1, t2;
    QsimTangentBasis(c.n, QsimReferenceAxis(c.n, 4), &t1, &t2);
    EXPECT_LT((t1 - c.t1).norm(), kUlps) << t1.transpose();
    EXPECT_LT((t2 - c.t2).norm(), kUlps) << t2.transpose();
    Eigen::Matrix3d R;
    R << c.t1, c.t2, c.n;
    EXPECT_LT((R.transpose() * R - Eigen::Matrix3d::Identity()).norm(), kUlps);
    EXPECT_NEAR(R.determinant(), 1.0, kUlps);
    // The simulator's angle 2π/n_d·j and FrictionRays' 2πj/n_d round apart by up to an ulp of
    // θ < 2π (8.9e-16), which moves the ray by as much.
    const double angle_rounding = 2 * std::numbers::pi * kEps;
    for (int nd : {3, 4, 6}) {
      const Eigen::Matrix3Xd rays = FrictionRays(t1, t2, nd, false);
      for (int j = 0; j < nd; ++j) {
        const double theta = 2 * std::numbers::pi / nd * j;
        EXPECT_LT((rays.col(j) - R * Eigen::Vector3d(std::cos(theta), std::sin(theta), 0)).norm(),
                  kUlps + angle_rounding)
            << "n_d " << nd << ", ray " << j;
      }
    }
  }
}

// n_d = 2: the simulator's rays ±x̂ × n (unit here; theirs has length |x̂ × n| = 1 for the
// normals without an x component of its planar systems), and a = the smallest component at
// n = ±x̂, where x̂ × n vanishes.
TEST(QsimTangentBasis, TwoRaysAreAlongXCrossN) {
  for (const Eigen::Vector3d& n :
       {Eigen::Vector3d(0, 0.6, 0.8), Eigen::Vector3d(0, -1, 0), Eigen::Vector3d(0, 0, 1),
        Eigen::Vector3d(0.6, 0, 0.8), Eigen::Vector3d(2.0 / 7, -3.0 / 7, 6.0 / 7)}) {
    Eigen::Vector3d t1, t2;
    EXPECT_EQ(QsimReferenceAxis(n, 2), 0);
    QsimTangentBasis(n, QsimReferenceAxis(n, 2), &t1, &t2);
    const Eigen::Vector3d expected = Eigen::Vector3d::UnitX().cross(n).normalized();
    const Eigen::Matrix3Xd rays = FrictionRays(t1, t2, 2, false);
    ASSERT_EQ(rays.cols(), 2);
    EXPECT_LT((rays.col(0) - expected).norm(), 4 * kEps) << n.transpose();
    EXPECT_EQ(rays.col(1), -rays.col(0));
    EXPECT_LT(std::abs(t2.dot(n)) + std::abs(t2.dot(t1)) + std::abs(t2.norm() - 1), 4 * kEps);
  }
  EXPECT_EQ(QsimReferenceAxis(Eigen::Vector3d(1, 0, 0), 2), 1);
  EXPECT_EQ(QsimReferenceAxis(Eigen::Vector3d(-1, 0, 0), 2), 1);
}

// ContactTangentBasis follows the scene: qsim's frame in 3D when its conventions say so,
// quasidyn's otherwise and in planar scenes.
TEST(QsimTangentBasis, ContactTangentBasisFollowsTheScene) {
  Scene scene;
  const Eigen::Vector3d n(0, 0, 1);
  Eigen::Vector3d t1, t2;
  ContactTangentBasis(scene, n, &t1, &t2);
  EXPECT_EQ(t1, Eigen::Vector3d(1, 0, 0));  // quasidyn's: t1 = x̂ at +ẑ
  scene.conventions.friction_ray_basis = FrictionRayBasis::kQsim;
  ContactTangentBasis(scene, n, &t1, &t2);
  EXPECT_EQ(t1, Eigen::Vector3d(0, -1, 0));
  scene.planar = true;
  ContactTangentBasis(scene, Eigen::Vector3d(0, 1, 0), &t1, &t2);
  EXPECT_EQ(t1, Eigen::Vector3d(-1, 0, 0));  // ẑ × n
}

}  // namespace
}  // namespace quasidyn
