#pragma once
// In-place inverse of a square matrix by Gauss–Jordan elimination with partial (row)
// pivoting (Golub & Van Loan, "Matrix Computations", 4th ed., §3.2 and §3.4; Higham,
// "Accuracy and Stability of Numerical Algorithms", 2nd ed., §14.4: with partial pivoting it
// is as accurate as the inverse from an LU factorisation for the uses here). n³ flops, done
// as column axpys: no heap allocation (Eigen's blocked LU and triangular solves take their
// blocking buffers from the heap once a matrix exceeds 128 KB, about 128 × 128 doubles).

#include <Eigen/Core>

namespace quasidyn {

// Replaces the leading n × n block of *a (n = size) by its inverse. `row_of_pivot` (>= n
// entries) and `column` (>= n entries) are scratch the caller sizes once. Returns false,
// leaving *a unspecified, when a pivot is exactly zero or not finite (a singular matrix).
// `pivot_magnitudes` (may be null; >= n entries) receives |pivot| of each elimination step:
// the same pivots, in exact arithmetic, as the diagonal of U in the LU factorisation with
// partial pivoting (the column below the diagonal is the same Schur complement), for a caller
// that judges how close to singular the matrix is.
bool InvertInPlace(int size, Eigen::MatrixXd* a, Eigen::VectorXi* row_of_pivot,
                   Eigen::VectorXd* column, Eigen::VectorXd* pivot_magnitudes = nullptr);

}  // namespace quasidyn
