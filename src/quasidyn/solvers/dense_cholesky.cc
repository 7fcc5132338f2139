#include "quasidyn/solvers/dense_cholesky.h"

#include <cmath>
#include <limits>
#include <string>

#include "quasidyn/common/argument_check.h"

namespace quasidyn {

void DenseCholesky::Resize(int n) {
  QUASIDYN_CHECK_ARGUMENT(n >= 0, "DenseCholesky::Resize", "the size must be >= 0");
  factor_.setZero(n, n);
  inverse_pivot_.setZero(n);
}

// The loops of Factor and Solve, with the size known to the compiler (kSize > 0, which then
// unrolls them whole, the outer loops too, so that every inner loop has a constant length: the
// loops of a 7-variable factor are 1 to 7 long, and their set-up cost more than their
// arithmetic) or taken at run time (kSize = 0). The same operations in the same
// order either way, so the same bits. Scalar on purpose (no-tree-vectorize): for Solve, a
// vectorised update would load pairs of y that the previous column's update stored at another
// offset, and the processor cannot forward such stores to the load (the slower of the two on a
// 7-variable QP); for Factor, the vector loops' set-up and remainders cost more than they save
// at these lengths.
#if defined(__GNUC__) && !defined(__clang__)
#define QUASIDYN_SCALAR_LOOPS __attribute__((optimize("no-tree-vectorize")))
#else
#define QUASIDYN_SCALAR_LOOPS
#endif

namespace {

// Outer-product form: column k is divided by its pivot √N_kk, then its outer product is taken
// from the trailing lower triangle, column by column. f holds the lower triangle of N
// (column-major, n × n) on entry and L on return.
template <int kSize>
QUASIDYN_SCALAR_LOOPS bool FactorLoops(int size, const double* matrix, double* f,
                                       double* inverse_pivot) {
  const int n = kSize > 0 ? kSize : size;
#pragma GCC unroll 16
  for (int j = 0; j < n; ++j)
#pragma GCC unroll 16
    for (int i = j; i < n; ++i) f[j * n + i] = matrix[j * n + i];
#pragma GCC unroll 16
  for (int k = 0; k < n; ++k) {
    double* column_k = f + k * n;
    const double pivot_squared = column_k[k];
    if (!(pivot_squared > 0.0 && pivot_squared < std::numeric_limits<double>::infinity()))
      return false;
    const double pivot = std::sqrt(pivot_squared);
    const double inverse = 1.0 / pivot;
    column_k[k] = pivot;
    inverse_pivot[k] = inverse;
#pragma GCC unroll 16
    for (int i = k + 1; i < n; ++i) column_k[i] *= inverse;
#pragma GCC unroll 16
    for (int j = k + 1; j < n; ++j) {
      double* column_j = f + j * n;
      const double l_jk = column_k[j];
#pragma GCC unroll 16
      for (int i = j; i < n; ++i) column_j[i] -= column_k[i] * l_jk;
    }
  }
  return true;
}

// L y = b by column updates, then Lᵀ x = y by rows of L (the columns of Lᵀ), in place on y.
template <int kSize>
QUASIDYN_SCALAR_LOOPS void SolveLoops(int size, const double* f, const double* inverse_pivot,
                                      double* y) {
  const int n = kSize > 0 ? kSize : size;
#pragma GCC unroll 16
  for (int k = 0; k < n; ++k) {
    const double yk = y[k] * inverse_pivot[k];
    y[k] = yk;
    const double* column = f + k * n;
#pragma GCC unroll 16
    for (int i = k + 1; i < n; ++i) y[i] -= column[i] * yk;
  }
#pragma GCC unroll 16
  for (int i = n - 1; i >= 0; --i) {
    const double yi = y[i] * inverse_pivot[i];
    y[i] = yi;
#pragma GCC unroll 16
    for (int k = 0; k < i; ++k) y[k] -= f[k * n + i] * yi;  // column i of Lᵀ is row i of L
  }
}

// The sizes with loops of their own (a planar hand's step has 7 velocities, a gripper's 4 to
// 9); larger ones take the run-time loops.
constexpr int kUnrolledSizes = 10;

template <int kSize = 1>
bool Factor(int n, const double* matrix, double* f, double* inverse_pivot) {
  if constexpr (kSize > kUnrolledSizes) {
    return FactorLoops<0>(n, matrix, f, inverse_pivot);
  } else {
    if (n == kSize) return FactorLoops<kSize>(n, matrix, f, inverse_pivot);
    return Factor<kSize + 1>(n, matrix, f, inverse_pivot);
  }
}

template <int kSize = 1>
void Solve(int n, const double* f, const double* inverse_pivot, double* y) {
  if constexpr (kSize > kUnrolledSizes) {
    SolveLoops<0>(n, f, inverse_pivot, y);
  } else {
    if (n == kSize) return SolveLoops<kSize>(n, f, inverse_pivot, y);
    Solve<kSize + 1>(n, f, inverse_pivot, y);
  }
}

}  // namespace

bool DenseCholesky::Factor(const Eigen::MatrixXd& matrix) {
  const int n = size();
  QUASIDYN_CHECK_ARGUMENT(matrix.rows() == n && matrix.cols() == n, "DenseCholesky::Factor",
                          "the matrix must be " + std::to_string(n) + " × " + std::to_string(n));
  return quasidyn::Factor(n, matrix.data(), factor_.data(), inverse_pivot_.data());
}

void DenseCholesky::Solve(const Eigen::VectorXd& b, Eigen::VectorXd* x) const {
  if (x != &b) *x = b;
  quasidyn::Solve(size(), factor_.data(), inverse_pivot_.data(), x->data());
}

}  // namespace quasidyn
