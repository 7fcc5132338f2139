#include "quasidyn/gradients/qp_gradient.h"

#include <Eigen/QR>
#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

#include "quasidyn/common/argument_check.h"

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

// d_j = g_j P⁻¹ g_jᵀ = |C⁻ᵀ g_jᵀ|² for every pyramid row (P = Cᵀ C factored).
Eigen::VectorXd DelassusDiagonal(const PyramidStepData& data,
                                 const PositiveDefiniteFactor& factor) {
  return factor.InverseQuadraticForms(data.G);
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
  PositiveDefiniteFactor factor;
  return SelectActive(
      data, v, beta,
      factor.Factor(data.P) ? DelassusDiagonal(data, factor) : RegularizedDelassus(data));
}

QpSensitivity::QpSensitivity(const Scene* scene_pointer, double time_step,
                             const PyramidStepData* data_pointer, const Eigen::VectorXd& v,
                             const Eigen::VectorXd& beta)
    : scene_(scene_pointer), time_step_(time_step), data_(data_pointer), beta_(beta) {
  QUASIDYN_CHECK_ARGUMENT(scene_ != nullptr && data_ != nullptr, "QpSensitivity",
                          "scene and data must not be null");
  const Scene& scene = *scene_;
  const PyramidStepData& data = *data_;
  CheckSizes(data, v, beta);
  if (data.P.rows() != scene.nv)
    throw std::invalid_argument("QpSensitivity: the data has " + std::to_string(data.P.rows()) +
                                " velocities, the scene " + std::to_string(scene.nv));
  if (!(time_step > 0) || !std::isfinite(time_step))
    throw std::invalid_argument("QpSensitivity: time step must be finite and > 0");
  const int n = scene.nv, m = static_cast<int>(data.G.rows());
  range_space_ = P_factor_.Factor(data.P);
  if (range_space_) {
    // The whitened rows w_j = C⁻ᵀ g_jᵀ, once: d_j = |w_j|² and M = Σ_{j∈𝒜} w_j w_jᵀ.
    P_factor_.WhitenRows(data.G, &whitened_);
    if (m > 0) {
      Eigen::VectorXd delassus(m);
      for (int j = 0; j < m; ++j) delassus[j] = whitened_.SquaredNorm(j);
      active_ = SelectActive(data, v, beta, delassus);
    }
  } else if (m > 0) {
    active_ = SelectActive(data, v, beta, RegularizedDelassus(data));
  }
  const int na = static_cast<int>(active_.size());
  kkt_rank_ = n;
  if (!range_space_ || na == 0) return;

  // M = W Wᵀ = C⁻ᵀ (G_𝒜ᵀ G_𝒜) C⁻¹ = Σ_{j∈𝒜} w_j w_jᵀ, outer products of sparse rows (a
  // pyramid row touches two bodies).
  Eigen::MatrixXd M = Eigen::MatrixXd::Zero(n, n);
  for (int j : active_) {
    const int begin = whitened_.start[j], end = whitened_.start[j + 1];
    for (int a = begin; a < end; ++a) {
      const double w_a = whitened_.value[a];
      if (w_a == 0.0) continue;
      for (int b = begin; b < end; ++b)
        M(whitened_.index[b], whitened_.index[a]) += w_a * whitened_.value[b];
    }
  }
  M_factor_.compute(M);
  const Eigen::VectorXd D = M_factor_.vectorD();
  const double largest = D.cwiseAbs().maxCoeff();
  // Eigen's pivoting does not always leave the zero pivots last (an exactly zero column is
  // skipped in place), so every pivot is tested.
  M_pivot_inverse_ = Eigen::VectorXd::Zero(n);
  std::vector<int> zero_pivots;
  for (int i = 0; i < n; ++i) {
    if (D[i] > kRankTolerance * largest)
      M_pivot_inverse_[i] = 1.0 / D[i];
    else
      zero_pivots.push_back(i);
  }
  M_rank_ = n - static_cast<int>(zero_pivots.size());
  if (M_rank_ == 0) return;
  M_leading_block_ = n;
  while (M_pivot_inverse_[M_leading_block_ - 1] == 0.0) --M_leading_block_;
  kkt_rank_ = n + M_rank_;
  if (zero_pivots.empty()) return;
  // null(M) = span of Πᵀ L⁻ᵀ e_k over the zero pivots k (qp_gradient.h); a thin QR makes
  // the basis orthonormal.
  Eigen::MatrixXd null_vectors = Eigen::MatrixXd::Zero(n, static_cast<int>(zero_pivots.size()));
  for (int c = 0; c < null_vectors.cols(); ++c) null_vectors(zero_pivots[c], c) = 1.0;
  M_factor_.matrixU().solveInPlace(null_vectors);
  null_vectors = M_factor_.transpositionsP().transpose() * null_vectors;
  const Eigen::HouseholderQR<Eigen::MatrixXd> qr(null_vectors);
  N_ = qr.householderQ() * Eigen::MatrixXd::Identity(n, null_vectors.cols());
}

Eigen::VectorXd QpSensitivity::ActiveContactImpulse() const {
  Eigen::VectorXd beta_active = Eigen::VectorXd::Zero(beta_.size());
  for (int j : active_) beta_active[j] = beta_[j];
  return ContactImpulseOf(*data_, beta_active);
}

Eigen::MatrixXd QpSensitivity::SolveRangeSpace(const Eigen::MatrixXd& r1,
                                               const Eigen::MatrixXd& r2_transposed) const {
  const Eigen::MatrixXd y = P_factor_.SolveTranspose(r1);  // C⁻ᵀ r₁
  if (M_rank_ == 0) return P_factor_.Solve(y);             // no active constraint: x = y
  Eigen::MatrixXd x;
  // The columns with r₂ ≠ 0 (the configuration directions; r₂ = 0 for u) lead.
  int r2_columns = static_cast<int>(r2_transposed.rows());
  while (r2_columns > 0 && r2_transposed.row(r2_columns - 1).cwiseAbs().maxCoeff() == 0)
    --r2_columns;
  if (r2_columns > 0) {
    // x₀ = Πᵀ L⁻ᵀ D⁺ L⁻¹ Π W r₂ with W r₂ = Σ_{r∈𝒜} w_r r₂,r (the whitened rows, sparse),
    // accumulated transposed: (W r₂)ᵀ gains r₂,rᵀ w_r,k in column k, a contiguous column.
    Eigen::MatrixXd W_r2_transposed = Eigen::MatrixXd::Zero(r2_columns, y.rows());
    for (int r = 0; r < static_cast<int>(active_.size()); ++r) {
      const int j = active_[r];
      for (int k = whitened_.start[j]; k < whitened_.start[j + 1]; ++k)
        W_r2_transposed.col(whitened_.index[k]) +=
            whitened_.value[k] * r2_transposed.col(r).head(r2_columns);
    }
    Eigen::MatrixXd z = M_factor_.transpositionsP() * W_r2_transposed.transpose();
    // D⁺ is zero past the last kept pivot, so only the leading block of L enters: the first
    // rows of L⁻¹ z need only L's leading block, the rest are multiplied by zero, and the
    // back substitution of a vector zero past the block stays zero there.
    const int lead = M_leading_block_;
    const auto L_lead =
        M_factor_.matrixLDLT().topLeftCorner(lead, lead).triangularView<Eigen::UnitLower>();
    auto z_lead = z.topRows(lead);
    L_lead.solveInPlace(z_lead);
    z_lead = M_pivot_inverse_.head(lead).asDiagonal() * z_lead;
    L_lead.transpose().solveInPlace(z_lead);
    z.bottomRows(z.rows() - lead).setZero();
    x = Eigen::MatrixXd::Zero(y.rows(), y.cols());
    x.leftCols(r2_columns) = M_factor_.transpositionsP().transpose() * z;
    if (N_.cols() > 0) x.noalias() += N_ * (N_.transpose() * (y - x));
  } else {
    x = N_.cols() > 0 ? Eigen::MatrixXd(N_ * (N_.transpose() * y))
                      : Eigen::MatrixXd::Zero(y.rows(), y.cols());
  }
  return P_factor_.Solve(x);  // dv = C⁻¹ x
}

Eigen::MatrixXd QpSensitivity::SolveFullKkt(const Eigen::MatrixXd& r1,
                                            const Eigen::MatrixXd& r2_transposed, int* rank) const {
  const int n = scene_->nv, na = static_cast<int>(active_.size());
  Eigen::MatrixXd kkt = Eigen::MatrixXd::Zero(n + na, n + na);
  kkt.topLeftCorner(n, n) = data_->P;
  Eigen::MatrixXd G_active(na, n);
  for (int r = 0; r < na; ++r) G_active.row(r) = data_->G.row(active_[r]);
  kkt.topRightCorner(n, na) = G_active.transpose();
  kkt.bottomLeftCorner(na, n) = G_active;
  Eigen::MatrixXd rhs(n + na, r1.cols());
  rhs.topRows(n) = r1;
  rhs.bottomRows(na) = r2_transposed.transpose();
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

Eigen::MatrixXd QpSensitivity::CostSensitivity(const Eigen::MatrixXd& r1) const {
  QUASIDYN_CHECK_ARGUMENT(r1.rows() == scene_->nv, "QpSensitivity::CostSensitivity",
                          "r1 must have n_v rows");
  const Eigen::MatrixXd r2_transposed =
      Eigen::MatrixXd::Zero(r1.cols(), static_cast<Eigen::Index>(active_.size()));
  int rank = 0;
  return range_space_ ? SolveRangeSpace(r1, r2_transposed) : SolveFullKkt(r1, r2_transposed, &rank);
}

VelocityGradient QpSensitivity::Gradient(const StepDataContraction* contraction) const {
  const int n = scene_->nv, na = static_cast<int>(active_.size());
  const int nq_dirs = contraction != nullptr ? n : 0;
  const int columns = nq_dirs + scene_->nq_a;
  Eigen::MatrixXd r1(n, columns);
  Eigen::MatrixXd r2_transposed = Eigen::MatrixXd::Zero(columns, na);  // r₂ᵀ, by active row
  if (contraction != nullptr) {
    const StepDataContraction& d = *contraction;
    if (d.d_JcT_lambda.rows() != n || d.d_JcT_lambda.cols() != n ||
        d.d_Jc_v.rows() != data_->contact_rows || d.d_phi.cols() != n)
      throw std::invalid_argument(
          "QpSensitivity::Gradient: the contraction's sizes do not "
          "match the step data");
    r1.leftCols(n) = d.d_tau_h - d.d_P_v + d.d_JcT_lambda;
    // r₂ = −do_𝒜 − dG_𝒜 v, row by row: do_ij = dφ_i/h, dG_ij v = ray_map row j · d(J_c,i v).
    // Stored transposed, so that a row of r₂ is a contiguous column.
    const double inv_h = 1.0 / time_step_;
    int next = 0;
    for (int i = 0; i < static_cast<int>(data_->contact_keys.size()) && next < na; ++i) {
      const PyramidStepData::ContactKey& key = data_->contact_keys[i];
      const int cols = static_cast<int>(key.ray_map.cols());
      for (; next < na && active_[next] < key.first_row + key.rows; ++next) {
        const int j = active_[next] - key.first_row;
        r2_transposed.col(next).head(n).noalias() =
            -inv_h * d.d_phi.row(i).transpose() -
            d.d_Jc_v.middleRows(key.first_contact_row, cols).transpose() *
                key.ray_map.row(j).transpose();
      }
    }
  }
  r1.rightCols(scene_->nq_a) = CommandForceJacobian(*scene_, time_step_);

  VelocityGradient gradient;
  gradient.active_rows = na;
  Eigen::MatrixXd dv;
  if (range_space_) {
    dv = SolveRangeSpace(r1, r2_transposed);
    gradient.kkt_rank = kkt_rank_;
  } else {
    dv = SolveFullKkt(r1, r2_transposed, &gradient.kkt_rank);
  }
  if (nq_dirs > 0) gradient.dv_dq = dv.leftCols(nq_dirs);
  gradient.dv_du = dv.rightCols(scene_->nq_a);
  return gradient;
}

}  // namespace quasidyn
