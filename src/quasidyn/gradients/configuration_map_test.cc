#include "quasidyn/gradients/configuration_map.h"

#include <gtest/gtest.h>

#include <cmath>

#include "quasidyn/kinematics/kinematics.h"
#include "quasidyn/math/quaternion.h"
#include "quasidyn/testing/dynamics_scenes.h"

namespace quasidyn {
namespace {

// Central differences of smooth closed-form maps: error O(δ²) + O(ε/δ) ≈ 1e-10 for
// δ = 1e-6, so 1e-8 leaves a margin of 100.
constexpr double kDelta = 1e-6;
constexpr double kTolerance = 1e-8;

TEST(RotationVectorQuaternionJacobian, MatchesFiniteDifferencesForLargeAndTinyAngles) {
  for (const Eigen::Vector3d& theta :
       {Eigen::Vector3d(0.3, -0.7, 1.1), Eigen::Vector3d(2e-5, -1e-5, 3e-5),
        Eigen::Vector3d(0, 0, 0), Eigen::Vector3d(1e-4, 0, 0)}) {
    const Eigen::Matrix<double, 4, 3> D = RotationVectorQuaternionJacobian(theta);
    for (int k = 0; k < 3; ++k) {
      const Eigen::Vector3d e = Eigen::Vector3d::Unit(k) * kDelta;
      const Eigen::Vector4d fd =
          (QuaternionFromRotationVector(theta + e) - QuaternionFromRotationVector(theta - e)) /
          (2 * kDelta);
      EXPECT_LT((D.col(k) - fd).norm(), kTolerance) << "theta " << theta.transpose();
    }
  }
  // At θ = 0, e ≈ (1, θ/2): ∂e/∂θ = [0; ½ I] exactly.
  Eigen::Matrix<double, 4, 3> expected = Eigen::Matrix<double, 4, 3>::Zero();
  expected.bottomRows<3>() = 0.5 * Eigen::Matrix3d::Identity();
  EXPECT_LT((RotationVectorQuaternionJacobian(Eigen::Vector3d::Zero()) - expected).norm(), 1e-15);
}

class FloatingSceneMaps : public ::testing::Test {
 protected:
  FloatingSceneMaps() : scene_(testing::DiagonalPushScene(4)) {
    q_ = scene_.q0;
    q_.segment<4>(3) = NormalizeQuaternion(Eigen::Vector4d(0.9, 0.2, -0.3, 0.25));
    v_ = Eigen::VectorXd::LinSpaced(scene_.nv, -1.5, 2.0);
  }
  Scene scene_;
  Eigen::VectorXd q_, v_;
};

// Both quaternion updates of the step (StepConfiguration; the scene's
// conventions.quaternion_update): the exponential map and the reference simulator's first order.
TEST_F(FloatingSceneMaps, IntegrationJacobiansMatchFiniteDifferences) {
  const double dt = 0.05;
  for (QuaternionUpdate update :
       {QuaternionUpdate::kExponentialMap, QuaternionUpdate::kFirstOrder}) {
    SCOPED_TRACE(QuaternionUpdateName(update));
    scene_.conventions.quaternion_update = update;
    const Eigen::MatrixXd Dq = IntegrationJacobianWrtConfiguration(scene_, q_, v_, dt);
    for (int k = 0; k < scene_.nq; ++k) {
      Eigen::VectorXd up = q_, down = q_;
      up[k] += kDelta;
      down[k] -= kDelta;  // raw coordinates: the step normalises the quaternion
      const Eigen::VectorXd fd =
          (StepConfiguration(scene_, up, v_, dt) - StepConfiguration(scene_, down, v_, dt)) /
          (2 * kDelta);
      EXPECT_LT((Dq.col(k) - fd).norm(), kTolerance) << "q column " << k;
    }
    const Eigen::MatrixXd Dv = IntegrationJacobianWrtVelocity(scene_, q_, v_, dt);
    for (int k = 0; k < scene_.nv; ++k) {
      Eigen::VectorXd up = v_, down = v_;
      up[k] += kDelta;
      down[k] -= kDelta;
      const Eigen::VectorXd fd =
          (StepConfiguration(scene_, q_, up, dt) - StepConfiguration(scene_, q_, down, dt)) /
          (2 * kDelta);
      EXPECT_LT((Dv.col(k) - fd).norm(), kTolerance) << "v column " << k;
    }
  }
  // The two updates differ (by O((|ω| dt)³)): the first-order blocks are not the exponential's.
  scene_.conventions.quaternion_update = QuaternionUpdate::kFirstOrder;
  const Eigen::MatrixXd first_order = IntegrationJacobianWrtVelocity(scene_, q_, v_, dt);
  scene_.conventions.quaternion_update = QuaternionUpdate::kExponentialMap;
  EXPECT_GT((first_order - IntegrationJacobianWrtVelocity(scene_, q_, v_, dt)).norm(), 1e-6);
}

TEST_F(FloatingSceneMaps, TangentMapInvertsTheExponentialAndKillsTheRadialDirection) {
  const Eigen::MatrixXd T = TangentFromConfiguration(scene_, q_);
  // q ⊕ (T δq) = normalize(q + δq) to first order: check with a small δq.
  Eigen::VectorXd dq = Eigen::VectorXd::LinSpaced(scene_.nq, 0.3, -0.4) * 1e-6;
  Eigen::VectorXd target = q_ + dq;
  NormalizeQuaternions(scene_, &target);
  const Eigen::VectorXd moved = IntegrateConfiguration(scene_, q_, T * dq, 1.0);
  EXPECT_LT((moved - target).norm(), 1e-11);  // second order in |δq| ≈ 1e-6
  // The radial direction of the quaternion maps to zero.
  Eigen::VectorXd radial = Eigen::VectorXd::Zero(scene_.nq);
  radial.segment<4>(3) = q_.segment<4>(3);
  EXPECT_LT((T * radial).norm(), 1e-14);
  // T N = I for N = VelocityToQdot (the q̇ of a velocity maps back to it).
  Kinematics kinematics(BorrowScene(scene_));
  kinematics.Update(q_);
  EXPECT_LT(
      (T * kinematics.VelocityToQdot() - Eigen::MatrixXd::Identity(scene_.nv, scene_.nv)).norm(),
      1e-14);
}

// The joint-by-joint chain rule against the dense products of the three maps (same
// arithmetic up to the order of the sums: a few ulps of the largest entry).
TEST_F(FloatingSceneMaps, ChainToConfigurationEqualsTheDenseProducts) {
  const double dt = 0.05;
  const Eigen::MatrixXd dv_dq = Eigen::MatrixXd::Random(scene_.nv, scene_.nv);
  const Eigen::MatrixXd dv_du = Eigen::MatrixXd::Random(scene_.nv, 3);
  const Eigen::MatrixXd Dv = IntegrationJacobianWrtVelocity(scene_, q_, v_, dt);
  const Eigen::MatrixXd expected_A = IntegrationJacobianWrtConfiguration(scene_, q_, v_, dt) +
                                     Dv * dv_dq * TangentFromConfiguration(scene_, q_);
  const Eigen::MatrixXd expected_B = Dv * dv_du;
  Eigen::MatrixXd A, B;
  ChainToConfiguration(scene_, q_, v_, dt, dv_dq, dv_du, &A, &B);
  ASSERT_EQ(A.rows(), scene_.nq);
  ASSERT_EQ(A.cols(), scene_.nq);
  EXPECT_LT((A - expected_A).cwiseAbs().maxCoeff(), 1e-14 * expected_A.cwiseAbs().maxCoeff());
  EXPECT_LT((B - expected_B).cwiseAbs().maxCoeff(), 1e-14 * expected_B.cwiseAbs().maxCoeff());
  // Without dv_dq: B only, A empty.
  ChainToConfiguration(scene_, q_, v_, dt, Eigen::MatrixXd(), dv_du, &A, &B);
  EXPECT_EQ(A.size(), 0);
  EXPECT_LT((B - expected_B).cwiseAbs().maxCoeff(), 1e-14 * expected_B.cwiseAbs().maxCoeff());
  EXPECT_THROW(ChainToConfiguration(scene_, q_, v_, dt, dv_du, dv_du, &A, &B),
               std::invalid_argument);
  // The same with the first-order quaternion update.
  scene_.conventions.quaternion_update = QuaternionUpdate::kFirstOrder;
  const Eigen::MatrixXd Dv_first = IntegrationJacobianWrtVelocity(scene_, q_, v_, dt);
  const Eigen::MatrixXd expected_A_first = IntegrationJacobianWrtConfiguration(scene_, q_, v_, dt) +
                                           Dv_first * dv_dq * TangentFromConfiguration(scene_, q_);
  ChainToConfiguration(scene_, q_, v_, dt, dv_dq, dv_du, &A, &B);
  EXPECT_LT((A - expected_A_first).cwiseAbs().maxCoeff(),
            1e-14 * expected_A_first.cwiseAbs().maxCoeff());
  EXPECT_LT((B - Dv_first * dv_du).cwiseAbs().maxCoeff(),
            1e-14 * (Dv_first * dv_du).cwiseAbs().maxCoeff());
}

TEST(ConfigurationMaps, RejectWrongSizes) {
  const Scene scene = testing::DiagonalPushScene(4);
  EXPECT_THROW(TangentFromConfiguration(scene, Eigen::VectorXd::Zero(3)), std::invalid_argument);
  EXPECT_THROW(IntegrationJacobianWrtVelocity(scene, scene.q0, Eigen::VectorXd::Zero(2), 0.01),
               std::invalid_argument);
}

}  // namespace
}  // namespace quasidyn
