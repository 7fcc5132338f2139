#include "quasidyn/kinematics/kinematics.h"

#include <gtest/gtest.h>

#include <Eigen/Eigenvalues>
#include <Eigen/Geometry>
#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>
#include <stdexcept>
#include <vector>

#include "quasidyn/testing/hand_built_scenes.h"
#include "quasidyn/testing/malloc_counter.h"
#include "quasidyn/testing/shared_scene.h"

namespace quasidyn {
namespace {

using testing::MakePose;
using testing::MixedForest;
using testing::SceneBuilder;
using testing::TwoLinkArm;

constexpr double kKinematicsEps = std::numeric_limits<double>::epsilon();

// The step of a central difference and the bound of its error for a function whose
// third derivative is at most `third_derivative` and whose value has size `scale`:
// h²/6 · |f'''| + ε |f| / h (truncation + rounding), times a safety factor 10.
double CentralDifferenceStep(const Eigen::VectorXd& q) {
  return std::cbrt(kKinematicsEps) * std::max(1.0, q.cwiseAbs().maxCoeff());
}
double CentralDifferenceBound(double h, double third_derivative, double scale) {
  return 10.0 * (h * h / 6.0 * third_derivative + kKinematicsEps * scale / h);
}

// Checks PointJacobian and RotationalJacobian of every body against central differences
// of its pose along each velocity direction, moving q with IntegrateConfiguration.
void ExpectJacobiansMatchFiniteDifferences(const Scene& scene, const Eigen::VectorXd& q) {
  Kinematics kinematics(testing::Shared(scene));
  kinematics.Update(q);
  Kinematics plus(testing::Shared(scene)), minus(testing::Shared(scene));
  const double h = CentralDifferenceStep(q);
  const Eigen::Vector3d point_B(0.1, -0.2, 0.15);
  Eigen::MatrixXd J_point, J_rotation;
  for (int b = 0; b < static_cast<int>(scene.bodies.size()); ++b) {
    const Eigen::Vector3d p_W = kinematics.BodyPose(b) * point_B;
    kinematics.PointJacobian(b, p_W, &J_point);
    kinematics.RotationalJacobian(b, &J_rotation);
    ASSERT_EQ(J_point.rows(), 3);
    ASSERT_EQ(J_point.cols(), scene.nv);
    ASSERT_EQ(J_rotation.cols(), scene.nv);
    // A unit velocity of one joint moves a point at distance L from its axis with
    // |p'''| <= L; L here is below 1 + |p_W| (all offsets are < 1 m).
    const double reach = 1.0 + p_W.norm();
    for (int i = 0; i < scene.nv; ++i) {
      const Eigen::VectorXd dv = Eigen::VectorXd::Unit(scene.nv, i);
      plus.Update(IntegrateConfiguration(scene, q, dv, h));
      minus.Update(IntegrateConfiguration(scene, q, dv, -h));
      const Eigen::Vector3d velocity =
          (plus.BodyPose(b) * point_B - minus.BodyPose(b) * point_B) / (2 * h);
      EXPECT_LT((J_point.col(i) - velocity).norm(), CentralDifferenceBound(h, reach, reach))
          << "body " << scene.bodies[b].name << ", velocity " << i;
      const Eigen::AngleAxisd turn(plus.BodyPose(b).linear() *
                                   minus.BodyPose(b).linear().transpose());
      const Eigen::Vector3d omega = turn.angle() * turn.axis() / (2 * h);
      EXPECT_LT((J_rotation.col(i) - omega).norm(), CentralDifferenceBound(h, 1.0, 1.0))
          << "body " << scene.bodies[b].name << ", velocity " << i;
    }
  }
}

TEST(KinematicsTest, TwoLinkArmForwardKinematicsClosedForm) {
  TwoLinkArm arm;
  const Scene scene = arm.Build();
  Kinematics kinematics(testing::Shared(scene));
  for (const auto& [t1, t2] : {std::pair{0.0, 0.0}, {0.4, -1.3}, {2.5, 3.0}}) {
    kinematics.Update(Eigen::Vector2d(t1, t2));
    const Eigen::Vector3d tip = kinematics.BodyPose(arm.link2) * Eigen::Vector3d(arm.l2, 0, 0);
    const Eigen::Vector3d expected(arm.l1 * std::cos(t1) + arm.l2 * std::cos(t1 + t2),
                                   arm.l1 * std::sin(t1) + arm.l2 * std::sin(t1 + t2), 0.0);
    EXPECT_LT((tip - expected).norm(), 10 * kKinematicsEps);
    // Point Jacobian of the tip, by hand: ∂tip/∂θ1 = (−y, x), ∂tip/∂θ2 = (−y2, x2) with
    // (x2, y2) = l2 (cos(θ1+θ2), sin(θ1+θ2)).
    Eigen::MatrixXd J;
    kinematics.PointJacobian(arm.link2, tip, &J);
    Eigen::Matrix<double, 3, 2> expected_J;
    expected_J << -expected.y(), -arm.l2 * std::sin(t1 + t2),  //
        expected.x(), arm.l2 * std::cos(t1 + t2),              //
        0.0, 0.0;
    EXPECT_LT((J - expected_J).norm(), 10 * kKinematicsEps);
  }
}

// Kinematics made from one shared model evaluate independently (each holds the poses of its own
// last Update: one per thread) and give the bits of one that built a model of its own.
TEST(KinematicsTest, DataFromOneSharedModelEvaluateIndependently) {
  TwoLinkArm arm;
  const auto model = std::make_shared<const KinematicsModel>(testing::Shared(arm.Build()));
  Kinematics first(model), second(model);
  EXPECT_EQ(&first.model(), &second.model());
  first.Update(Eigen::Vector2d(0.4, -1.3));
  second.Update(Eigen::Vector2d(2.5, 3.0));
  Kinematics own(model->scene_ptr());
  own.Update(Eigen::Vector2d(0.4, -1.3));
  EXPECT_NE(&own.model(), model.get());
  EXPECT_TRUE(first.BodyPose(arm.link2).matrix() == own.BodyPose(arm.link2).matrix());
  EXPECT_FALSE(second.BodyPose(arm.link2).matrix() == first.BodyPose(arm.link2).matrix());
  EXPECT_EQ(first.ChainColumns(arm.link2), model->ChainColumns(arm.link2));
  EXPECT_EQ(first.MaxChainSize(), 2);
  EXPECT_THROW(Kinematics(std::shared_ptr<const KinematicsModel>()), std::invalid_argument);
  EXPECT_THROW(KinematicsModel(nullptr), std::invalid_argument);
}

// IsAt: the poses held are those of the last Update's q, and of no other q, not even one that
// differs by one ulp or by the sign of a zero.
TEST(KinematicsTest, IsAtOnlyTheLastUpdatesConfigurationBitForBit) {
  MixedForest forest;
  const Scene scene = forest.Build();
  Kinematics kinematics(testing::Shared(scene));
  const Eigen::VectorXd q = MixedForest::Configuration(scene);
  EXPECT_FALSE(kinematics.IsAt(q));  // no Update yet
  kinematics.Update(q);
  EXPECT_TRUE(kinematics.IsAt(q));
  const Eigen::VectorXd copy = q;  // other storage, the same bits
  EXPECT_TRUE(kinematics.IsAt(copy));
  for (int i = 0; i < scene.nq; ++i) {
    Eigen::VectorXd next = q;
    next[i] = std::nextafter(q[i], std::numeric_limits<double>::infinity());
    EXPECT_FALSE(kinematics.IsAt(next)) << "entry " << i;
  }
  EXPECT_FALSE(kinematics.IsAt(q.head(scene.nq - 1)));
  // ±0: equal numbers, other bits.
  Eigen::VectorXd zero = q;
  zero[0] = 0.0;
  kinematics.Update(zero);
  Eigen::VectorXd negative_zero = zero;
  negative_zero[0] = -0.0;
  EXPECT_TRUE(kinematics.IsAt(zero));
  EXPECT_FALSE(kinematics.IsAt(negative_zero));
  // A refused Update leaves the poses and the q they are of.
  Eigen::VectorXd bad = q;
  bad[1] = std::numeric_limits<double>::quiet_NaN();
  EXPECT_THROW(kinematics.Update(bad), std::invalid_argument);
  EXPECT_TRUE(kinematics.IsAt(zero));
}

TEST(KinematicsTest, FloatingAndPlanarPosesClosedForm) {
  MixedForest forest;
  const Scene scene = forest.Build();
  const Eigen::VectorXd q = MixedForest::Configuration(scene);
  Kinematics kinematics(testing::Shared(scene));
  kinematics.Update(q);
  // Floating: X_WB = X_PJ · (p, R(Q)).
  const Eigen::Isometry3d X_PJ = scene.joints[0].X_PJ;
  const Eigen::Quaterniond Q(q[3], q[4], q[5], q[6]);
  const Eigen::Isometry3d expected_box = X_PJ * Eigen::Translation3d(q.head<3>()) * Q;
  EXPECT_LT((kinematics.BodyPose(forest.box).matrix() - expected_box.matrix()).norm(),
            20 * kKinematicsEps);
  // Planar: X_WB = X_PJ · Trans(x, y, 0) · Rot_z(θ).
  const Eigen::Isometry3d expected_puck = scene.joints[1].X_PJ *
                                          Eigen::Translation3d(q[7], q[8], 0.0) *
                                          Eigen::AngleAxisd(q[9], Eigen::Vector3d::UnitZ());
  EXPECT_LT((kinematics.BodyPose(forest.puck).matrix() - expected_puck.matrix()).norm(),
            20 * kKinematicsEps);
  // Fixed joint: the bracket rides rigidly on the slider.
  EXPECT_LT((kinematics.BodyPose(forest.arm_bracket).matrix() -
             (kinematics.BodyPose(forest.arm_slider) * scene.joints[6].X_PJ).matrix())
                .norm(),
            20 * kKinematicsEps);
  // Non-unit quaternions are normalised before use.
  Eigen::VectorXd scaled = q;
  scaled.segment<4>(3) *= 2.5;
  kinematics.Update(scaled);
  EXPECT_LT((kinematics.BodyPose(forest.box).matrix() - expected_box.matrix()).norm(),
            20 * kKinematicsEps);
}

// The pose of each body by its definition, X_WB = X_WP X_PJ X_JC(q) (model/scene.h), with
// Eigen's transforms: Update composes it without forming X_JC, and sets X_WJ = X_PJ once for the
// joints on the world; the two agree to a few roundings of each product along the chain.
TEST(KinematicsTest, PosesAreTheProductsOfTheJointTransforms) {
  MixedForest forest;
  const Scene scene = forest.Build();
  Kinematics kinematics(testing::Shared(scene));
  for (const Eigen::VectorXd& q : {MixedForest::Configuration(scene), scene.q0}) {
    kinematics.Update(q);
    std::vector<Eigen::Isometry3d> X_WB(scene.bodies.size(), Eigen::Isometry3d::Identity());
    for (const Joint& joint : scene.joints) {
      Eigen::Isometry3d X_JC = Eigen::Isometry3d::Identity();
      const int i = joint.q_start;
      switch (joint.type) {
        case JointType::kFixed:
          break;
        case JointType::kRevolute:
          X_JC.rotate(Eigen::AngleAxisd(q[i], joint.axis));
          break;
        case JointType::kPrismatic:
          X_JC.translate(q[i] * joint.axis);
          break;
        case JointType::kPlanar:
          X_JC.translate(Eigen::Vector3d(q[i], q[i + 1], 0.0));
          X_JC.rotate(Eigen::AngleAxisd(q[i + 2], Eigen::Vector3d::UnitZ()));
          break;
        case JointType::kFloating:
          X_JC.translate(q.segment<3>(i));
          X_JC.rotate(Eigen::Quaterniond(q[i + 3], q[i + 4], q[i + 5], q[i + 6]).normalized());
          break;
      }
      X_WB[joint.child_body] = X_WB[joint.parent_body] * joint.X_PJ * X_JC;
    }
    for (int b = 0; b < static_cast<int>(scene.bodies.size()); ++b) {
      const Eigen::Matrix4d& expected = X_WB[b].matrix();
      // Chains of at most 4 joints, 2 products each, entries of size <= 1 + |p|: 64 ε of it.
      const double scale = 1.0 + X_WB[b].translation().norm();
      EXPECT_LE((kinematics.BodyPose(b).matrix() - expected).cwiseAbs().maxCoeff(),
                64 * kKinematicsEps * scale)
          << "body " << scene.bodies[b].name;
      EXPECT_EQ(kinematics.BodyPose(b).matrix().row(3), expected.row(3)) << scene.bodies[b].name;
    }
  }
}

TEST(KinematicsTest, JacobiansMatchFiniteDifferencesTwoLinkArm) {
  TwoLinkArm arm;
  const Scene scene = arm.Build();
  ExpectJacobiansMatchFiniteDifferences(scene, Eigen::Vector2d(0.3, -0.9));
  ExpectJacobiansMatchFiniteDifferences(scene, Eigen::Vector2d(2.8, 1.7));
}

TEST(KinematicsTest, JacobiansMatchFiniteDifferencesEveryJointType) {
  MixedForest forest;
  const Scene scene = forest.Build();
  ExpectJacobiansMatchFiniteDifferences(scene, MixedForest::Configuration(scene));
  ExpectJacobiansMatchFiniteDifferences(scene, scene.q0);
}

TEST(KinematicsTest, JacobianColumnsOutsideAncestorsAreZero) {
  MixedForest forest;
  const Scene scene = forest.Build();
  Kinematics kinematics(testing::Shared(scene));
  kinematics.Update(MixedForest::Configuration(scene));
  Eigen::MatrixXd J(7, 2);  // wrong size on purpose: it must be resized
  kinematics.PointJacobian(forest.puck, Eigen::Vector3d(1, 2, 3), &J);
  ASSERT_EQ(J.rows(), 3);
  ASSERT_EQ(J.cols(), scene.nv);
  // Only the puck's planar joint (v[6..9)) moves it.
  EXPECT_EQ(J.leftCols(6).norm(), 0.0);
  EXPECT_EQ(J.rightCols(scene.nv - 9).norm(), 0.0);
  kinematics.RotationalJacobian(0, &J);
  EXPECT_EQ(J.norm(), 0.0);
}

TEST(KinematicsTest, MassMatrixTwoLinkArmClosedForm) {
  TwoLinkArm a;
  const Scene scene = a.Build();
  Kinematics kinematics(testing::Shared(scene));
  for (const auto& [t1, t2] : {std::pair{0.0, 0.0}, {0.7, 0.5}, {-1.0, 2.0}, {3.0, -2.6}}) {
    kinematics.Update(Eigen::Vector2d(t1, t2));
    const Eigen::MatrixXd M = kinematics.MassMatrix();
    const double c2 = std::cos(t2);
    // Spong, Hutchinson & Vidyasagar, "Robot Modeling and Control", §7.4.1.
    const double M11 = a.m1 * a.lc1 * a.lc1 + a.I1 +
                       a.m2 * (a.l1 * a.l1 + a.lc2 * a.lc2 + 2 * a.l1 * a.lc2 * c2) + a.I2;
    const double M12 = a.m2 * (a.lc2 * a.lc2 + a.l1 * a.lc2 * c2) + a.I2;
    const double M22 = a.m2 * a.lc2 * a.lc2 + a.I2;
    Eigen::Matrix2d expected;
    expected << M11, M12, M12, M22;
    EXPECT_LT((M - expected).norm(), 20 * kKinematicsEps * expected.norm()) << t1 << ", " << t2;
  }
}

TEST(KinematicsTest, MassMatrixFloatingBodyClosedForm) {
  const Eigen::Quaterniond Q(Eigen::AngleAxisd(0.9, Eigen::Vector3d(1, -2, 0.5).normalized()));
  const Eigen::Matrix3d R = Q.toRotationMatrix();
  Eigen::Matrix3d inertia;
  inertia << 0.05, 0.01, 0.0, 0.01, 0.04, -0.005, 0.0, -0.005, 0.03;
  const double mass = 0.7;
  for (const Eigen::Vector3d& com :
       std::vector<Eigen::Vector3d>{Eigen::Vector3d::Zero(), Eigen::Vector3d(0.1, -0.05, 0.2)}) {
    SceneBuilder builder;
    const int object = builder.AddInstance("cube", false);
    const int body =
        builder.AddBody(object, "cube", mass, com, inertia, JointType::kFloating, 0,
                        MakePose(0.6, Eigen::Vector3d(0, 1, 1), Eigen::Vector3d(1, 2, 3)));
    const Scene scene = builder.Build();
    Eigen::VectorXd q(7);
    q << 0.5, -0.4, 0.3, Q.w(), Q.x(), Q.y(), Q.z();
    Kinematics kinematics(testing::Shared(scene));
    kinematics.Update(q);
    ASSERT_EQ(body, 1);
    // v = (ṗ, ω) in J; the com moves at ṗ + ω × c with c = R com (in J). Kinetic energy
    // ½ m |ṗ − [c]× ω|² + ½ ωᵀ R I Rᵀ ω gives M = [m I, −m[c]×; m[c]×, R I Rᵀ − m[c]×[c]×].
    const Eigen::Vector3d c = R * com;
    Eigen::Matrix3d c_cross;
    c_cross << 0, -c.z(), c.y(), c.z(), 0, -c.x(), -c.y(), c.x(), 0;
    Eigen::Matrix<double, 6, 6> expected;
    expected << mass * Eigen::Matrix3d::Identity(), -mass * c_cross, mass * c_cross,
        R * inertia * R.transpose() - mass * c_cross * c_cross;
    EXPECT_LT((kinematics.MassMatrix() - expected).norm(), 50 * kKinematicsEps * expected.norm());
  }
}

TEST(KinematicsTest, MassMatrixSymmetricPositiveDefiniteAndKineticEnergy) {
  MixedForest forest;
  const Scene scene = forest.Build();
  const Eigen::VectorXd q = MixedForest::Configuration(scene);
  Kinematics kinematics(testing::Shared(scene));
  kinematics.Update(q);
  const Eigen::MatrixXd M = kinematics.MassMatrix();
  ASSERT_EQ(M.rows(), scene.nv);
  EXPECT_EQ((M - M.transpose()).norm(), 0.0);
  const Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> eigen(M);
  EXPECT_GT(eigen.eigenvalues().minCoeff(), 0.0);

  // Independent check: 2T = Σ_b m_b |v_com|² + ωᵀ I_W ω with the velocities taken from
  // central differences of the poses along v (no Jacobian involved).
  Eigen::VectorXd v(scene.nv);
  for (int i = 0; i < scene.nv; ++i) v[i] = std::sin(1.0 + 2.3 * i);  // |v_i| <= 1
  const double h = CentralDifferenceStep(q);
  Kinematics plus(testing::Shared(scene)), minus(testing::Shared(scene));
  plus.Update(IntegrateConfiguration(scene, q, v, h));
  minus.Update(IntegrateConfiguration(scene, q, v, -h));
  double twice_energy = 0.0, bound = 0.0;
  const double speed = v.cwiseAbs().sum();  // bounds every body's |ω| and, times reach, |v|
  for (int b = 1; b < static_cast<int>(scene.bodies.size()); ++b) {
    const Body& body = scene.bodies[b];
    const Eigen::Vector3d v_com =
        (plus.BodyPose(b) * body.com - minus.BodyPose(b) * body.com) / (2 * h);
    const Eigen::AngleAxisd turn(plus.BodyPose(b).linear() *
                                 minus.BodyPose(b).linear().transpose());
    const Eigen::Vector3d omega = turn.angle() * turn.axis() / (2 * h);
    const Eigen::Matrix3d R = kinematics.BodyPose(b).linear();
    twice_energy +=
        body.mass * v_com.squaredNorm() + omega.dot(R * body.inertia * R.transpose() * omega);
    const double reach = 1.0 + kinematics.BodyPose(b).translation().norm();
    const double velocity_error = CentralDifferenceBound(h, std::pow(speed, 3) * reach, reach);
    const double omega_error = CentralDifferenceBound(h, std::pow(speed, 3), 1.0);
    bound += 2 * body.mass * v_com.norm() * velocity_error +
             2 * body.inertia.norm() * omega.norm() * omega_error;
  }
  EXPECT_NEAR(v.dot(M * v), twice_energy, bound);
}

TEST(KinematicsTest, IntegrateConfigurationClosedForm) {
  MixedForest forest;
  const Scene scene = forest.Build();
  const Eigen::VectorXd q = MixedForest::Configuration(scene);
  Eigen::VectorXd v = Eigen::VectorXd::Zero(scene.nv);
  v.head<3>() << 0.2, -1.0, 0.5;      // box ṗ
  v.segment<3>(3) << 0.0, 0.0, 2.0;   // box ω about J's z
  v.segment<3>(6) << 1.0, 2.0, -3.0;  // puck
  v[18] = 0.5;                        // wrist
  const double dt = 0.1;
  const Eigen::VectorXd next = IntegrateConfiguration(scene, q, v, dt);
  EXPECT_LT((next.head<3>() - (q.head<3>() + dt * v.head<3>())).norm(), 10 * kKinematicsEps);
  // R⁺ = Rot_z(ω dt) · R (ω in the joint frame, which is the parent of Q).
  const Eigen::Quaterniond Q(q[3], q[4], q[5], q[6]);
  const Eigen::Matrix3d expected_R =
      Eigen::AngleAxisd(2.0 * dt, Eigen::Vector3d::UnitZ()).toRotationMatrix() *
      Q.toRotationMatrix();
  const Eigen::Quaterniond Q_next(next[3], next[4], next[5], next[6]);
  EXPECT_NEAR(next.segment<4>(3).norm(), 1.0, 4 * kKinematicsEps);
  EXPECT_LT((Q_next.toRotationMatrix() - expected_R).norm(), 20 * kKinematicsEps);
  EXPECT_LT((next.segment<3>(7) - (q.segment<3>(7) + dt * v.segment<3>(6))).norm(),
            10 * kKinematicsEps);
  EXPECT_DOUBLE_EQ(next[20], q[20] + dt * 0.5);
  EXPECT_EQ(next[17], q[17]);  // zero velocity leaves base_link alone
}

TEST(KinematicsTest, VelocityToQdotMatchesIntegration) {
  MixedForest forest;
  const Scene scene = forest.Build();
  const Eigen::VectorXd q = MixedForest::Configuration(scene);
  Kinematics kinematics(testing::Shared(scene));
  kinematics.Update(q);
  const Eigen::MatrixXd N = kinematics.VelocityToQdot();
  ASSERT_EQ(N.rows(), scene.nq);
  ASSERT_EQ(N.cols(), scene.nv);
  const double h = CentralDifferenceStep(q);
  for (int i = 0; i < scene.nv; ++i) {
    const Eigen::VectorXd dv = Eigen::VectorXd::Unit(scene.nv, i);
    const Eigen::VectorXd qdot =
        (IntegrateConfiguration(scene, q, dv, h) - IntegrateConfiguration(scene, q, dv, -h)) /
        (2 * h);
    // Quaternion third derivatives are at most (½)³ per unit ω; positions are linear.
    EXPECT_LT((N.col(i) - qdot).norm(), CentralDifferenceBound(h, 1.0, 1.0)) << i;
  }
}

TEST(KinematicsTest, NormalizeQuaternionsScalesOnlyQuaternions) {
  MixedForest forest;
  const Scene scene = forest.Build();
  Eigen::VectorXd q = MixedForest::Configuration(scene);
  const Eigen::VectorXd unit = q;
  q.segment<4>(3) *= 3.0;
  q.segment<4>(13) *= 0.2;
  NormalizeQuaternions(scene, &q);
  EXPECT_LT((q - unit).norm(), 10 * kKinematicsEps);
  Eigen::VectorXd wrong(3);
  EXPECT_THROW(NormalizeQuaternions(scene, &wrong), std::invalid_argument);
}

TEST(KinematicsTest, RejectsBadConfigurations) {
  MixedForest forest;
  const Scene scene = forest.Build();
  Kinematics kinematics(testing::Shared(scene));
  const Eigen::VectorXd q = MixedForest::Configuration(scene);
  EXPECT_THROW(kinematics.Update(Eigen::VectorXd::Zero(scene.nq - 1)), std::invalid_argument);
  Eigen::VectorXd bad = q;
  bad[2] = std::numeric_limits<double>::quiet_NaN();
  EXPECT_THROW(kinematics.Update(bad), std::invalid_argument);
  bad = q;
  bad[18] = std::numeric_limits<double>::infinity();
  EXPECT_THROW(kinematics.Update(bad), std::invalid_argument);
  bad = q;
  bad.segment<4>(3).setZero();
  EXPECT_THROW(kinematics.Update(bad), std::invalid_argument);
  const Eigen::VectorXd v = Eigen::VectorXd::Zero(scene.nv);
  EXPECT_THROW(IntegrateConfiguration(scene, q, Eigen::VectorXd::Zero(scene.nv + 1), 0.1),
               std::invalid_argument);
  EXPECT_THROW(IntegrateConfiguration(scene, Eigen::VectorXd::Zero(2), v, 0.1),
               std::invalid_argument);
  EXPECT_THROW(IntegrateConfiguration(scene, q, v, std::nan("")), std::invalid_argument);
  Eigen::MatrixXd J;
  kinematics.Update(q);
  EXPECT_THROW(kinematics.PointJacobian(99, Eigen::Vector3d::Zero(), &J), std::invalid_argument);
  EXPECT_THROW(kinematics.RotationalJacobian(-1, &J), std::invalid_argument);
  // The error message names the problem.
  try {
    kinematics.Update(Eigen::VectorXd::Zero(4));
    FAIL() << "no exception";
  } catch (const std::invalid_argument& error) {
    EXPECT_NE(std::string(error.what()).find("q has size 4, expected n_q = 21"), std::string::npos)
        << error.what();
  }
}

TEST(KinematicsTest, RejectsMalformedScenes) {
  TwoLinkArm arm;
  Scene scene = arm.Build();
  std::swap(scene.joints[0], scene.joints[1]);  // child before parent
  scene.bodies[1].parent_joint = 1;
  scene.bodies[2].parent_joint = 0;
  EXPECT_THROW(Kinematics{testing::Shared(scene)}, std::invalid_argument);
  Scene bad_axis = arm.Build();
  bad_axis.joints[1].axis = Eigen::Vector3d(0, 0, 2);
  EXPECT_THROW(Kinematics{testing::Shared(bad_axis)}, std::invalid_argument);
  Scene bad_layout = arm.Build();
  bad_layout.joints[1].q_start = 2;
  EXPECT_THROW(Kinematics{testing::Shared(bad_layout)}, std::invalid_argument);
}

}  // namespace
}  // namespace quasidyn

namespace quasidyn {
namespace {

// An object's diagonal block of M is the same, entry for entry, from InstanceMassMatrix as
// from MassMatrix; ChainColumns lists exactly the non-zero columns of the body's Jacobians.
TEST(KinematicsTest, InstanceMassMatrixAndChainColumnsMatchTheDenseOnes) {
  MixedForest forest;
  const Scene scene = forest.Build();
  Kinematics kinematics(testing::Shared(scene));
  kinematics.Update(MixedForest::Configuration(scene));
  const Eigen::MatrixXd M = kinematics.MassMatrix();
  Eigen::MatrixXd block;
  for (int i = 0; i < static_cast<int>(scene.instances.size()); ++i) {
    const ModelInstance& instance = scene.instances[i];
    kinematics.InstanceMassMatrix(i, &block);
    ASSERT_EQ(block.rows(), instance.nv);
    for (int r = 0; r < instance.nv; ++r)
      for (int c = 0; c < instance.nv; ++c)
        EXPECT_EQ(block(r, c), M(instance.v_start + r, instance.v_start + c)) << i;
  }
  Eigen::MatrixXd J, R;
  Eigen::Matrix3Xd chain_J, chain_R;
  for (int b = 1; b < static_cast<int>(scene.bodies.size()); ++b) {
    const Eigen::Vector3d p_W(0.3, -0.2, 0.1);
    kinematics.PointJacobian(b, p_W, &J);
    kinematics.RotationalJacobian(b, &R);
    const std::vector<int>& columns = kinematics.ChainColumns(b);
    chain_J.resize(3, static_cast<Eigen::Index>(columns.size()));
    chain_R.resize(3, static_cast<Eigen::Index>(columns.size()));
    kinematics.ChainPointJacobian(b, p_W, chain_J);
    kinematics.ChainRotationalJacobian(b, chain_R);
    EXPECT_TRUE(std::is_sorted(columns.begin(), columns.end()));
    ASSERT_EQ(chain_J.cols(), static_cast<int>(columns.size()));
    for (size_t k = 0; k < columns.size(); ++k) {
      for (int r = 0; r < 3; ++r) {
        EXPECT_EQ(chain_J(r, k), J(r, columns[k])) << "body " << b;
        EXPECT_EQ(chain_R(r, k), R(r, columns[k])) << "body " << b;
      }
    }
    for (int k = 0; k < scene.nv; ++k) {
      const bool listed = std::find(columns.begin(), columns.end(), k) != columns.end();
      if (!listed) {
        EXPECT_EQ(J.col(k).norm(), 0.0) << "body " << b << " column " << k;
      }
    }
  }
}

TEST(KinematicsTest, UpdateAndIntegrationDoNotAllocateOnceSized) {
  if (!testing::MallocCountingAvailable()) GTEST_SKIP() << "malloc counting off (sanitizers)";
  MixedForest forest;
  const Scene scene = forest.Build();
  Kinematics kinematics(testing::Shared(scene));
  const Eigen::VectorXd q = MixedForest::Configuration(scene);
  const Eigen::VectorXd v = Eigen::VectorXd::Constant(scene.nv, 0.1);
  Eigen::VectorXd next;
  Eigen::MatrixXd block;
  kinematics.Update(q);
  IntegrateConfiguration(scene, q, v, 0.01, &next);
  int object = -1;  // an un-actuated instance: the blocks the step's cost needs
  for (int i = 0; i < static_cast<int>(scene.instances.size()); ++i)
    if (!scene.instances[i].actuated && scene.instances[i].nv > 0) object = i;
  ASSERT_GE(object, 0);
  kinematics.InstanceMassMatrix(object, &block);
  testing::MallocCounter counter;
  kinematics.Update(q);
  IntegrateConfiguration(scene, q, v, 0.01, &next);
  kinematics.InstanceMassMatrix(object, &block);
  EXPECT_EQ(counter.count(), 0);
}

TEST(KinematicsTest, NullSceneIsRejected) {
  EXPECT_THROW(Kinematics{ScenePtr()}, std::invalid_argument);
}

}  // namespace
}  // namespace quasidyn
