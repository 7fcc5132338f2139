#include "quasidyn/solvers/gauss_jordan_inverse.h"

#include <cmath>

namespace quasidyn {

bool InvertInPlace(int size, Eigen::MatrixXd* a_pointer, Eigen::VectorXi* row_of_pivot,
                   Eigen::VectorXd* column, Eigen::VectorXd* pivot_magnitudes) {
  Eigen::MatrixXd& a = *a_pointer;
  const int n = size;
  for (int k = 0; k < n; ++k) {
    // Pivot: the largest entry of column k on or below the diagonal; its row is swapped in.
    int pivot_row = k;
    for (int i = k + 1; i < n; ++i) {
      if (std::abs(a(i, k)) > std::abs(a(pivot_row, k))) pivot_row = i;
    }
    (*row_of_pivot)[k] = pivot_row;
    if (pivot_row != k) a.row(k).head(n).swap(a.row(pivot_row).head(n));
    const double pivot = a(k, k);
    if (pivot_magnitudes != nullptr) (*pivot_magnitudes)[k] = std::abs(pivot);
    if (!(pivot != 0.0) || !std::isfinite(pivot)) return false;
    // Column k becomes the multipliers; row k is scaled; every other row loses its multiple
    // of row k (a rank-one update, column by column).
    auto multipliers = column->head(n);
    multipliers = a.col(k).head(n);
    multipliers[k] = 0.0;
    a.col(k).head(n).setZero();
    a(k, k) = 1.0;
    const double inverse_pivot = 1.0 / pivot;
    for (int j = 0; j < n; ++j) {
      const double row_k = a(k, j) * inverse_pivot;
      a(k, j) = row_k;
      if (row_k != 0.0) a.col(j).head(n) -= row_k * multipliers;
    }
  }
  // The row swaps of the elimination are column swaps of the inverse, undone in reverse.
  for (int k = n - 1; k >= 0; --k) {
    const int swapped = (*row_of_pivot)[k];
    if (swapped != k) a.col(k).head(n).swap(a.col(swapped).head(n));
  }
  return true;
}

}  // namespace quasidyn
