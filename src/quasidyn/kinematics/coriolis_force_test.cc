// C(q, v) v (coriolis_force.h) against the two-link arm's closed form, Lagrange's equations
// (fixed-base chains, q̇ = v), energy conservation of the free motion (every joint type) and the
// per-body bias accelerations J̇ v, all from central differences of the kinematics.

#include "quasidyn/kinematics/coriolis_force.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "quasidyn/testing/hand_built_scenes.h"
#include "quasidyn/testing/malloc_counter.h"
#include "quasidyn/testing/shared_scene.h"

namespace quasidyn {
namespace {

using testing::MixedForest;
using testing::TwoLinkArm;

constexpr double kEps = std::numeric_limits<double>::epsilon();
// The central differences below step δ = ∛ε·max(1, |q|) and err by ≈ δ²|f'''|/6 + ε|f|/δ
// ≈ 4e-11 relative to the size of the differenced quantity; 1e-8 leaves a margin of 250.
constexpr double kDifferenceTolerance = 1e-8;

double Step(const Eigen::VectorXd& q) {
  return std::cbrt(kEps) * std::max(1.0, q.cwiseAbs().maxCoeff());
}

// A velocity with every entry non-zero, of order 1 [m/s, rad/s].
Eigen::VectorXd SomeVelocity(int n) {
  Eigen::VectorXd v(n);
  for (int i = 0; i < n; ++i) v[i] = 0.7 * std::sin(1.3 * i + 0.4) + 0.2 * (i % 3 == 0 ? -1 : 1);
  return v;
}

// M(q ⊕ t v) at t = ±δ.
Eigen::MatrixXd MassMatrixAlong(const Scene& scene, const Eigen::VectorXd& q,
                                const Eigen::VectorXd& v, double t) {
  Kinematics kinematics(testing::Shared(scene));
  kinematics.Update(IntegrateConfiguration(scene, q, v, t));
  return kinematics.MassMatrix();
}

TEST(CoriolisForce, TwoLinkArmClosedForm) {
  // Spong, Hutchinson & Vidyasagar, "Robot Modeling and Control", 2006, §7.4 (eq. 7.87 with
  // h = −m₂ l₁ l_c2 sin θ₂): C v = (h θ̇₂ (2θ̇₁ + θ̇₂), −h θ̇₁²).
  TwoLinkArm arm;
  const Scene scene = arm.Build();
  Kinematics kinematics(testing::Shared(scene));
  for (const auto& [t2, w1, w2] : {std::tuple{0.4, 1.5, -0.8}, {-2.1, -0.3, 2.2}}) {
    kinematics.Update(Eigen::Vector2d(0.7, t2));
    const Eigen::VectorXd force = CoriolisForce(kinematics, Eigen::Vector2d(w1, w2));
    const double h = -arm.m2 * arm.l1 * arm.lc2 * std::sin(t2);
    const Eigen::Vector2d expected(h * w2 * (2 * w1 + w2), -h * w1 * w1);
    EXPECT_LT((force - expected).norm(), 100 * kEps * (1 + expected.norm()));
  }
}

// Lagrange's equations where q̇ = v: C v = Ṁ v − ½ ∂(vᵀ M(q) v)/∂q.
TEST(CoriolisForce, LagrangeEquationsOfAFixedBaseChain) {
  TwoLinkArm arm;
  const Scene scene = arm.Build();
  const Eigen::Vector2d q(0.3, 1.1), v(-0.9, 1.7);
  Kinematics kinematics(testing::Shared(scene));
  kinematics.Update(q);
  const Eigen::VectorXd force = CoriolisForce(kinematics, v);
  const double d = Step(q);
  const Eigen::MatrixXd M_dot =
      (MassMatrixAlong(scene, q, v, d) - MassMatrixAlong(scene, q, v, -d)) / (2 * d);
  Eigen::VectorXd gradient(2);
  for (int k = 0; k < 2; ++k) {
    const Eigen::VectorXd e = Eigen::VectorXd::Unit(2, k);
    gradient[k] =
        v.dot((MassMatrixAlong(scene, q, e, d) - MassMatrixAlong(scene, q, e, -d)) * v) / (2 * d);
  }
  const Eigen::VectorXd expected = M_dot * v - 0.5 * gradient;
  EXPECT_LT((force - expected).norm(), kDifferenceTolerance * (1 + expected.norm()));
}

// The free motion conserves ½ vᵀ M v: vᵀ C v = ½ vᵀ Ṁ v, Ṁ along q̇ = N(q) v (floating bases,
// planar, revolute, prismatic and fixed joints, tilted frames, offset centres of mass).
TEST(CoriolisForce, PowerBalanceOfTheMixedForest) {
  MixedForest forest;
  const Scene scene = forest.Build();
  const Eigen::VectorXd q = MixedForest::Configuration(scene);
  const Eigen::VectorXd v = SomeVelocity(scene.nv);
  Kinematics kinematics(testing::Shared(scene));
  kinematics.Update(q);
  const double power = v.dot(CoriolisForce(kinematics, v));
  const double d = Step(q);
  const Eigen::MatrixXd M_dot =
      (MassMatrixAlong(scene, q, v, d) - MassMatrixAlong(scene, q, v, -d)) / (2 * d);
  const double expected = 0.5 * v.dot(M_dot * v);
  EXPECT_GT(std::abs(expected), 1e-3);  // not a trivially zero case (it is 3.9e-3 W)
  EXPECT_LT(std::abs(power - expected), kDifferenceTolerance * M_dot.norm() * v.squaredNorm());
}

// Each body's J̇ v from central differences of its Jacobians along q ⊕ t v: the force is
// Σ_b J_comᵀ m J̇_com v + J_ωᵀ (I_W J̇_ω v + ω × I_W ω), the vector form of the check above.
TEST(CoriolisForce, BiasAccelerationsOfEveryBodyMatchFiniteDifferences) {
  MixedForest forest;
  const Scene scene = forest.Build();
  const Eigen::VectorXd q = MixedForest::Configuration(scene);
  const Eigen::VectorXd v = SomeVelocity(scene.nv);
  Kinematics at(testing::Shared(scene)), plus(testing::Shared(scene)),
      minus(testing::Shared(scene));
  at.Update(q);
  const double d = Step(q);
  plus.Update(IntegrateConfiguration(scene, q, v, d));
  minus.Update(IntegrateConfiguration(scene, q, v, -d));
  Eigen::VectorXd expected = Eigen::VectorXd::Zero(scene.nv);
  Eigen::MatrixXd J_com, J_rot, J_plus, J_minus;
  for (int b = 1; b < static_cast<int>(scene.bodies.size()); ++b) {
    const Body& body = scene.bodies[b];
    at.PointJacobian(b, at.BodyPose(b) * body.com, &J_com);
    at.RotationalJacobian(b, &J_rot);
    plus.PointJacobian(b, plus.BodyPose(b) * body.com, &J_plus);
    minus.PointJacobian(b, minus.BodyPose(b) * body.com, &J_minus);
    const Eigen::Vector3d com_bias = (J_plus - J_minus) * v / (2 * d);
    plus.RotationalJacobian(b, &J_plus);
    minus.RotationalJacobian(b, &J_minus);
    const Eigen::Vector3d angular_bias = (J_plus - J_minus) * v / (2 * d);
    const Eigen::Matrix3d R = at.BodyPose(b).linear();
    const Eigen::Matrix3d inertia_W = R * body.inertia * R.transpose();
    const Eigen::Vector3d omega = J_rot * v;
    expected += J_com.transpose() * (body.mass * com_bias) +
                J_rot.transpose() * (inertia_W * angular_bias + omega.cross(inertia_W * omega));
  }
  const Eigen::VectorXd force = CoriolisForce(at, v);
  EXPECT_LT((force - expected).norm(), kDifferenceTolerance * (1 + expected.norm()));
}

TEST(CoriolisForce, ZeroAtRestAndQuadraticInVelocity) {
  MixedForest forest;
  const Scene scene = forest.Build();
  Kinematics kinematics(testing::Shared(scene));
  kinematics.Update(MixedForest::Configuration(scene));
  EXPECT_EQ(CoriolisForce(kinematics, Eigen::VectorXd::Zero(scene.nv)).norm(), 0.0);
  const Eigen::VectorXd v = SomeVelocity(scene.nv);
  const Eigen::VectorXd force = CoriolisForce(kinematics, v);
  EXPECT_LT((CoriolisForce(kinematics, -2.0 * v) - 4.0 * force).norm(), 100 * kEps * force.norm());
}

TEST(CoriolisForce, CallerMistakesThrowAndTheWorkspaceIsReused) {
  MixedForest forest;
  const Scene scene = forest.Build();
  Kinematics kinematics(testing::Shared(scene));
  kinematics.Update(MixedForest::Configuration(scene));
  CoriolisWorkspace workspace;
  Eigen::VectorXd force;
  EXPECT_THROW(CoriolisForce(kinematics, Eigen::VectorXd::Zero(3), &workspace, &force),
               std::invalid_argument);
  Eigen::VectorXd bad = SomeVelocity(scene.nv);
  bad[2] = std::numeric_limits<double>::quiet_NaN();
  EXPECT_THROW(CoriolisForce(kinematics, bad, &workspace, &force), std::invalid_argument);
  const Eigen::VectorXd v = SomeVelocity(scene.nv);
  CoriolisForce(kinematics, v, &workspace, &force);
  if (!testing::MallocCountingAvailable()) GTEST_SKIP() << "malloc counting is off (sanitizers)";
  testing::MallocCounter counter;
  CoriolisForce(kinematics, v, &workspace, &force);
  EXPECT_EQ(counter.count(), 0);
}

}  // namespace
}  // namespace quasidyn
