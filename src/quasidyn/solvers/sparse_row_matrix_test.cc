#include "quasidyn/solvers/sparse_row_matrix.h"

#include <gtest/gtest.h>

#include <random>

namespace quasidyn {
namespace {

using Eigen::VectorXd;

// A 40 × 25 matrix with 0–6 entries per row (an empty row included) and random values.
SparseRowMatrix RandomSparse(std::mt19937& engine) {
  std::uniform_real_distribution<double> value(-2.0, 2.0);
  std::uniform_int_distribution<int> count(0, 6);
  SparseRowMatrix A(25);
  for (int r = 0; r < 40; ++r) {
    A.AppendRow();
    const int entries = r == 7 ? 0 : count(engine);
    for (int c = 0; c < 25 && entries > 0; c += 25 / entries) A.Append(c, value(engine));
  }
  return A;
}

VectorXd RandomVector(std::mt19937& engine, int size) {
  std::normal_distribution<double> normal(0.0, 1.0);
  VectorXd v(size);
  for (int i = 0; i < size; ++i) v[i] = normal(engine);
  return v;
}

// The fused products are a re-ordering of loops, not of sums: bitwise the separate ones.
TEST(SparseRowMatrixTest, FusedProductsGiveTheBitsOfTheSeparateOnes) {
  std::mt19937 engine(5);
  const SparseRowMatrix A = RandomSparse(engine);
  const VectorXd x = RandomVector(engine, A.cols()), y = RandomVector(engine, A.rows());
  VectorXd Ax, Aty, Ax_fused, Aty_fused;
  A.Multiply(x, &Ax);
  A.MultiplyTranspose(y, &Aty);
  A.MultiplyBoth(x, &Ax_fused, y, &Aty_fused);
  EXPECT_EQ(Ax, Ax_fused);
  EXPECT_EQ(Aty, Aty_fused);
}

}  // namespace
}  // namespace quasidyn
