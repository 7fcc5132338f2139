#include "quasidyn/formulations/programs/socp_gradient.h"

#include <Eigen/Cholesky>
#include <Eigen/QR>
#include <algorithm>
#include <cmath>
#include <span>
#include <stdexcept>
#include <string>

#include "quasidyn/gradients/positive_definite_factor.h"
#include "quasidyn/gradients/range_space_kkt.h"

namespace quasidyn {

ConeCase ClassifyCone(Eigen::Ref<const Eigen::VectorXd> w, Eigen::MatrixXd* projection_jacobian) {
  const int m = static_cast<int>(w.size());
  if (m < 1) throw std::invalid_argument("ClassifyCone: w must have at least one entry");
  const double w0 = w[0];
  const double radius = m > 1 ? w.tail(m - 1).norm() : 0.0;
  const double sigma1 = w0 - radius, sigma2 = w0 + radius;
  ConeCase which;
  if (sigma1 > 0)
    which = ConeCase::kSticking;
  else if (sigma2 <= 0)
    which = ConeCase::kSeparated;
  else
    which = ConeCase::kSliding;  // then radius > 0 (σ₁ <= 0 < σ₂)
  if (projection_jacobian != nullptr) {
    Eigen::MatrixXd& D = *projection_jacobian;
    if (which == ConeCase::kSticking) {
      D = Eigen::MatrixXd::Identity(m, m);
    } else if (which == ConeCase::kSeparated) {
      D = Eigen::MatrixXd::Zero(m, m);
    } else {  // Agrawal et al. 2019, §A: DΠ_K(w) for −‖w₁‖ < w₀ <= ‖w₁‖
      const Eigen::VectorXd direction = w.tail(m - 1) / radius;
      const double ratio = w0 / radius;
      D.resize(m, m);
      D(0, 0) = 0.5;
      D.block(0, 1, 1, m - 1) = 0.5 * direction.transpose();
      D.block(1, 0, m - 1, 1) = 0.5 * direction;
      D.bottomRightCorner(m - 1, m - 1) =
          0.5 * ((1.0 + ratio) * Eigen::MatrixXd::Identity(m - 1, m - 1) -
                 ratio * direction * direction.transpose());
    }
  }
  return which;
}

void SplitCone(Eigen::Ref<const Eigen::VectorXd> w, ConeDirections* out) {
  const int m = static_cast<int>(w.size());
  const ConeCase which = ClassifyCone(w);
  if (which != ConeCase::kSliding) {
    out->held.setIdentity(m, which == ConeCase::kSticking ? m : 0);
    out->curved.resize(m, 0);
    out->lambda.resize(0);
    out->gap.resize(0);
    return;
  }
  // Sliding (m >= 2, ‖w₁‖ > 0): (1, ŵ)/√2 held; the tangential directions (0, t), t ⊥ ŵ, from
  // Gram–Schmidt (twice) on the axes, with λ = ½(1 + w₀/‖w₁‖), 1 − λ = (‖w₁‖ − w₀)/(2‖w₁‖).
  const double radius = w.tail(m - 1).norm();
  const double lambda = 0.5 * (radius + w[0]) / radius;
  const double gap = 0.5 * (radius - w[0]) / radius;
  const bool hold_tangents = gap <= kNearStickingGap;
  out->held.setZero(m, hold_tangents ? m - 1 : 1);
  out->held(0, 0) = std::sqrt(0.5);
  out->held.col(0).tail(m - 1) = (std::sqrt(0.5) / radius) * w.tail(m - 1);
  Eigen::MatrixXd& tangents = hold_tangents ? out->held : out->curved;
  const int offset = hold_tangents ? 1 : 0;
  const int curved = hold_tangents ? 0 : m - 2;
  out->curved.setZero(m, curved);
  out->lambda.setConstant(curved, lambda);
  out->gap.setConstant(curved, gap);
  // Column offset + k − 1 holds the k-th tangent (k >= 1); the span so far starts with ŵ.
  const auto direction = out->held.col(0).tail(m - 1) * std::sqrt(2.0);
  int found = 0;
  for (int axis = 0; axis < m - 1 && found < m - 2; ++axis) {
    auto t = tangents.col(offset + found).tail(m - 1);  // a candidate, in place
    t.setZero();
    t[axis] = 1.0;
    for (int pass = 0; pass < 2; ++pass) {
      t -= direction.dot(t) * direction;
      for (int c = 0; c < found; ++c) {
        const auto previous = tangents.col(offset + c).tail(m - 1);
        t -= previous.dot(t) * previous;
      }
    }
    const double norm = t.norm();
    if (norm < 0.5) continue;  // (nearly) in the span so far; another axis is not
    t /= norm;
    ++found;
  }
  if (found < m - 2) tangents.col(offset + found).setZero();  // a rejected last candidate
}

namespace {

// g P⁻¹ gᵀ for every row g of G (its non-zeros by row, n columns) into *forms: by P's block
// factor when P is positive definite (*factor and *whitened keep the work), else regularised
// (positive_definite_factor.h) from G made dense in *dense.
void InverseQuadraticForms(const Eigen::MatrixXd& P, const SparseRowMatrix& G,
                           PositiveDefiniteFactor* factor,
                           PositiveDefiniteFactor::SparseRows* whitened, Eigen::MatrixXd* dense,
                           Eigen::VectorXd* forms) {
  if (G.rows() == 0) {
    forms->resize(0);
    return;
  }
  if (factor->Factor(P)) {
    factor->WhitenRows(G, whitened);
    forms->resize(G.rows());
    for (int j = 0; j < G.rows(); ++j) (*forms)[j] = whitened->SquaredNorm(j);
    return;
  }
  G.ToDense(dense);
  *forms = RegularizedInverseQuadraticForms(P, *dense);
}

// Appends the non-zeros of `row` as a row of *out.
void AppendNonZeros(const Eigen::Ref<const Eigen::RowVectorXd, 0, Eigen::InnerStride<>>& row,
                    SparseRowMatrix* out) {
  out->AppendRow();
  for (int c = 0; c < row.size(); ++c) out->AppendNonZero(c, row[c]);
}

// The blocks' A_b stacked (Σ m_b × n_v) into *A, in block order, and their first rows.
void StackedBlockJacobians(const ContactSet& contacts, const std::vector<ContactConeBlock>& blocks,
                           std::vector<int>* offset, Eigen::MatrixXd* A) {
  offset->assign(blocks.size() + 1, 0);
  for (size_t b = 0; b < blocks.size(); ++b)
    (*offset)[b + 1] = (*offset)[b] + static_cast<int>(blocks[b].R.rows());
  A->setZero(offset->back(), contacts.nv());
  const int nt = contacts.tangent_count();
  double column[3];  // J_c,i's column: (J_n, J_t) entries, 1 + n_t <= 3
  for (size_t b = 0; b < blocks.size(); ++b) {
    const ContactConeBlock& block = blocks[b];
    const std::span<const int> columns = contacts.Columns(block.contact);
    const ContactSet::RowMap J_n = contacts.NormalJacobian(block.contact);
    const ContactSet::RowsMap J_t = contacts.TangentJacobian(block.contact);
    for (int c = 0; c < static_cast<int>(columns.size()); ++c) {
      column[0] = J_n[c];
      for (int t = 0; t < nt; ++t) column[1 + t] = J_t(t, c);
      for (int i = 0; i < block.R.rows(); ++i) {  // (R_b column)_i, summed in order
        double sum = 0.0;
        for (int j = 0; j <= nt; ++j) sum += block.R(i, j) * column[j];
        (*A)((*offset)[b] + i, columns[c]) = sum;
      }
    }
  }
}

// d_b = trace(A_b P⁻¹ A_bᵀ)/m_b from the rows' forms (1 when not positive and finite).
void ScalesOf(const Eigen::VectorXd& forms, const std::vector<int>& offset,
              std::vector<double>* scales) {
  scales->clear();
  for (size_t b = 0; b + 1 < offset.size(); ++b) {
    const int mb = offset[b + 1] - offset[b];
    const double trace = forms.segment(offset[b], mb).sum() / mb;
    scales->push_back(trace > 0 && std::isfinite(trace) ? trace : 1.0);
  }
}

// R₂ rows are written in place: StartR2Rows makes room for `bound` entries (more than all rows
// will hold), each Append… writes its row at the end of the last one, FinishR2Rows trims.
void StartR2Rows(size_t bound, RangeSpaceKkt::R2Rows* r2) {
  r2->start.assign(1, 0);
  if (r2->index.size() < bound) {
    r2->index.resize(bound);
    r2->value.resize(bound);
  }
}

void FinishR2Rows(RangeSpaceKkt::R2Rows* r2) {
  r2->index.resize(r2->start.back());
  r2->value.resize(r2->start.back());
}

// Appends to *r2 a row with values[s] on the directions columns[s] (exact zeros left out: the
// solve skips them).
void AppendR2Row(std::span<const int> columns, const double* values, RangeSpaceKkt::R2Rows* r2) {
  int at = r2->start.back();
  int* const index = r2->index.data();
  double* const value = r2->value.data();
  for (size_t s = 0; s < columns.size(); ++s)
    if (values[s] != 0.0) {
      index[at] = columns[s];
      value[at] = values[s];
      ++at;
    }
  r2->start.push_back(at);
}

// Appends to *r2 the row r₂,l = ∂g_l/∂ε = −G_l/h at fixed v (joint-limit row G_l, h [s] > 0).
void AppendLimitR2Row(const Eigen::Ref<const Eigen::RowVectorXd, 0, Eigen::InnerStride<>>& G_l,
                      double time_step, RangeSpaceKkt::R2Rows* r2) {
  int at = r2->start.back();
  for (int c = 0; c < G_l.size(); ++c)
    if (G_l[c] != 0.0) {
      r2->index[at] = c;
      r2->value[at] = -G_l[c] / time_step;
      ++at;
    }
  r2->start.push_back(at);
}

}  // namespace

std::vector<double> DelassusScales(const StepProblem& problem,
                                   const std::vector<ContactConeBlock>& blocks) {
  if (blocks.empty()) return {};
  std::vector<int> offset;
  Eigen::MatrixXd A;
  StackedBlockJacobians(problem.contacts, blocks, &offset, &A);
  PositiveDefiniteFactor factor;
  PositiveDefiniteFactor::SparseRows whitened;
  Eigen::MatrixXd dense;
  Eigen::VectorXd forms;
  InverseQuadraticForms(problem.cost.P.ToDense(), SparseRowMatrix::FromDense(A), &factor, &whitened,
                        &dense, &forms);
  std::vector<double> scales;
  ScalesOf(forms, offset, &scales);
  return scales;
}

namespace {

void CheckBlocks(const StepProblem& problem, const std::vector<ContactConeBlock>& blocks,
                 const std::vector<Eigen::VectorXd>& multipliers, const Eigen::VectorXd& v) {
  if (v.size() != problem.scene.nv)
    throw std::invalid_argument("SocpVelocityGradient: v has size " + std::to_string(v.size()) +
                                ", n_v = " + std::to_string(problem.scene.nv));
  if (multipliers.size() != blocks.size())
    throw std::invalid_argument("SocpVelocityGradient: " + std::to_string(multipliers.size()) +
                                " multipliers for " + std::to_string(blocks.size()) + " blocks");
  for (size_t b = 0; b < blocks.size(); ++b)
    if (multipliers[b].size() != blocks[b].R.rows())
      throw std::invalid_argument("SocpVelocityGradient: multiplier of block " + std::to_string(b) +
                                  " has size " + std::to_string(multipliers[b].size()) +
                                  ", the block has " + std::to_string(blocks[b].R.rows()) +
                                  " rows");
}

// w_b = d_b y_b − u_b for every block, stacked in block order (Σ m_b), into *w; *gap keeps
// the stacked gap velocities.
void ComplementarityPoints(const StepProblem& problem, const std::vector<ContactConeBlock>& blocks,
                           const std::vector<Eigen::VectorXd>& multipliers,
                           const Eigen::VectorXd& v, const std::vector<double>& scales,
                           Eigen::VectorXd* gap, Eigen::VectorXd* w) {
  GapVelocities(problem.contacts, v, problem.time_step, gap);
  int rows = 0;
  for (const ContactConeBlock& block : blocks) rows += static_cast<int>(block.R.rows());
  w->resize(rows);
  for (size_t b = 0, first = 0; b < blocks.size(); ++b) {
    const ContactConeBlock& block = blocks[b];
    const int mb = static_cast<int>(block.R.rows());
    const int nr = static_cast<int>(block.R.cols());
    const double* const c = gap->data() + block.first_row;
    for (int i = 0; i < mb; ++i) {  // −(R_b c_i)_i + d_b y_b,i
      double u = 0.0;
      for (int j = 0; j < nr; ++j) u += block.R(i, j) * c[j];
      (*w)[first + i] = -u + scales[b] * multipliers[b][i];
    }
    first += mb;
  }
}

}  // namespace

std::vector<ConeCase> ClassifySocpBlocks(const StepProblem& problem,
                                         const std::vector<ContactConeBlock>& blocks,
                                         const std::vector<Eigen::VectorXd>& multipliers,
                                         const Eigen::VectorXd& v) {
  CheckBlocks(problem, blocks, multipliers, v);
  const std::vector<double> scales = DelassusScales(problem, blocks);
  Eigen::VectorXd gap, w;
  ComplementarityPoints(problem, blocks, multipliers, v, scales, &gap, &w);
  std::vector<ConeCase> cases;
  for (size_t b = 0, first = 0; b < blocks.size(); first += blocks[b].R.rows(), ++b)
    cases.push_back(ClassifyCone(w.segment(first, blocks[b].R.rows())));
  return cases;
}

void SocpSensitivity::CompactBlockJacobians(const ContactSet& contacts,
                                            const std::vector<ContactConeBlock>& blocks) {
  const size_t nb = blocks.size();
  offset_.assign(nb + 1, 0);
  columns_start_.assign(nb + 1, 0);
  compact_offset_.assign(nb + 1, 0);
  columns_.clear();
  for (size_t b = 0; b < nb; ++b) {
    const std::span<const int> columns = contacts.Columns(blocks[b].contact);
    const int mb = static_cast<int>(blocks[b].R.rows()), k = static_cast<int>(columns.size());
    offset_[b + 1] = offset_[b] + mb;
    columns_start_[b + 1] = columns_start_[b] + k;
    compact_offset_[b + 1] = compact_offset_[b] + mb * k;
    columns_.insert(columns_.end(), columns.begin(), columns.end());
  }
  A_compact_.resize(compact_offset_.back());
  const int nt = contacts.tangent_count();
  for (size_t b = 0; b < nb; ++b) {
    const ContactConeBlock& block = blocks[b];
    const int mb = static_cast<int>(block.R.rows());
    double R[3][3];  // R_b (m_b, 1 + n_t <= 3)
    for (int i = 0; i < mb; ++i)
      for (int j = 0; j <= nt; ++j) R[i][j] = block.R(i, j);
    const int k = columns_start_[b + 1] - columns_start_[b];
    // J_c,i on its columns: row 0 J_n, rows 1 … n_t J_t (each k long, consecutive).
    const double* const J = contacts.NormalJacobian(block.contact).data();
    double* const A = A_compact_.data() + compact_offset_[b];
    for (int i = 0; i < mb; ++i) {  // A_b row i = Σ_j R_ij J_c,i row j, summed in order of j
      double* const row = A + i * k;
      for (int c = 0; c < k; ++c) row[c] = R[i][0] * J[c];
      for (int j = 1; j <= nt; ++j)
        for (int c = 0; c < k; ++c) row[c] += R[i][j] * J[j * k + c];
    }
  }
}

// [P, −Aᵀ D̃; A, I − D] with rows, then columns, scaled to unit ∞-norm, and the minimum-norm
// solution by a complete orthogonal decomposition (header).
Eigen::MatrixXd SocpSensitivity::FullKktVelocities(const Eigen::MatrixXd& r1, int r2_columns,
                                                   int* rank) const {
  const int n = n_, mc = offset_.back(), nl = static_cast<int>(G_limits_.rows());
  const int m = mc + nl;
  Eigen::MatrixXd kkt = Eigen::MatrixXd::Zero(n + m, n + m);
  kkt.topLeftCorner(n, n) = P_;
  Eigen::MatrixXd rows, D;
  rows_sparse_.ToDense(&rows);  // [A; G_limits]
  for (size_t b = 0; b + 1 < offset_.size(); ++b) {
    const int first = offset_[b], mb = offset_[b + 1] - first;
    ClassifyCone(w_.segment(first, mb), &D);
    const auto A = rows.middleRows(first, mb);
    kkt.block(0, n + first, n, mb) = -A.transpose() * D / scales_[b];
    kkt.block(n + first, 0, mb, n) = A;
    kkt.block(n + first, n + first, mb, mb) = Eigen::MatrixXd::Identity(mb, mb) - D;
  }
  for (int l = 0; l < nl; ++l) {
    const int row = n + mc + l;
    kkt.block(0, row, n, 1) =
        -G_limits_.row(l).transpose() * (limit_active_[l] ? 1.0 / limit_scales_[l] : 0.0);
    kkt.block(row, 0, 1, n) = G_limits_.row(l);
    kkt(row, row) = limit_active_[l] ? 0.0 : 1.0;
  }
  Eigen::MatrixXd rhs = Eigen::MatrixXd::Zero(n + m, r1.cols());
  rhs.topRows(n) = r1;
  if (r2_columns > 0) {  // r₂: the blocks' rows on their contacts' directions, the limits' −G_l/h
    for (size_t b = 0; b + 1 < offset_.size(); ++b) {
      const int k = columns_start_[b + 1] - columns_start_[b];
      for (int i = 0; i < offset_[b + 1] - offset_[b]; ++i)
        for (int s = 0; s < k; ++s)
          rhs(n + offset_[b] + i, columns_[columns_start_[b] + s]) =
              r2_compact_[compact_offset_[b] + i * k + s];
    }
    rhs.bottomLeftCorner(nl, r2_columns) = -G_limits_.leftCols(r2_columns) / time_step_;
  }
  Eigen::VectorXd row_scale(n + m), column_scale(n + m);
  for (int i = 0; i < n + m; ++i) {
    const double norm = kkt.row(i).lpNorm<Eigen::Infinity>();
    row_scale[i] = norm > 0 ? 1.0 / norm : 1.0;
  }
  Eigen::MatrixXd scaled = row_scale.asDiagonal() * kkt;
  for (int j = 0; j < n + m; ++j) {
    const double norm = scaled.col(j).lpNorm<Eigen::Infinity>();
    column_scale[j] = norm > 0 ? 1.0 / norm : 1.0;
  }
  scaled = scaled * column_scale.asDiagonal();
  const Eigen::CompleteOrthogonalDecomposition<Eigen::MatrixXd> cod(scaled);
  *rank = static_cast<int>(cod.rank());
  return (column_scale.asDiagonal() * cod.solve(row_scale.asDiagonal() * rhs)).topRows(n);
}

VelocityGradient SocpSensitivity::SolveFullKkt() const {
  VelocityGradient gradient;
  const Eigen::MatrixXd solution = FullKktVelocities(r1_, nq_dirs_, &gradient.kkt_rank);
  const int n = n_;
  if (nq_dirs_ > 0) gradient.dv_dq = solution.topLeftCorner(n, nq_dirs_);
  gradient.dv_du = solution.topRightCorner(n, r1_.cols() - nq_dirs_);
  return gradient;
}

// The same system reduced to the equality-constrained one of range_space_kkt.h (header):
// every block's D_b = Σ_i λ_i q_i q_iᵀ splits into held directions (λ = 1: the rows
// q_iᵀA_b dv = q_iᵀ r₂,b of E), free ones (λ = 0: nothing) and the sliding cones' tangential
// directions, curvature k_i a_i a_iᵀ in H with a_i = A_bᵀ q_i and k_i = λ_i/(d_b(1 − λ_i)),
// and k_i a_i q_iᵀ r₂,b in r₁. Returns false when H = P + Σ k_i a_i a_iᵀ is not factored.
bool SocpSensitivity::SolveRangeSpace(VelocityGradient* gradient) {
  const int n = n_, nl = static_cast<int>(G_limits_.rows()), mc = offset_.back();
  // Every held direction a whole row of [A; G_limits] and no curvature (no sliding cone of
  // m_b >= 2: half lines and sticking cones only, e.g. every planar scene): H = P, whose factor
  // and whitened rows Compute made; E is the held rows of those, in the order below.
  const bool whole_rows = std::none_of(cases_.begin(), cases_.end(),
                                       [](ConeCase c) { return c == ConeCase::kSliding; });
  if (cost_is_P_ && whole_rows && kkt_.FactorCostReusing(P_)) {  // the same factor as P_factor_
    held_rows_.clear();
    for (size_t b = 0; b + 1 < offset_.size(); ++b)
      if (cases_[b] == ConeCase::kSticking)
        for (int i = offset_[b]; i < offset_[b + 1]; ++i) held_rows_.push_back(i);
    for (int l = 0; l < nl; ++l)
      if (limit_active_[l]) held_rows_.push_back(mc + l);
    const int held = static_cast<int>(held_rows_.size());
    kkt_.FactorRows(whitened_, held_rows_);
    StartR2Rows(nq_dirs_ > 0 ? r2_compact_.size() + static_cast<size_t>(nl) * n : 0, &r2_rows_);
    if (nq_dirs_ == 0) {
      r2_rows_.start.assign(held + 1, 0);
    } else {
      for (size_t b = 0; b + 1 < offset_.size(); ++b) {
        if (cases_[b] != ConeCase::kSticking) continue;
        const std::span<const int> columns(columns_.data() + columns_start_[b],
                                           columns_start_[b + 1] - columns_start_[b]);
        for (int i = 0; i < offset_[b + 1] - offset_[b]; ++i)
          AppendR2Row(columns, r2_compact_.data() + compact_offset_[b] + i * columns.size(),
                      &r2_rows_);
      }
      for (int l = 0; l < nl; ++l)
        if (limit_active_[l]) AppendLimitR2Row(G_limits_.row(l), time_step_, &r2_rows_);
    }
    FinishR2Rows(&r2_rows_);
    kkt_.Solve(r1_, r2_rows_, nq_dirs_, &workspace_);
    return FinishRangeSpace(held, gradient);
  }
  H_ = P_;
  reduced_r1_ = r1_;
  // The held directions as rows of E (at most Σ m_b + n_l) with their r₂ rows.
  E_.Reset(n);
  StartR2Rows(nq_dirs_ > 0 ? r2_compact_.size() + static_cast<size_t>(nl) * n : 0, &r2_rows_);
  int held = 0;
  for (size_t b = 0; b + 1 < offset_.size(); ++b) {
    if (cases_[b] == ConeCase::kSeparated) continue;
    const int first = offset_[b], mb = offset_[b + 1] - first;
    const std::span<const int> columns(columns_.data() + columns_start_[b],
                                       columns_start_[b + 1] - columns_start_[b]);
    const int k = static_cast<int>(columns.size());
    const double* const A = A_compact_.data() + compact_offset_[b];  // A_b(i, s) = A[i k + s]
    const double* const r2_b = nq_dirs_ > 0 ? r2_compact_.data() + compact_offset_[b] : nullptr;
    if (cases_[b] == ConeCase::kSticking) {  // D = I: every row held (SplitCone's identity)
      for (int i = 0; i < mb; ++i) {
        E_.AppendRow();
        for (int s = 0; s < k; ++s) E_.AppendNonZero(columns[s], A[i * k + s]);
        if (r2_b != nullptr) AppendR2Row(columns, r2_b + i * k, &r2_rows_);
      }
      held += mb;
      continue;
    }
    // a = A_bᵀq and r₂,bᵀq on the contact's columns (zero elsewhere).
    // Sized once to n >= k (the first k entries used): a resize per contact, whose k differs,
    // would allocate in every call.
    if (a_.size() < n) a_.resize(n);
    if (r2_q_.size() < n) r2_q_.resize(n);
    const auto project = [&](const Eigen::Ref<const Eigen::VectorXd>& q) {
      for (int s = 0; s < k; ++s) {
        double a = 0.0, r = 0.0;
        for (int i = 0; i < mb; ++i) {
          a += q[i] * A[i * k + s];
          if (r2_b != nullptr) r += q[i] * r2_b[i * k + s];
        }
        a_[s] = a;
        r2_q_[s] = r;
      }
    };
    SplitCone(w_.segment(first, mb), &split_);
    for (int c = 0; c < split_.held.cols(); ++c) {
      project(split_.held.col(c));
      E_.AppendRow();  // qᵀA_b on the contact's columns
      for (int s = 0; s < k; ++s) E_.AppendNonZero(columns[s], a_[s]);
      if (r2_b != nullptr) AppendR2Row(columns, r2_q_.data(), &r2_rows_);
      ++held;
    }
    // The curvature's updates of H (lower triangle) and r₁ touch the columns × columns.
    for (int c = 0; c < split_.curved.cols(); ++c) {
      project(split_.curved.col(c));
      const double curvature = split_.lambda[c] / (scales_[b] * split_.gap[c]);
      for (int t = 0; t < k; ++t) {
        const double weighted = curvature * a_[t];
        for (int s = t; s < k; ++s) H_(columns[s], columns[t]) += weighted * a_[s];
      }
      if (nq_dirs_ == 0) continue;
      for (int t = 0; t < k; ++t) {
        double* const column = reduced_r1_.col(columns[t]).data();
        for (int s = 0; s < k; ++s) column[columns[s]] += (curvature * a_[s]) * r2_q_[t];
      }
    }
  }
  for (int l = 0; l < nl; ++l)
    if (limit_active_[l]) {
      AppendNonZeros(G_limits_.row(l), &E_);
      if (nq_dirs_ > 0) AppendLimitR2Row(G_limits_.row(l), time_step_, &r2_rows_);
      ++held;
    }
  if (nq_dirs_ == 0) r2_rows_.start.assign(held + 1, 0);
  FinishR2Rows(&r2_rows_);
  if (!kkt_.FactorCost(H_)) return false;
  kkt_.cost_factor().WhitenRows(E_, &whitened_);
  held_rows_.resize(held);
  for (int i = 0; i < held; ++i) held_rows_[i] = i;
  kkt_.FactorRows(whitened_, held_rows_);
  kkt_.Solve(reduced_r1_, r2_rows_, nq_dirs_, &workspace_);
  return FinishRangeSpace(held, gradient);
}

bool SocpSensitivity::FinishRangeSpace(int held, VelocityGradient* gradient) const {
  // Rank of the whole system: the n_v velocities, rank(E), and every row not held (its
  // I − D part is regular there).
  gradient->kkt_rank =
      n_ + kkt_.rank() + (offset_.back() + static_cast<int>(G_limits_.rows()) - held);
  if (nq_dirs_ > 0)
    gradient->dv_dq = workspace_.x.leftCols(nq_dirs_);
  else
    gradient->dv_dq.resize(0, 0);
  gradient->dv_du = workspace_.x.rightCols(workspace_.x.cols() - nq_dirs_);
  return true;
}

void SocpSensitivity::Compute(const StepProblem& problem,
                              const std::vector<ContactConeBlock>& blocks,
                              const std::vector<Eigen::VectorXd>& multipliers,
                              const Eigen::VectorXd& limit_multipliers, const Eigen::VectorXd& v,
                              const StepDataContraction* contraction, SocpKktSolve solve,
                              VelocityGradient* out) {
  CheckBlocks(problem, blocks, multipliers, v);
  const JointLimitRows& limits = problem.cost.limits;
  const int nl = limits.size();
  if (limit_multipliers.size() != nl)
    throw std::invalid_argument(
        "SocpVelocityGradient: " + std::to_string(limit_multipliers.size()) +
        " joint-limit multipliers for " + std::to_string(nl) + " rows");
  if (contraction != nullptr) CheckContractionSizes(problem.contacts, *contraction);
  const Scene& scene = problem.scene;
  const double h = problem.time_step;
  const int nb = static_cast<int>(blocks.size());

  n_ = scene.nv;
  nq_dirs_ = contraction != nullptr ? n_ : 0;
  time_step_ = h;
  CompactBlockJacobians(problem.contacts, blocks);
  const int mc = offset_.back();
  // JointLimitJacobian (dynamics/joint_limit_rows.h) written into the kept matrix: no new
  // matrix per call.
  G_limits_.setZero(limits.size(), n_);
  for (int l = 0; l < limits.size(); ++l)
    G_limits_(l, limits.rows[l].velocity) = limits.rows[l].direction;
  // d_b and, for the joint-limit rows (half lines), d_l = G_l P⁻¹ G_lᵀ, in one pass over
  // the rows' non-zeros (a block's on its contact's columns).
  rows_sparse_.Reset(n_);
  for (int b = 0; b < nb; ++b) {
    const int k = columns_start_[b + 1] - columns_start_[b];
    for (int i = 0; i < offset_[b + 1] - offset_[b]; ++i) {
      rows_sparse_.AppendRow();
      const double* const row = A_compact_.data() + compact_offset_[b] + i * k;
      for (int s = 0; s < k; ++s)
        rows_sparse_.AppendNonZero(columns_[columns_start_[b] + s], row[s]);
    }
  }
  for (int l = 0; l < nl; ++l) AppendNonZeros(G_limits_.row(l), &rows_sparse_);
  // P = CᵀC factored once, in the range-space solve's object: the rows whitened by it give the
  // forms here, and SolveRangeSpace reuses both the factor and the whitened rows when H = P.
  // P (dense in P_) and its factor are kept while P's non-zeros are the same entry for entry
  // (the arm's P = blockdiag(s·M_u, h²K_a) does not change with q): a comparison of its few
  // non-zeros instead of forming the dense n_v × n_v P on every call.
  const SparseRowMatrix& P = problem.cost.P;
  bool same_P = P.SamePattern(P_sparse_kept_);
  for (int e = 0; e < P.nonZeros() && same_P; ++e) same_P = P.value(e) == P_sparse_kept_.value(e);
  if (!same_P) {
    P.ToDense(&P_);
    P_factored_ = P_factor_.Factor(P_);
    P_sparse_kept_ = P;
  }
  cost_is_P_ = P_factored_;
  if (rows_sparse_.rows() == 0) {
    forms_.resize(0);
  } else if (cost_is_P_) {
    P_factor_.WhitenRows(rows_sparse_, &whitened_);
    forms_.resize(rows_sparse_.rows());
    for (int j = 0; j < rows_sparse_.rows(); ++j) forms_[j] = whitened_.SquaredNorm(j);
  } else {
    rows_sparse_.ToDense(&rows_);
    forms_ = RegularizedInverseQuadraticForms(P_, rows_);
  }
  ScalesOf(forms_, offset_, &scales_);
  ComplementarityPoints(problem, blocks, multipliers, v, scales_, &gap_, &w_);
  active_rows_ = 0;
  cases_.clear();
  for (int b = 0; b < nb; ++b) {
    const int mb = offset_[b + 1] - offset_[b];
    const ConeCase which = ClassifyCone(w_.segment(offset_[b], mb));
    cases_.push_back(which);
    active_rows_ += which == ConeCase::kSticking ? mb : which == ConeCase::kSliding ? 1 : 0;
  }
  // A joint-limit row u_l = g_l = o_l + G_l v >= 0 with the multiplier λ_l is a half line,
  // active (D = 1) when d_l λ_l > g_l.
  limit_scales_.clear();
  limit_active_.clear();
  for (int l = 0; l < nl; ++l) {
    const double d = forms_[mc + l];
    const double scale = d > 0 && std::isfinite(d) ? d : 1.0;
    const bool active = scale * limit_multipliers[l] > JointLimitSlack(limits, l, v);
    limit_scales_.push_back(scale);
    limit_active_.push_back(active ? 1 : 0);
    active_rows_ += active ? 1 : 0;
  }
  // Right-hand sides: the tangent directions of q first, then the commands.
  // r₂ of the limit rows, ∂g_l/∂ε = G_l/h at fixed v, is formed where it is used.
  r1_.resize(n_, nq_dirs_ + scene.nq_a);
  if (contraction != nullptr) {
    const StepDataContraction& d = *contraction;
    StationarityDataDerivative(d, r1_.leftCols(n_));
    r2_compact_.resize(A_compact_.size());
    for (int b = 0; b < nb; ++b)  // −∂u_b/∂ε, non-zero on the contact's columns only
      CompactBlockValueDerivative(blocks[b], d, h, problem.contacts.Columns(blocks[b].contact),
                                  -1.0, r2_compact_.data() + compact_offset_[b]);
  }
  WriteCommandForceJacobian(scene, h, r1_.rightCols(scene.nq_a));

  out->ok = true;
  out->failure.clear();
  computed_ = true;
  range_space_ = solve == SocpKktSolve::kRangeSpace && SolveRangeSpace(out);
  if (!range_space_) *out = SolveFullKkt();
  out->active_rows = active_rows_;
}

void SocpSensitivity::CostSensitivity(const Eigen::MatrixXd& r1, Eigen::MatrixXd* dv) {
  if (!computed_)
    throw std::invalid_argument("SocpSensitivity::CostSensitivity: nothing computed yet");
  if (r1.rows() != n_)
    throw std::invalid_argument("SocpSensitivity::CostSensitivity: r1 has " +
                                std::to_string(r1.rows()) + " rows, n_v = " + std::to_string(n_));
  if (!range_space_) {
    int rank = 0;
    *dv = FullKktVelocities(r1, 0, &rank);
    return;
  }
  // r₂ = 0: every held row empty (range_space_kkt.h).
  RangeSpaceKkt::R2Rows none;
  none.start.assign(held_rows_.size() + 1, 0);
  kkt_.Solve(r1, none, 0, &workspace_);
  *dv = workspace_.x;
}

VelocityGradient SocpVelocityGradient(const StepProblem& problem,
                                      const std::vector<ContactConeBlock>& blocks,
                                      const std::vector<Eigen::VectorXd>& multipliers,
                                      const Eigen::VectorXd& limit_multipliers,
                                      const Eigen::VectorXd& v,
                                      const StepDataContraction* contraction, SocpKktSolve solve) {
  SocpSensitivity sensitivity;
  VelocityGradient gradient;
  sensitivity.Compute(problem, blocks, multipliers, limit_multipliers, v, contraction, solve,
                      &gradient);
  return gradient;
}

}  // namespace quasidyn
