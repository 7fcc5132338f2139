#include "quasidyn/math/rotation.h"

#include <gtest/gtest.h>

#include <Eigen/Geometry>
#include <cmath>
#include <limits>
#include <stdexcept>

namespace quasidyn {
namespace {

constexpr double kRotationEps = std::numeric_limits<double>::epsilon();

TEST(RotationTest, SkewIsCrossProduct) {
  const Eigen::Vector3d a(1.5, -2.0, 0.25), b(-0.5, 3.0, 4.0);
  // a × b by hand: (a_y b_z − a_z b_y, a_z b_x − a_x b_z, a_x b_y − a_y b_x).
  const Eigen::Vector3d expected(-2.0 * 4.0 - 0.25 * 3.0, 0.25 * -0.5 - 1.5 * 4.0,
                                 1.5 * 3.0 - (-2.0) * (-0.5));
  EXPECT_LT((Skew(a) * b - expected).norm(), 10 * kRotationEps);
  EXPECT_EQ((Skew(a) + Skew(a).transpose()).norm(), 0.0);  // entries are exact negations
}

TEST(RotationTest, ExponentialIsEigensAngleAxis) {
  const Eigen::Vector3d axis = Eigen::Vector3d(2, 1, -2) / 3.0;
  for (double angle : {0.0, 1e-9, 1e-5, 0.3, 2.5}) {
    const Eigen::Matrix3d expected = Eigen::AngleAxisd(angle, axis).toRotationMatrix();
    EXPECT_LT((RotationMatrixFromRotationVector(angle * axis) - expected).norm(), 20 * kRotationEps)
        << angle;
  }
}

TEST(RotationTest, LeftJacobianMapsPerturbationsOfTheExponential) {
  // exp([θ + ε e_k]×) exp([θ]×)ᵀ = exp([ε J_l e_k]×) + O(ε²): central differences, O(ε²).
  for (double angle : {0.0, 5e-5, 0.7, 2.9}) {
    const Eigen::Vector3d theta = angle * Eigen::Vector3d(1, -2, 2) / 3.0;
    const Eigen::Matrix3d J = RotationLeftJacobian(theta);
    const double eps = 1e-6;
    for (int k = 0; k < 3; ++k) {
      const Eigen::Vector3d e = eps * Eigen::Vector3d::Unit(k);
      const Eigen::Matrix3d R0 = RotationMatrixFromRotationVector(theta).transpose();
      const Eigen::Vector3d plus =
          RotationVectorFromMatrix(RotationMatrixFromRotationVector(theta + e) * R0);
      const Eigen::Vector3d minus =
          RotationVectorFromMatrix(RotationMatrixFromRotationVector(theta - e) * R0);
      EXPECT_LT(((plus - minus) / (2 * eps) - J.col(k)).norm(), 1e-9) << angle << " " << k;
    }
  }
}

TEST(RotationTest, LogarithmInvertsExponential) {
  const Eigen::Vector3d axis = Eigen::Vector3d(1, -2, 2) / 3.0;
  for (double angle : {0.0, 1e-8, 0.5, 2.0, 3.1}) {
    const Eigen::Matrix3d R = Eigen::AngleAxisd(angle, axis).toRotationMatrix();
    EXPECT_LT((RotationVectorFromMatrix(R) - angle * axis).norm(), 20 * kRotationEps) << angle;
  }
  // A half turn: either sign of the axis is valid.
  const Eigen::Vector3d half_turn =
      RotationVectorFromMatrix(Eigen::AngleAxisd(M_PI, axis).toRotationMatrix());
  EXPECT_NEAR(half_turn.norm(), M_PI, 1e-7);
  EXPECT_NEAR(std::abs(half_turn.normalized().dot(axis)), 1.0, 1e-7);
}

TEST(RotationTest, LogarithmRejectsNonFinite) {
  Eigen::Matrix3d R = Eigen::Matrix3d::Identity();
  R(1, 2) = NAN;
  EXPECT_THROW(RotationVectorFromMatrix(R), std::invalid_argument);
}

}  // namespace
}  // namespace quasidyn
