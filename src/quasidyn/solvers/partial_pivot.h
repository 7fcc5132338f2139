#pragma once
// The pivot row of partial pivoting (Golub & Van Loan, Alg. 3.4.1): the row i >= p of the largest
// |a_ip| in column p (the first of equal ones), shared by the LU kernels of schur_lu.cc and
// padded_lu.cc.

#include <cmath>

namespace quasidyn {

// column: column p of an m-row matrix (entries 0 … m−1); *largest receives |a_pivot,p|.
inline int PartialPivotRow(const double* column, int p, int m, double* largest) {
  int pivot = p;
  *largest = std::abs(column[p]);
  for (int i = p + 1; i < m; ++i) {
    const double value = std::abs(column[i]);
    if (value > *largest) {
      *largest = value;
      pivot = i;
    }
  }
  return pivot;
}

}  // namespace quasidyn
