#include "quasidyn/formulations/programs/qp_gradient.h"

#include <Eigen/QR>
#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

#include "quasidyn/common/argument_check.h"

namespace quasidyn {
namespace {

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

}  // namespace

std::vector<int> ActivePyramidRows(const PyramidStepData& data, const Eigen::VectorXd& v,
                                   const Eigen::VectorXd& beta) {
  CheckSizes(data, v, beta);
  if (data.G.rows() == 0) return {};
  PositiveDefiniteFactor factor;
  return SelectActive(data, v, beta,
                      factor.Factor(data.P) ? DelassusDiagonal(data, factor)
                                            : RegularizedInverseQuadraticForms(data.P, data.G));
}

QpSensitivity::QpSensitivity(const Scene* scene_pointer, double time_step,
                             const PyramidStepData* data_pointer, const Eigen::VectorXd& v,
                             const Eigen::VectorXd& beta) {
  Compute(scene_pointer, time_step, data_pointer, v, beta);
}

void QpSensitivity::Compute(const Scene* scene_pointer, double time_step,
                            const PyramidStepData* data_pointer, const Eigen::VectorXd& v,
                            const Eigen::VectorXd& beta) {
  QUASIDYN_CHECK_ARGUMENT(scene_pointer != nullptr && data_pointer != nullptr, "QpSensitivity",
                          "scene and data must not be null");
  const Scene& scene = *scene_pointer;
  const PyramidStepData& data = *data_pointer;
  CheckSizes(data, v, beta);
  QUASIDYN_CHECK_ARGUMENT(
      data.G_rows.rows() == data.G.rows() && data.G_rows.cols() == data.G.cols(), "QpSensitivity",
      "the data's G_rows must hold G's non-zeros (BuildPyramidStepData)");
  if (data.P.rows() != scene.nv)
    throw std::invalid_argument("QpSensitivity: the data has " + std::to_string(data.P.rows()) +
                                " velocities, the scene " + std::to_string(scene.nv));
  if (!(time_step > 0) || !std::isfinite(time_step))
    throw std::invalid_argument("QpSensitivity: time step must be finite and > 0");
  scene_ = scene_pointer;
  time_step_ = time_step;
  data_ = data_pointer;
  beta_ = beta;
  active_.clear();
  const int m = static_cast<int>(data.G.rows());
  range_space_ = kkt_.FactorCostReusing(data.P);  // the factor kept while P is unchanged
  if (range_space_) {
    // The whitened rows w_j = C⁻ᵀ g_jᵀ, once: d_j = |w_j|² and M = Σ_{j∈𝒜} w_j w_jᵀ. (Not kept
    // between calls: G changes with q, so only a second call at the same state would gain.)
    kkt_.cost_factor().WhitenRows(data.G_rows, &whitened_);
    delassus_.resize(m);
    for (int j = 0; j < m; ++j) delassus_[j] = whitened_.SquaredNorm(j);
    if (m > 0) {
      // s = G v + o from G's non-zeros (a pyramid row touches two bodies' velocities).
      slack_.resize(m);
      for (int j = 0; j < m; ++j) {
        double sum = 0.0;
        for (int k = data.G_rows.row_start(j); k < data.G_rows.row_start(j + 1); ++k)
          sum += data.G_rows.value(k) * v[data.G_rows.column(k)];
        slack_[j] = sum + data.offset[j];
      }
      for (int j = 0; j < m; ++j)
        if (beta[j] * delassus_[j] > slack_[j]) active_.push_back(j);
    }
  } else if (m > 0) {
    active_ = SelectActive(data, v, beta, RegularizedInverseQuadraticForms(data.P, data.G));
  }
  if (range_space_) kkt_.FactorRows(whitened_, active_);
}

Eigen::VectorXd QpSensitivity::ActiveContactImpulse() const {
  Eigen::VectorXd beta_active = Eigen::VectorXd::Zero(beta_.size());
  for (int j : active_) beta_active[j] = beta_[j];
  return ContactImpulseOf(*data_, beta_active);
}

const Eigen::VectorXd& QpSensitivity::ActiveContactImpulseInPlace() {
  beta_active_.setZero(beta_.size());
  for (int j : active_) beta_active_[j] = beta_[j];
  ContactImpulseOf(*data_, beta_active_, &active_impulse_);
  return active_impulse_;
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
  rhs.bottomRows(na).setZero();
  rhs.bottomLeftCorner(na, r2_transposed.rows()) = r2_transposed.transpose();
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
  // r₂ = 0: no column of r₂ᵀ is stored.
  const Eigen::MatrixXd r2_transposed(0, static_cast<Eigen::Index>(active_.size()));
  if (!range_space_) {
    int rank = 0;
    return SolveFullKkt(r1, r2_transposed, &rank);
  }
  RangeSpaceKkt::Workspace w;
  kkt_.Solve(r1, r2_transposed, 0, &w);
  return w.x;
}

VelocityGradient QpSensitivity::Gradient(const StepDataContraction* contraction) const {
  Workspace w;
  VelocityGradient gradient;
  GradientInto(contraction, &w, &gradient);
  return gradient;
}

void QpSensitivity::Gradient(const StepDataContraction* contraction, VelocityGradient* out) {
  GradientInto(contraction, &workspace_, out);
}

void QpSensitivity::GradientInto(const StepDataContraction* contraction, Workspace* w,
                                 VelocityGradient* out) const {
  QUASIDYN_CHECK_ARGUMENT(scene_ != nullptr, "QpSensitivity::Gradient", "nothing computed yet");
  const int n = scene_->nv, na = static_cast<int>(active_.size());
  const int nq_dirs = contraction != nullptr ? n : 0;
  const int columns = nq_dirs + scene_->nq_a;
  Eigen::MatrixXd& r1 = w->r1;
  r1.resize(n, columns);
  // r₂ᵀ by active row (RangeSpaceKkt::R2Rows): row a holds r₂(a, t) for the directions t that
  // move its contact (the key's columns) only; r₂ is zero for the command's columns.
  RangeSpaceKkt::R2Rows& r2 = w->r2_rows;
  r2.start.assign(1, 0);
  r2.index.clear();
  r2.value.clear();
  int entries = 0;  // filled: r2.index[0 … entries − 1], r2.value likewise
  if (contraction != nullptr) {
    const StepDataContraction& d = *contraction;
    if (d.d_JcT_lambda.rows() != n || d.d_JcT_lambda.cols() != n ||
        d.d_Jc_v.rows() != data_->contact_rows || d.d_phi.cols() != n)
      throw std::invalid_argument(
          "QpSensitivity::Gradient: the contraction's sizes do not "
          "match the step data");
    r1.leftCols(n) = d.d_tau_h - d.d_P_v + d.d_JcT_lambda;
    // r₂ = −do_𝒜 − dG_𝒜 v, row by row: do_ij = dφ_i/h, dG_ij v = ray_map row j · d(J_c,i v).
    // A direction that does not move contact i (not one of key.columns) has dφ_i = 0 and
    // d(J_c,i v) = 0 (contact_data_derivative.h): no entry.
    const double inv_h = 1.0 / time_step_;
    int next = 0;
    for (int i = 0; i < static_cast<int>(data_->contact_keys.size()) && next < na; ++i) {
      const PyramidStepData::ContactKey& key = data_->contact_keys[i];
      const int cols = static_cast<int>(key.ray_map.cols());
      const int first = next;
      while (next < na && active_[next] < key.first_row + key.rows) ++next;
      if (next == first) continue;
      // The contact's rates along each of its directions, once for all its active rows.
      std::vector<ContactRate>& rates = w->rates;
      rates.clear();
      for (const int t : key.columns) {
        ContactRate rate{t, d.d_phi(i, t), {0.0, 0.0, 0.0}, 0.0};
        bool moved = rate.d_phi != 0.0;
        for (int c = 0; c < cols; ++c) {
          rate.d_Jc_v[c] = d.d_Jc_v(key.first_contact_row + c, t);
          moved = moved || rate.d_Jc_v[c] != 0.0;
        }
        rate.minus_d_phi_over_h = -inv_h * rate.d_phi;
        if (moved) rates.push_back(rate);
      }
      // Room for the contact's rows at once (no growth check per entry).
      const size_t needed = static_cast<size_t>(entries) + (next - first) * rates.size();
      if (r2.index.size() < needed) {
        r2.index.resize(needed);
        r2.value.resize(needed);
      }
      int* index = r2.index.data();
      double* value = r2.value.data();
      for (int a = first; a < next; ++a) {
        // The row's ray coefficients, zero past cols (d(J_c,i v) is too, and a zero term leaves
        // the sum as it is: the same value as the sum over cols terms).
        const int j = active_[a] - key.first_row;
        double ray[3] = {0.0, 0.0, 0.0};
        for (int c = 0; c < cols; ++c) ray[c] = key.ray_map(j, c);
        for (const ContactRate& rate : rates) {
          const double dG_v =
              0.0 + ray[0] * rate.d_Jc_v[0] + ray[1] * rate.d_Jc_v[1] + ray[2] * rate.d_Jc_v[2];
          index[entries] = rate.direction;
          value[entries] = rate.minus_d_phi_over_h - dG_v;
          ++entries;
        }
        r2.start.push_back(entries);
      }
    }
    // The joint-limit rows: dG_l = 0 and do_l = G_l/h (step_data_derivative.h), r₂ = −G_l/h
    // on the row's non-zeros.
    r2.index.resize(entries);
    r2.value.resize(entries);
    for (; next < na; ++next) {
      const int l = active_[next];
      for (int k = data_->G_rows.row_start(l); k < data_->G_rows.row_start(l + 1); ++k) {
        r2.index.push_back(data_->G_rows.column(k));
        r2.value.push_back(-inv_h * data_->G_rows.value(k));
      }
      r2.start.push_back(static_cast<int>(r2.index.size()));
    }
  } else {
    r2.start.assign(na + 1, 0);  // B only: r₂ = 0
  }
  WriteCommandForceJacobian(*scene_, time_step_, r1.rightCols(scene_->nq_a));

  out->ok = true;
  out->failure.clear();
  out->active_rows = na;
  Eigen::MatrixXd& dv = w->solve.x;
  if (range_space_) {
    kkt_.Solve(r1, r2, nq_dirs, &w->solve);  // dv = P⁻¹ r₁ when no row is active
    out->kkt_rank = n + kkt_.rank();
  } else {
    // r₂ᵀ dense (nq_dirs × |𝒜|) for the whole KKT system.
    Eigen::MatrixXd& r2_transposed = w->r2_transposed;
    r2_transposed.setZero(nq_dirs, na);
    for (int a = 0; a < na; ++a)
      for (int e = r2.start[a]; e < r2.start[a + 1]; ++e)
        r2_transposed(r2.index[e], a) = r2.value[e];
    dv = SolveFullKkt(r1, r2_transposed, &out->kkt_rank);
  }
  if (nq_dirs > 0)
    out->dv_dq = dv.leftCols(nq_dirs);
  else
    out->dv_dq.resize(0, 0);
  out->dv_du = dv.rightCols(scene_->nq_a);
}

}  // namespace quasidyn
