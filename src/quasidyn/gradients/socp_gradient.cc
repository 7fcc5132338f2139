#include "quasidyn/gradients/socp_gradient.h"

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

namespace {

// g P⁻¹ gᵀ for every row g of G (m × n): by P's block factor when P is positive definite, else
// with (P + δI)⁻¹, δ = 1e-12·max(1, max P_ii) (header).
Eigen::VectorXd InverseQuadraticForms(const Eigen::MatrixXd& P, const Eigen::MatrixXd& G) {
  if (G.rows() == 0) return Eigen::VectorXd();
  PositiveDefiniteFactor factor;
  if (factor.Factor(P)) return factor.InverseQuadraticForms(G);
  const int n = static_cast<int>(P.rows());
  const double delta = 1e-12 * std::max(1.0, P.diagonal().maxCoeff());
  const Eigen::MatrixXd P_inverse_Gt =
      Eigen::LDLT<Eigen::MatrixXd>(P + delta * Eigen::MatrixXd::Identity(n, n))
          .solve(G.transpose());
  return (G.transpose().array() * P_inverse_Gt.array()).colwise().sum().transpose();
}

// The blocks' A_b stacked (Σ m_b × n_v), in block order.
Eigen::MatrixXd StackedBlockJacobians(const ContactSet& contacts,
                                      const std::vector<ContactConeBlock>& blocks,
                                      std::vector<int>* offset) {
  offset->assign(blocks.size() + 1, 0);
  for (size_t b = 0; b < blocks.size(); ++b)
    (*offset)[b + 1] = (*offset)[b] + static_cast<int>(blocks[b].R.rows());
  Eigen::MatrixXd A = Eigen::MatrixXd::Zero(offset->back(), contacts.nv());
  const int nt = contacts.tangent_count();
  Eigen::Vector3d column;  // J_c,i's column: (J_n, J_t) entries, 1 + n_t <= 3
  for (size_t b = 0; b < blocks.size(); ++b) {
    const ContactConeBlock& block = blocks[b];
    const std::span<const int> columns = contacts.Columns(block.contact);
    const ContactSet::RowMap J_n = contacts.NormalJacobian(block.contact);
    const ContactSet::RowsMap J_t = contacts.TangentJacobian(block.contact);
    for (int c = 0; c < static_cast<int>(columns.size()); ++c) {
      column[0] = J_n[c];
      for (int t = 0; t < nt; ++t) column[1 + t] = J_t(t, c);
      A.block((*offset)[b], columns[c], block.R.rows(), 1).noalias() =
          block.R * column.head(1 + nt);
    }
  }
  return A;
}

// d_b = trace(A_b P⁻¹ A_bᵀ)/m_b from the rows' forms (1 when not positive and finite).
std::vector<double> ScalesOf(const Eigen::VectorXd& forms, const std::vector<int>& offset) {
  std::vector<double> scales;
  for (size_t b = 0; b + 1 < offset.size(); ++b) {
    const int mb = offset[b + 1] - offset[b];
    const double trace = forms.segment(offset[b], mb).sum() / mb;
    scales.push_back(trace > 0 && std::isfinite(trace) ? trace : 1.0);
  }
  return scales;
}

}  // namespace

std::vector<double> DelassusScales(const StepProblem& problem,
                                   const std::vector<ContactConeBlock>& blocks) {
  if (blocks.empty()) return {};
  std::vector<int> offset;
  const Eigen::MatrixXd A = StackedBlockJacobians(problem.contacts, blocks, &offset);
  return ScalesOf(InverseQuadraticForms(problem.cost.P.ToDense(), A), offset);
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

// w_b = d_b y_b − u_b for every block, stacked in block order (Σ m_b).
Eigen::VectorXd ComplementarityPoints(const StepProblem& problem,
                                      const std::vector<ContactConeBlock>& blocks,
                                      const std::vector<Eigen::VectorXd>& multipliers,
                                      const Eigen::VectorXd& v, const std::vector<double>& scales) {
  const Eigen::VectorXd gap = GapVelocities(problem.contacts, v, problem.settings.time_step);
  int rows = 0;
  for (const ContactConeBlock& block : blocks) rows += static_cast<int>(block.R.rows());
  Eigen::VectorXd w(rows);
  for (size_t b = 0, first = 0; b < blocks.size(); ++b) {
    const ContactConeBlock& block = blocks[b];
    const int mb = static_cast<int>(block.R.rows());
    w.segment(first, mb).noalias() = -block.R * gap.segment(block.first_row, block.R.cols());
    w.segment(first, mb) += scales[b] * multipliers[b];
    first += mb;
  }
  return w;
}

}  // namespace

std::vector<ConeCase> ClassifySocpBlocks(const StepProblem& problem,
                                         const std::vector<ContactConeBlock>& blocks,
                                         const std::vector<Eigen::VectorXd>& multipliers,
                                         const Eigen::VectorXd& v) {
  CheckBlocks(problem, blocks, multipliers, v);
  const std::vector<double> scales = DelassusScales(problem, blocks);
  const Eigen::VectorXd w = ComplementarityPoints(problem, blocks, multipliers, v, scales);
  std::vector<ConeCase> cases;
  for (size_t b = 0, first = 0; b < blocks.size(); first += blocks[b].R.rows(), ++b)
    cases.push_back(ClassifyCone(w.segment(first, blocks[b].R.rows())));
  return cases;
}

namespace {

// 1 − λ of a sliding cone's tangential direction at or below this is sticking (header).
constexpr double kNearStickingGap = 1e-8;

// The linearised conditions of one SOCP step (header): the blocks' A_b, D_b = DΠ_K(w_b) and
// d_b, the joint-limit rows, and the right-hand sides, the configuration directions first.
struct ConeKkt {
  int n = 0, nq_dirs = 0;
  std::vector<int> offset;  // of the blocks' rows; offset.back() = Σ m_b
  Eigen::MatrixXd A;        // the blocks' A_b stacked
  Eigen::VectorXd w;        // w_b = d_b y_b − u_b, stacked as the blocks' rows
  std::vector<ConeCase> cases;
  std::vector<double> scales;
  Eigen::MatrixXd G_limits;  // n_l × n_v
  std::vector<char> limit_active;
  std::vector<double> limit_scales;
  Eigen::MatrixXd r1;  // n_v × (nq_dirs + n_q,a)
  Eigen::MatrixXd r2;  // (Σ m_b + n_l) × nq_dirs; zero for the commands
  int active_rows = 0;
};

// [P, −Aᵀ D̃; A, I − D] with rows, then columns, scaled to unit ∞-norm, and the minimum-norm
// solution by a complete orthogonal decomposition (header).
VelocityGradient SolveFullKkt(const ConeKkt& k, const Eigen::MatrixXd& P) {
  const int n = k.n, mc = k.offset.back(), nl = static_cast<int>(k.G_limits.rows());
  const int m = mc + nl;
  Eigen::MatrixXd kkt = Eigen::MatrixXd::Zero(n + m, n + m);
  kkt.topLeftCorner(n, n) = P;
  Eigen::MatrixXd D;
  for (size_t b = 0; b + 1 < k.offset.size(); ++b) {
    const int first = k.offset[b], mb = k.offset[b + 1] - first;
    ClassifyCone(k.w.segment(first, mb), &D);
    const auto A = k.A.middleRows(first, mb);
    kkt.block(0, n + first, n, mb) = -A.transpose() * D / k.scales[b];
    kkt.block(n + first, 0, mb, n) = A;
    kkt.block(n + first, n + first, mb, mb) = Eigen::MatrixXd::Identity(mb, mb) - D;
  }
  for (int l = 0; l < nl; ++l) {
    const int row = n + mc + l;
    kkt.block(0, row, n, 1) =
        -k.G_limits.row(l).transpose() * (k.limit_active[l] ? 1.0 / k.limit_scales[l] : 0.0);
    kkt.block(row, 0, 1, n) = k.G_limits.row(l);
    kkt(row, row) = k.limit_active[l] ? 0.0 : 1.0;
  }
  Eigen::MatrixXd rhs = Eigen::MatrixXd::Zero(n + m, k.r1.cols());
  rhs.topRows(n) = k.r1;
  rhs.bottomLeftCorner(m, k.nq_dirs) = k.r2;
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
  const Eigen::MatrixXd solution =
      column_scale.asDiagonal() * cod.solve(row_scale.asDiagonal() * rhs);
  VelocityGradient gradient;
  gradient.kkt_rank = static_cast<int>(cod.rank());
  if (k.nq_dirs > 0) gradient.dv_dq = solution.topLeftCorner(n, k.nq_dirs);
  gradient.dv_du = solution.topRightCorner(n, k.r1.cols() - k.nq_dirs);
  return gradient;
}

// The same system reduced to the equality-constrained one of range_space_kkt.h (header):
// every block's D_b = Σ_i λ_i q_i q_iᵀ splits into held directions (λ = 1: the rows
// q_iᵀA_b dv = q_iᵀ r₂,b of E), free ones (λ = 0: nothing) and the sliding cones' tangential
// directions, curvature k_i a_i a_iᵀ in H with a_i = A_bᵀ q_i and k_i = λ_i/(d_b(1 − λ_i)),
// and k_i a_i q_iᵀ r₂,b in r₁. Returns false when H = P + Σ k_i a_i a_iᵀ is not factored.
bool SolveRangeSpace(const ConeKkt& k, const Eigen::MatrixXd& P, VelocityGradient* gradient) {
  const int n = k.n, nl = static_cast<int>(k.G_limits.rows());
  Eigen::MatrixXd H = P;
  Eigen::MatrixXd r1 = k.r1;
  // The held directions as rows of E (at most Σ m_b + n_l) with their r₂ rows.
  Eigen::MatrixXd E(k.offset.back() + nl, n), r2(k.offset.back() + nl, k.nq_dirs);
  Eigen::VectorXd direction, q, t, a, r2_q;  // a sliding cone's (sized once)
  Eigen::MatrixXd basis;
  int held = 0;
  for (size_t b = 0; b + 1 < k.offset.size(); ++b) {
    const int first = k.offset[b], mb = k.offset[b + 1] - first;
    const auto A = k.A.middleRows(first, mb);
    const auto r2_b = k.r2.middleRows(first, mb);
    if (k.cases[b] == ConeCase::kSeparated) continue;
    if (k.cases[b] == ConeCase::kSticking) {  // every row held
      E.middleRows(held, mb) = A;
      r2.middleRows(held, mb) = r2_b;
      held += mb;
      continue;
    }
    // Sliding (m_b >= 2, ‖w₁‖ > 0): D's eigenvectors are (1, ŵ)/√2 (λ = 1), (−1, ŵ)/√2
    // (λ = 0) and (0, t) for t ⊥ ŵ (λ = ½(1 + w₀/‖w₁‖), so 1 − λ = (‖w₁‖ − w₀)/(2‖w₁‖)).
    const auto w_b = k.w.segment(first, mb);
    const double radius = w_b.tail(mb - 1).norm();
    direction = w_b.tail(mb - 1) / radius;
    const double lambda = 0.5 * (radius + w_b[0]) / radius;
    const double gap = 0.5 * (radius - w_b[0]) / radius;  // 1 − λ without cancellation
    q.setZero(mb);
    q[0] = std::sqrt(0.5);
    q.tail(mb - 1) = std::sqrt(0.5) * direction;
    E.row(held).noalias() = q.transpose() * A;
    r2.row(held).noalias() = q.transpose() * r2_b;
    ++held;
    // An orthonormal basis of ŵ⊥ in the tangential coordinates, by Gram–Schmidt on the axes.
    basis.resize(mb - 1, mb - 1);
    basis.col(0) = direction;
    int found = 1;
    for (int axis = 0; axis < mb - 1 && found < mb - 1; ++axis) {
      t = Eigen::VectorXd::Unit(mb - 1, axis);
      for (int pass = 0; pass < 2; ++pass)
        for (int c = 0; c < found; ++c) t -= basis.col(c).dot(t) * basis.col(c);
      if (t.norm() < 0.5) continue;  // (nearly) in the span so far; another axis is not
      basis.col(found++) = t.normalized();
    }
    for (int c = 1; c < mb - 1; ++c) {
      q.setZero();
      q.tail(mb - 1) = basis.col(c);
      a.noalias() = A.transpose() * q;
      r2_q.noalias() = r2_b.transpose() * q;
      if (gap <= kNearStickingGap) {
        E.row(held) = a.transpose();
        r2.row(held) = r2_q.transpose();
        ++held;
        continue;
      }
      const double curvature = lambda / (k.scales[b] * gap);
      H.selfadjointView<Eigen::Lower>().rankUpdate(a, curvature);
      r1.leftCols(k.nq_dirs).noalias() += (curvature * a) * r2_q.transpose();
    }
  }
  const int mc = k.offset.back();
  for (int l = 0; l < nl; ++l)
    if (k.limit_active[l]) {
      E.row(held) = k.G_limits.row(l);
      r2.row(held) = k.r2.row(mc + l);
      ++held;
    }
  RangeSpaceKkt kkt;
  if (!kkt.FactorCost(H)) return false;
  PositiveDefiniteFactor::SparseRows whitened;
  kkt.cost_factor().WhitenRows(E.topRows(held), &whitened);
  std::vector<int> active(held);
  for (int i = 0; i < held; ++i) active[i] = i;
  kkt.FactorRows(whitened, active);
  RangeSpaceKkt::Workspace w;
  kkt.Solve(r1, r2.topRows(held).transpose(), k.nq_dirs, &w);
  // Rank of the whole system: the n_v velocities, rank(E), and every row not held (its
  // I − D part is regular there).
  gradient->kkt_rank = n + kkt.rank() + (mc + nl - held);
  if (k.nq_dirs > 0) gradient->dv_dq = w.x.leftCols(k.nq_dirs);
  gradient->dv_du = w.x.rightCols(w.x.cols() - k.nq_dirs);
  return true;
}

}  // namespace

VelocityGradient SocpVelocityGradient(const StepProblem& problem,
                                      const std::vector<ContactConeBlock>& blocks,
                                      const std::vector<Eigen::VectorXd>& multipliers,
                                      const Eigen::VectorXd& limit_multipliers,
                                      const Eigen::VectorXd& v,
                                      const StepDataContraction* contraction, SocpKktSolve solve) {
  CheckBlocks(problem, blocks, multipliers, v);
  const JointLimitRows& limits = problem.cost.limits;
  const int nl = limits.size();
  if (limit_multipliers.size() != nl)
    throw std::invalid_argument(
        "SocpVelocityGradient: " + std::to_string(limit_multipliers.size()) +
        " joint-limit multipliers for " + std::to_string(nl) + " rows");
  if (contraction != nullptr) CheckContractionSizes(problem.contacts, *contraction);
  const Scene& scene = problem.scene;
  const double h = problem.settings.time_step;
  const int nb = static_cast<int>(blocks.size());
  const Eigen::MatrixXd P = problem.cost.P.ToDense();

  ConeKkt k;
  k.n = scene.nv;
  k.nq_dirs = contraction != nullptr ? k.n : 0;
  k.A = StackedBlockJacobians(problem.contacts, blocks, &k.offset);
  k.G_limits = JointLimitJacobian(limits, k.n);
  // d_b and, for the joint-limit rows (half lines), d_l = G_l P⁻¹ G_lᵀ, in one pass.
  Eigen::MatrixXd rows(k.A.rows() + nl, k.n);
  rows << k.A, k.G_limits;
  const Eigen::VectorXd forms = InverseQuadraticForms(P, rows);
  k.scales = ScalesOf(forms, k.offset);
  k.w = ComplementarityPoints(problem, blocks, multipliers, v, k.scales);
  for (int b = 0; b < nb; ++b) {
    const int mb = k.offset[b + 1] - k.offset[b];
    const ConeCase which = ClassifyCone(k.w.segment(k.offset[b], mb));
    k.cases.push_back(which);
    k.active_rows += which == ConeCase::kSticking ? mb : which == ConeCase::kSliding ? 1 : 0;
  }
  // A joint-limit row u_l = g_l = o_l + G_l v >= 0 with the multiplier λ_l is a half line,
  // active (D = 1) when d_l λ_l > g_l.
  for (int l = 0; l < nl; ++l) {
    const double d = forms[k.A.rows() + l];
    const double scale = d > 0 && std::isfinite(d) ? d : 1.0;
    const bool active = scale * limit_multipliers[l] > JointLimitSlack(limits, l, v);
    k.limit_scales.push_back(scale);
    k.limit_active.push_back(active ? 1 : 0);
    k.active_rows += active ? 1 : 0;
  }
  // Right-hand sides: the tangent directions of q first, then the commands.
  k.r1.resize(k.n, k.nq_dirs + scene.nq_a);
  k.r2 = Eigen::MatrixXd::Zero(k.A.rows() + nl, k.nq_dirs);
  if (contraction != nullptr) {
    k.r1.leftCols(k.n) = StationarityDataDerivative(*contraction);
    for (int b = 0; b < nb; ++b)
      k.r2.middleRows(k.offset[b], k.offset[b + 1] - k.offset[b]) =
          -BlockValueDerivative(blocks[b], *contraction, h);
    k.r2.bottomRows(nl) = -k.G_limits / h;  // ∂g_l/∂ε = G_l/h at fixed v
  }
  k.r1.rightCols(scene.nq_a) = CommandForceJacobian(scene, h);

  VelocityGradient gradient;
  if (solve == SocpKktSolve::kFullKkt || !SolveRangeSpace(k, P, &gradient))
    gradient = SolveFullKkt(k, P);
  gradient.active_rows = k.active_rows;
  return gradient;
}

}  // namespace quasidyn
