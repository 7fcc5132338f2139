#include "quasidyn/gradients/socp_gradient.h"

#include <Eigen/Cholesky>
#include <Eigen/QR>
#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

namespace quasidyn {

ConeCase ClassifyCone(const Eigen::VectorXd& w, Eigen::MatrixXd* projection_jacobian) {
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

std::vector<double> DelassusScales(const StepProblem& problem,
                                   const std::vector<ContactConeBlock>& blocks) {
  const Eigen::MatrixXd P = problem.cost.P.ToDense();
  const int n = static_cast<int>(P.rows());
  std::vector<double> scales;
  if (blocks.empty()) return scales;
  const double delta = 1e-12 * std::max(1.0, P.diagonal().maxCoeff());
  const Eigen::LDLT<Eigen::MatrixXd> P_factor(P + delta * Eigen::MatrixXd::Identity(n, n));
  for (const ContactConeBlock& block : blocks) {
    const Eigen::MatrixXd A = BlockJacobian(problem.contacts, block);
    const double trace = (A * P_factor.solve(A.transpose())).trace() / A.rows();
    scales.push_back(trace > 0 && std::isfinite(trace) ? trace : 1.0);
  }
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

// w_b = d_b y_b − u_b for every block.
std::vector<Eigen::VectorXd> ComplementarityPoints(const StepProblem& problem,
                                                   const std::vector<ContactConeBlock>& blocks,
                                                   const std::vector<Eigen::VectorXd>& multipliers,
                                                   const Eigen::VectorXd& v,
                                                   const std::vector<double>& scales) {
  const std::vector<Eigen::VectorXd> u =
      BlockValues(blocks, GapVelocities(problem.contacts, v, problem.settings.time_step));
  std::vector<Eigen::VectorXd> w(blocks.size());
  for (size_t b = 0; b < blocks.size(); ++b) w[b] = scales[b] * multipliers[b] - u[b];
  return w;
}

}  // namespace

std::vector<ConeCase> ClassifySocpBlocks(const StepProblem& problem,
                                         const std::vector<ContactConeBlock>& blocks,
                                         const std::vector<Eigen::VectorXd>& multipliers,
                                         const Eigen::VectorXd& v) {
  CheckBlocks(problem, blocks, multipliers, v);
  const std::vector<double> scales = DelassusScales(problem, blocks);
  const std::vector<Eigen::VectorXd> w =
      ComplementarityPoints(problem, blocks, multipliers, v, scales);
  std::vector<ConeCase> cases;
  for (const Eigen::VectorXd& w_b : w) cases.push_back(ClassifyCone(w_b));
  return cases;
}

VelocityGradient SocpVelocityGradient(const StepProblem& problem,
                                      const std::vector<ContactConeBlock>& blocks,
                                      const std::vector<Eigen::VectorXd>& multipliers,
                                      const Eigen::VectorXd& limit_multipliers,
                                      const Eigen::VectorXd& v,
                                      const StepDataContraction* contraction) {
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
  const int n = scene.nv;
  const int nb = static_cast<int>(blocks.size());
  std::vector<int> offset(nb + 1, 0);
  for (int b = 0; b < nb; ++b) offset[b + 1] = offset[b] + static_cast<int>(blocks[b].R.rows());
  const int m = offset[nb] + nl;  // the joint-limit rows are half lines after the blocks

  const std::vector<double> scales = DelassusScales(problem, blocks);
  const std::vector<Eigen::VectorXd> w =
      ComplementarityPoints(problem, blocks, multipliers, v, scales);

  // [P, −Aᵀ D̃; A, I − D] (header).
  Eigen::MatrixXd kkt = Eigen::MatrixXd::Zero(n + m, n + m);
  kkt.topLeftCorner(n, n) = problem.cost.P.ToDense();
  VelocityGradient gradient;
  for (int b = 0; b < nb; ++b) {
    const int mb = offset[b + 1] - offset[b];
    Eigen::MatrixXd D;
    const ConeCase which = ClassifyCone(w[b], &D);
    gradient.active_rows += which == ConeCase::kSticking ? mb : which == ConeCase::kSliding ? 1 : 0;
    const Eigen::MatrixXd A = BlockJacobian(problem.contacts, blocks[b]);
    kkt.block(0, n + offset[b], n, mb) = -A.transpose() * D / scales[b];
    kkt.block(n + offset[b], 0, mb, n) = A;
    kkt.block(n + offset[b], n + offset[b], mb, mb) = Eigen::MatrixXd::Identity(mb, mb) - D;
  }
  // The joint-limit rows u_l = g_l = o_l + G_l v >= 0 with the multiplier λ_l: half lines with
  // the Delassus scale d_l = G_l P⁻¹ G_lᵀ = (P⁻¹)_jj, active (D = 1) when d_l λ_l > g_l.
  const Eigen::MatrixXd G_limits = JointLimitJacobian(limits, n);
  if (nl > 0) {
    const Eigen::MatrixXd P = kkt.topLeftCorner(n, n);
    const double delta = 1e-12 * std::max(1.0, P.diagonal().maxCoeff());
    const Eigen::MatrixXd P_inverse_G =
        Eigen::LDLT<Eigen::MatrixXd>(P + delta * Eigen::MatrixXd::Identity(n, n))
            .solve(G_limits.transpose());
    for (int l = 0; l < nl; ++l) {
      const int row = n + offset[nb] + l;
      const double d = G_limits.row(l).dot(P_inverse_G.col(l));
      const double scale = d > 0 && std::isfinite(d) ? d : 1.0;
      const bool active = scale * limit_multipliers[l] > JointLimitSlack(limits, l, v);
      gradient.active_rows += active ? 1 : 0;
      kkt.block(0, row, n, 1) = -G_limits.row(l).transpose() * (active ? 1.0 / scale : 0.0);
      kkt.block(row, 0, 1, n) = G_limits.row(l);
      kkt(row, row) = active ? 0.0 : 1.0;
    }
  }

  // Right-hand sides: the tangent directions of q first, then the commands.
  const int nq_dirs = contraction != nullptr ? n : 0;
  Eigen::MatrixXd rhs = Eigen::MatrixXd::Zero(n + m, nq_dirs + scene.nq_a);
  if (contraction != nullptr) {
    rhs.topLeftCorner(n, n) = StationarityDataDerivative(*contraction);
    for (int b = 0; b < nb; ++b)
      rhs.block(n + offset[b], 0, offset[b + 1] - offset[b], n) =
          -BlockValueDerivative(blocks[b], *contraction, h);
    rhs.block(n + offset[nb], 0, nl, n) = -G_limits / h;  // ∂g_l/∂ε = G_l/h at fixed v
  }
  rhs.block(0, nq_dirs, n, scene.nq_a) = CommandForceJacobian(scene, h);

  // Rows, then columns, scaled to unit ∞-norm; then the minimum-norm solution (header).
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

  gradient.kkt_rank = static_cast<int>(cod.rank());
  if (nq_dirs > 0) gradient.dv_dq = solution.topLeftCorner(n, nq_dirs);
  gradient.dv_du = solution.block(0, nq_dirs, n, scene.nq_a);
  return gradient;
}

}  // namespace quasidyn
