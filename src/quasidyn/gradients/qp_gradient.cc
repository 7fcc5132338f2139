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
  block_count_ = 0;
  const int n = scene.nv, m = static_cast<int>(data.G.rows());
  range_space_ = P_factor_.Factor(data.P);
  if (range_space_) {
    // The whitened rows w_j = C⁻ᵀ g_jᵀ, once: d_j = |w_j|² and M = Σ_{j∈𝒜} w_j w_jᵀ.
    P_factor_.WhitenRows(data.G, &whitened_);
    if (m > 0) {
      delassus_.resize(m);
      for (int j = 0; j < m; ++j) delassus_[j] = whitened_.SquaredNorm(j);
      slack_.noalias() = data.G * v;
      slack_ += data.offset;
      for (int j = 0; j < m; ++j)
        if (beta[j] * delassus_[j] > slack_[j]) active_.push_back(j);
    }
  } else if (m > 0) {
    active_ = SelectActive(data, v, beta, RegularizedDelassus(data));
  }
  kkt_rank_ = n;
  if (!range_space_ || active_.empty()) return;
  FindBlocks(n);
  FactorBlocks();
  for (int b = 0; b < block_count_; ++b) kkt_rank_ += blocks_[b].rank;
}

namespace {

int FindRoot(std::vector<int>* parent, int i) {
  while ((*parent)[i] != i) {
    (*parent)[i] = (*parent)[(*parent)[i]];  // path halving
    i = (*parent)[i];
  }
  return i;
}

}  // namespace

void QpSensitivity::FindBlocks(int n) {
  // Union–find over the velocities: the non-zero entries of one active whitened row are
  // joined (M couples them).
  union_parent_.resize(n);
  for (int i = 0; i < n; ++i) union_parent_[i] = i;
  block_of_.assign(n, -1);  // first: touched (0) or not (−1)
  for (int j : active_) {
    int root = -1;
    for (int e = whitened_.start[j]; e < whitened_.start[j + 1]; ++e) {
      if (whitened_.value[e] == 0.0) continue;
      const int i = whitened_.index[e];
      block_of_[i] = 0;
      const int other = FindRoot(&union_parent_, i);
      if (root < 0) {
        root = other;
      } else if (other != root) {
        union_parent_[other] = root;
      }
    }
  }
  // Number the blocks by their smallest velocity; indices come out increasing.
  place_in_block_.assign(n, -1);
  std::vector<int>& block_of_root = place_in_block_;  // reused below, per root first
  for (int i = 0; i < n; ++i) {
    if (block_of_[i] < 0) continue;
    const int root = FindRoot(&union_parent_, i);
    if (block_of_root[root] < 0) {
      block_of_root[root] = block_count_;
      if (block_count_ == static_cast<int>(blocks_.size())) blocks_.emplace_back();
      blocks_[block_count_].indices.clear();
      blocks_[block_count_].rows.clear();
      ++block_count_;
    }
    block_of_[i] = block_of_root[root];
  }
  for (int i = 0; i < n; ++i) {
    if (block_of_[i] < 0) continue;
    std::vector<int>& indices = blocks_[block_of_[i]].indices;
    indices.push_back(i);
  }
  for (int b = 0; b < block_count_; ++b) {
    const std::vector<int>& indices = blocks_[b].indices;
    for (int k = 0; k < static_cast<int>(indices.size()); ++k) place_in_block_[indices[k]] = k;
  }
  for (int r = 0; r < static_cast<int>(active_.size()); ++r) {
    const int j = active_[r];
    for (int e = whitened_.start[j]; e < whitened_.start[j + 1]; ++e) {
      if (whitened_.value[e] == 0.0) continue;
      blocks_[block_of_[whitened_.index[e]]].rows.push_back(r);
      break;
    }
    // A row with w_j = 0 adds nothing to M and nothing to W r₂: in no block.
  }
}

void QpSensitivity::FactorBlocks() {
  // W_c (the block's whitened rows as columns, dense on its velocities) and
  // M_c = W_c W_cᵀ = Σ_{j ∈ block} w_j w_jᵀ (its lower triangle, all the factorisation reads).
  double largest = 0.0;
  for (int b = 0; b < block_count_; ++b) {
    Block& block = blocks_[b];
    const int size = static_cast<int>(block.indices.size());
    const int rows = static_cast<int>(block.rows.size());
    block.W.setZero(size, rows);
    for (int q = 0; q < rows; ++q) {
      const int j = active_[block.rows[q]];
      for (int e = whitened_.start[j]; e < whitened_.start[j + 1]; ++e)
        if (whitened_.value[e] != 0.0)
          block.W(place_in_block_[whitened_.index[e]], q) = whitened_.value[e];
    }
    block.M.setZero(size, size);
    block.M.selfadjointView<Eigen::Lower>().rankUpdate(block.W);
    block.factor.compute(block.M);
    largest = std::max(largest, block.factor.vectorD().cwiseAbs().maxCoeff());
  }
  std::vector<int>& zero_pivots = zero_pivots_;
  for (int b = 0; b < block_count_; ++b) {
    Block& block = blocks_[b];
    const int size = static_cast<int>(block.indices.size());
    const auto D = block.factor.vectorD();  // a view of the factor (a VectorXd would copy it)
    // Eigen's pivoting does not always leave the zero pivots last (an exactly zero column is
    // skipped in place), so every pivot is tested.
    block.pivot_inverse.setZero(size);
    zero_pivots.clear();
    for (int i = 0; i < size; ++i) {
      if (D[i] > kRankTolerance * largest)
        block.pivot_inverse[i] = 1.0 / D[i];
      else
        zero_pivots.push_back(i);
    }
    block.rank = size - static_cast<int>(zero_pivots.size());
    block.leading = size;
    while (block.leading > 0 && block.pivot_inverse[block.leading - 1] == 0.0) --block.leading;
    if (zero_pivots.empty() || block.rank == 0) {
      // Full rank: no null space. Rank 0: x = y on the whole block (N = I, never formed).
      block.N.resize(size, 0);
      continue;
    }
    // null(M_c) = span of Πᵀ L⁻ᵀ e_k over the zero pivots k (header), independent vectors
    // (L is unit triangular); modified Gram–Schmidt, each vector orthogonalised twice ("twice
    // is enough": Giraud, Langou & Rozložník, Comput. Math. Appl. 2005), makes them an
    // orthonormal basis of that span, which is all x = N Nᵀ y reads.
    Eigen::MatrixXd& N = block.N;
    const int nullity = static_cast<int>(zero_pivots.size());
    N.setZero(size, nullity);
    for (int c = 0; c < nullity; ++c) N(zero_pivots[c], c) = 1.0;
    block.factor.matrixU().solveInPlace(N);
    N = block.factor.transpositionsP().transpose() * N;
    for (int c = 0; c < nullity; ++c) {
      for (int pass = 0; pass < 2; ++pass)
        for (int d = 0; d < c; ++d) N.col(c) -= N.col(d).dot(N.col(c)) * N.col(d);
      N.col(c).normalize();
    }
  }
}

Eigen::VectorXd QpSensitivity::ActiveContactImpulse() const {
  Eigen::VectorXd beta_active = Eigen::VectorXd::Zero(beta_.size());
  for (int j : active_) beta_active[j] = beta_[j];
  return ContactImpulseOf(*data_, beta_active);
}

void QpSensitivity::SolveBlock(const Block& block, const Eigen::MatrixXd& r2_transposed,
                               int r2_columns, Workspace* w) const {
  const int size = static_cast<int>(block.indices.size());
  Eigen::MatrixXd& x = w->x;  // y on entry
  // The right-hand sides that are non-zero on the block: r₂ ≠ 0 on its rows (these lead), or
  // y_c ≠ 0. The others have x_c = 0 = y_c already.
  std::vector<char>& r2_nonzero = w->r2_nonzero;
  r2_nonzero.assign(r2_columns, 0);
  for (int r : block.rows) {
    const double* r2 = r2_transposed.col(r).data();
    for (int t = 0; t < r2_columns; ++t)
      if (r2[t] != 0.0) r2_nonzero[t] = 1;
  }
  std::vector<int>& columns = w->columns;
  std::vector<int>& y_only = w->y_only_columns;
  columns.clear();
  y_only.clear();
  for (int t = 0; t < static_cast<int>(x.cols()); ++t) {
    if (t < r2_columns && r2_nonzero[t]) {
      columns.push_back(t);
      continue;
    }
    const double* y = x.col(t).data();
    for (int i : block.indices)
      if (y[i] != 0.0) {
        y_only.push_back(t);
        break;
      }
  }
  const int with_r2 = static_cast<int>(columns.size());
  columns.insert(columns.end(), y_only.begin(), y_only.end());
  const int count = static_cast<int>(columns.size());
  if (count == 0) return;
  Eigen::MatrixXd& x_block = w->x_block;  // x₀, then x, on the block's columns
  x_block.setZero(size, count);
  if (with_r2 > 0) {
    // W r₂ = W_c r₂,c on the block's velocities.
    const int rows = static_cast<int>(block.rows.size());
    Eigen::MatrixXd& r2_block = w->r2_block;
    r2_block.resize(rows, with_r2);
    for (int s = 0; s < with_r2; ++s)
      for (int q = 0; q < rows; ++q) r2_block(q, s) = r2_transposed(columns[s], block.rows[q]);
    Eigen::MatrixXd& z = w->z;
    z.noalias() = block.W * r2_block;
    // x₀ = Πᵀ L⁻ᵀ D⁺ L⁻¹ Π W r₂. D⁺ is zero past the last kept pivot, so only the leading
    // block of L enters: the first rows of L⁻¹ z need only L's leading block, the rest are
    // multiplied by zero, and the back substitution of a vector zero past the block stays
    // zero there.
    z = block.factor.transpositionsP() * z;
    const int lead = block.leading;
    const auto L_lead =
        block.factor.matrixLDLT().topLeftCorner(lead, lead).triangularView<Eigen::UnitLower>();
    auto z_lead = z.topRows(lead);
    L_lead.solveInPlace(z_lead);
    z_lead = block.pivot_inverse.head(lead).asDiagonal() * z_lead;
    L_lead.transpose().solveInPlace(z_lead);
    z.bottomRows(size - lead).setZero();
    x_block.leftCols(with_r2).noalias() = block.factor.transpositionsP().transpose() * z;
  }
  if (block.N.cols() > 0) {
    // x = x₀ + N Nᵀ (y − x₀).
    Eigen::MatrixXd& y_block = w->y_block;
    y_block.resize(size, count);
    for (int s = 0; s < count; ++s)
      for (int k = 0; k < size; ++k) y_block(k, s) = x(block.indices[k], columns[s]);
    y_block -= x_block;
    w->null_coordinates.noalias() = block.N.transpose() * y_block;
    x_block.noalias() += block.N * w->null_coordinates;
  }
  for (int s = 0; s < count; ++s)
    for (int k = 0; k < size; ++k) x(block.indices[k], columns[s]) = x_block(k, s);
}

void QpSensitivity::SolveRangeSpace(const Eigen::MatrixXd& r1, const Eigen::MatrixXd& r2_transposed,
                                    int r2_columns, Workspace* w) const {
  Eigen::MatrixXd& x = w->x;
  x = r1;
  P_factor_.SolveTransposeInPlace(&x);  // y = C⁻ᵀ r₁; x = y where no block reaches
  for (int b = 0; b < block_count_; ++b)
    if (blocks_[b].rank > 0) SolveBlock(blocks_[b], r2_transposed, r2_columns, w);
  P_factor_.SolveInPlace(&x);  // dv = C⁻¹ x
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
  Workspace w;
  SolveRangeSpace(r1, r2_transposed, 0, &w);
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
  // r₂ᵀ, by active row; r₂ is zero for the command's columns, which are not stored.
  Eigen::MatrixXd& r2_transposed = w->r2_transposed;
  r2_transposed.resize(nq_dirs, na);
  if (contraction != nullptr) {
    const StepDataContraction& d = *contraction;
    if (d.d_JcT_lambda.rows() != n || d.d_JcT_lambda.cols() != n ||
        d.d_Jc_v.rows() != data_->contact_rows || d.d_phi.cols() != n)
      throw std::invalid_argument(
          "QpSensitivity::Gradient: the contraction's sizes do not "
          "match the step data");
    r1.leftCols(n) = d.d_tau_h - d.d_P_v + d.d_JcT_lambda;
    // r₂ = −do_𝒜 − dG_𝒜 v, row by row: do_ij = dφ_i/h, dG_ij v = ray_map row j · d(J_c,i v).
    // Stored transposed, so that a row of r₂ is a contiguous column. A direction that does not
    // move contact i has dφ_i = 0 and d(J_c,i v) = 0 (contact_data_derivative.h): skipped.
    const double inv_h = 1.0 / time_step_;
    int next = 0;
    for (int i = 0; i < static_cast<int>(data_->contact_keys.size()) && next < na; ++i) {
      const PyramidStepData::ContactKey& key = data_->contact_keys[i];
      const int cols = static_cast<int>(key.ray_map.cols());
      const int first = next;
      while (next < na && active_[next] < key.first_row + key.rows) ++next;
      if (next == first) continue;
      for (int t = 0; t < n; ++t) {
        const double d_phi = d.d_phi(i, t);
        double d_Jc_v[3] = {0.0, 0.0, 0.0};
        bool moved = d_phi != 0.0;
        for (int c = 0; c < cols; ++c) {
          d_Jc_v[c] = d.d_Jc_v(key.first_contact_row + c, t);
          moved = moved || d_Jc_v[c] != 0.0;
        }
        for (int a = first; a < next; ++a) {
          if (!moved) {
            r2_transposed(t, a) = 0.0;
            continue;
          }
          const int j = active_[a] - key.first_row;
          double dG_v = 0.0;
          for (int c = 0; c < cols; ++c) dG_v += key.ray_map(j, c) * d_Jc_v[c];
          r2_transposed(t, a) = -inv_h * d_phi - dG_v;
        }
      }
    }
    // The joint-limit rows: dG_l = 0 and do_l = G_l/h (step_data_derivative.h), r₂ = −G_l/h.
    for (; next < na; ++next)
      r2_transposed.col(next).head(n) = -inv_h * data_->G.row(active_[next]).transpose();
  }
  r1.rightCols(scene_->nq_a) = CommandForceJacobian(*scene_, time_step_);

  out->ok = true;
  out->failure.clear();
  out->active_rows = na;
  Eigen::MatrixXd& dv = w->x;
  if (range_space_) {
    SolveRangeSpace(r1, r2_transposed, nq_dirs, w);  // dv = P⁻¹ r₁ when no row is active
    out->kkt_rank = kkt_rank_;
  } else {
    dv = SolveFullKkt(r1, r2_transposed, &out->kkt_rank);
  }
  if (nq_dirs > 0)
    out->dv_dq = dv.leftCols(nq_dirs);
  else
    out->dv_dq.resize(0, 0);
  out->dv_du = dv.rightCols(scene_->nq_a);
}

}  // namespace quasidyn
