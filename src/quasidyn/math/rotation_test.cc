#include "quasidyn/math/rotation.h"

#include <gtest/gtest.h>

#include <Eigen/Geometry>
#include <cmath>
#include <limits>
#include <stdexcept>

namespace quasidyn {
namespace {

constexpr double kEps = std::numeric_limits<double>::epsilon();

TEST(RotationTest, SkewIsCrossProduct) {
  const Eigen::Vector3d a(1.5, -2.0, 0.25), b(-0.5, 3.0, 4.0);
  // a × b by hand: (a_y b_z − a_z b_y, a_z b_x − a_x b_z, a_x b_y − a_y b_x).
  const Eigen::Vector3d expected(-2.0 * 4.0 - 0.25 * 3.0, 0.25 * -0.5 - 1.5 * 4.0,
                                 1.5 * 3.0 - (-2.0) * (-0.5));
  EXPECT_LT((Skew(a) * b - expected).norm(), 10 * kEps);
  EXPECT_EQ((Skew(a) + Skew(a).transpose()).norm(), 0.0);  // entries are exact negations
}

TEST(RotationTest, LogarithmInvertsExponential) {
  const Eigen::Vector3d axis = Eigen::Vector3d(1, -2, 2) / 3.0;
  for (double angle : {0.0, 1e-8, 0.5, 2.0, 3.1}) {
    const Eigen::Matrix3d R = Eigen::AngleAxisd(angle, axis).toRotationMatrix();
    EXPECT_LT((RotationVectorFromMatrix(R) - angle * axis).norm(), 20 * kEps) << angle;
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
