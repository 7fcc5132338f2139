#include "quasidyn/formulations/log_barrier/barrier_hessian_factor.h"

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
  if (sparse_) return sparse_factor_.solve(rhs);
  return dense_factor_.solve(rhs);
}

}  // namespace quasidyn
