#include "quasidyn/gradients/positive_definite_factor.h"

#include <gtest/gtest.h>

#include <Eigen/Cholesky>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <vector>

#include "quasidyn/solvers/sparse_row_matrix.h"

namespace quasidyn {
namespace {

constexpr double kEpsilon = std::numeric_limits<double>::epsilon();

enum class Structure { kBlockDiagonal, kDense, kDiagonal };

// A random symmetric positive-definite matrix: block diagonal (blocks of 1, 3 and 6, as the
// step's P), dense, or diagonal. Condition number below ≈ 1e3.
Eigen::MatrixXd RandomPositiveDefinite(int n, Structure structure, unsigned seed) {
  std::srand(seed);
  Eigen::MatrixXd P = Eigen::MatrixXd::Zero(n, n);
  const int sizes[] = {1, 3, 6};
  for (int start = 0, b = 0; start < n; ++b) {
    const int size = structure == Structure::kBlockDiagonal ? std::min(sizes[b % 3], n - start)
                     : structure == Structure::kDense       ? n
                                                            : 1;
    const Eigen::MatrixXd A = Eigen::MatrixXd::Random(size, size);
    P.block(start, start, size, size) =
        A * A.transpose() + 0.1 * Eigen::MatrixXd::Identity(size, size);
    start += size;
  }
  return P;
}

class PositiveDefiniteFactorTest : public ::testing::TestWithParam<Structure> {};

// C⁻¹ C⁻ᵀ B = P⁻¹ B against a dense Cholesky solve, and |C⁻ᵀ b|² = bᵀ P⁻¹ b.
TEST_P(PositiveDefiniteFactorTest, ReproducesTheInverseOfP) {
  const Eigen::MatrixXd P = RandomPositiveDefinite(20, GetParam(), 7);
  const Eigen::MatrixXd B = Eigen::MatrixXd::Random(20, 5);
  PositiveDefiniteFactor factor;
  ASSERT_TRUE(factor.Factor(P));
  EXPECT_EQ(factor.size(), 20);
  const Eigen::MatrixXd expected = Eigen::LLT<Eigen::MatrixXd>(P).solve(B);
  const Eigen::MatrixXd W = factor.SolveTranspose(B);
  const Eigen::MatrixXd solved = factor.Solve(W);
  // Backward-stable solves: error ≲ n·ε·cond(P)·|P⁻¹B|, cond(P) ≲ 1e3 here.
  const double tolerance = 20 * 1e3 * kEpsilon * expected.cwiseAbs().maxCoeff();
  EXPECT_LE((solved - expected).cwiseAbs().maxCoeff(), tolerance);
  Eigen::MatrixXd G = B.transpose();
  G.block(0, 0, 2, 10).setZero();  // rows touching only some blocks
  const Eigen::VectorXd forms = factor.InverseQuadraticForms(G);
  const Eigen::MatrixXd P_inv_Gt = Eigen::LLT<Eigen::MatrixXd>(P).solve(G.transpose());
  for (int j = 0; j < B.cols(); ++j) {
    EXPECT_NEAR(W.col(j).squaredNorm(), B.col(j).dot(expected.col(j)),
                tolerance * B.col(j).cwiseAbs().sum());
    EXPECT_NEAR(forms[j], G.row(j).dot(P_inv_Gt.col(j)), tolerance * G.row(j).cwiseAbs().sum());
  }
}

INSTANTIATE_TEST_SUITE_P(BlockDiagonalDenseAndDiagonal, PositiveDefiniteFactorTest,
                         ::testing::Values(Structure::kBlockDiagonal, Structure::kDense,
                                           Structure::kDiagonal));

// The blocks are the finest contiguous partition that P couples only within: for the
// block-diagonal matrix {0}, {1…3}, {4…9}, {10}, {11…13}, {14…19}; one for a dense matrix
// and one run for a diagonal one;
// and an entry P(12, 2) = P(2, 12) merges {1…3} through {11…13}: {0}, {1…13}, {14…19}.
TEST(PositiveDefiniteFactor, FindsTheDiagonalBlocks) {
  PositiveDefiniteFactor factor;
  Eigen::MatrixXd P = RandomPositiveDefinite(20, Structure::kBlockDiagonal, 7);
  ASSERT_TRUE(factor.Factor(P));
  EXPECT_EQ(factor.block_count(), 6);
  ASSERT_TRUE(factor.Factor(RandomPositiveDefinite(20, Structure::kDense, 7)));
  EXPECT_EQ(factor.block_count(), 1);
  ASSERT_TRUE(factor.Factor(RandomPositiveDefinite(20, Structure::kDiagonal, 7)));
  EXPECT_EQ(factor.block_count(), 1);  // one run of 20 blocks of 1 × 1
  P(12, 2) = P(2, 12) = 1e-3;          // small: P stays positive definite
  ASSERT_TRUE(factor.Factor(P));
  EXPECT_EQ(factor.block_count(), 3);
  const Eigen::MatrixXd B = Eigen::MatrixXd::Random(20, 3);
  const Eigen::MatrixXd expected = Eigen::LLT<Eigen::MatrixXd>(P).solve(B);
  EXPECT_LE((factor.Solve(factor.SolveTranspose(B)) - expected).cwiseAbs().maxCoeff(),
            20 * 1e3 * kEpsilon * expected.cwiseAbs().maxCoeff());
}

// One coupling P(i, j) = P(j, i) in a diagonal matrix, at every place below the diagonal (the
// column scan reads four entries per test from the bottom: every offset from the bottom and
// from the diagonal): the blocks are the run before j, the dense block j … i, and the run after i.
TEST(PositiveDefiniteFactor, FindsACouplingAtEveryPlaceOfItsColumn) {
  constexpr int n = 13;
  PositiveDefiniteFactor factor;
  for (int j = 0; j < n; ++j)
    for (int i = j + 1; i < n; ++i) {
      Eigen::MatrixXd P = RandomPositiveDefinite(n, Structure::kDiagonal, 3);
      P(i, j) = P(j, i) = 1e-3;  // small: P stays positive definite
      ASSERT_TRUE(factor.Factor(P)) << i << ", " << j;
      EXPECT_EQ(factor.block_count(), (j > 0 ? 1 : 0) + 1 + (i < n - 1 ? 1 : 0))
          << "P(" << i << ", " << j << ")";
    }
}

// P = blockdiag(dense 3 × 3, a run of four 1 × 1 blocks, dense 2 × 2): a row's whitened entries
// in the run are its own non-zeros only (scaled by 1/√P_ii), in a dense block the block's whole
// segment; both overloads give the same rows, and |w_j|² = g_j P⁻¹ g_jᵀ.
TEST(PositiveDefiniteFactor, WhitenedRowsKeepOnlyTheirOwnEntriesInADiagonalRun) {
  Eigen::MatrixXd P = Eigen::MatrixXd::Zero(9, 9);
  P.topLeftCorner(3, 3) << 4.0, 1.0, 0.5, 1.0, 3.0, 0.2, 0.5, 0.2, 2.0;
  P.diagonal().segment(3, 4) << 2.0, 5.0, 0.5, 9.0;
  P.bottomRightCorner(2, 2) << 3.0, -1.0, -1.0, 2.0;
  Eigen::MatrixXd G = Eigen::MatrixXd::Zero(3, 9);
  G(0, 1) = 1.5;   // the first dense block: its 3 entries
  G(0, 4) = -2.0;  // the run: this entry alone
  G(1, 3) = 0.7;
  G(1, 6) = 1.1;  // the run: two entries, none between
  G(2, 8) = -0.3;
  G(2, 5) = 0.0;  // a zero in the run: no entry
  PositiveDefiniteFactor factor;
  ASSERT_TRUE(factor.Factor(P));
  PositiveDefiniteFactor::SparseRows sparse, dense;
  factor.WhitenRows(SparseRowMatrix::FromDense(G), &sparse);
  factor.WhitenRows(G, &dense);
  EXPECT_EQ(sparse.start, (std::vector<int>{0, 4, 6, 8}));
  EXPECT_EQ(sparse.index, (std::vector<int>{0, 1, 2, 4, 3, 6, 7, 8}));
  EXPECT_EQ(dense.start, sparse.start);
  EXPECT_EQ(dense.index, sparse.index);
  EXPECT_EQ(dense.value, sparse.value);
  EXPECT_EQ(sparse.value[3], -2.0 * (1.0 / std::sqrt(5.0)));  // g · (1/L_ii), L_ii = √P_ii
  const Eigen::MatrixXd expected = G * P.llt().solve(G.transpose());
  for (int j = 0; j < 3; ++j)
    EXPECT_NEAR(sparse.SquaredNorm(j), expected(j, j), 64 * kEpsilon * expected(j, j)) << j;
}

TEST(PositiveDefiniteFactor, RejectsSemidefiniteAndIndefiniteMatrices) {
  PositiveDefiniteFactor factor;
  Eigen::MatrixXd P = RandomPositiveDefinite(10, Structure::kBlockDiagonal, 3);
  P.row(4).setZero();  // a zero row and column: a zero pivot (object_mass_scale = 0)
  P.col(4).setZero();
  EXPECT_FALSE(factor.Factor(P));
  EXPECT_EQ(factor.size(), 0);
  EXPECT_THROW(factor.Solve(Eigen::MatrixXd::Zero(10, 1)), std::invalid_argument);
  P(4, 4) = -1.0;
  EXPECT_FALSE(factor.Factor(P));
  P(4, 4) = std::numeric_limits<double>::quiet_NaN();
  EXPECT_FALSE(factor.Factor(P));
  EXPECT_FALSE(factor.Factor(Eigen::MatrixXd(0, 0)));
}

TEST(PositiveDefiniteFactor, NamesWrongSizes) {
  PositiveDefiniteFactor factor;
  EXPECT_THROW(factor.Factor(Eigen::MatrixXd::Identity(3, 4)), std::invalid_argument);
  ASSERT_TRUE(factor.Factor(Eigen::MatrixXd::Identity(3, 3)));
  EXPECT_THROW(factor.SolveTranspose(Eigen::MatrixXd::Zero(4, 1)), std::invalid_argument);
}

}  // namespace
}  // namespace quasidyn
