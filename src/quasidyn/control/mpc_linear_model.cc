#include "quasidyn/control/mpc_linear_model.h"

#include <Eigen/Cholesky>
#include <string>

#include "quasidyn/common/argument_check.h"

namespace quasidyn {

int MpcLinearModel::ImpulseCount() const {
  return ImpulseOffset(static_cast<int>(contacts.size()));
}

int MpcLinearModel::ImpulseOffset(int contact) const {
  int offset = 0;
  for (int i = 0; i < contact; ++i) offset += 2 + static_cast<int>(contacts[i].rays.rows());
  return offset;
}

void MpcLinearModel::Validate(const char* where) const {
  const int n = nv();
  QUASIDYN_CHECK_ARGUMENT(time_step > 0 && std::isfinite(time_step), where,
                          "time_step must be finite and > 0 (got " + NumberText(time_step) + ")");
  QUASIDYN_CHECK_ARGUMENT(mass.cols() == n && n > 0, where, "mass must be square and non-empty");
  CheckVector(where, "q", q, n, "n_v");
  CheckVector(where, "v", v, n, "n_v");
  CheckVector(where, "free_force", free_force, n, "n_v");
  QUASIDYN_CHECK_ARGUMENT(actuation.rows() == n, where,
                          "actuation must have n_v = " + std::to_string(n) + " rows");
  QUASIDYN_CHECK_ARGUMENT(mass.allFinite() && actuation.allFinite(), where,
                          "mass and actuation must be finite");
  Eigen::LLT<Eigen::MatrixXd> factor(0.5 * (mass + mass.transpose()));
  QUASIDYN_CHECK_ARGUMENT(factor.info() == Eigen::Success, where, "mass is not positive definite");
  for (size_t i = 0; i < contacts.size(); ++i) {
    const MpcContact& c = contacts[i];
    const std::string name = "contacts[" + std::to_string(i) + "]";
    QUASIDYN_CHECK_ARGUMENT(std::isfinite(c.phi), where, name + ".phi is not finite");
    QUASIDYN_CHECK_ARGUMENT(c.normal.size() == n && c.normal.allFinite(), where,
                            name + ".normal must have n_v finite entries");
    QUASIDYN_CHECK_ARGUMENT(c.rays.cols() == n && c.rays.allFinite(), where,
                            name + ".rays must have n_v finite columns");
    QUASIDYN_CHECK_ARGUMENT(c.friction >= 0 && std::isfinite(c.friction), where,
                            name + ".friction must be finite and >= 0");
  }
}

void MpcLinearModel::ExplicitDynamics(Eigen::MatrixXd* A, Eigen::MatrixXd* B, Eigen::MatrixXd* C,
                                      Eigen::VectorXd* F) const {
  const int n = nv(), ng = ImpulseCount();
  const double h = time_step;
  const Eigen::LLT<Eigen::MatrixXd> m(mass);
  Eigen::MatrixXd J(n, ng);  // Σ Jᵀγ = J γ
  for (size_t i = 0; i < contacts.size(); ++i) {
    const int o = ImpulseOffset(static_cast<int>(i));
    const MpcContact& c = contacts[i];
    J.col(o) = c.normal.transpose();
    J.middleCols(o + 1, c.rays.rows()) = c.rays.transpose();
    J.col(o + 1 + c.rays.rows()).setZero();  // λ_i moves nothing
  }
  // v⁺ = v + M⁻¹(h B_a τ + h τ_free + J γ), q⁺ = q + h v⁺.
  // Eigen's triangular solve of a matrix without columns indexes its empty data (UBSan), so a
  // scene without contacts or without actuators gets its n × 0 answer directly.
  const Eigen::MatrixXd MinvB =
      actuation.cols() == 0 ? Eigen::MatrixXd(n, 0) : Eigen::MatrixXd(m.solve(h * actuation));
  const Eigen::MatrixXd MinvJ = ng == 0 ? Eigen::MatrixXd(n, 0) : Eigen::MatrixXd(m.solve(J));
  const Eigen::VectorXd Minvf = m.solve(h * free_force);
  A->setIdentity(2 * n, 2 * n);
  A->topRightCorner(n, n) = h * Eigen::MatrixXd::Identity(n, n);
  B->resize(2 * n, na());
  B->topRows(n) = h * MinvB;
  B->bottomRows(n) = MinvB;
  C->resize(2 * n, ng);
  C->topRows(n) = h * MinvJ;
  C->bottomRows(n) = MinvJ;
  F->resize(2 * n);
  F->head(n) = h * Minvf;
  F->tail(n) = Minvf;
}

Eigen::VectorXd MpcLinearModel::Complementarity(const Eigen::VectorXd& x_next,
                                                const Eigen::VectorXd& gamma) const {
  const int n = nv();
  Eigen::VectorXd w(ImpulseCount());
  for (size_t i = 0; i < contacts.size(); ++i) {
    const MpcContact& c = contacts[i];
    const int o = ImpulseOffset(static_cast<int>(i));
    const int nd = static_cast<int>(c.rays.rows());
    w[o] = c.phi + c.normal.dot(x_next.head(n) - q);
    for (int j = 0; j < nd; ++j)
      w[o + 1 + j] = gamma[o + 1 + nd] + c.rays.row(j).dot(x_next.tail(n));
    w[o + 1 + nd] = c.friction * gamma[o] - gamma.segment(o + 1, nd).sum();
  }
  return w;
}

}  // namespace quasidyn
