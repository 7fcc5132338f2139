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

// Outer-product form: column k is divided by its pivot √N_kk, then its outer product is taken
// from the trailing lower triangle, column by column.
bool DenseCholesky::Factor(const Eigen::MatrixXd& matrix) {
  const int n = size();
  QUASIDYN_CHECK_ARGUMENT(matrix.rows() == n && matrix.cols() == n, "DenseCholesky::Factor",
                          "the matrix must be " + std::to_string(n) + " × " + std::to_string(n));
  double* f = factor_.data();
  for (int j = 0; j < n; ++j)
    for (int i = j; i < n; ++i) f[j * n + i] = matrix(i, j);
  for (int k = 0; k < n; ++k) {
    double* column_k = f + k * n;
    const double pivot_squared = column_k[k];
    if (!(pivot_squared > 0.0 && pivot_squared < std::numeric_limits<double>::infinity()))
      return false;
    const double pivot = std::sqrt(pivot_squared);
    const double inverse = 1.0 / pivot;
    column_k[k] = pivot;
    inverse_pivot_[k] = inverse;
    for (int i = k + 1; i < n; ++i) column_k[i] *= inverse;
    for (int j = k + 1; j < n; ++j) {
      double* column_j = f + j * n;
      const double l_jk = column_k[j];
      for (int i = j; i < n; ++i) column_j[i] -= column_k[i] * l_jk;
    }
  }
  return true;
}

// L y = b by column updates, then Lᵀ x = y by rows of L (the columns of Lᵀ). Scalar loops on
// purpose: a vectorised update would load pairs of y that the previous column's update stored
// at another offset, and the processor cannot forward such stores to the load (the slower of
// the two on a 7-variable QP).
#if defined(__GNUC__) && !defined(__clang__)
__attribute__((optimize("no-tree-vectorize")))
#endif
void DenseCholesky::Solve(const Eigen::VectorXd& b, Eigen::VectorXd* x) const {
  const int n = size();
  const double* f = factor_.data();
  if (x != &b) *x = b;
  double* y = x->data();
  for (int k = 0; k < n; ++k) {
    const double yk = y[k] * inverse_pivot_[k];
    y[k] = yk;
    const double* column = f + k * n;
    for (int i = k + 1; i < n; ++i) y[i] -= column[i] * yk;
  }
  for (int i = n - 1; i >= 0; --i) {
    const double yi = y[i] * inverse_pivot_[i];
    y[i] = yi;
    for (int k = 0; k < i; ++k) y[k] -= f[k * n + i] * yi;  // column i of Lᵀ is row i of L
  }
}

}  // namespace quasidyn
