// The quasistatic LCP of Pang & Tedrake 2021, eq. (6), on a box on the ground under gravity
// tilted by θ toward +x (μ = 0.5, m = 1 kg, h = 0.01 s, object_mass_scale s = 1, so P = M_u):
//   sticking (tan θ < μ): v = 0, friction impulse h m g sin θ strictly inside the cone;
//   sliding  (tan θ > μ): friction μ λ_n on the cone's boundary, no boundary layer
//   (φ + h J_n v = 0), and v_x = h g (sin θ − μ cos θ) from m v_x = h m g sin θ − μ h m g cos θ.

#include <gtest/gtest.h>

#include <cmath>

#include "quasidyn/testing/dynamics_scenes.h"
#include "quasidyn/testing/program_settings.h"
#include "quasidyn/testing/step_problems.h"
#include "quasidyn/testing/stepper.h"

namespace quasidyn {
namespace {

constexpr double kG = 9.81, kMu = 0.5, kH = 0.01, kMass = 1.0;
// Lemke pivots in floating point: results exact up to rounding of O(1) quantities.
constexpr double kRounding = 1e-10;

struct LcpStep {
  Scene scene;
  FormulationSolution solution;
  double normal_sum = 0, friction_x_sum = 0;
};

LcpStep StepTiltedBox(double theta) {
  LcpStep out{testing::TiltedGravityBoxScene(theta), {}};
  testing::ProgramSettings settings = testing::SceneProgramSettings(out.scene);
  settings.type = "lcp";
  const testing::OwnedStepProblem owned(out.scene, settings, out.scene.q0, Eigen::VectorXd());
  const StepProblem problem = owned.get();
  EXPECT_GE(problem.contacts.size(), 1);
  out.solution = testing::SolveWith(owned);
  EXPECT_EQ(out.solution.status, SolverStatus::kSolved) << out.solution.message;
  for (int i = 0; i < problem.contacts.size(); ++i) {
    const Contact& c = problem.contacts[i];
    const double lambda_n = out.solution.normal_impulse[i];
    const Eigen::Vector3d f = out.solution.friction_impulse[i];
    out.normal_sum += lambda_n;
    out.friction_x_sum += f.x();
    // (1d): λ_n ⊥ φ/h + J_n v.
    EXPECT_NEAR(lambda_n * (c.phi / kH + problem.contacts.NormalVelocity(i, out.solution.v)), 0.0,
                kRounding);
    EXPECT_LE(f.norm(), kMu * lambda_n + kRounding);
  }
  return out;
}

TEST(QuasistaticLcp, StickingFrictionIsStrictlyInsideTheCone) {
  const double theta = std::atan(0.3);  // tan θ = 0.3 < μ
  const LcpStep step = StepTiltedBox(theta);
  // g sin θ and g cos θ as the scene stored them (its YAML rounds them to 6 decimals).
  const double g_t = step.scene.gravity.x(), g_n = -step.scene.gravity.y();
  EXPECT_LE(step.solution.v.norm(), kRounding);
  EXPECT_NEAR(step.normal_sum, kH * kMass * g_n, kRounding);
  EXPECT_NEAR(step.friction_x_sum, -kH * kMass * g_t, kRounding);
  EXPECT_LT(std::abs(step.friction_x_sum), 0.9 * kMu * step.normal_sum);
}

TEST(QuasistaticLcp, SlidingFrictionIsOnTheBoundaryWithoutBoundaryLayer) {
  const double theta = std::atan(0.8);  // tan θ = 0.8 > μ
  const LcpStep step = StepTiltedBox(theta);
  const Eigen::VectorXd& v = step.solution.v;
  const double g_t = step.scene.gravity.x(), g_n = -step.scene.gravity.y();
  EXPECT_NEAR(g_t, kG * std::sin(theta), 1e-6);  // the YAML's 6 decimals
  EXPECT_NEAR(v[0], kH * (g_t - kMu * g_n), kRounding);
  EXPECT_NEAR(v[1], 0.0, kRounding);  // stays on the ground: no boundary layer
  EXPECT_NEAR(step.normal_sum, kH * kMass * g_n, kRounding);
  EXPECT_NEAR(step.friction_x_sum, -kMu * step.normal_sum, kRounding);

  // The QP of eq. (10) on the same step slides in Anitescu's boundary layer: the box rises by
  // h μ |v_x| per step (Pang & Tedrake 2021, §IV-A.2), so φ_end > 0.
  testing::ProgramSettings settings = testing::SceneProgramSettings(step.scene);
  testing::Stepper qp(step.scene, settings);
  const StepResult& result = qp.Step(step.scene.q0, Eigen::VectorXd());
  ASSERT_TRUE(result.ok()) << result.message;
  EXPECT_GT(result.velocity[1], 0.5 * kMu * std::abs(result.velocity[0]));
}

TEST(QuasistaticLcp, PureQuasistaticNeedsAPositiveMassScale) {
  const Scene scene = testing::TiltedGravityBoxScene(0.0);
  testing::ProgramSettings settings = testing::SceneProgramSettings(scene);
  settings.type = "lcp";
  settings.object_mass_scale = 0.0;
  testing::Stepper stepper(scene, settings);
  const StepResult& result = stepper.Step(scene.q0, Eigen::VectorXd());
  EXPECT_EQ(result.status, SolverStatus::kNumericalFailure);
  EXPECT_NE(result.message.find("object_mass_scale"), std::string::npos) << result.message;
  EXPECT_EQ(result.next.q, scene.q0);
}

}  // namespace
}  // namespace quasidyn
