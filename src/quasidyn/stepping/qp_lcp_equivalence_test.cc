// The QP of eq. (10) and the LCP of eq. (9) of Pang & Tedrake 2021 are the same problem (the
// LCP is the QP's KKT system, §IV-B): build the LCP for the same step with v eliminated
// through P, solve it by Lemke's pivoting (an independent, exact-arithmetic-style method),
// and compare with the interior-point QP.
//   w = G P⁻¹Gᵀ β + (G P⁻¹τ_h + φ/h) ⊥ β,   v = P⁻¹(τ_h + Gᵀβ).

#include <gtest/gtest.h>

#include <Eigen/Cholesky>
#include <Eigen/Eigenvalues>
#include <Eigen/SVD>

#include "quasidyn/formulations/programs/pyramid_qp.h"
#include "quasidyn/scenes/scene_loading.h"
#include "quasidyn/solvers/lemke.h"
#include "quasidyn/testing/dynamics_scenes.h"
#include "quasidyn/testing/program_settings.h"
#include "quasidyn/testing/step_problems.h"
#include "quasidyn/testing/stepper.h"

namespace quasidyn {
namespace {

constexpr double kAbsoluteTolerance = 1e-13, kRelativeTolerance = 1e-12;

void ExpectQpMatchesLemke(const StepProblem& problem) {
  QpSettings settings = ContactQpSettings();
  settings.absolute_tolerance = kAbsoluteTolerance;
  settings.relative_tolerance = kRelativeTolerance;
  QpProblem qp;
  BuildPyramidQp(problem, &qp);
  const QpResult qp_result = Solve(qp, settings);
  ASSERT_EQ(qp_result.status, SolverStatus::kSolved) << qp_result.message;

  const Eigen::MatrixXd G = qp.G.ToDense(), P_dense = problem.cost.P.ToDense();
  const Eigen::LLT<Eigen::MatrixXd> P(P_dense);
  ASSERT_EQ(P.info(), Eigen::Success);
  const Eigen::MatrixXd P_inv_GT = P.solve(G.transpose());
  const Eigen::VectorXd P_inv_tau = P.solve(problem.cost.tau_h);
  LcpProblem lcp;  // eq. (9c) with (9a)-(9b) solved for v; qp.h = −φ/h
  lcp.M = G * P_inv_GT;
  lcp.q = G * P_inv_tau - qp.h;
  const LcpResult lcp_result = Solve(lcp);
  ASSERT_EQ(lcp_result.status, SolverStatus::kSolved) << lcp_result.message;
  const Eigen::VectorXd v_lcp = P_inv_tau + P_inv_GT * lcp_result.z;

  // Strong convexity: ½σ‖v − v*‖² <= f(v) − f(v*), σ = λ_min(P); the interior point's
  // suboptimality is bounded by its gap plus residual tests, <= 10 (abs + rel · max(1, |f|)).
  const Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> eigen(P_dense);
  const double sigma = eigen.eigenvalues().minCoeff();
  const double objective = testing::Objective(problem, v_lcp);
  const double suboptimality =
      10 * (kAbsoluteTolerance + kRelativeTolerance * std::max(1.0, std::abs(objective)));
  const double v_tolerance = std::sqrt(2 * suboptimality / sigma);
  EXPECT_LE((qp_result.x - v_lcp).norm(), v_tolerance);
  EXPECT_GT(v_lcp.norm(), 10 * v_tolerance) << "the comparison would be vacuous";

  // β is unique when G has full row rank: Gᵀ(β_qp − β_lcp) = P(v_qp − v_lcp) + r_d, so
  // ‖Δβ‖ <= (‖P‖‖Δv‖ + ‖r_d‖) / σ_min(G).
  const Eigen::JacobiSVD<Eigen::MatrixXd> svd(G);
  const double sigma_min_G = svd.singularValues().minCoeff();
  if (G.rows() <= G.cols() && sigma_min_G > 1e-6 * svd.singularValues().maxCoeff()) {
    const double P_norm = eigen.eigenvalues().maxCoeff();
    const double dual_tolerance = 10 * (kAbsoluteTolerance + kRelativeTolerance * 1e3);
    EXPECT_LE((qp_result.z - lcp_result.z).norm(),
              (P_norm * v_tolerance + dual_tolerance) / sigma_min_G);
  } else {
    // Otherwise compare the generalized impulses Gᵀβ = P v − τ_h.
    EXPECT_LE((G.transpose() * (qp_result.z - lcp_result.z)).norm(),
              eigen.eigenvalues().maxCoeff() * v_tolerance + 1e-9);
  }
}

TEST(QpLcpEquivalence, DiagonalPushIn3d) {
  const Scene scene = testing::DiagonalPushScene(4);
  testing::ProgramSettings settings = testing::SceneProgramSettings(scene);
  Eigen::VectorXd u = scene.q0.tail(scene.nq_a);
  u[0] += 0.02;
  u[1] += 0.01;
  const testing::OwnedStepProblem owned(scene, settings, scene.q0, u);
  ASSERT_GE(owned.get().contacts.size(), 2);
  ExpectQpMatchesLemke(owned.get());
}

TEST(QpLcpEquivalence, PlanarGripperWhilePullingDown) {
  const Scene scene = LoadScene(testing::kSourceDir + "/examples/planar_gripper/scene.yaml");
  const testing::ProgramSettings settings = testing::SceneProgramSettings(scene);
  testing::Stepper stepper(scene, settings);
  Eigen::VectorXd q = scene.q0;
  const int steps = 15;  // t = 0.15 s: squeezing and pulling down
  for (int k = 0; k < steps; ++k) q = stepper.Step(q, scene.CommandAt((k + 1) * 0.01)).next.q;
  const testing::OwnedStepProblem owned(scene, settings, q, scene.CommandAt((steps + 1) * 0.01));
  ASSERT_GE(owned.get().contacts.size(), 3);
  ExpectQpMatchesLemke(owned.get());
}

}  // namespace
}  // namespace quasidyn
