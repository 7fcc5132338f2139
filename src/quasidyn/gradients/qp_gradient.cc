#include "quasidyn/gradients/qp_gradient.h"

#include <Eigen/Cholesky>
#include <Eigen/QR>
#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace quasidyn {

std::vector<int> ActivePyramidRows(const PyramidStepData& data, const Eigen::VectorXd& v,
                                   const Eigen::VectorXd& beta) {
  const int m = static_cast<int>(data.G.rows());
  if (beta.size() != m || v.size() != data.P.rows())
    throw std::invalid_argument("ActivePyramidRows: beta must have one entry per pyramid row (" +
                                std::to_string(m) + ") and v one per velocity");
  std::vector<int> active;
  if (m == 0) return active;
  const int n = static_cast<int>(data.P.rows());
  const double delta = 1e-12 * std::max(1.0, data.P.diagonal().maxCoeff());
  const Eigen::LDLT<Eigen::MatrixXd> P_factor(data.P + delta * Eigen::MatrixXd::Identity(n, n));
  const Eigen::MatrixXd P_inv_Gt = P_factor.solve(data.G.transpose());
  const Eigen::VectorXd slack = data.G * v + data.offset;
  for (int j = 0; j < m; ++j) {
    const double delassus = data.G.row(j).dot(P_inv_Gt.col(j));
    if (beta[j] * delassus > slack[j]) active.push_back(j);
  }
  return active;
}

VelocityGradient QpVelocityGradient(const Scene& scene, double time_step,
                                    const PyramidStepData& data,
                                    const PyramidStepDataDerivative* derivative,
                                    const Eigen::VectorXd& v, const Eigen::VectorXd& beta) {
  const std::vector<int> active = ActivePyramidRows(data, v, beta);
  const int n = scene.nv;
  const int na = static_cast<int>(active.size());
  const int nq_dirs = derivative != nullptr ? n : 0;
  Eigen::MatrixXd G_active(na, n);
  for (int r = 0; r < na; ++r) G_active.row(r) = data.G.row(active[r]);

  Eigen::MatrixXd kkt = Eigen::MatrixXd::Zero(n + na, n + na);
  kkt.topLeftCorner(n, n) = data.P;
  kkt.topRightCorner(n, na) = G_active.transpose();
  kkt.bottomLeftCorner(na, n) = G_active;

  // Right-hand sides: the tangent directions of q first, then the commands.
  Eigen::MatrixXd rhs = Eigen::MatrixXd::Zero(n + na, nq_dirs + scene.nq_a);
  for (int k = 0; k < nq_dirs; ++k) {
    const Eigen::MatrixXd& dG = derivative->d_G[k];
    Eigen::VectorXd top = derivative->d_tau_h.col(k) - derivative->d_P[k] * v;
    for (int r = 0; r < na; ++r) {
      top += dG.row(active[r]).transpose() * beta[active[r]];
      rhs(n + r, k) = -derivative->d_offset(active[r], k) - dG.row(active[r]).dot(v);
    }
    rhs.block(0, k, n, 1) = top;
  }
  rhs.block(0, nq_dirs, n, scene.nq_a) = CommandForceJacobian(scene, time_step);

  // Symmetric equilibration D K D (D = diag of 1/√(row ∞-norm)), then COD.
  Eigen::VectorXd scale(n + na);
  for (int i = 0; i < n + na; ++i) {
    const double norm = kkt.row(i).lpNorm<Eigen::Infinity>();
    scale[i] = norm > 0 ? 1.0 / std::sqrt(norm) : 1.0;
  }
  const Eigen::MatrixXd scaled = scale.asDiagonal() * kkt * scale.asDiagonal();
  const Eigen::CompleteOrthogonalDecomposition<Eigen::MatrixXd> cod(scaled);
  const Eigen::MatrixXd solution = scale.asDiagonal() * cod.solve(scale.asDiagonal() * rhs);

  VelocityGradient gradient;
  gradient.active_rows = na;
  gradient.kkt_rank = static_cast<int>(cod.rank());
  if (nq_dirs > 0) gradient.dv_dq = solution.topLeftCorner(n, nq_dirs);
  gradient.dv_du = solution.block(0, nq_dirs, n, scene.nq_a);
  return gradient;
}

}  // namespace quasidyn
