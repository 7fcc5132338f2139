#include "quasidyn/solvers/padded_lu.h"

#include <gtest/gtest.h>

#include <Eigen/LU>
#include <limits>
#include <vector>

#include "quasidyn/testing/solver_problems.h"

namespace quasidyn {
namespace {

using Eigen::MatrixXd;
using Eigen::VectorXd;

constexpr double kPaddedLuEpsilon = std::numeric_limits<double>::epsilon();

// A into the padded layout (zero padding).
std::vector<double> Padded(const MatrixXd& A) {
  std::vector<double> a(static_cast<std::size_t>(kPaddedRows) * kPaddedRows, 0.0);
  for (int j = 0; j < A.cols(); ++j)
    for (int i = 0; i < A.rows(); ++i) a[j * kPaddedRows + i] = A(i, j);
  return a;
}

TEST(PaddedLu, SolvesLikePartialPivotingForEverySize) {
  testing::RandomProblems random(21);
  for (int m = 1; m <= kPaddedRows; ++m) {
    MatrixXd A = random.Gaussian(m, m);
    if (m > 1) A(0, 0) = 0.0;               // the first step needs a row interchange
    if (m > 3) A.col(2).head(2).setZero();  // zero entries of a pivot row: skipped updates
    std::vector<double> a = Padded(A);
    std::vector<double> lower(a.size(), 0.0);
    std::vector<int> perm(m);
    double lo = std::numeric_limits<double>::infinity(), hi = 0.0;
    FactorisePadded(a.data(), lower.data(), m, perm.data(), &lo, &hi);
    ASSERT_GT(lo, 0.0) << "m = " << m;
    // The pivots of partial pivoting: |U's diagonal| between lo and hi.
    const Eigen::PartialPivLU<MatrixXd> reference(A);
    const MatrixXd& lu = reference.matrixLU();
    EXPECT_NEAR(lu.diagonal().cwiseAbs().minCoeff(), lo, 1e3 * kPaddedLuEpsilon * hi);
    EXPECT_NEAR(lu.diagonal().cwiseAbs().maxCoeff(), hi, 1e3 * kPaddedLuEpsilon * hi);
    const VectorXd b = random.GaussianVector(m);
    double x[kPaddedRows];
    for (int i = 0; i < kPaddedRows; ++i) x[i] = i < m ? b[i] : 1e300;  // padding: anything
    SubstitutePadded(a.data(), lower.data(), m, perm.data(), x);
    const VectorXd solution = Eigen::Map<const VectorXd>(x, m);
    const double scale =
        A.cwiseAbs().rowwise().sum().maxCoeff() * solution.lpNorm<Eigen::Infinity>() +
        b.lpNorm<Eigen::Infinity>();
    EXPECT_LE((A * solution - b).lpNorm<Eigen::Infinity>(), 100.0 * m * kPaddedLuEpsilon * scale)
        << "m = " << m;
    EXPECT_LE((solution - reference.solve(b)).lpNorm<Eigen::Infinity>(),
              1e-10 * (1.0 + solution.lpNorm<Eigen::Infinity>()))
        << "m = " << m;
  }
}

TEST(PaddedLu, StopsAtAZeroPivot) {
  MatrixXd A = MatrixXd::Identity(4, 4);
  A.col(3) = A.col(1);  // singular
  std::vector<double> a = Padded(A);
  std::vector<double> lower(a.size(), 0.0);
  std::vector<int> perm(4);
  double lo = std::numeric_limits<double>::infinity(), hi = 0.0;
  FactorisePadded(a.data(), lower.data(), 4, perm.data(), &lo, &hi);
  EXPECT_EQ(lo, 0.0);
  EXPECT_EQ(hi, 1.0);
}

}  // namespace
}  // namespace quasidyn
