#include "quasidyn/solvers/schur_lu.h"

#include <gtest/gtest.h>

#include <Eigen/LU>
#include <limits>
#include <stdexcept>
#include <vector>

#include "quasidyn/testing/solver_problems.h"

namespace quasidyn {
namespace {

using Eigen::MatrixXd;
using Eigen::VectorXd;

constexpr double kNoUnitRows = std::numeric_limits<double>::infinity();
constexpr double kSchurLuEpsilon = std::numeric_limits<double>::epsilon();

// M(keep, keep) as a dense matrix, and b(keep).
MatrixXd Sub(const MatrixXd& M, const std::vector<int>& keep) {
  const int r = static_cast<int>(keep.size());
  MatrixXd S(r, r);
  for (int j = 0; j < r; ++j)
    for (int i = 0; i < r; ++i) S(i, j) = M(keep[i], keep[j]);
  return S;
}

// ‖S x − b‖∞ within a backward error of a few hundred n ε of ‖S‖∞ ‖x‖∞ + ‖b‖∞.
void ExpectSolves(const MatrixXd& S, const VectorXd& x, const VectorXd& b) {
  const double scale = S.cwiseAbs().rowwise().sum().maxCoeff() * x.lpNorm<Eigen::Infinity>() +
                       b.lpNorm<Eigen::Infinity>();
  EXPECT_LE((S * x - b).lpNorm<Eigen::Infinity>(), 100.0 * S.rows() * kSchurLuEpsilon * scale);
  // and the same x as Eigen's LU with partial pivoting, to the condition number's effect
  const VectorXd reference = S.partialPivLu().solve(b);
  EXPECT_LE((x - reference).lpNorm<Eigen::Infinity>(),
            1e-10 * (1.0 + reference.lpNorm<Eigen::Infinity>()));
}

TEST(SchurLu, EliminatesTheLeadingBlockAndSolvesTheKeptSubmatrix) {
  testing::RandomProblems random(11);
  const int n = 14, k = 5;
  MatrixXd M = random.Gaussian(n, n) + 4.0 * MatrixXd::Identity(n, n);
  M.block(0, k + 2, k, 3).setZero();  // zero columns of B: skipped
  SchurLu lu;
  lu.Resize(n, k);
  for (const std::vector<int>& keep :
       {std::vector<int>{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13},
        std::vector<int>{0, 1, 2, 3, 4, 6, 7, 9, 12, 13}, std::vector<int>{0, 1, 2, 3, 4}}) {
    ASSERT_TRUE(lu.Factor(M, nullptr, nullptr, keep, 1e-14, kNoUnitRows, 0.0));
    EXPECT_FALSE(lu.full_pivoting());
    const MatrixXd S = Sub(M, keep);
    VectorXd b = random.GaussianVector(static_cast<int>(keep.size()));
    VectorXd x(b.size());
    lu.Solve(b.data(), x.data());
    ExpectSolves(S, x, b);
    lu.Solve(b.data(), b.data());  // in place
    EXPECT_EQ(x, b);
  }
}

TEST(SchurLu, FactorsTheRowScaledMatrixWithItsDiagonalAdded) {
  testing::RandomProblems random(14);
  const int n = 10, k = 3;
  const MatrixXd G = random.Gaussian(n, n) + 3.0 * MatrixXd::Identity(n, n);
  const VectorXd scale = random.UniformVector(n, 0.0, 2.0),
                 diagonal = random.UniformVector(n, 0.0, 1.0);
  const MatrixXd M = scale.asDiagonal() * G + MatrixXd(diagonal.asDiagonal());
  const std::vector<int> keep{0, 1, 2, 4, 5, 7, 9};
  SchurLu lu;
  lu.Resize(n, k);
  ASSERT_TRUE(lu.Factor(G, scale.data(), diagonal.data(), keep, 1e-14, kNoUnitRows, 0.0));
  const VectorXd b = random.GaussianVector(static_cast<int>(keep.size()));
  VectorXd x(b.size());
  lu.Solve(b.data(), x.data());
  ExpectSolves(Sub(M, keep), x, b);
}

TEST(SchurLu, InvertsABodyBlockWithUnitLinearRowsThroughItsAngularBlock) {
  // Two bodies whose blocks are [[I, 0], [X, Y]] (the ECP step's linear momentum rows): the
  // block inverse through Y; the solution that of the kept submatrix, and a singular Y rejected.
  testing::RandomProblems random(16);
  constexpr int kB = SchurLu::kBodyBlock, kH = kB / 2;
  const int k = 2 * kB, n = k + 8;
  MatrixXd M = random.Gaussian(n, n) + 4.0 * MatrixXd::Identity(n, n);
  M.block(0, kB, kB, kB).setZero();
  M.block(kB, 0, kB, kB).setZero();
  VectorXd scale = random.UniformVector(n, 0.5, 2.0), diagonal = random.UniformVector(n, 0.0, 1.0);
  for (int b = 0; b < k; b += kB) {
    M.block(b, b, kH, kB).setZero();
    M.block(b, b, kH, kH).setIdentity();
    M(b + kH, b + kH) = 0.0;  // Y needs a row interchange
    scale.segment(b, kH).setOnes();
    diagonal.segment(b, kH + 1).setZero();
  }
  const MatrixXd H = scale.asDiagonal() * M + MatrixXd(diagonal.asDiagonal());
  SchurLu lu;
  lu.Resize(n, k);
  std::vector<int> keep;
  for (int i = 0; i < n; ++i) {
    if (i != k + 2) keep.push_back(i);
  }
  ASSERT_TRUE(lu.Factor(M, scale.data(), diagonal.data(), keep, 1e-14, kNoUnitRows, 0.0));
  EXPECT_TRUE(lu.block_inverse());
  EXPECT_FALSE(lu.full_pivoting());
  const VectorXd b = random.GaussianVector(static_cast<int>(keep.size()));
  VectorXd x(b.size());
  lu.Solve(b.data(), x.data());
  ExpectSolves(Sub(H, keep), x, b);
  // Y singular (its rows in the span of one): the block is singular and refused; the whole
  // submatrix is singular too, so Factor fails.
  for (int j = 0; j < kB; ++j) {
    M(kB + kH + 1, kB + j) = 2.0 * M(kB + kH, kB + j);
    M(kB + kH + 2, kB + j) = -M(kB + kH, kB + j);
  }
  M.block(kB + kH + 1, k, 2, n - k).setZero();
  diagonal.segment(kB + kH, kH).setZero();
  EXPECT_FALSE(lu.Factor(M, scale.data(), diagonal.data(), keep, 1e-14, kNoUnitRows, 0.0));
}

TEST(SchurLu, InvertsABlockDiagonalLeadingBlockBodyByBody) {
  testing::RandomProblems random(15);
  constexpr int kB = SchurLu::kBodyBlock;
  const int k = 2 * kB, n = k + 9;
  MatrixXd M = random.Gaussian(n, n) + 4.0 * MatrixXd::Identity(n, n);
  M.block(0, kB, kB, kB).setZero();  // two bodies: A block diagonal
  M.block(kB, 0, kB, kB).setZero();
  M(0, 0) = 0.0;                        // the first block needs a row interchange
  M.block(kB, k + 3, kB, 2).setZero();  // columns of B zero on one body only
  const VectorXd scale = random.UniformVector(n, 0.5, 2.0),
                 diagonal = random.UniformVector(n, 0.0, 1.0);
  const MatrixXd H = scale.asDiagonal() * M + MatrixXd(diagonal.asDiagonal());
  SchurLu lu;
  lu.Resize(n, k);
  std::vector<int> keep;
  for (int i = 0; i < n; ++i) {
    if (i != k + 1 && i != n - 2) keep.push_back(i);
  }
  ASSERT_TRUE(lu.Factor(M, scale.data(), diagonal.data(), keep, 1e-14, kNoUnitRows, 0.0));
  EXPECT_TRUE(lu.block_inverse());
  EXPECT_FALSE(lu.full_pivoting());
  VectorXd b = random.GaussianVector(static_cast<int>(keep.size()));
  b.segment(kB, kB).setZero();  // a body's part of the right side zero
  VectorXd x(b.size());
  lu.Solve(b.data(), x.data());
  ExpectSolves(Sub(H, keep), x, b);
  // A coupling entry between the bodies: the general elimination of A, the same solution.
  M(1, kB + 2) = 0.5;
  const MatrixXd coupled = scale.asDiagonal() * M + MatrixXd(diagonal.asDiagonal());
  ASSERT_TRUE(lu.Factor(M, scale.data(), diagonal.data(), keep, 1e-14, kNoUnitRows, 0.0));
  EXPECT_FALSE(lu.block_inverse());
  lu.Solve(b.data(), x.data());
  ExpectSolves(Sub(coupled, keep), x, b);
  // A singular body block: rejected by the pivot test, then the whole submatrix is pivoted.
  M(1, kB + 2) = 0.0;
  M.block(kB, kB, kB, kB).setZero();
  M.block(kB, kB, kB, kB).diagonal().setConstant(1.0);
  M.block(kB, kB, kB, kB).col(3) = M.block(kB, kB, kB, kB).col(1);
  VectorXd zero_diagonal = diagonal;
  zero_diagonal.setZero();
  ASSERT_TRUE(lu.Factor(M, scale.data(), zero_diagonal.data(), keep, 1e-14, kNoUnitRows, 0.0));
  EXPECT_TRUE(lu.block_inverse());
  EXPECT_TRUE(lu.full_pivoting());
  lu.Solve(b.data(), x.data());
  ExpectSolves(Sub(scale.asDiagonal() * M, keep), x, b);
}

TEST(SchurLu, PadsTheSchurComplementUpToItsLimitAndSolvesTheSameBeyondIt) {
  testing::RandomProblems random(16);
  constexpr int kB = SchurLu::kBodyBlock;
  for (const int m : {1, kPaddedRows - 2, kPaddedRows, kPaddedRows + 1}) {
    const int k = kB, n = k + m + 2;
    MatrixXd M = random.Gaussian(n, n) + 4.0 * MatrixXd::Identity(n, n);
    M.block(0, k + 1, k, 1).setZero();  // a column of B zero
    const VectorXd scale = random.UniformVector(n, 0.5, 2.0),
                   diagonal = random.UniformVector(n, 0.0, 1.0);
    const MatrixXd H = scale.asDiagonal() * M + MatrixXd(diagonal.asDiagonal());
    std::vector<int> keep;
    for (int i = 0; i < n; ++i) {
      if (i != k && i != n - 1) keep.push_back(i);  // two rows taken out: m contact unknowns
    }
    SchurLu lu;
    lu.Resize(n, k);
    ASSERT_TRUE(lu.Factor(M, scale.data(), diagonal.data(), keep, 1e-14, kNoUnitRows, 0.0));
    EXPECT_EQ(lu.padded(), m <= kPaddedRows) << "m = " << m;
    EXPECT_FALSE(lu.full_pivoting());
    const VectorXd b = random.GaussianVector(static_cast<int>(keep.size()));
    VectorXd x(b.size());
    lu.Solve(b.data(), x.data());
    ExpectSolves(Sub(H, keep), x, b);
    // Without row scales and diagonal (the min-Newton system's form).
    ASSERT_TRUE(lu.Factor(M, nullptr, nullptr, keep, 1e-14, kNoUnitRows, 0.0));
    lu.Solve(b.data(), x.data());
    ExpectSolves(Sub(M, keep), x, b);
  }
}

TEST(SchurLu, KeepsItsLastRowOrderAcrossFactorisationsAndSolvesWhenThePivotsMove) {
  // The padded path starts each factorisation of the same kept unknowns from the row order the
  // last one ended with: new values (other pivot rows), a diagonal on permuted rows, and another
  // kept set in between (the order starts afresh) must all still solve.
  testing::RandomProblems random(17);
  constexpr int kB = SchurLu::kBodyBlock;
  const int k = kB, m = kPaddedRows - 2, n = k + m + 2;
  std::vector<int> keep_a, keep_b;
  for (int i = 0; i < n; ++i) {
    if (i != k + 1 && i != n - 1) keep_a.push_back(i);
    if (i != k + 3 && i != k + 4) keep_b.push_back(i);
  }
  SchurLu lu;
  lu.Resize(n, k);
  for (int round = 0; round < 6; ++round) {
    const std::vector<int>& keep = round == 3 ? keep_b : keep_a;
    MatrixXd M = random.Gaussian(n, n) + 2.0 * MatrixXd::Identity(n, n);
    M.block(0, 0, k, n).setZero();  // a block-diagonal leading block (the padded path's)
    M.block(0, 0, k, k) = random.Gaussian(k, k) + 4.0 * MatrixXd::Identity(k, k);
    M.block(0, k, k, m) = random.Gaussian(k, m);
    const VectorXd scale = random.UniformVector(n, 0.5, 2.0),
                   diagonal = random.UniformVector(n, 0.0, 1.0);
    ASSERT_TRUE(lu.Factor(M, scale.data(), diagonal.data(), keep, 1e-14, kNoUnitRows, 0.0));
    ASSERT_TRUE(lu.padded()) << "round " << round;
    const VectorXd b = random.GaussianVector(static_cast<int>(keep.size()));
    VectorXd x(b.size());
    lu.Solve(b.data(), x.data());
    ExpectSolves(Sub(scale.asDiagonal() * M + MatrixXd(diagonal.asDiagonal()), keep), x, b);
  }
}

TEST(SchurLu, FactorSolveGivesFactorThenSolveBitForBit) {
  // On the padded path (S eliminated with the right side as its column m), beyond it (m =
  // kPaddedRows: no column left; and above), and where the padded pivots fail and the whole
  // matrix is pivoted instead (b must then reach that solve unchanged).
  testing::RandomProblems random(18);
  constexpr int kB = SchurLu::kBodyBlock;
  for (const int m : {1, kPaddedRows - 2, kPaddedRows, kPaddedRows + 1, -1}) {
    const bool singular_s = m < 0;
    const int k = kB, mm = singular_s ? 4 : m, n = k + mm + 2;
    MatrixXd M = random.Gaussian(n, n) + 4.0 * MatrixXd::Identity(n, n);
    M.block(0, 0, k, n).setZero();  // a block-diagonal leading block (the padded path's)
    M.block(0, 0, k, k) = random.Gaussian(k, k) + 4.0 * MatrixXd::Identity(k, k);
    M.block(0, k, k, mm + 2) = random.Gaussian(k, mm + 2);
    if (singular_s) {  // A = εI, D = 0: S = −C B/ε fails the pivot ratio against A's ε (the
                       // padded path is left after S's factorisation), the whole matrix does not
      M.block(0, 0, k, k) = 1e-10 * MatrixXd::Identity(k, k);
      M.block(k, k, mm + 2, mm + 2).setZero();
    }
    const VectorXd scale = random.UniformVector(n, 0.5, 2.0);
    std::vector<int> keep;
    for (int i = 0; i < n; ++i) {
      if (i != k && i != n - 1) keep.push_back(i);
    }
    SchurLu one, two;
    one.Resize(n, k);
    two.Resize(n, k);
    const VectorXd b = random.GaussianVector(static_cast<int>(keep.size()));
    VectorXd x(b.size()), y = b;
    ASSERT_TRUE(one.Factor(M, scale.data(), nullptr, keep, 1e-14, kNoUnitRows, 0.0));
    one.Solve(b.data(), x.data());
    ASSERT_TRUE(two.FactorSolve(M, scale.data(), nullptr, keep, 1e-14, kNoUnitRows, 0.0, y.data(),
                                y.data()));  // in place
    EXPECT_EQ(two.padded(), !singular_s && mm <= kPaddedRows) << "m = " << m;
    EXPECT_EQ(two.full_pivoting(), singular_s) << "m = " << m;
    EXPECT_EQ(x, y) << "m = " << m;
    if (!singular_s) ExpectSolves(Sub(scale.asDiagonal() * M, keep), y, b);
    // The factor stays usable for further right sides.
    const VectorXd c = random.GaussianVector(static_cast<int>(keep.size()));
    VectorXd u(c.size()), v(c.size());
    one.Solve(c.data(), u.data());
    two.Solve(c.data(), v.data());
    EXPECT_EQ(u, v) << "m = " << m;
  }
}

TEST(SchurLu, FallsBackToPivotingOverTheWholeMatrixWhenTheLeadingBlockIsSingular) {
  testing::RandomProblems random(12);
  const int n = 8, k = 3;
  MatrixXd M = random.Gaussian(n, n) + 3.0 * MatrixXd::Identity(n, n);
  M.topLeftCorner(k, k).setZero();  // A = 0, M itself invertible
  ASSERT_GT(std::abs(M.partialPivLu().determinant()), 1e-6);
  SchurLu lu;
  lu.Resize(n, k);
  std::vector<int> keep(n);
  for (int i = 0; i < n; ++i) keep[i] = i;
  ASSERT_TRUE(lu.Factor(M, nullptr, nullptr, keep, 1e-14, kNoUnitRows, 0.0));
  EXPECT_TRUE(lu.full_pivoting());
  const VectorXd b = random.GaussianVector(n);
  VectorXd x(n);
  lu.Solve(b.data(), x.data());
  ExpectSolves(M, x, b);
}

TEST(SchurLu, RejectsASingularMatrixAndTheCallersSmallPivots) {
  testing::RandomProblems random(13);
  const int n = 6;
  MatrixXd M = random.Gaussian(n, n);
  M.col(4) = M.col(1);
  SchurLu lu;
  lu.Resize(n, 2);
  const std::vector<int> all{0, 1, 2, 3, 4, 5};
  EXPECT_FALSE(lu.Factor(M, nullptr, nullptr, all, 1e-14, kNoUnitRows, 0.0));
  M.col(4) = random.GaussianVector(n);
  EXPECT_TRUE(lu.Factor(M, nullptr, nullptr, all, 1e-14, kNoUnitRows, 0.0));
  // A unit row of the caller with a pivot far below the others fails the same test.
  EXPECT_FALSE(lu.Factor(M, nullptr, nullptr, all, 1e-14, 1e-300, 1.0));
  EXPECT_THROW(lu.Resize(3, 4), std::invalid_argument);
  EXPECT_THROW(lu.Factor(MatrixXd::Identity(5, 5), nullptr, nullptr, all, 1e-14, kNoUnitRows, 0.0),
               std::invalid_argument);
}

}  // namespace
}  // namespace quasidyn
