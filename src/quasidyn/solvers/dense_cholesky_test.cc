#include "quasidyn/solvers/dense_cholesky.h"

#include <gtest/gtest.h>

#include <Eigen/Cholesky>
#include <limits>
#include <random>

#include "quasidyn/testing/malloc_counter.h"

namespace quasidyn {
namespace {

using Eigen::MatrixXd;
using Eigen::VectorXd;

constexpr double kEpsilon = std::numeric_limits<double>::epsilon();

// B Bᵀ + n I with B standard normal: positive definite, condition number of order 10.
MatrixXd RandomPositiveDefinite(std::mt19937& engine, int n) {
  std::normal_distribution<double> normal(0.0, 1.0);
  MatrixXd B(n, n);
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) B(i, j) = normal(engine);
  return B * B.transpose() + n * MatrixXd::Identity(n, n);
}

// The factor reproduces N and the solve N⁻¹ b to rounding (Higham, "Accuracy and Stability
// of Numerical Algorithms", Thm. 10.3 and 10.4: backward errors of order n ε ‖N‖), for every
// size of the small dense path; neither reads N's strict upper triangle (NaN there).
TEST(DenseCholeskyTest, FactorAndSolveAreBackwardStableAtEverySmallSize) {
  std::mt19937 engine(7);
  for (int n = 0; n <= kSmallDenseSize; ++n) {
    const MatrixXd N = RandomPositiveDefinite(engine, n);
    MatrixXd lower_only = N;
    for (int j = 1; j < n; ++j)
      for (int i = 0; i < j; ++i) lower_only(i, j) = std::numeric_limits<double>::quiet_NaN();
    DenseCholesky cholesky;
    cholesky.Resize(n);
    ASSERT_TRUE(cholesky.Factor(lower_only)) << "n = " << n;
    const MatrixXd L = cholesky.factor().triangularView<Eigen::Lower>();
    const double scale = n * kEpsilon * (n > 0 ? N.norm() : 1.0);
    EXPECT_LE((L * L.transpose() - N).norm(), 4.0 * scale) << "n = " << n;

    VectorXd b = VectorXd::LinSpaced(n, -1.0, 2.0);
    VectorXd x(n);
    cholesky.Solve(b, &x);
    EXPECT_LE((N * x - b).norm(), 4.0 * scale * std::max(1.0, x.norm())) << "n = " << n;
    // Against Eigen's factorisation: the same answer to the condition number times rounding.
    if (n > 0) {
      const VectorXd reference = N.llt().solve(b);
      EXPECT_LE((x - reference).norm(), 100.0 * n * kEpsilon * reference.norm()) << "n = " << n;
    }
    // In place: x may be b.
    VectorXd in_place = b;
    cholesky.Solve(in_place, &in_place);
    EXPECT_EQ(in_place, x) << "n = " << n;
  }
}

// Not positive definite, or not finite: Factor says so.
TEST(DenseCholeskyTest, RejectsMatricesThatAreNotPositiveDefiniteOrNotFinite) {
  DenseCholesky cholesky;
  cholesky.Resize(3);
  MatrixXd N(3, 3);
  N << 4, 1, 0,  //
      1, 3, 1,   //
      0, 1, 2;
  EXPECT_TRUE(cholesky.Factor(N));
  MatrixXd indefinite = N;
  indefinite(2, 1) = indefinite(1, 2) = 3.0;  // det < 0 on the trailing block
  EXPECT_FALSE(cholesky.Factor(indefinite));
  MatrixXd singular = MatrixXd::Ones(3, 3);
  EXPECT_FALSE(cholesky.Factor(singular));
  for (const double bad :
       {std::numeric_limits<double>::quiet_NaN(), std::numeric_limits<double>::infinity()}) {
    MatrixXd diagonal = N, off_diagonal = N;
    diagonal(1, 1) = bad;
    off_diagonal(2, 0) = bad;
    EXPECT_FALSE(cholesky.Factor(diagonal)) << bad;
    EXPECT_FALSE(cholesky.Factor(off_diagonal)) << bad;
  }
  EXPECT_THROW(cholesky.Factor(MatrixXd::Identity(2, 2)), std::invalid_argument);
}

TEST(DenseCholeskyTest, FactorAndSolveDoNotAllocate) {
  if (!testing::MallocCountingAvailable()) GTEST_SKIP() << "malloc counting is off";
  std::mt19937 engine(11);
  const MatrixXd N = RandomPositiveDefinite(engine, 7);
  const VectorXd b = VectorXd::Ones(7);
  VectorXd x(7);
  DenseCholesky cholesky;
  cholesky.Resize(7);
  testing::MallocCounter counter;
  ASSERT_TRUE(cholesky.Factor(N));
  cholesky.Solve(b, &x);
  EXPECT_EQ(counter.count(), 0);
}

}  // namespace
}  // namespace quasidyn
