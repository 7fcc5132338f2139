#include "quasidyn/math/quaternion.h"

#include <gtest/gtest.h>

#include <Eigen/Geometry>
#include <cmath>
#include <limits>
#include <stdexcept>

namespace quasidyn {
namespace {

constexpr double kEps = std::numeric_limits<double>::epsilon();

// A few unit quaternions away from the identity, built with Eigen (independent code).
std::vector<Eigen::Vector4d> SampleQuaternions() {
  std::vector<Eigen::Vector4d> samples;
  const Eigen::Vector3d axes[] = {{1, 0, 0}, {0.3, -0.5, 0.8}, {-1, 2, 0.5}};
  const double angles[] = {0.0, 0.7, 2.9, -3.1};
  for (const auto& axis : axes) {
    for (double angle : angles) {
      const Eigen::Quaterniond q(Eigen::AngleAxisd(angle, axis.normalized()));
      samples.emplace_back(q.w(), q.x(), q.y(), q.z());
    }
  }
  return samples;
}

TEST(QuaternionTest, ProductMatchesEigen) {
  const Eigen::Quaterniond a(Eigen::AngleAxisd(0.4, Eigen::Vector3d(1, 2, 3).normalized()));
  const Eigen::Quaterniond b(Eigen::AngleAxisd(-1.3, Eigen::Vector3d(0, -1, 2).normalized()));
  const Eigen::Quaterniond ab = a * b;
  const Eigen::Vector4d product = QuaternionProduct(Eigen::Vector4d(a.w(), a.x(), a.y(), a.z()),
                                                    Eigen::Vector4d(b.w(), b.x(), b.y(), b.z()));
  EXPECT_LT((product - Eigen::Vector4d(ab.w(), ab.x(), ab.y(), ab.z())).norm(), 10 * kEps);
}

TEST(QuaternionTest, RotationMatrixMatchesEigen) {
  for (const Eigen::Vector4d& Q : SampleQuaternions()) {
    const Eigen::Quaterniond q(Q[0], Q[1], Q[2], Q[3]);
    EXPECT_LT((RotationMatrixFromQuaternion(Q) - q.toRotationMatrix()).norm(), 20 * kEps);
    // A scaled quaternion describes the same rotation.
    EXPECT_LT((RotationMatrixFromQuaternion(3.0 * Q) - q.toRotationMatrix()).norm(), 20 * kEps);
    // Round trip up to the sign of Q.
    const Eigen::Vector4d back = QuaternionFromRotationMatrix(q.toRotationMatrix());
    EXPECT_LT(std::min((back - Q).norm(), (back + Q).norm()), 20 * kEps);
  }
}

TEST(QuaternionTest, RotationVectorClosedForm) {
  // A quarter turn about z: (cos π/4, 0, 0, sin π/4).
  const Eigen::Vector4d Q = QuaternionFromRotationVector(Eigen::Vector3d(0, 0, M_PI / 2));
  EXPECT_LT((Q - Eigen::Vector4d(std::sqrt(0.5), 0, 0, std::sqrt(0.5))).norm(), 4 * kEps);
  // Small angles (Taylor branch) against the closed form evaluated in long double.
  for (double angle : {0.0, 1e-9, 3e-5, 9.9e-5, 1.01e-4}) {
    const Eigen::Vector3d axis = Eigen::Vector3d(2, -1, 2) / 3.0;
    const Eigen::Vector4d small = QuaternionFromRotationVector(angle * axis);
    const long double half = 0.5L * angle;
    EXPECT_NEAR(small[0], static_cast<double>(std::cos(half)), 2 * kEps);
    for (int i = 0; i < 3; ++i) {
      EXPECT_NEAR(small[1 + i], static_cast<double>(std::sin(half) * axis[i]), 2 * kEps);
    }
  }
}

TEST(QuaternionTest, IntegrationIsWorldFrameRotation) {
  // Integrating ω (parent frame) for dt must give R⁺ = exp([ω]× dt) R, computed here
  // with Eigen's angle-axis.
  const Eigen::Vector3d omega(0.3, -1.2, 2.0);
  const double dt = 0.37;
  for (const Eigen::Vector4d& Q : SampleQuaternions()) {
    const Eigen::Matrix3d expected =
        Eigen::AngleAxisd(omega.norm() * dt, omega.normalized()).toRotationMatrix() *
        RotationMatrixFromQuaternion(Q);
    const Eigen::Vector4d next = IntegrateQuaternion(Q, omega, dt);
    EXPECT_NEAR(next.norm(), 1.0, 4 * kEps);
    EXPECT_LT((RotationMatrixFromQuaternion(next) - expected).norm(), 50 * kEps);
  }
}

TEST(QuaternionTest, RateMapMatchesFiniteDifferenceOfIntegration) {
  // Central difference of t ↦ IntegrateQuaternion(Q, ω, t) at t = 0 gives Q̇ = E(Q) ω.
  // Error ≤ h²/6·|Q'''| + ε/h with |Q'''| ≤ (|ω|/2)³; step h = cbrt(ε) balances both.
  const double h = std::cbrt(kEps);
  const Eigen::Vector3d omegas[] = {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}, {0.5, -2.0, 1.5}};
  for (const Eigen::Vector4d& Q : SampleQuaternions()) {
    const Eigen::Matrix<double, 4, 3> E = QuaternionRateMap(Q);
    for (const Eigen::Vector3d& omega : omegas) {
      const Eigen::Vector4d fd =
          (IntegrateQuaternion(Q, omega, h) - IntegrateQuaternion(Q, omega, -h)) / (2 * h);
      const double bound = std::pow(0.5 * omega.norm(), 3) * h * h / 6 + 4 * kEps / h;
      EXPECT_LT((E * omega - fd).norm(), 10 * bound) << "Q = " << Q.transpose();
    }
  }
}

// The reference simulator's update Q⁺ = normalize(Q + h E(Q) ω) with its E (CalcNW2Qdot of
// quasistatic_simulator.cc, written out by hand here: rows ½(−x, −y, −z), ½(w, z, −y),
// ½(−z, w, x), ½(y, −x, w)), for world-frame ω; its rotation departs from the exact one by
// O((|ω| h)³) per step: the error divides by 8 when h halves.
TEST(QuaternionTest, FirstOrderUpdateIsTheSimulatorsFormula) {
  const Eigen::Vector3d omega(0.3, -1.2, 2.0);
  const double h = 0.1;
  for (const Eigen::Vector4d& Q : SampleQuaternions()) {
    const double w = Q[0], x = Q[1], y = Q[2], z = Q[3];
    Eigen::Matrix<double, 4, 3> E;
    E << -x, -y, -z, w, z, -y, -z, w, x, y, -x, w;
    E *= 0.5;
    const Eigen::Vector4d expected = (Q + h * E * omega).normalized();
    const Eigen::Vector4d next = FirstOrderQuaternionUpdate(Q, omega, h);
    EXPECT_LT((next - expected).norm(), 8 * kEps) << "Q = " << Q.transpose();
    const auto error = [&](double step) {
      return (RotationMatrixFromQuaternion(FirstOrderQuaternionUpdate(Q, omega, step)) -
              RotationMatrixFromQuaternion(IntegrateQuaternion(Q, omega, step)))
          .norm();
    };
    const double ratio = error(h) / error(h / 2);
    EXPECT_GT(ratio, 7.0) << "Q = " << Q.transpose();
    EXPECT_LT(ratio, 9.0) << "Q = " << Q.transpose();
  }
  EXPECT_THROW(FirstOrderQuaternionUpdate(Eigen::Vector4d::Zero(), omega, h),
               std::invalid_argument);
}

TEST(QuaternionTest, RateMapClosedForm) {
  // Rotation about z at rate ω_z from the identity: Q̇ = (0, 0, 0, ω_z/2).
  const Eigen::Matrix<double, 4, 3> E = QuaternionRateMap(IdentityQuaternion());
  EXPECT_LT((E * Eigen::Vector3d(0, 0, 2.0) - Eigen::Vector4d(0, 0, 0, 1.0)).norm(), kEps);
  for (const Eigen::Vector4d& Q : SampleQuaternions()) {
    const Eigen::Matrix<double, 4, 3> EQ = QuaternionRateMap(Q);
    EXPECT_LT((EQ.transpose() * EQ - 0.25 * Eigen::Matrix3d::Identity()).norm(), 10 * kEps);
    EXPECT_LT((Q.transpose() * EQ).norm(), 10 * kEps);
  }
}

TEST(QuaternionTest, NormalizationJacobianMatchesFiniteDifference) {
  const Eigen::Vector4d points[] = {{1, 0, 0, 0}, {0.3, -2.0, 0.7, 1.1}, {0.01, 0.02, -0.03, 0.05}};
  for (const Eigen::Vector4d& Q : points) {
    const Eigen::Matrix4d analytic = NormalizationJacobian(Q);
    // The map Q ↦ Q/|Q| has third derivatives of order 1/|Q|³; step scales with |Q|.
    const double h = std::cbrt(kEps) * Q.norm();
    for (int i = 0; i < 4; ++i) {
      const Eigen::Vector4d dQ = h * Eigen::Vector4d::Unit(i);
      const Eigen::Vector4d fd =
          (NormalizeQuaternion(Q + dQ) - NormalizeQuaternion(Q - dQ)) / (2 * h);
      const double bound = (h * h / std::pow(Q.norm(), 3) + kEps / h) * 10;
      EXPECT_LT((analytic.col(i) - fd).norm(), bound) << "Q = " << Q.transpose();
    }
  }
}

TEST(QuaternionTest, RejectsZeroAndNonFinite) {
  EXPECT_THROW(NormalizeQuaternion(Eigen::Vector4d::Zero()), std::invalid_argument);
  EXPECT_THROW(NormalizationJacobian(Eigen::Vector4d(NAN, 0, 0, 1)), std::invalid_argument);
  EXPECT_THROW(IntegrateQuaternion(Eigen::Vector4d(INFINITY, 0, 0, 0), Eigen::Vector3d::Zero(), 1),
               std::invalid_argument);
}

}  // namespace
}  // namespace quasidyn
