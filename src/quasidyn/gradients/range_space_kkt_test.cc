#include "quasidyn/gradients/range_space_kkt.h"

#include <gtest/gtest.h>

#include <Eigen/LU>
#include <Eigen/QR>
#include <cstdlib>
#include <limits>
#include <stdexcept>
#include <vector>

namespace quasidyn {
namespace {

constexpr double kRangeSpaceKktEpsilon = std::numeric_limits<double>::epsilon();

// A random symmetric positive-definite H (n × n) with diagonal blocks of 6 (as the step's
// P for boxes) and a coupling between blocks 0 and 2 (as a sliding cone's curvature adds);
// condition number below ≈ 1e3.
Eigen::MatrixXd RandomCost(int n, unsigned seed) {
  std::srand(seed);
  Eigen::MatrixXd H = Eigen::MatrixXd::Zero(n, n);
  for (int start = 0; start < n; start += 6) {
    const int size = std::min(6, n - start);
    const Eigen::MatrixXd A = Eigen::MatrixXd::Random(size, size);
    H.block(start, start, size, size) = A * A.transpose() + Eigen::MatrixXd::Identity(size, size);
  }
  Eigen::VectorXd a = Eigen::VectorXd::Zero(n);
  a.segment(0, 3).setRandom();
  a.segment(12, 3).setRandom();
  H += a * a.transpose();
  return H;
}

// Rows touching one or two blocks of 6 velocities, as contact rows do; the last ones repeat
// combinations of the first (rank deficient, as four resting corners on six velocities).
Eigen::MatrixXd RandomRows(int rows, int n, unsigned seed) {
  std::srand(seed);
  Eigen::MatrixXd G = Eigen::MatrixXd::Zero(rows, n);
  for (int j = 0; j < rows - 3; ++j) {
    const int body = (j * 7) % (n / 6);
    G.block(j, 6 * body, 1, 6).setRandom();
    if (j % 3 == 0 && body + 1 < n / 6) G.block(j, 6 * (body + 1), 1, 6).setRandom();
  }
  for (int j = rows - 3; j < rows; ++j) G.row(j) = G.row(j - 3) + 0.5 * G.row(j - 2);
  return G;
}

// The whole KKT matrix [H, Eᵀ; E, 0] solved by a complete orthogonal decomposition: the
// independent reference (minimum-norm; dv is unique for a consistent r₂).
Eigen::MatrixXd WholeSystemSolve(const Eigen::MatrixXd& H, const Eigen::MatrixXd& E,
                                 const Eigen::MatrixXd& r1, const Eigen::MatrixXd& r2) {
  const int n = static_cast<int>(H.rows()), m = static_cast<int>(E.rows());
  Eigen::MatrixXd K = Eigen::MatrixXd::Zero(n + m, n + m);
  K.topLeftCorner(n, n) = H;
  K.topRightCorner(n, m) = E.transpose();
  K.bottomLeftCorner(m, n) = E;
  Eigen::MatrixXd rhs = Eigen::MatrixXd::Zero(n + m, r1.cols());
  rhs.topRows(n) = r1;
  rhs.bottomLeftCorner(m, r2.cols()) = r2;
  return Eigen::CompleteOrthogonalDecomposition<Eigen::MatrixXd>(K).solve(rhs).topRows(n);
}

// dv against the whole-system solve for a consistent r₂ (r₂ = E z), with some right-hand
// sides that have r₂ = 0 (the commands' columns), within 1e4 ε relative (both backward stable
// on a system of condition ≈ 1e3 or below); rank(E) and the blocks as built.
TEST(RangeSpaceKkt, MatchesTheWholeSystemOnARankDeficientConsistentProblem) {
  const int n = 24, rows = 14, with_r2 = 5, columns = 8;
  const Eigen::MatrixXd H = RandomCost(n, 3);
  const Eigen::MatrixXd G = RandomRows(rows + 2, n, 5);  // two rows of G stay inactive
  std::vector<int> active;
  for (int j = 0; j < rows + 2; ++j)
    if (j != 1 && j != 4) active.push_back(j);
  Eigen::MatrixXd E(active.size(), n);
  for (size_t r = 0; r < active.size(); ++r) E.row(r) = G.row(active[r]);
  const Eigen::MatrixXd r1 = Eigen::MatrixXd::Random(n, columns);
  const Eigen::MatrixXd r2 = E * Eigen::MatrixXd::Random(n, with_r2);  // consistent

  RangeSpaceKkt kkt;
  ASSERT_TRUE(kkt.FactorCost(H));
  PositiveDefiniteFactor::SparseRows whitened;
  kkt.cost_factor().WhitenRows(G, &whitened);
  kkt.FactorRows(whitened, active);
  RangeSpaceKkt::Workspace w;
  kkt.Solve(r1, r2.transpose(), with_r2, &w);

  Eigen::MatrixXd r2_all = Eigen::MatrixXd::Zero(E.rows(), columns);
  r2_all.leftCols(with_r2) = r2;
  const Eigen::MatrixXd reference = WholeSystemSolve(H, E, r1, r2_all);
  EXPECT_LT((w.x - reference).norm(), 1e4 * kRangeSpaceKktEpsilon * reference.norm());
  EXPECT_EQ(kkt.rank(), Eigen::FullPivLU<Eigen::MatrixXd>(E).rank());
  EXPECT_LT(kkt.rank(), static_cast<int>(active.size()));  // the deficient case is exercised
  EXPECT_GE(kkt.block_count(), 1);
  // The constraints hold and the stationarity residual is in range(Eᵀ).
  EXPECT_LT((E * w.x.leftCols(with_r2) - r2).norm(), 1e4 * kRangeSpaceKktEpsilon * r2.norm());

  // A second factorisation on the same object (storage reused) gives the same result.
  kkt.FactorRows(whitened, active);
  RangeSpaceKkt::Workspace again;
  kkt.Solve(r1, r2.transpose(), with_r2, &again);
  EXPECT_EQ(again.x, w.x);
}

// r₂ᵀ by active row (RangeSpaceKkt::R2Rows) gives bitwise the dense overload's dv, whatever the
// order of a row's entries and with explicit zeros among them (each entry goes to its own
// right-hand side, so the sums per column keep their order); the dense problem above, whose
// blocks include one above kSmallBlock. A row list of the wrong length or an entry outside the
// r₂ columns is refused.
TEST(RangeSpaceKkt, RowsOfR2GiveTheDenseResult) {
  const int n = 24, rows = 14, with_r2 = 5, columns = 8;
  const Eigen::MatrixXd H = RandomCost(n, 3);
  const Eigen::MatrixXd G = RandomRows(rows, n, 5);
  std::vector<int> active;
  for (int j = 0; j < rows; ++j) active.push_back(j);
  const Eigen::MatrixXd r1 = Eigen::MatrixXd::Random(n, columns);
  Eigen::MatrixXd r2t = Eigen::MatrixXd::Random(with_r2, rows);  // r₂ᵀ
  r2t(2, 3) = 0.0;
  RangeSpaceKkt kkt;
  ASSERT_TRUE(kkt.FactorCost(H));
  PositiveDefiniteFactor::SparseRows whitened;
  kkt.cost_factor().WhitenRows(G, &whitened);
  kkt.FactorRows(whitened, active);
  bool large = false;
  for (int b = 0; b < kkt.block_count(); ++b) large = large || kkt.block_size(b) > 12;
  ASSERT_TRUE(large);
  RangeSpaceKkt::Workspace dense, by_row;
  kkt.Solve(r1, r2t, with_r2, &dense);
  RangeSpaceKkt::R2Rows r2_rows;
  r2_rows.start.assign(1, 0);
  for (int a = 0; a < rows; ++a) {
    for (int t = with_r2 - 1; t >= 0; --t) {  // reversed, the zero kept
      r2_rows.index.push_back(t);
      r2_rows.value.push_back(r2t(t, a));
    }
    r2_rows.start.push_back(static_cast<int>(r2_rows.index.size()));
  }
  kkt.Solve(r1, r2_rows, with_r2, &by_row);
  EXPECT_TRUE(by_row.x == dense.x);

  RangeSpaceKkt::R2Rows outside = r2_rows;
  outside.index[4] = with_r2;
  EXPECT_THROW(kkt.Solve(r1, outside, with_r2, &by_row), std::invalid_argument);
  RangeSpaceKkt::R2Rows short_rows = r2_rows;
  short_rows.start.pop_back();
  EXPECT_THROW(kkt.Solve(r1, short_rows, with_r2, &by_row), std::invalid_argument);
}

// One block of 7 velocities, as the planar hand's (at most kSmallBlock = 12: the operators K
// and Q formed once per factorisation, range_space_kkt.h): a rank-deficient E (6 rows of rank
// 4, nullity 3 as at the hand's grasp) and a full-rank one (3 rows), each against the
// whole-system solve within 1e4 ε relative, as the large blocks above. Fails when K is not
// projected off null(M) or Q is dropped.
TEST(RangeSpaceKkt, SmallBlockMatchesTheWholeSystem) {
  const int n = 7, columns = 11, with_r2 = 7;
  std::srand(21);
  const Eigen::MatrixXd A = Eigen::MatrixXd::Random(n, n);
  const Eigen::MatrixXd H = A * A.transpose() + Eigen::MatrixXd::Identity(n, n);
  Eigen::MatrixXd G = Eigen::MatrixXd::Random(6, n);
  G.row(4) = G.row(0) - 2.0 * G.row(1);
  G.row(5) = 0.5 * G.row(2) + G.row(3);
  for (const int rows : {6, 3}) {
    const Eigen::MatrixXd E = G.topRows(rows);
    std::vector<int> active(rows);
    for (int j = 0; j < rows; ++j) active[j] = j;
    const Eigen::MatrixXd r1 = Eigen::MatrixXd::Random(n, columns);
    const Eigen::MatrixXd r2 = E * Eigen::MatrixXd::Random(n, with_r2);  // consistent
    RangeSpaceKkt kkt;
    ASSERT_TRUE(kkt.FactorCost(H));
    PositiveDefiniteFactor::SparseRows whitened;
    kkt.cost_factor().WhitenRows(E, &whitened);
    kkt.FactorRows(whitened, active);
    ASSERT_EQ(kkt.block_count(), 1);
    ASSERT_EQ(kkt.block_size(0), n);
    EXPECT_EQ(kkt.rank(), rows == 6 ? 4 : 3);
    RangeSpaceKkt::Workspace w;
    kkt.Solve(r1, r2.transpose(), with_r2, &w);
    Eigen::MatrixXd r2_all = Eigen::MatrixXd::Zero(rows, columns);
    r2_all.leftCols(with_r2) = r2;
    const Eigen::MatrixXd reference = WholeSystemSolve(H, E, r1, r2_all);
    EXPECT_LT((w.x - reference).norm(), 1e4 * kRangeSpaceKktEpsilon * reference.norm())
        << rows << " rows";
    EXPECT_LT((E * w.x.leftCols(with_r2) - r2).norm(), 1e4 * kRangeSpaceKktEpsilon * r2.norm());
  }
}

// No active row: dv = H⁻¹ r₁.
TEST(RangeSpaceKkt, WithoutRowsSolvesTheCostAlone) {
  const int n = 12;
  const Eigen::MatrixXd H = RandomCost(n + 6, 9).topLeftCorner(n, n);
  const Eigen::MatrixXd r1 = Eigen::MatrixXd::Random(n, 3);
  RangeSpaceKkt kkt;
  ASSERT_TRUE(kkt.FactorCost(H));
  PositiveDefiniteFactor::SparseRows whitened;
  kkt.cost_factor().WhitenRows(Eigen::MatrixXd::Zero(0, n), &whitened);
  kkt.FactorRows(whitened, {});
  RangeSpaceKkt::Workspace w;
  kkt.Solve(r1, Eigen::MatrixXd(0, 0), 0, &w);
  const Eigen::MatrixXd reference = H.llt().solve(r1);
  EXPECT_LT((w.x - reference).norm(), 1e4 * kRangeSpaceKktEpsilon * reference.norm());
  EXPECT_EQ(kkt.rank(), 0);
}

// FactorCostReusing keeps its factor only for an H equal to the one it factored: each of a
// sequence of costs (changed in one lower entry, the same again, the same after FactorCost of
// another, back, then indefinite) gives exactly the solve of a fresh object.
TEST(RangeSpaceKkt, KeepsTheCostFactorOnlyForTheSameCost) {
  const int n = 18;
  const Eigen::MatrixXd H = RandomCost(n, 21);
  Eigen::MatrixXd changed = H;
  changed(14, 13) += 0.25;  // the lower triangle, inside the third block of 6
  changed(13, 14) += 0.25;
  const Eigen::MatrixXd r1 = Eigen::MatrixXd::Random(n, 2);
  RangeSpaceKkt kept;
  RangeSpaceKkt::Workspace w, w_fresh;
  const std::vector<const Eigen::MatrixXd*> costs = {&H, &changed, &changed, &changed, &H};
  for (int k = 0; k < static_cast<int>(costs.size()); ++k) {
    const Eigen::MatrixXd* cost = costs[k];
    if (k == 3) {
      ASSERT_TRUE(kept.FactorCost(H));  // so `changed` is no longer the factored cost
    }
    ASSERT_TRUE(kept.FactorCostReusing(*cost));
    RangeSpaceKkt fresh;
    ASSERT_TRUE(fresh.FactorCost(*cost));
    PositiveDefiniteFactor::SparseRows whitened;
    kept.FactorRows(whitened, {});
    fresh.FactorRows(whitened, {});
    kept.Solve(r1, Eigen::MatrixXd(0, 0), 0, &w);
    fresh.Solve(r1, Eigen::MatrixXd(0, 0), 0, &w_fresh);
    EXPECT_TRUE(w.x == w_fresh.x);
  }
  EXPECT_FALSE(kept.FactorCostReusing(-H));
  EXPECT_THROW(kept.FactorRows(PositiveDefiniteFactor::SparseRows{}, {}), std::invalid_argument);
}

TEST(RangeSpaceKkt, CallerMistakesThrowAndAnIndefiniteCostIsReported) {
  RangeSpaceKkt kkt;
  PositiveDefiniteFactor::SparseRows whitened;
  EXPECT_THROW(kkt.FactorRows(whitened, {}), std::invalid_argument);  // nothing factored
  EXPECT_FALSE(kkt.FactorCost(-Eigen::MatrixXd::Identity(3, 3)));
  EXPECT_THROW(kkt.FactorRows(whitened, {}), std::invalid_argument);
  ASSERT_TRUE(kkt.FactorCost(Eigen::MatrixXd::Identity(3, 3)));
  kkt.cost_factor().WhitenRows(Eigen::MatrixXd::Identity(2, 3), &whitened);
  EXPECT_THROW(kkt.FactorRows(whitened, {2}), std::invalid_argument);  // 2 rows only
  kkt.FactorRows(whitened, {0, 1});
  RangeSpaceKkt::Workspace w;
  EXPECT_THROW(kkt.Solve(Eigen::MatrixXd::Zero(4, 1), Eigen::MatrixXd::Zero(1, 2), 1, &w),
               std::invalid_argument);  // r₁ has 4 rows, n = 3
  EXPECT_THROW(kkt.Solve(Eigen::MatrixXd::Zero(3, 1), Eigen::MatrixXd::Zero(1, 1), 1, &w),
               std::invalid_argument);  // r₂ᵀ has 1 column, 2 rows are active
}

}  // namespace
}  // namespace quasidyn
