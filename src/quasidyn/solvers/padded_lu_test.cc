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

TEST(PaddedLu, ARightSideEliminatedWithTheMatrixGivesTheSubstitutionsBitForBit) {
  // Column m holding b: the same factor, and its column after the elimination, back
  // substituted, the same x as SubstitutePadded's (the same operations in the same order).
  testing::RandomProblems random(22);
  for (int m = 1; m < kPaddedRows; ++m) {
    MatrixXd A = random.Gaussian(m, m);
    if (m > 1) A(0, 0) = 0.0;               // a row interchange
    if (m > 3) A.col(2).head(2).setZero();  // skipped updates
    const VectorXd b = random.GaussianVector(m);
    std::vector<double> a = Padded(A), augmented = Padded(A);
    for (int i = 0; i < m; ++i) augmented[m * kPaddedRows + i] = b[i];
    std::vector<double> lower(a.size(), 0.0), lower_augmented(a.size(), 0.0);
    std::vector<int> perm(m), perm_augmented(m);
    double lo = std::numeric_limits<double>::infinity(), hi = 0.0, lo_a = lo, hi_a = 0.0;
    FactorisePadded(a.data(), lower.data(), m, perm.data(), &lo, &hi);
    FactorisePadded(augmented.data(), lower_augmented.data(), m, m + 1, perm_augmented.data(),
                    &lo_a, &hi_a);
    ASSERT_GT(lo, 0.0) << "m = " << m;
    EXPECT_EQ(perm, perm_augmented) << "m = " << m;
    EXPECT_EQ(lower, lower_augmented) << "m = " << m;
    for (int j = 0; j < m; ++j)
      for (int i = 0; i <= j; ++i)  // U
        EXPECT_EQ(a[j * kPaddedRows + i], augmented[j * kPaddedRows + i]) << "m = " << m;
    double x[kPaddedRows];
    for (int i = 0; i < kPaddedRows; ++i) x[i] = i < m ? b[i] : 0.0;
    SubstitutePadded(a.data(), lower.data(), m, perm.data(), x);
    double* y = augmented.data() + m * kPaddedRows;
    BackSubstitutePadded(augmented.data(), m, y);
    for (int i = 0; i < m; ++i) EXPECT_EQ(x[i], y[i]) << "m = " << m << ", row " << i;
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
