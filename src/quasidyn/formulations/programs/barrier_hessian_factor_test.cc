#include "quasidyn/formulations/programs/barrier_hessian_factor.h"

#include <gtest/gtest.h>

#include <Eigen/Eigenvalues>
#include <limits>
#include <random>
#include <stdexcept>

namespace quasidyn {
namespace {

// A Hessian shaped like a barrier step's: 6 × 6 body blocks on the diagonal (positive definite)
// and couplings between neighbouring bodies (a contact's rows), scaled by `coupling`.
Eigen::MatrixXd BarrierLikeHessian(int bodies, double coupling, unsigned seed) {
  std::mt19937 random(seed);
  std::uniform_real_distribution<double> entry(-1.0, 1.0);
  const int n = 6 * bodies;
  Eigen::MatrixXd H = Eigen::MatrixXd::Zero(n, n);
  for (int b = 0; b < bodies; ++b) {
    Eigen::MatrixXd block(6, 6);
    for (int i = 0; i < 36; ++i) block.data()[i] = entry(random);
    H.block(6 * b, 6 * b, 6, 6) = block * block.transpose() + Eigen::MatrixXd::Identity(6, 6);
  }
  for (int b = 0; b + 1 < bodies; ++b) {  // one contact row g between bodies b and b + 1
    Eigen::VectorXd g = Eigen::VectorXd::Zero(n);
    for (int i = 0; i < 12; ++i) g[6 * b + i] = entry(random);
    H += coupling * g * g.transpose();
  }
  return H;
}

// ‖H‖ ‖H⁻¹‖ in the 2-norm (H symmetric).
double BarrierHessianCondition(const Eigen::MatrixXd& H) {
  const Eigen::VectorXd magnitudes = H.selfadjointView<Eigen::Lower>().eigenvalues().cwiseAbs();
  return magnitudes.maxCoeff() / magnitudes.minCoeff();
}

double BarrierSolveMismatch(const Eigen::MatrixXd& a, const Eigen::MatrixXd& b) {
  return (a - b).lpNorm<Eigen::Infinity>() / b.lpNorm<Eigen::Infinity>();
}

TEST(BarrierHessianFactor, SparsePathSolvesAsTheDenseFactor) {
  const Eigen::MatrixXd H = BarrierLikeHessian(10, 3.0, 7);  // 60 velocities
  ASSERT_GE(H.rows(), kSparseBarrierHessianSize);
  const Eigen::MatrixXd rhs = Eigen::MatrixXd::Random(H.rows(), 67);
  BarrierHessianFactor factor;
  ASSERT_TRUE(factor.Compute(H, /*require_positive=*/true));
  EXPECT_TRUE(factor.sparse());
  const Eigen::MatrixXd x = factor.Solve(rhs);
  const Eigen::MatrixXd reference = H.ldlt().solve(rhs);
  // Both backward stable: they agree to a few ulps times H's condition number.
  const double condition = BarrierHessianCondition(H);
  const double eps = std::numeric_limits<double>::epsilon();
  EXPECT_LE(BarrierSolveMismatch(x, reference), 100 * eps * condition);
  EXPECT_LE(BarrierSolveMismatch(H * x, rhs), 100 * eps * condition);
}

TEST(BarrierHessianFactor, KeepsItsAnalysisOnlyWhileThePatternIsTheSame) {
  const double eps = std::numeric_limits<double>::epsilon();
  const Eigen::MatrixXd rhs = Eigen::MatrixXd::Random(60, 13);
  BarrierHessianFactor factor;
  const auto expect_solves = [&](const Eigen::MatrixXd& H) {
    const Eigen::MatrixXd x = factor.Solve(rhs);
    EXPECT_LE(BarrierSolveMismatch(H * x, rhs), 100 * eps * BarrierHessianCondition(H));
  };
  const Eigen::MatrixXd first = BarrierLikeHessian(10, 3.0, 5);
  ASSERT_TRUE(factor.Compute(first, /*require_positive=*/true));
  ASSERT_TRUE(factor.sparse());
  EXPECT_FALSE(factor.reused_pattern());
  expect_solves(first);
  // Other values on the same non-zeros: the same ordering serves.
  const Eigen::MatrixXd same_pattern = BarrierLikeHessian(10, 3.0, 6);
  ASSERT_TRUE(factor.Compute(same_pattern, /*require_positive=*/true));
  EXPECT_TRUE(factor.reused_pattern());
  expect_solves(same_pattern);
  // A new coupling (bodies 0 and 9, as a new contact would): analysed again, and the solve
  // follows the new pattern (a kept analysis would drop the fill the coupling causes).
  Eigen::MatrixXd new_pattern = same_pattern;
  new_pattern.block(54, 0, 6, 6) = Eigen::MatrixXd::Constant(6, 6, 0.1);
  new_pattern.block(0, 54, 6, 6) = Eigen::MatrixXd::Constant(6, 6, 0.1);
  ASSERT_TRUE(factor.Compute(new_pattern, /*require_positive=*/true));
  EXPECT_FALSE(factor.reused_pattern());
  expect_solves(new_pattern);
}

TEST(BarrierHessianFactor, SmallHessianTakesTheDenseFactor) {
  const Eigen::MatrixXd H = BarrierLikeHessian(1, 0.0, 3);
  BarrierHessianFactor factor;
  ASSERT_TRUE(factor.Compute(H, /*require_positive=*/true));
  EXPECT_FALSE(factor.sparse());
  const Eigen::VectorXd rhs = Eigen::VectorXd::Ones(6);
  EXPECT_LE(BarrierSolveMismatch(H * factor.Solve(rhs), rhs),
            1e3 * std::numeric_limits<double>::epsilon());
}

TEST(BarrierHessianFactor, IndefiniteHessianFallsBackToTheDenseFactor) {
  Eigen::MatrixXd H = BarrierLikeHessian(10, 3.0, 11);
  H(0, 0) = -H(0, 0) - 1.0;  // a negative curvature: no barrier minimiser has it
  BarrierHessianFactor factor;
  EXPECT_FALSE(factor.Compute(H, /*require_positive=*/true));
  ASSERT_TRUE(factor.Compute(H, /*require_positive=*/false));  // pivoted dense LDLᵀ
  EXPECT_FALSE(factor.sparse());
  const Eigen::VectorXd rhs = Eigen::VectorXd::Ones(H.rows());
  EXPECT_LE(BarrierSolveMismatch(H * factor.Solve(rhs), rhs),
            100 * std::numeric_limits<double>::epsilon() * BarrierHessianCondition(H));
}

TEST(BarrierHessianFactor, NonSquareIsAnError) {
  BarrierHessianFactor factor;
  EXPECT_THROW(factor.Compute(Eigen::MatrixXd::Zero(3, 4), true), std::invalid_argument);
}

}  // namespace
}  // namespace quasidyn
