#include "quasidyn/solvers/block_normal_matrix.h"

#include <gtest/gtest.h>

#include <limits>
#include <vector>

#include "quasidyn/testing/solver_problems.h"

namespace quasidyn {
namespace {

using Eigen::MatrixXd;
using Eigen::VectorXd;

// A contact-like normal matrix: the cones of testing::ContactChainSocp (each couples at most
// two 6-dof bodies) with random symmetric positive definite weights M_k, as the interior-point
// and Newton methods of this folder pass them (row-stacked, max_k m_k columns).
struct NormalProblem {
  MatrixXd Q, A, weights;
  std::vector<int> offset, dim;

  MatrixXd Expected(double regularization) const {
    MatrixXd N = Q;
    for (size_t k = 0; k < dim.size(); ++k) {
      const auto A_k = A.middleRows(offset[k], dim[k]);
      N += A_k.transpose() * weights.block(offset[k], 0, dim[k], dim[k]) * A_k;
    }
    N.diagonal().array() += regularization;
    return N;
  }
};

NormalProblem ContactChainNormal(unsigned seed, int bodies) {
  const testing::DenseConeProgram socp = testing::ContactChainSocp(seed, bodies, 3);
  testing::RandomProblems random(seed + 100);
  NormalProblem p;
  p.Q = socp.Q;
  const int n = socp.n();
  int rows = 0;
  for (const testing::DenseCone& cone : socp.cones) rows += static_cast<int>(cone.A.rows());
  p.A.resize(rows, n);
  p.weights.setZero(rows, 3);
  int row = 0;
  for (const testing::DenseCone& cone : socp.cones) {
    const int m = static_cast<int>(cone.A.rows());
    p.offset.push_back(row);
    p.dim.push_back(m);
    p.A.middleRows(row, m) = cone.A;
    p.weights.block(row, 0, m, m) = random.PsdMatrix(m, m) + MatrixXd::Identity(m, m);
    row += m;
  }
  return p;
}

// Max-norm of the difference relative to the largest entry of N: the sums differ by their
// order only, so by a few rounding errors per term.
double RelativeError(const MatrixXd& actual, const MatrixXd& expected) {
  return (actual - expected).lpNorm<Eigen::Infinity>() / expected.lpNorm<Eigen::Infinity>();
}

constexpr double kRounding = 100 * std::numeric_limits<double>::epsilon();

void ExpectNormalAndProducts(const NormalProblem& p, BlockNormalMatrix& normal) {
  for (const double regularization : {0.0, 1e-3}) {
    normal.Assemble(p.weights, regularization);
    MatrixXd N;
    normal.ToDense(&N);
    const MatrixXd expected = p.Expected(regularization);
    EXPECT_LE(RelativeError(N, expected), kRounding);
    ASSERT_TRUE(normal.Factorize());
    const VectorXd rhs = VectorXd::LinSpaced(p.Q.rows(), -1.0, 2.0);
    VectorXd x;
    normal.Solve(rhs, &x);
    // Backward error of a Cholesky solve: ‖N x − rhs‖ <= c·ε·‖N‖·‖x‖.
    EXPECT_LE((expected * x - rhs).norm(), kRounding * expected.norm() * x.norm());
  }
  const VectorXd x = VectorXd::LinSpaced(p.A.cols(), 0.5, -1.5);
  const VectorXd y = VectorXd::LinSpaced(p.A.rows(), -2.0, 1.0);
  VectorXd Ax, Aty;
  normal.MultiplyA(x, &Ax);
  normal.MultiplyAt(y, &Aty);
  EXPECT_LE((Ax - p.A * x).lpNorm<Eigen::Infinity>(), kRounding * (p.A * x).norm());
  EXPECT_LE((Aty - p.A.transpose() * y).lpNorm<Eigen::Infinity>(),
            kRounding * (p.A.transpose() * y).norm());
}

TEST(BlockNormalMatrix, DenseByBlocksMatchesTheDenseProduct) {
  // 4 bodies (n = 24, dense and small): a cone touches 6 or 12 of the 24 columns, so the block
  // form is the cheaper count and is chosen.
  const NormalProblem p = ContactChainNormal(3, 4);
  BlockNormalMatrix normal;
  normal.Setup(SparseRowMatrix::FromDense(p.Q), SparseRowMatrix::FromDense(p.A), p.offset, p.dim,
               SparsePathRule{});
  ASSERT_FALSE(normal.sparse());
  ASSERT_TRUE(normal.dense_by_blocks());
  ExpectNormalAndProducts(p, normal);
  // New values on the same pattern.
  NormalProblem scaled = p;
  scaled.A *= 1.5;
  scaled.Q *= 2.0;
  normal.UpdateValues(SparseRowMatrix::FromDense(scaled.Q), SparseRowMatrix::FromDense(scaled.A));
  ExpectNormalAndProducts(scaled, normal);
}

TEST(BlockNormalMatrix, DenseRowsKeepTheDenseProduct) {
  // n = 36 (dense, above the small size) and every row touching every column: Eigen's kernel
  // on the product is the faster, and is kept.
  NormalProblem p = ContactChainNormal(5, 6);
  testing::RandomProblems random(7);
  p.A = random.Gaussian(static_cast<int>(p.A.rows()), static_cast<int>(p.A.cols()));
  BlockNormalMatrix normal;
  normal.Setup(SparseRowMatrix::FromDense(p.Q), SparseRowMatrix::FromDense(p.A), p.offset, p.dim,
               SparsePathRule{});
  ASSERT_FALSE(normal.sparse());
  EXPECT_FALSE(normal.dense_by_blocks());
  ExpectNormalAndProducts(p, normal);
}

TEST(BlockNormalMatrix, SparseDenseAndBlockPathsAgree) {
  // 8 bodies (n = 48): the sparse path, and the dense one forced by the rule.
  const NormalProblem p = ContactChainNormal(11, 8);
  BlockNormalMatrix sparse, dense;
  sparse.Setup(SparseRowMatrix::FromDense(p.Q), SparseRowMatrix::FromDense(p.A), p.offset, p.dim,
               SparsePathRule{0, 1.0});
  dense.Setup(SparseRowMatrix::FromDense(p.Q), SparseRowMatrix::FromDense(p.A), p.offset, p.dim,
              SparsePathRule{std::numeric_limits<int>::max(), 0.0});
  ASSERT_TRUE(sparse.sparse());
  ASSERT_FALSE(dense.sparse());
  ExpectNormalAndProducts(p, sparse);
  ExpectNormalAndProducts(p, dense);
}

// The cones of p in the order `cones` lists them (a cone may come twice, or not at all), each
// with its rows and weight.
NormalProblem WithCones(const NormalProblem& p, const std::vector<int>& cones) {
  NormalProblem out;
  out.Q = p.Q;
  int rows = 0;
  for (const int k : cones) rows += p.dim[k];
  out.A.resize(rows, p.A.cols());
  out.weights.setZero(rows, p.weights.cols());
  int row = 0;
  for (const int k : cones) {
    out.offset.push_back(row);
    out.dim.push_back(p.dim[k]);
    out.A.middleRows(row, p.dim[k]) = p.A.middleRows(p.offset[k], p.dim[k]);
    out.weights.middleRows(row, p.dim[k]) = p.weights.middleRows(p.offset[k], p.dim[k]);
    row += p.dim[k];
  }
  return out;
}

// On the sparse path, a Setup whose cones come, go and move while the coupled body pairs stay
// keeps N's pattern and analysis, and gives the bits of a fresh Setup (N, its solve); a cone
// coupling a new pair, or the last cone of a pair gone, builds the pattern anew (also the bits
// of a fresh one).
TEST(BlockNormalMatrix, ConesComingAndGoingKeepThePatternWithTheBitsOfAFreshSetup) {
  const NormalProblem base = ContactChainNormal(17, 5);  // 15 cones: 3 per body
  std::vector<int> all(base.dim.size());
  for (size_t k = 0; k < all.size(); ++k) all[k] = static_cast<int>(k);
  ASSERT_GE(all.size(), 6u);
  // The pairs each cone couples: the columns its rows touch.
  const auto columns_of = [&](const NormalProblem& p, int k) {
    std::vector<int> columns;
    for (int c = 0; c < p.A.cols(); ++c)
      if (p.A.middleRows(p.offset[k], p.dim[k]).col(c).cwiseAbs().maxCoeff() > 0)
        columns.push_back(c);
    return columns;
  };
  // A cone whose columns another cone shares (dropping or doubling it keeps the pairs).
  int shared = -1;
  for (int k = 0; k < static_cast<int>(all.size()) && shared < 0; ++k)
    for (int j = 0; j < static_cast<int>(all.size()); ++j)
      if (j != k && columns_of(base, j) == columns_of(base, k)) shared = k;
  ASSERT_GE(shared, 0);
  std::vector<int> dropped, doubled = all, reversed(all.rbegin(), all.rend());
  for (const int k : all)
    if (k != shared) dropped.push_back(k);
  doubled.push_back(shared);
  // A new pair: the first cone's rows moved onto the last body's columns as well.
  NormalProblem new_pair = base;
  new_pair.A.block(0, base.A.cols() - 6, base.dim[0], 6).setConstant(0.25);
  struct Variant {
    NormalProblem problem;
    bool keeps_pattern;
  };
  const std::vector<Variant> variants = {{WithCones(base, dropped), true},
                                         {WithCones(base, doubled), true},
                                         {WithCones(base, reversed), true},
                                         {new_pair, false},
                                         {base, false}};
  const SparsePathRule sparse_rule{0, 1.0};
  BlockNormalMatrix kept;
  kept.Setup(SparseRowMatrix::FromDense(base.Q), SparseRowMatrix::FromDense(base.A), base.offset,
             base.dim, sparse_rule);
  ASSERT_TRUE(kept.sparse());
  for (size_t v = 0; v < variants.size(); ++v) {
    const NormalProblem& p = variants[v].problem;
    const int builds = kept.pattern_builds();
    kept.Setup(SparseRowMatrix::FromDense(p.Q), SparseRowMatrix::FromDense(p.A), p.offset, p.dim,
               sparse_rule);
    EXPECT_EQ(kept.pattern_builds() == builds, variants[v].keeps_pattern) << "variant " << v;
    BlockNormalMatrix fresh;
    fresh.Setup(SparseRowMatrix::FromDense(p.Q), SparseRowMatrix::FromDense(p.A), p.offset, p.dim,
                sparse_rule);
    const VectorXd rhs = VectorXd::LinSpaced(p.Q.rows(), -1.0, 2.0);
    VectorXd x_kept, x_fresh;
    MatrixXd N_kept, N_fresh;
    for (BlockNormalMatrix* normal : {&kept, &fresh}) {
      normal->Assemble(p.weights, 1e-9);
      ASSERT_TRUE(normal->Factorize());
    }
    kept.Solve(rhs, &x_kept);
    fresh.Solve(rhs, &x_fresh);
    kept.ToDense(&N_kept);
    fresh.ToDense(&N_fresh);
    EXPECT_EQ(N_kept, N_fresh) << "variant " << v;
    EXPECT_EQ(x_kept, x_fresh) << "variant " << v;
    EXPECT_LE(RelativeError(N_kept, p.Expected(1e-9)), kRounding) << "variant " << v;
  }
}

}  // namespace
}  // namespace quasidyn
