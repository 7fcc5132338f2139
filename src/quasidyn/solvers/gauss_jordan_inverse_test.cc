#include "quasidyn/solvers/gauss_jordan_inverse.h"

#include <gtest/gtest.h>

#include <Eigen/LU>
#include <limits>
#include <random>

#include "quasidyn/testing/malloc_counter.h"

namespace quasidyn {
namespace {

constexpr double kGaussJordanInverseEpsilon = std::numeric_limits<double>::epsilon();

Eigen::MatrixXd RandomMatrix(int n, unsigned seed) {
  std::mt19937 random(seed);
  std::normal_distribution<double> normal;
  Eigen::MatrixXd a(n, n);
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < n; ++i) a(i, j) = normal(random);
  return a;
}

// A·A⁻¹ = I to the accuracy backward-stable inversion promises: n·ε·κ(A) (Higham §14.4),
// with κ from Eigen's own LU inverse (an independent computation).
TEST(GaussJordanInverse, InverseOfRandomMatricesMatchesTheLuInverse) {
  for (int n : {1, 2, 7, 40, 150}) {
    const Eigen::MatrixXd a = RandomMatrix(n, 11 + n);
    Eigen::MatrixXd inverse = a;
    Eigen::VectorXi pivots(n);
    Eigen::VectorXd column(n);
    ASSERT_TRUE(InvertInPlace(n, &inverse, &pivots, &column)) << n;
    const Eigen::MatrixXd reference = a.partialPivLu().inverse();
    const double condition = a.lpNorm<Eigen::Infinity>() * reference.lpNorm<Eigen::Infinity>();
    const double bound = n * kGaussJordanInverseEpsilon * condition;
    EXPECT_LT((a * inverse - Eigen::MatrixXd::Identity(n, n)).lpNorm<Eigen::Infinity>(), 10 * bound)
        << n;
    EXPECT_LT((inverse - reference).lpNorm<Eigen::Infinity>() / reference.lpNorm<Eigen::Infinity>(),
              10 * bound)
        << n;
  }
}

// Only the leading block is inverted; a zero first column needs the row swap.
TEST(GaussJordanInverse, LeadingBlockAndPivoting) {
  Eigen::MatrixXd a = Eigen::MatrixXd::Constant(4, 4, 7.0);
  a.topLeftCorner(2, 2) << 0.0, 2.0, 3.0, 0.0;
  Eigen::VectorXi pivots(4);
  Eigen::VectorXd column(4);
  ASSERT_TRUE(InvertInPlace(2, &a, &pivots, &column));
  Eigen::Matrix2d expected;
  expected << 0.0, 1.0 / 3.0, 0.5, 0.0;
  EXPECT_LT((a.topLeftCorner(2, 2) - expected).lpNorm<Eigen::Infinity>(),
            kGaussJordanInverseEpsilon);
  EXPECT_EQ(a(3, 3), 7.0);
  EXPECT_EQ(a(0, 2), 7.0);
}

TEST(GaussJordanInverse, SingularOrNonFiniteIsFalse) {
  Eigen::MatrixXd a(2, 2);
  a << 1.0, 2.0, 2.0, 4.0;
  Eigen::VectorXi pivots(2);
  Eigen::VectorXd column(2);
  EXPECT_FALSE(InvertInPlace(2, &a, &pivots, &column));
  a << std::numeric_limits<double>::quiet_NaN(), 0.0, 0.0, 1.0;
  EXPECT_FALSE(InvertInPlace(2, &a, &pivots, &column));
}

TEST(GaussJordanInverse, NoHeapAllocation) {
  if (!testing::MallocCountingAvailable()) GTEST_SKIP() << "malloc counting is off";
  const int n = 300;  // 720 KB: Eigen's blocked LU would take its buffers from the heap
  Eigen::MatrixXd a = RandomMatrix(n, 5);
  Eigen::VectorXi pivots(n);
  Eigen::VectorXd column(n);
  testing::MallocCounter counter;
  ASSERT_TRUE(InvertInPlace(n, &a, &pivots, &column));
  EXPECT_EQ(counter.count(), 0);
}

}  // namespace
}  // namespace quasidyn
