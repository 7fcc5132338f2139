#include "quasidyn/solvers/preordered_ldlt.h"

#include <gtest/gtest.h>

#include <initializer_list>
#include <limits>
#include <random>
#include <vector>

namespace quasidyn {
namespace {

using Matrix = Eigen::SparseMatrix<double>;
using Eigen::VectorXd;

// The lower triangle of B Bᵀ + diag(shift) for a random sparse B (n × n, a few entries per
// column): a sparse symmetric matrix, positive definite for shift > 0, with fill in its factor.
Matrix RandomLower(std::mt19937& engine, int n, double shift) {
  std::uniform_real_distribution<double> value(-1.0, 1.0);
  std::uniform_int_distribution<int> row(0, n - 1);
  std::vector<Eigen::Triplet<double>> entries;
  for (int j = 0; j < n; ++j) {
    entries.emplace_back(j, j, value(engine));
    for (int e = 0; e < 2; ++e) entries.emplace_back(row(engine), j, value(engine));
  }
  Matrix B(n, n);
  B.setFromTriplets(entries.begin(), entries.end());
  Matrix full = B * Matrix(B.transpose());
  for (int j = 0; j < n; ++j) full.coeffRef(j, j) += shift;
  Matrix lower = full.triangularView<Eigen::Lower>();
  lower.makeCompressed();
  return lower;
}

VectorXd RandomVector(std::mt19937& engine, int n) {
  std::normal_distribution<double> normal(0.0, 1.0);
  VectorXd v(n);
  for (int i = 0; i < n; ++i) v[i] = normal(engine);
  return v;
}

// The header's promise: the operations are Eigen's in Eigen's order, so the solutions are
// Eigen's bit for bit, for a first matrix and for new values on the same pattern.
TEST(PreorderedLdltTest, SolutionsAreEigensBitForBit) {
  std::mt19937 engine(3);
  for (const int n : {1, 7, 60}) {
    Matrix lower = RandomLower(engine, n, 0.5);
    PreorderedLdlt ours;
    ours.Analyze(lower);
    for (int refill = 0; refill < 3; ++refill) {
      for (Eigen::Index k = 0; k < lower.nonZeros(); ++k) lower.valuePtr()[k] *= 1.0 + 0.1 * refill;
      ASSERT_TRUE(ours.Factorize(lower));
      Eigen::SimplicialLDLT<Matrix, Eigen::Lower> eigen(lower);
      ASSERT_EQ(eigen.info(), Eigen::Success);
      const VectorXd b = RandomVector(engine, n);
      VectorXd x;
      ours.SolveInto(b, &x);
      const VectorXd expected = eigen.solve(b);
      for (int i = 0; i < n; ++i) EXPECT_EQ(x[i], expected[i]) << "n " << n << " entry " << i;
    }
  }
}

// Analyze keeps its analysis for a matrix with the analysed entries (new values) and redoes it
// for any other pattern, here one with as many entries, one of them moved: the solutions stay
// Eigen's bit for bit (a kept analysis on the moved pattern would factorise another matrix).
TEST(PreorderedLdltTest, KeepsTheAnalysisOnlyForTheSamePattern) {
  std::mt19937 engine(5);
  const int n = 40;
  const Matrix first = RandomLower(engine, n, 0.5);
  Matrix new_values = first;
  for (Eigen::Index k = 0; k < new_values.nonZeros(); ++k) new_values.valuePtr()[k] *= 1.25;
  // The moved entry: the first off-diagonal entry (i, j) goes to a free (i', j) of its column.
  std::vector<Eigen::Triplet<double>> entries;
  bool moved = false;
  for (int j = 0; j < n; ++j) {
    for (Matrix::InnerIterator it(first, j); it; ++it) {
      int row = static_cast<int>(it.row());
      if (!moved && row != j) {
        for (int free_row = n - 1; free_row > j; --free_row) {
          if (first.coeff(free_row, j) == 0.0) {
            row = free_row;
            moved = true;
            break;
          }
        }
      }
      entries.emplace_back(row, j, it.value());
    }
  }
  ASSERT_TRUE(moved);
  Matrix other(n, n);
  other.setFromTriplets(entries.begin(), entries.end());
  other.makeCompressed();
  ASSERT_EQ(other.nonZeros(), first.nonZeros());
  for (int j = 0; j < n; ++j) other.coeffRef(j, j) += 100.0;  // diagonally dominant: definite

  PreorderedLdlt ldlt;
  ldlt.Analyze(first);
  EXPECT_TRUE(ldlt.IsAnalyzedPattern(new_values));
  EXPECT_FALSE(ldlt.IsAnalyzedPattern(other));
  for (const Matrix* lower : std::initializer_list<const Matrix*>{&new_values, &other, &first}) {
    ldlt.Analyze(*lower);
    EXPECT_TRUE(ldlt.IsAnalyzedPattern(*lower));
    ASSERT_TRUE(ldlt.Factorize(*lower));
    const Eigen::SimplicialLDLT<Matrix, Eigen::Lower> eigen(*lower);
    ASSERT_EQ(eigen.info(), Eigen::Success);
    const VectorXd b = RandomVector(engine, n);
    VectorXd x;
    ldlt.SolveInto(b, &x);
    const VectorXd expected = eigen.solve(b);
    for (int i = 0; i < n; ++i) EXPECT_EQ(x[i], expected[i]) << "entry " << i;
  }
}

TEST(PreorderedLdltTest, RejectsAnIndefiniteMatrixAndRecovers) {
  std::mt19937 engine(4);
  Matrix lower = RandomLower(engine, 30, 0.5);
  PreorderedLdlt ldlt;
  ldlt.Analyze(lower);
  Matrix indefinite = lower;
  indefinite.coeffRef(17, 17) = -100.0;
  EXPECT_FALSE(ldlt.Factorize(indefinite));
  // A failed factorisation leaves no trace in the next one.
  ASSERT_TRUE(ldlt.Factorize(lower));
  const VectorXd b = RandomVector(engine, 30);
  VectorXd x;
  ldlt.SolveInto(b, &x);
  const Matrix full = Matrix(lower.selfadjointView<Eigen::Lower>());
  EXPECT_LE((full * x - b).lpNorm<Eigen::Infinity>(),
            1e3 * std::numeric_limits<double>::epsilon() * b.lpNorm<Eigen::Infinity>());
}

// [K Aᵀ; A −E]: no pivot replaced, and the solution solves the system to rounding.
TEST(PreorderedLdltTest, FactorsAQuasiDefiniteMatrix) {
  std::mt19937 engine(6);
  const int n = 20, p = 5;
  const Matrix K = RandomLower(engine, n, 1.0);
  std::vector<Eigen::Triplet<double>> entries;
  for (int k = 0; k < K.outerSize(); ++k)
    for (Matrix::InnerIterator it(K, k); it; ++it)
      entries.emplace_back(it.row(), it.col(), it.value());
  std::uniform_real_distribution<double> value(-1.0, 1.0);
  for (int i = 0; i < p; ++i) {
    for (int j = 3 * i; j < 3 * i + 4; ++j) entries.emplace_back(n + i, j, value(engine));
    entries.emplace_back(n + i, n + i, -0.5);
  }
  Matrix lower(n + p, n + p);
  lower.setFromTriplets(entries.begin(), entries.end());
  lower.makeCompressed();
  PreorderedLdlt ldlt;
  ldlt.Analyze(lower);
  EXPECT_EQ(ldlt.FactorizeQuasiDefinite(lower, n, 1e-13, 2e-7), 0);
  const VectorXd b = RandomVector(engine, n + p);
  VectorXd x;
  ldlt.SolveInto(b, &x);
  const Matrix full = Matrix(lower.selfadjointView<Eigen::Lower>());
  EXPECT_LE((full * x - b).lpNorm<Eigen::Infinity>(),
            1e3 * std::numeric_limits<double>::epsilon() * b.lpNorm<Eigen::Infinity>());
}

}  // namespace
}  // namespace quasidyn
