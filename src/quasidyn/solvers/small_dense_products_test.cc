// The small dense path's products (small_dense_products.h) against Eigen's, for every column
// count with loops of its own and beyond (run-time loops), and for empty rows or columns.
#include "quasidyn/solvers/small_dense_products.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <random>
#include <string>

#include "quasidyn/solvers/dense_cholesky.h"
#include "quasidyn/testing/malloc_counter.h"

namespace quasidyn {
namespace {

using Eigen::MatrixXd;
using Eigen::VectorXd;

constexpr double kProductsEpsilon = std::numeric_limits<double>::epsilon();

MatrixXd RandomProductsMatrix(std::mt19937& engine, int rows, int cols) {
  std::normal_distribution<double> normal(0.0, 1.0);
  MatrixXd M(rows, cols);
  for (int j = 0; j < cols; ++j)
    for (int i = 0; i < rows; ++i) M(i, j) = normal(engine);
  return M;
}

// |a − b| within k ε Σ|terms| entry by entry (Higham, "Accuracy and Stability of Numerical
// Algorithms", §3.1: a sum of k products in any order is within k ε Σ|terms| of the exact one).
void ExpectWithinProductRounding(const VectorXd& a, const VectorXd& b, const VectorXd& magnitude,
                                 int terms, const std::string& what) {
  ASSERT_EQ(a.size(), b.size()) << what;
  for (Eigen::Index i = 0; i < a.size(); ++i)
    EXPECT_LE(std::abs(a[i] - b[i]), 2.0 * (terms + 1) * kProductsEpsilon * magnitude[i])
        << what << ", entry " << i;
}

TEST(SmallDenseProductsTest, ProductsAreEigensToRoundingAtEverySize) {
  std::mt19937 engine(11);
  for (int cols = 0; cols <= kSmallDenseSize; ++cols) {
    for (int rows : {0, 1, 5, 12, kSmallDenseSize}) {
      const std::string at = std::to_string(rows) + " × " + std::to_string(cols);
      const MatrixXd M = RandomProductsMatrix(engine, rows, cols);
      const VectorXd x = RandomProductsMatrix(engine, cols, 1),
                     y = RandomProductsMatrix(engine, rows, 1);
      VectorXd out(rows), out_t(cols);
      SmallMultiply(M, x, &out);
      SmallMultiplyTransposed(M, y, &out_t);
      ExpectWithinProductRounding(out, M * x, M.cwiseAbs() * x.cwiseAbs(), cols, "M x, " + at);
      ExpectWithinProductRounding(out_t, M.transpose() * y, M.cwiseAbs().transpose() * y.cwiseAbs(),
                                  rows, "Mᵀ y, " + at);
    }
  }
}

// N = Q + Gᵀ diag(w) G + δ I in the lower triangle, the strict upper triangle untouched, and
// diag(w) G returned; no allocation.
TEST(SmallDenseProductsTest, WeightedGramIsTheLowerTriangleOfTheFormula) {
  std::mt19937 engine(12);
  std::uniform_real_distribution<double> positive(0.1, 10.0);
  for (int n = 1; n <= kSmallDenseSize; ++n) {
    for (int m : {0, 1, 6, kSmallDenseSize}) {
      const std::string at = "m = " + std::to_string(m) + ", n = " + std::to_string(n);
      const MatrixXd B = RandomProductsMatrix(engine, n, n);
      const MatrixXd Q = B * B.transpose();
      const MatrixXd G = RandomProductsMatrix(engine, m, n);
      VectorXd w(m);
      for (int r = 0; r < m; ++r) w[r] = positive(engine);
      const double delta = 1e-3;
      MatrixXd scaled(m, n), N = MatrixXd::Constant(n, n, -7.0);
      long allocations = 0;
      {
        testing::MallocCounter counter;
        SmallWeightedGram(Q, G, w.data(), delta, &scaled, &N);
        allocations = counter.count();
      }
      EXPECT_EQ(allocations, 0) << at;
      EXPECT_EQ(scaled, w.asDiagonal() * G) << at;  // the same products, one each
      const MatrixXd expected =
          Q + G.transpose() * w.asDiagonal() * G + delta * MatrixXd::Identity(n, n);
      const MatrixXd magnitude = Q.cwiseAbs() +
                                 G.cwiseAbs().transpose() * w.asDiagonal() * G.cwiseAbs() +
                                 delta * MatrixXd::Identity(n, n);
      for (int j = 0; j < n; ++j) {
        for (int i = 0; i < n; ++i) {
          if (i < j) {
            EXPECT_EQ(N(i, j), -7.0) << at << ": upper entry (" << i << ", " << j << ") written";
          } else {
            EXPECT_LE(std::abs(N(i, j) - expected(i, j)),
                      2.0 * (m + 3) * kProductsEpsilon * magnitude(i, j))
                << at << ", entry (" << i << ", " << j << ")";
          }
        }
      }
    }
  }
}

}  // namespace
}  // namespace quasidyn
