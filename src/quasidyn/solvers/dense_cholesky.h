#pragma once
// Cholesky factorisation N = L Lᵀ of a small dense symmetric positive definite matrix, and
// solves with it (and the products of the small dense paths, DenseProduct), in plain loops (Golub &
// Van Loan, "Matrix Computations", 4th ed., Alg. 4.2.2, the outer-product form; forward and back
// substitution, Alg. 3.1.3 and 3.1.4, by columns).
//
// Why not Eigen::LLT: for the few variables of the interior-point solvers' small dense
// path (qp.h, block_normal_matrix.h; a planar hand's step has 7) the set-up of Eigen's
// general kernels costs more than their arithmetic. Every loop here runs down a column of
// the column-major storage, and the substitutions multiply by the inverses of the pivots,
// kept from the factorisation.
//
// Resize may allocate; Factor and Solve do not.

#include <Eigen/Core>

namespace quasidyn {

// Up to this size (rows) the dense paths of qp.h and block_normal_matrix.h factorise with
// DenseCholesky rather than Eigen::LLT, and multiply with DenseProduct's coefficient-wise form.
inline constexpr int kSmallDenseSize = 24;

// Above kSmallDenseSize, how many times faster per multiply-add Eigen's product with a dense
// constraint matrix is taken to be than summing the normal matrix by parts (rows or blocks over
// the columns they touch): the dense paths of qp.h and block_normal_matrix.h sum by parts when
// this times the parts' multiply-adds is below the dense product's (an estimate, not measured).
inline constexpr double kDenseKernelSpeedup = 4.0;

// *out = M x on a dense path (M a matrix or its transpose): coefficient-wise when `small` (at
// most kSmallDenseSize variables, where the general matrix–vector kernel's set-up costs more
// than its arithmetic), by Eigen's kernel otherwise.
template <typename Matrix>
void DenseProduct(const Matrix& M, const Eigen::VectorXd& x, bool small, Eigen::VectorXd* out) {
  if (small)
    out->noalias() = M.lazyProduct(x);
  else
    out->noalias() = M * x;
}

class DenseCholesky {
 public:
  // Sizes the storage for n × n matrices (n >= 0).
  void Resize(int n);
  int size() const { return static_cast<int>(factor_.rows()); }

  // Factorises the lower triangle of `matrix` (size() × size(); its strict upper triangle is
  // not read). False when a pivot is not > 0 or not finite (N not numerically positive
  // definite, or not finite); the factor is then unusable.
  bool Factor(const Eigen::MatrixXd& matrix);

  // *x = N⁻¹ b with the last successful factorisation; x may be b.
  void Solve(const Eigen::VectorXd& b, Eigen::VectorXd* x) const;

  // L in the lower triangle (the strict upper triangle holds nothing of use).
  const Eigen::MatrixXd& factor() const { return factor_; }

 private:
  Eigen::MatrixXd factor_;
  Eigen::VectorXd inverse_pivot_;  // 1 / L_kk
};

}  // namespace quasidyn
