#include "quasidyn/formulations/log_barrier_cone/log_barrier_cone_gradient.h"

#include <gtest/gtest.h>

#include <iostream>
#include <string>
#include <vector>

#include "quasidyn/testing/cone_step_checks.h"
#include "quasidyn/testing/dynamics_scenes.h"
#include "quasidyn/testing/example_states.h"
#include "quasidyn/testing/program_settings.h"

namespace quasidyn {
namespace {

using testing::ConeLinearization;
using testing::ConeReferenceStep;
using testing::ExampleState;
using testing::LinearizeConeStep;
using testing::LoadExample;
using testing::RelativeError;
using testing::StateAfter;

// The barrier step is solved by damped Newton to a decrement of 1e-14, so its error over the
// FD step δ ≈ 6e-6 is ≈ 1e-9; 1e-5 as in linearize_test.cc.
constexpr double kLogBarrierConeGradientFdTolerance = 1e-5;

void ExpectBarrierMatchesFiniteDifferences(const Scene& scene, testing::ProgramSettings settings,
                                           const Eigen::VectorXd& q, const Eigen::VectorXd& u,
                                           double tolerance) {
  settings.type = "log-barrier-cone";
  const ConeLinearization smooth = LinearizeConeStep(scene, settings, q, u);
  ConeReferenceStep reference(scene, settings);
  EXPECT_LT(RelativeError(smooth.B, FiniteDifferenceB(reference.AsFunction(), q, u)), tolerance);
  EXPECT_LT(RelativeError(smooth.A, FiniteDifferenceA(scene, reference.AsFunction(), q, u)),
            tolerance);
}

// The smoothed gradients are the exact derivatives of the cone-barrier step.
TEST(LogBarrierConeGradients, MatchFiniteDifferencesOfTheBarrierStep) {
  for (const auto& [example, steps] :
       std::vector<std::pair<std::string, int>>{{"planar_gripper", 6},
                                                {"planar_gripper", 15},
                                                {"planar_hand", 25},
                                                {"planar_hand", 60}}) {
    SCOPED_TRACE(example + " after " + std::to_string(steps) + " steps");
    const Scene scene = *LoadExample(example);
    testing::ProgramSettings settings = testing::SceneProgramSettings(scene);
    settings.type = "socp";
    const ExampleState s = StateAfter(scene, settings, steps);
    ExpectBarrierMatchesFiniteDifferences(scene, settings, s.q, s.u,
                                          kLogBarrierConeGradientFdTolerance);
  }
}

TEST(LogBarrierConeGradients, MatchFiniteDifferencesIn3d) {
  {
    SCOPED_TRACE("cube pushed diagonally");
    const Scene scene = testing::DiagonalPushScene(4);
    ExpectBarrierMatchesFiniteDifferences(scene, testing::SceneProgramSettings(scene), scene.q0,
                                          testing::DiagonalPushCommand(scene),
                                          kLogBarrierConeGradientFdTolerance);
  }
  {
    SCOPED_TRACE("arm_cubes approach");  // 1e-4 as for the exact gradients on this scene
    const Scene scene = *LoadExample("arm_cubes");
    testing::ProgramSettings settings = testing::SceneProgramSettings(scene);
    settings.type = "socp";
    const ExampleState s = StateAfter(scene, settings, 87);
    // Only B here: the resting cubes' manifolds change within the FD step in q, where the
    // barrier step jumps (linearize_test.cc, ConeLinearize; docs/gradients.md).
    ASSERT_TRUE(testing::ContactSetChangesWithinFdStep(scene, s.q));
    settings.type = "log-barrier-cone";
    // κ for 0.25 kg cubes: at the default κ = 100 the barrier holds them up to 13 cm off the
    // table and keeps contacts up to 26 cm (dynamics/barrier_stand_off.h), so the set holds
    // ~100 contacts, some at a manifold's edge within the FD step; at 1e4 the stand-off is
    // below ε.
    settings.kappa = 1e4;
    const ConeLinearization smooth = LinearizeConeStep(scene, settings, s.q, s.u);
    ConeReferenceStep reference(scene, settings);
    EXPECT_LT(RelativeError(smooth.B, FiniteDifferenceB(reference.AsFunction(), s.q, s.u)), 1e-4);
  }
}

// κ → ∞: the barrier step tends to the SOCP step (O(1/κ) under strict complementarity), and so
// do its gradients: the distance to the exact SOCP gradients must shrink as κ grows by 100×.
// Cube sliding diagonally in 3D (sliding cones) and the planar gripper (sticking rows).
TEST(LogBarrierConeGradients, ApproachTheSocpGradientsAsKappaGrows) {
  std::vector<testing::SceneState> setups;
  {
    Scene scene = testing::DiagonalPushScene(4);
    const Eigen::VectorXd q = scene.q0, u = testing::DiagonalPushCommand(scene);
    setups.push_back({"cube pushed diagonally", std::move(scene), q, u});
  }
  {
    Scene scene = *LoadExample("planar_gripper");
    testing::ProgramSettings settings = testing::SceneProgramSettings(scene);
    settings.type = "socp";
    const ExampleState s = StateAfter(scene, settings, 6);
    setups.push_back({"planar_gripper squeezing", std::move(scene), s.q, s.u});
  }
  for (const testing::SceneState& setup : setups) {
    SCOPED_TRACE(setup.name);
    testing::ProgramSettings settings = testing::SceneProgramSettings(setup.scene);
    settings.type = "socp";
    const ConeLinearization exact = LinearizeConeStep(setup.scene, settings, setup.q, setup.u);
    settings.type = "log-barrier-cone";
    double previous_b = 1e300, previous_a = 1e300;
    for (double kappa : {1e2, 1e4, 1e6, 1e8}) {
      settings.kappa = kappa;
      const ConeLinearization smooth = LinearizeConeStep(setup.scene, settings, setup.q, setup.u);
      const double error_b = RelativeError(smooth.B, exact.B);
      const double error_a = RelativeError(smooth.A, exact.A);
      std::cout << setup.name << ", kappa " << kappa << ": |B − B_socp| " << error_b
                << ", |A − A_socp| " << error_a << "\n";
      EXPECT_LT(error_b, previous_b);
      EXPECT_LT(error_a, previous_a);
      previous_b = error_b;
      previous_a = error_a;
    }
    EXPECT_LT(previous_b, 1e-3);
    EXPECT_LT(previous_a, 1e-3);
  }
}

// A degenerate point of the SOCP: the pusher touches the resting cube (φ = 0) with no command,
// so its contact has u = 0 and y = 0 (strict complementarity fails). The exact gradients are
// finite and bitwise repeatable; the barrier gradients stay finite
// for every κ. The distances to the two one-sided derivatives along the push are printed,
// not asserted: the branch rule of socp_gradient.h is meant to give one of them, but here B
// is 0.025 from the backward one while the two differ by 0.95 (docs/gradients.md, known gaps).
TEST(ConeGradientsAtADegeneratePoint, FiniteAndDeterministic) {
  const Scene scene = testing::DiagonalPushScene(4);
  testing::ProgramSettings settings = testing::SceneProgramSettings(scene);
  settings.type = "socp";
  const Eigen::VectorXd q = scene.q0, u = scene.q0.tail(scene.nq_a);
  const ConeLinearization first = LinearizeConeStep(scene, settings, q, u);
  const ConeLinearization second = LinearizeConeStep(scene, settings, q, u);
  ASSERT_TRUE(first.A.allFinite() && first.B.allFinite());
  EXPECT_EQ(first.A, second.A);
  EXPECT_EQ(first.B, second.B);
  // One-sided differences along u_x (push / pull away), step δ = 1e-6: truncation O(δ) relative
  // to the O(1) entries, plus the reference solver's 1e-12/δ = 1e-6.
  ConeReferenceStep reference(scene, settings);
  const double delta = 1e-6;
  Eigen::VectorXd up = u, down = u;
  up[0] += delta;
  down[0] -= delta;
  const Eigen::VectorXd f0 = reference(q, u);
  const Eigen::VectorXd forward = (reference(q, up) - f0) / delta;
  const Eigen::VectorXd backward = (f0 - reference(q, down)) / delta;
  const double to_forward = (first.B.col(0) - forward).cwiseAbs().maxCoeff();
  const double to_backward = (first.B.col(0) - backward).cwiseAbs().maxCoeff();
  std::cout << "degenerate: |B₀ − forward| " << to_forward << ", |B₀ − backward| " << to_backward
            << ", |forward − backward| " << (forward - backward).cwiseAbs().maxCoeff() << "\n";
  settings.type = "log-barrier-cone";
  for (double kappa : {1e2, 1e4, 1e6}) {
    settings.kappa = kappa;
    const ConeLinearization smooth = LinearizeConeStep(scene, settings, q, u);
    EXPECT_TRUE(smooth.A.allFinite() && smooth.B.allFinite()) << "kappa " << kappa;
  }
}

}  // namespace
}  // namespace quasidyn
