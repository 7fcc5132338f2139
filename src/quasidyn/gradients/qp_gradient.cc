#include "quasidyn/gradients/qp_gradient.h"

#include <Eigen/QR>
#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

namespace quasidyn {
namespace {

// Pivots of M = W Wᵀ below this fraction of the largest are numerically zero (M's entries
// carry rounding of ≈ 1e-16 × ‖M‖; conditioning up to 1e10 is still treated as regular).
constexpr double kRankTolerance = 1e-10;

void CheckSizes(const PyramidStepData& data, const Eigen::VectorXd& v,
                const Eigen::VectorXd& beta) {
  const int m = static_cast<int>(data.G.rows());
  if (beta.size() != m || v.size() != data.P.rows())
    throw std::invalid_argument("ActivePyramidRows: beta must have one entry per pyramid row (" +
                                std::to_string(m) + ") and v one per velocity (" +
                                std::to_string(data.P.rows()) + ")");
  if (!beta.allFinite() || !v.allFinite())
    throw std::invalid_argument("ActivePyramidRows: v or beta has a NaN or Inf entry");
}

// Cholesky of P when P is positive definite: every pivot above 1e-12 × the largest diagonal.
bool FactorIfPositiveDefinite(const Eigen::MatrixXd& P, Eigen::LLT<Eigen::MatrixXd>* factor) {
  if (P.rows() == 0) return false;
  factor->compute(P);
  if (factor->info() != Eigen::Success) return false;
  const double threshold = 1e-12 * P.diagonal().cwiseAbs().maxCoeff();
  return factor->matrixLLT().diagonal().cwiseAbs2().minCoeff() > threshold;
}

// The rule of qp_gradient.h given the Delassus entries d_j.
std::vector<int> SelectActive(const PyramidStepData& data, const Eigen::VectorXd& v,
                              const Eigen::VectorXd& beta, const Eigen::VectorXd& delassus) {
  const Eigen::VectorXd slack = data.G * v + data.offset;
  std::vector<int> active;
  for (int j = 0; j < static_cast<int>(slack.size()); ++j)
    if (beta[j] * delassus[j] > slack[j]) active.push_back(j);
  return active;
}

// d_j with (P + δI)⁻¹, δ = 1e-12·max(1, max P_ii), when P is singular.
Eigen::VectorXd RegularizedDelassus(const PyramidStepData& data) {
  const int n = static_cast<int>(data.P.rows());
  const double delta = 1e-12 * std::max(1.0, data.P.diagonal().maxCoeff());
  const Eigen::LDLT<Eigen::MatrixXd> factor(data.P + delta * Eigen::MatrixXd::Identity(n, n));
  const Eigen::MatrixXd P_inv_Gt = factor.solve(data.G.transpose());
  return (data.G.transpose().array() * P_inv_Gt.array()).colwise().sum().transpose();
}

}  // namespace

std::vector<int> ActivePyramidRows(const PyramidStepData& data, const Eigen::VectorXd& v,
                                   const Eigen::VectorXd& beta) {
  CheckSizes(data, v, beta);
  if (data.G.rows() == 0) return {};
  Eigen::LLT<Eigen::MatrixXd> factor;
  if (!FactorIfPositiveDefinite(data.P, &factor))
    return SelectActive(data, v, beta, RegularizedDelassus(data));
  const Eigen::MatrixXd W = factor.matrixL().solve(data.G.transpose());
  return SelectActive(data, v, beta, W.colwise().squaredNorm().transpose());
}

QpSensitivity::QpSensitivity(const Scene& scene, double time_step, const PyramidStepData& data,
                             const Eigen::VectorXd& v, const Eigen::VectorXd& beta)
    : scene_(scene), time_step_(time_step), data_(data), beta_(beta) {
  CheckSizes(data, v, beta);
  if (data.P.rows() != scene.nv)
    throw std::invalid_argument("QpSensitivity: the data has " + std::to_string(data.P.rows()) +
                                " velocities, the scene " + std::to_string(scene.nv));
  if (!(time_step > 0) || !std::isfinite(time_step))
    throw std::invalid_argument("QpSensitivity: time step must be finite and > 0");
  const int n = scene.nv, m = static_cast<int>(data.G.rows());
  range_space_ = FactorIfPositiveDefinite(data.P, &P_factor_);
  Eigen::MatrixXd W_all;
  if (m > 0) {
    if (range_space_) {
      W_all = P_factor_.matrixL().solve(data.G.transpose());
      active_ = SelectActive(data, v, beta, W_all.colwise().squaredNorm().transpose());
    } else {
      active_ = SelectActive(data, v, beta, RegularizedDelassus(data));
    }
  }
  const int na = static_cast<int>(active_.size());
  G_active_.resize(na, n);
  for (int r = 0; r < na; ++r) G_active_.row(r) = data.G.row(active_[r]);
  G_active_sparse_ = G_active_.sparseView();
  kkt_rank_ = n;
  if (!range_space_ || na == 0) return;

  Eigen::MatrixXd W(n, na);
  for (int r = 0; r < na; ++r) W.col(r) = W_all.col(active_[r]);
  Eigen::MatrixXd M = Eigen::MatrixXd::Zero(n, n);
  M.selfadjointView<Eigen::Lower>().rankUpdate(W);  // W Wᵀ
  M.triangularView<Eigen::StrictlyUpper>() = M.transpose();
  const Eigen::LDLT<Eigen::MatrixXd> M_factor(M);
  const Eigen::VectorXd D = M_factor.vectorD();
  const double largest = D.cwiseAbs().maxCoeff();
  // Eigen's pivoting does not always leave the zero pivots last (an exactly zero column is
  // skipped in place), so every pivot is tested.
  std::vector<int> kept;
  for (int i = 0; i < n; ++i)
    if (D[i] > kRankTolerance * largest) kept.push_back(i);
  const int rank = static_cast<int>(kept.size());
  if (rank == 0) return;
  // range(M) is spanned by the columns Πᵀ L e_i of the kept pivots (Πᵀ L D Lᵀ Π = M); a thin
  // QR makes the basis orthonormal.
  const Eigen::MatrixXd L = M_factor.matrixL();
  Eigen::MatrixXd kept_columns(n, rank);
  for (int c = 0; c < rank; ++c) kept_columns.col(c) = L.col(kept[c]);
  const Eigen::MatrixXd span = M_factor.transpositionsP().transpose() * kept_columns;
  const Eigen::HouseholderQR<Eigen::MatrixXd> qr(span);
  Q_ = qr.householderQ() * Eigen::MatrixXd::Identity(n, rank);
  const Eigen::MatrixXd T = Q_.transpose() * M * Q_;  // rank × rank, positive definite
  const Eigen::LLT<Eigen::MatrixXd> T_factor(T);
  Q_scaled_ = T_factor.solve(Q_.transpose()).transpose();  // Q T⁻¹ (T symmetric)
  kkt_rank_ = n + rank;
}

Eigen::VectorXd QpSensitivity::ActiveContactImpulse() const {
  Eigen::VectorXd beta_active = Eigen::VectorXd::Zero(beta_.size());
  for (int j : active_) beta_active[j] = beta_[j];
  return ContactImpulseOf(data_, beta_active);
}

Eigen::MatrixXd QpSensitivity::SolveRangeSpace(const Eigen::MatrixXd& r1,
                                               const Eigen::MatrixXd& r2) const {
  Eigen::MatrixXd x = P_factor_.matrixL().solve(r1);  // y = L⁻¹ r₁
  if (Q_.cols() > 0) {
    Eigen::MatrixXd coefficients = -Q_.transpose() * x;  // −Qᵀy
    if (r2.cwiseAbs().maxCoeff() > 0) {
      // W r₂ = L⁻¹ (G_𝒜ᵀ r₂); G_𝒜 is sparse (a pyramid row touches two bodies).
      const Eigen::MatrixXd Wr2 =
          P_factor_.matrixL().solve(Eigen::MatrixXd(G_active_sparse_.transpose() * r2));
      coefficients.noalias() += Q_scaled_.transpose() * Wr2;
    }
    x.noalias() += Q_ * coefficients;
  }
  return P_factor_.matrixU().solve(x);  // dv = L⁻ᵀ x
}

Eigen::MatrixXd QpSensitivity::SolveFullKkt(const Eigen::MatrixXd& r1, const Eigen::MatrixXd& r2,
                                            int* rank) const {
  const int n = scene_.nv, na = static_cast<int>(active_.size());
  Eigen::MatrixXd kkt = Eigen::MatrixXd::Zero(n + na, n + na);
  kkt.topLeftCorner(n, n) = data_.P;
  kkt.topRightCorner(n, na) = G_active_.transpose();
  kkt.bottomLeftCorner(na, n) = G_active_;
  Eigen::MatrixXd rhs(n + na, r1.cols());
  rhs.topRows(n) = r1;
  rhs.bottomRows(na) = r2;
  // Symmetric equilibration D K D (D = diag of 1/√(row ∞-norm)), then COD.
  Eigen::VectorXd scale(n + na);
  for (int i = 0; i < n + na; ++i) {
    const double norm = kkt.row(i).lpNorm<Eigen::Infinity>();
    scale[i] = norm > 0 ? 1.0 / std::sqrt(norm) : 1.0;
  }
  const Eigen::MatrixXd scaled = scale.asDiagonal() * kkt * scale.asDiagonal();
  const Eigen::CompleteOrthogonalDecomposition<Eigen::MatrixXd> cod(scaled);
  *rank = static_cast<int>(cod.rank());
  return (scale.asDiagonal() * cod.solve(scale.asDiagonal() * rhs)).topRows(n);
}

VelocityGradient QpSensitivity::Gradient(const StepDataContraction* contraction) const {
  const int n = scene_.nv, na = static_cast<int>(active_.size());
  const int nq_dirs = contraction != nullptr ? n : 0;
  const int columns = nq_dirs + scene_.nq_a;
  Eigen::MatrixXd r1(n, columns);
  Eigen::MatrixXd r2 = Eigen::MatrixXd::Zero(na, columns);
  if (contraction != nullptr) {
    const StepDataContraction& d = *contraction;
    if (d.d_JcT_lambda.rows() != n || d.d_JcT_lambda.cols() != n ||
        d.d_Jc_v.rows() != data_.contact_rows || d.d_phi.cols() != n)
      throw std::invalid_argument(
          "QpSensitivity::Gradient: the contraction's sizes do not "
          "match the step data");
    r1.leftCols(n) = d.d_tau_h - d.d_P_v + d.d_JcT_lambda;
    // r₂ = −do_𝒜 − dG_𝒜 v, row by row: do_ij = dφ_i/h, dG_ij v = ray_map row j · d(J_c,i v).
    const double inv_h = 1.0 / time_step_;
    int next = 0;
    for (int i = 0; i < static_cast<int>(data_.contact_keys.size()) && next < na; ++i) {
      const PyramidStepData::ContactKey& key = data_.contact_keys[i];
      const int cols = static_cast<int>(key.ray_map.cols());
      for (; next < na && active_[next] < key.first_row + key.rows; ++next) {
        const int j = active_[next] - key.first_row;
        r2.block(next, 0, 1, n).noalias() =
            -inv_h * d.d_phi.row(i) -
            key.ray_map.row(j) * d.d_Jc_v.middleRows(key.first_contact_row, cols);
      }
    }
  }
  r1.rightCols(scene_.nq_a) = CommandForceJacobian(scene_, time_step_);

  VelocityGradient gradient;
  gradient.active_rows = na;
  Eigen::MatrixXd dv;
  if (range_space_) {
    dv = SolveRangeSpace(r1, r2);
    gradient.kkt_rank = kkt_rank_;
  } else {
    dv = SolveFullKkt(r1, r2, &gradient.kkt_rank);
  }
  if (nq_dirs > 0) gradient.dv_dq = dv.leftCols(nq_dirs);
  gradient.dv_du = dv.rightCols(scene_.nq_a);
  return gradient;
}

}  // namespace quasidyn
