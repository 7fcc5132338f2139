#include "quasidyn/planning/reachability_metric.h"

#include <Eigen/Cholesky>

#include "quasidyn/common/argument_check.h"

namespace quasidyn {

NodeReachability::NodeReachability(const ObjectSpace& space, const Eigen::VectorXd& mu,
                                   const Eigen::MatrixXd& raw_object_rows, double regularization)
    : regularization_(regularization) {
  const char* where = "NodeReachability";
  CheckPositive(where, "regularization", regularization);
  QUASIDYN_CHECK_ARGUMENT(mu.size() >= space.coordinate_size(), where,
                          "mu has size " + std::to_string(mu.size()) +
                              ", expected >= n_q,u = " + std::to_string(space.coordinate_size()));
  CheckFinite(where, "mu", mu);
  QUASIDYN_CHECK_ARGUMENT(raw_object_rows.allFinite(), where, "B has a non-finite entry");
  mu_ = mu.head(space.coordinate_size());
  B_ = space.TangentRows(mu, raw_object_rows);
  const int n = space.tangent_size();
  Eigen::MatrixXd gram = B_ * B_.transpose();
  gram.diagonal().array() += regularization;
  const Eigen::LLT<Eigen::MatrixXd> factor(gram);  // positive definite: λ > 0
  factor_inverse_ = factor.matrixL().solve(Eigen::MatrixXd::Identity(n, n));
}

double NodeReachability::Distance(const ObjectSpace& space,
                                  const Eigen::Ref<const Eigen::VectorXd>& q,
                                  Eigen::VectorXd* scratch) const {
  scratch->resize(space.tangent_size());
  space.Difference(q, mu_, *scratch);
  // d = ½ ‖L⁻¹ e‖², L⁻¹ lower triangular.
  double sum = 0.0;
  const Eigen::Index n = factor_inverse_.rows();
  for (Eigen::Index i = 0; i < n; ++i) {
    const double y = factor_inverse_.row(i).head(i + 1).dot(scratch->head(i + 1));
    sum += y * y;
  }
  return 0.5 * sum;
}

Eigen::VectorXd NodeReachability::Command(const ObjectSpace& space,
                                          const Eigen::Ref<const Eigen::VectorXd>& q) const {
  const Eigen::VectorXd e = space.Difference(q, mu_);
  // (B Bᵀ + λ I)⁻¹ = L⁻ᵀ L⁻¹.
  const Eigen::VectorXd y = factor_inverse_.transpose() * (factor_inverse_ * e);
  return B_.transpose() * y;
}

}  // namespace quasidyn
