#include "quasidyn/planning/reachability_metric.h"

#include <Eigen/Cholesky>

#include "quasidyn/common/argument_check.h"

namespace quasidyn {

NodeReachability::NodeReachability(const ObjectSpace& space, const Eigen::VectorXd& mu,
                                   const Eigen::MatrixXd& raw_object_rows, double regularization,
                                   const Eigen::VectorXd& weights)
    : weights_(weights), regularization_(regularization) {
  const char* where = "NodeReachability";
  CheckPositive(where, "regularization", regularization);
  QUASIDYN_CHECK_ARGUMENT(mu.size() >= space.coordinate_size(), where,
                          "mu has size " + std::to_string(mu.size()) +
                              ", expected >= n_q,u = " + std::to_string(space.coordinate_size()));
  CheckFinite(where, "mu", mu);
  QUASIDYN_CHECK_ARGUMENT(raw_object_rows.allFinite(), where, "B has a non-finite entry");
  mu_ = mu.head(space.coordinate_size());
  const int n = space.tangent_size();
  if (weights.size() > 0) {
    QUASIDYN_CHECK_ARGUMENT(weights.size() == n, where,
                            "weights has size " + std::to_string(weights.size()) +
                                ", expected n_v,u = " + std::to_string(n));
    QUASIDYN_CHECK_ARGUMENT(weights.allFinite() && (weights.array() > 0).all(), where,
                            "weights must be finite and > 0");
  }
  B_ = space.TangentRows(mu, raw_object_rows);
  if (weights.size() > 0) B_ = weights.asDiagonal() * B_;
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
  if (weights_.size() > 0) scratch->array() *= weights_.array();
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
  Eigen::VectorXd e = space.Difference(q, mu_);
  if (weights_.size() > 0) e.array() *= weights_.array();
  // (B Bᵀ + λ I)⁻¹ = L⁻ᵀ L⁻¹.
  const Eigen::VectorXd y = factor_inverse_.transpose() * (factor_inverse_ * e);
  return B_.transpose() * y;
}

Eigen::VectorXd MetricWeights(const ObjectSpace& space, const PlanningSettings& settings) {
  const double position = settings.position_weight > 0 ? settings.position_weight : 1.0;
  const double rotation = settings.rotation_weight > 0 ? settings.rotation_weight : 1.0;
  if (position == 1.0 && rotation == 1.0) return Eigen::VectorXd();
  Eigen::VectorXd weights(space.tangent_size());
  for (const ObjectSpace::Block& block : space.blocks()) {
    if (block.floating) {
      weights.segment<3>(block.v_start).setConstant(position);
      weights.segment<3>(block.v_start + 3).setConstant(rotation);
    } else {
      weights.segment<2>(block.v_start).setConstant(position);
      weights[block.v_start + 2] = rotation;
    }
  }
  return weights;
}

}  // namespace quasidyn
