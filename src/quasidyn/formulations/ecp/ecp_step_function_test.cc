#include "quasidyn/formulations/ecp/ecp_step_function.h"

#include <gtest/gtest.h>

#include <memory>
#include <random>

#include "quasidyn/math/rotation.h"
#include "quasidyn/scenes/scene_loading.h"
#include "quasidyn/testing/program_settings.h"

namespace quasidyn {
namespace {

using Eigen::MatrixXd;
using Eigen::Vector3d;
using Eigen::VectorXd;

// Two boxes stacked on the ground, a cylinder lying on it, a sphere on a fixed box: every kind of
// pair (moving on fixed half-space, moving on moving, moving on fixed object) and every kind of
// inequality (planes, the cylinder's disk, a sphere).
constexpr char kScene[] = R"(
name: ecp_pairs
dimension: 3
time_step: 0.01
formulation: {type: ecp, e_t: 1.0, e_o: 0.8, e_r: 0.3}
environment:
  - {name: ground, type: half_space, friction: 0.4}
objects:
  - name: lower
    joint: floating
    body: {mass: 1.5, inertia: from_shapes, shapes: [{type: box, size: [1, 0.8, 0.5], friction: 0.5}]}
    initial: [0, 0, 0.25, 1, 0, 0, 0]
  - name: upper
    joint: floating
    body:
      mass: 0.7
      inertia: {principal: [0.01, 0.015, 0.015]}
      com: [0.05, 0, 0]
      shapes: [{type: box, size: [0.4, 0.3, 0.3], friction: 0.6, pose: {xyz: [0.05, 0, 0]}}]
    initial: [0, 0, 0.65, 1, 0, 0, 0]
  - name: roller
    joint: floating
    body:
      mass: 2.0
      inertia: {principal: [0.6, 1.1, 1.1]}
      shapes: [{type: cylinder, radius: 0.3, length: 1.2, friction: 0.3, pose: {rpy: [0, 1.5707963267948966, 0]}}]
    initial: [3, 0, 0.3, 1, 0, 0, 0]
  - name: post
    joint: fixed
    pose: {xyz: [-3, 0, 0.5]}
    body: {mass: 1, inertia: from_shapes, shapes: [{type: box, size: [1, 1, 1], friction: 0.5}]}
  - name: ball
    joint: floating
    body: {mass: 0.3, inertia: from_shapes, shapes: [{type: sphere, radius: 0.2, friction: 0.5}]}
    initial: [-3, 0, 1.2, 1, 0, 0, 0]
)";

class EcpStepFunctionTest : public ::testing::Test {
 protected:
  void SetUp() override {
    scene_ = std::make_shared<Scene>(LoadSceneFromString(kScene, "ecp_pairs.yaml", "."));
    testing::ProgramSettings settings = testing::SceneProgramSettings(*scene_);
    system_ = std::make_shared<const EcpSystem>(*scene_, settings);
    function_ = std::make_unique<EcpStepFunction>(system_);
  }

  // A point where every factor of every row is away from its kinks (l_G > 0, |m| > 0).
  VectorXd RandomPoint(unsigned seed) {
    std::mt19937 random(seed);
    std::uniform_real_distribution<double> u(-1, 1), positive(0.2, 1.0);
    VectorXd z(system_->size());
    for (int i = 0; i < z.size(); ++i) z[i] = u(random);
    for (const EcpPair& p : system_->pairs()) {
      for (int i = p.pn(); i < p.offset + p.size(); ++i) z[i] = positive(random);
      z[p.s()] = 0.1 * u(random);
    }
    for (int b = 0; b < static_cast<int>(system_->bodies().size()); ++b) {
      EcpBodyState& s = function_->bodies()[b];
      s.c = Vector3d(u(random), u(random), u(random));
      s.R = RotationMatrixFromRotationVector(Vector3d(u(random), u(random), u(random)));
      s.v = Vector3d(u(random), u(random), u(random));
      s.w = Vector3d(u(random), u(random), u(random));
      s.impulse = Vector3d(u(random), u(random), u(random));
      s.angular_impulse = Vector3d(u(random), u(random), u(random));
    }
    for (int k = 0; k < static_cast<int>(system_->pairs().size()); ++k) {
      function_->seeds()[k] = Vector3d(0.6, 0.0, 0.8);
    }
    return z;
  }

  std::shared_ptr<Scene> scene_;
  std::shared_ptr<const EcpSystem> system_;
  std::unique_ptr<EcpStepFunction> function_;
};

TEST_F(EcpStepFunctionTest, CompilesEveryPairOfTheScene) {
  // 4 moving bodies; pairs: ground with lower, upper, roller, ball (4); lower–upper, lower–roller,
  // lower–post, lower–ball, upper–roller, upper–post, upper–ball, roller–post, roller–ball,
  // post–ball (10).
  EXPECT_EQ(system_->bodies().size(), 4u);
  EXPECT_EQ(system_->pairs().size(), 14u);
  int unknowns = 24;
  for (const EcpPair& p : system_->pairs()) unknowns += p.size();
  EXPECT_EQ(system_->size(), unknowns);
  EXPECT_EQ(static_cast<int>(system_->kinds().size()), unknowns);
  // The ground is G (lowest body); F moves.
  for (const EcpPair& p : system_->pairs()) {
    EXPECT_GE(system_->shapes()[p.shape_f].body_slot, 0);
  }
}

TEST_F(EcpStepFunctionTest, JacobianMatchesCentralDifferences) {
  for (unsigned seed : {1u, 2u, 3u}) {
    const VectorXd z = RandomPoint(seed);
    const int n = system_->size();
    VectorXd F(n), Fp(n), Fm(n);
    MatrixXd J(n, n), scratch(n, n);
    ASSERT_TRUE(function_->Evaluate(z, &F, &J));
    const double eps = 1e-6;
    double worst = 0.0;
    int worst_row = -1, worst_col = -1;
    for (int j = 0; j < n; ++j) {
      VectorXd zp = z, zm = z;
      zp[j] += eps;
      zm[j] -= eps;
      ASSERT_TRUE(function_->Evaluate(zp, &Fp, nullptr));
      ASSERT_TRUE(function_->Evaluate(zm, &Fm, nullptr));
      const VectorXd column = (Fp - Fm) / (2 * eps);
      for (int i = 0; i < n; ++i) {
        const double error = std::abs(column[i] - J(i, j)) / (1.0 + std::abs(J(i, j)));
        if (error > worst) {
          worst = error;
          worst_row = i;
          worst_col = j;
        }
      }
    }
    EXPECT_LT(worst, 1e-6) << "seed " << seed << ": row " << worst_row << " (pair "
                           << system_->PairOfUnknown(worst_row) << "), column " << worst_col
                           << " (pair " << system_->PairOfUnknown(worst_col) << ")";
  }
}

TEST_F(EcpStepFunctionTest, ParameterJacobianMatchesCentralDifferences) {
  const VectorXd z = RandomPoint(7);
  const int n = system_->size(), nb = static_cast<int>(system_->bodies().size());
  MatrixXd dF_dp(n, 18 * nb);
  ASSERT_TRUE(function_->ParameterJacobian(z, &dF_dp));
  VectorXd Fp(n), Fm(n);
  const double eps = 1e-6;
  for (int b = 0; b < nb; ++b) {
    for (int p = 0; p < 18; ++p) {
      const EcpBodyState saved = function_->bodies()[b];
      const auto perturb = [&](double sign) {
        EcpBodyState& s = function_->bodies()[b];
        s = saved;
        const Vector3d d = sign * eps * Vector3d::Unit(p % 3);
        switch (p / 3) {
          case 0:
            s.c += d;
            break;
          case 1:
            s.R = RotationMatrixFromRotationVector(d) * saved.R;
            break;
          case 2:
            s.v += d;
            break;
          case 3:
            s.w += d;
            break;
          case 4:
            s.impulse += d;
            break;
          case 5:
            s.angular_impulse += d;
            break;
        }
      };
      perturb(1.0);
      ASSERT_TRUE(function_->Evaluate(z, &Fp, nullptr));
      perturb(-1.0);
      ASSERT_TRUE(function_->Evaluate(z, &Fm, nullptr));
      function_->bodies()[b] = saved;
      const VectorXd column = (Fp - Fm) / (2 * eps);
      const VectorXd analytic = dF_dp.col(18 * b + p);
      EXPECT_LT(((column - analytic).array().abs() / (1.0 + analytic.array().abs())).maxCoeff(),
                1e-6)
          << "body " << b << " parameter " << p;
    }
  }
}

TEST_F(EcpStepFunctionTest, InactivePairsHoldTheirReferenceAndExertNothing) {
  const VectorXd z = RandomPoint(11);
  const int n = system_->size();
  VectorXd F_all(n), F_some(n);
  MatrixXd J(n, n);
  for (auto& a : function_->active()) a = 0;
  function_->reference() = z;
  ASSERT_TRUE(function_->Evaluate(z, &F_some, &J));
  for (const EcpPair& p : system_->pairs()) {
    for (int i = p.offset; i < p.offset + 10; ++i) EXPECT_EQ(F_some[i], 0.0);
    for (int i = p.pn(); i < p.offset + p.size(); ++i) EXPECT_EQ(F_some[i], 1.0);
  }
  // The bodies then fall freely: v⁺ − v − h g − p/m.
  for (int b = 0; b < static_cast<int>(system_->bodies().size()); ++b) {
    const EcpBodyState& s = function_->bodies()[b];
    const Vector3d expected = z.segment<3>(6 * b) - s.v - system_->time_step() * scene_->gravity -
                              s.impulse / system_->bodies()[b].mass;
    EXPECT_LT((F_some.segment<3>(6 * b) - expected).norm(), 1e-14);
  }
}

}  // namespace
}  // namespace quasidyn
