#include "quasidyn/formulations/log_barrier/barrier_hessian_factor.h"

#include <cmath>
#include <limits>
#include <utility>

#include "quasidyn/common/argument_check.h"

namespace quasidyn {

bool BarrierHessianFactor::Compute(const Eigen::MatrixXd& H, bool require_positive) {
  QUASIDYN_CHECK_ARGUMENT(H.rows() == H.cols(), "BarrierHessianFactor::Compute",
                          "H must be square");
  sparse_ = false;
  if (H.rows() >= kSparseBarrierHessianSize) {
    entries_ = H.sparseView();  // exact zeros dropped; the factor reads the lower triangle
    sparse_factor_.compute(entries_);
    sparse_ =
        sparse_factor_.info() == Eigen::Success && (sparse_factor_.vectorD().array() > 0.0).all();
    if (sparse_) return true;
  }
  dense_factor_.compute(H);
  return dense_factor_.info() == Eigen::Success &&
         (!require_positive || (dense_factor_.vectorD().array() > 0.0).all());
}

Eigen::MatrixXd BarrierHessianFactor::Solve(const Eigen::MatrixXd& rhs) const {
  Eigen::MatrixXd x = rhs;
  SolveInPlace(&x);
  return x;
}

void BarrierHessianFactor::SolveInPlace(Eigen::MatrixXd* rhs) const {
  Eigen::MatrixXd& x = *rhs;
  if (sparse_) {
    x = sparse_factor_.solve(x);
    return;
  }
  const int n = static_cast<int>(dense_factor_.rows());
  if (n > kSmallBarrierHessianSize) {
    dense_factor_.solveInPlace(x);
    return;
  }
  // Eigen::LDLT::solve's steps, column by column without its blocked kernels:
  // x = Πᵀ L⁻ᵀ D⁺ L⁻¹ Π b, D⁺ zero where |D_i| is not above the smallest normal double.
  // Π and Πᵀ apply the transpositions in order and in reverse order, column by column.
  const int* transposition = dense_factor_.transpositionsP().indices().data();
  const double* L = dense_factor_.matrixLDLT().data();  // column-major: L(i, j) = L[i + j·n]
  const auto D = dense_factor_.vectorD();
  const double tolerance = std::numeric_limits<double>::min();
  for (int t = 0; t < static_cast<int>(x.cols()); ++t) {
    double* column = x.col(t).data();
    for (int i = 0; i < n; ++i) std::swap(column[i], column[transposition[i]]);
    for (int i = 1; i < n; ++i) {
      double sum = column[i];
      for (int j = 0; j < i; ++j) sum -= L[i + j * n] * column[j];
      column[i] = sum;
    }
    for (int i = 0; i < n; ++i) column[i] = std::abs(D[i]) > tolerance ? column[i] / D[i] : 0.0;
    for (int i = n - 2; i >= 0; --i) {
      double sum = column[i];
      for (int j = i + 1; j < n; ++j) sum -= L[j + i * n] * column[j];
      column[i] = sum;
    }
    for (int i = n - 1; i >= 0; --i) std::swap(column[i], column[transposition[i]]);
  }
}

}  // namespace quasidyn
