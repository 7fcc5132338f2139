#include "quasidyn/control/trajopt_qp.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

#include "quasidyn/common/argument_check.h"

namespace quasidyn {
namespace {

constexpr const char* kTrajoptQpWhere = "BuildTrajoptQp";

void CheckData(const TrajoptQpData& d) {
  const int H = static_cast<int>(d.A.size());
  QUASIDYN_CHECK_ARGUMENT(H >= 1, kTrajoptQpWhere, "the window has no step (H = 0)");
  QUASIDYN_CHECK_ARGUMENT(static_cast<int>(d.B.size()) == H &&
                              static_cast<int>(d.q_nominal.size()) == H &&
                              static_cast<int>(d.u_nominal.size()) == H,
                          kTrajoptQpWhere, "A, B, q_nominal and u_nominal must all have H entries");
  const int nq = static_cast<int>(d.A[0].rows());
  const int nu = static_cast<int>(d.B[0].cols());
  QUASIDYN_CHECK_ARGUMENT(d.object_size >= 0 && d.object_size <= nq, kTrajoptQpWhere,
                          "object_size must be in [0, n_q]");
  for (int k = 0; k < H; ++k) {
    QUASIDYN_CHECK_ARGUMENT(d.A[k].rows() == nq && d.A[k].cols() == nq, kTrajoptQpWhere,
                            "A[" + std::to_string(k) + "] is not n_q × n_q");
    QUASIDYN_CHECK_ARGUMENT(d.B[k].rows() == nq && d.B[k].cols() == nu, kTrajoptQpWhere,
                            "B[" + std::to_string(k) + "] is not n_q × n_u");
    CheckVector(kTrajoptQpWhere, "q_nominal[" + std::to_string(k) + "]", d.q_nominal[k], nq, "n_q");
    CheckVector(kTrajoptQpWhere, "u_nominal[" + std::to_string(k) + "]", d.u_nominal[k], nu, "n_u");
  }
  CheckVector(kTrajoptQpWhere, "u_before", d.u_before, nu, "n_u");
  CheckVector(kTrajoptQpWhere, "dq0", d.dq0, nq, "n_q");
  CheckVector(kTrajoptQpWhere, "goal", d.goal, d.object_size, "n_q,u");
  CheckVector(kTrajoptQpWhere, "object_weight", d.object_weight, d.object_size, "n_q,u");
  CheckVector(kTrajoptQpWhere, "terminal_weight", d.terminal_weight, d.object_size, "n_q,u");
  QUASIDYN_CHECK_ARGUMENT(
      (d.object_weight.array() >= 0.0).all() && (d.terminal_weight.array() >= 0.0).all(),
      kTrajoptQpWhere, "the object weights must be >= 0");
  QUASIDYN_CHECK_ARGUMENT(d.rate_weight > 0.0 && std::isfinite(d.rate_weight), kTrajoptQpWhere,
                          "rate_weight ρ must be finite and > 0");
  QUASIDYN_CHECK_ARGUMENT(d.trust_region > 0.0 && std::isfinite(d.trust_region), kTrajoptQpWhere,
                          "trust_region r must be finite and > 0");
  QUASIDYN_CHECK_ARGUMENT(d.regrasp.empty() || static_cast<int>(d.regrasp.size()) == H,
                          kTrajoptQpWhere, "regrasp must be empty or have H entries");
  QUASIDYN_CHECK_ARGUMENT(
      d.corrected_steps == -1 || (d.corrected_steps >= 1 && d.corrected_steps <= H),
      kTrajoptQpWhere,
      "corrected_steps must be -1 (all) or in [1, H = " + std::to_string(H) + "], got " +
          std::to_string(d.corrected_steps));
  const int no = d.object_size;
  for (int k = 0; k < H; ++k) {
    if (!IsRegraspStep(d, k)) continue;
    Eigen::MatrixXd reset = Eigen::MatrixXd::Zero(nq, nq);
    reset.topLeftCorner(no, no).setIdentity();
    QUASIDYN_CHECK_ARGUMENT(d.A[k] == reset, kTrajoptQpWhere,
                            "A[" + std::to_string(k) + "] of a regrasp step must be diag(I, 0)");
  }
}

const Eigen::VectorXd& StepWeight(const TrajoptQpData& d, int k_after) {
  return k_after == static_cast<int>(d.A.size()) ? d.terminal_weight : d.object_weight;
}

}  // namespace

bool IsRegraspStep(const TrajoptQpData& d, int k) { return !d.regrasp.empty() && d.regrasp[k]; }

std::vector<int> TrajoptColumns(const TrajoptQpData& d, int* variables) {
  const int H = static_cast<int>(d.A.size());
  const int nu = H > 0 ? static_cast<int>(d.B[0].cols()) : 0;
  const int corrected = d.corrected_steps < 0 ? H : std::min(d.corrected_steps, H);
  std::vector<int> column(H, -1);
  int n = 0;
  for (int k = 0; k < corrected; ++k) {
    if (IsRegraspStep(d, k)) continue;
    column[k] = n;
    n += nu;
  }
  *variables = n;
  return column;
}

void BuildTrajoptQp(const TrajoptQpData& d, QpProblem* problem) {
  CheckData(d);
  const int H = static_cast<int>(d.A.size());
  const int nq = static_cast<int>(d.A[0].rows());
  const int nu = static_cast<int>(d.B[0].cols());
  int nx = 0;
  const std::vector<int> column = TrajoptColumns(d, &nx);
  QUASIDYN_CHECK_ARGUMENT(
      nx > 0, kTrajoptQpWhere,
      "no step of the window is corrected (every step is a regrasp or kept): nothing to solve");
  const int no = d.object_size;
  Eigen::MatrixXd P = Eigen::MatrixXd::Zero(nx, nx);
  Eigen::VectorXd c = Eigen::VectorXd::Zero(nx);
  // Forward recursion of the state sensitivities: δq_k = free_k + gamma_k δu.
  Eigen::MatrixXd gamma = Eigen::MatrixXd::Zero(nq, nx), next(nq, nx);
  Eigen::VectorXd free = d.dq0;
  for (int k = 0; k < H; ++k) {
    next.noalias() = d.A[k] * gamma;
    if (column[k] >= 0) next.middleCols(column[k], nu) += d.B[k];
    gamma.swap(next);
    free = d.A[k] * free;
    const Eigen::VectorXd& w = StepWeight(d, k + 1);
    if ((w.array() == 0.0).all()) continue;  // no cost on this state (e.g. a terminal cost only)
    const Eigen::MatrixXd M = gamma.topRows(no);
    const Eigen::VectorXd e = d.q_nominal[k].head(no) + free.head(no) - d.goal;
    P.noalias() += 2.0 * M.transpose() * w.asDiagonal() * M;
    c.noalias() += 2.0 * M.transpose() * (w.asDiagonal() * e);
  }
  // ρ Σ ‖Δu_k + δu_k − δu_{k−1}‖², Δu_k the nominal increments: 2ρ DᵀD and 2ρ DᵀΔu. No term
  // into a regrasp step; out of one, and out of or into a kept step (corrected_steps), the kept
  // command's δu is 0.
  for (int k = 0; k < H; ++k) {
    if (IsRegraspStep(d, k)) continue;
    const int ck = column[k], cp = k > 0 ? column[k - 1] : -1;
    if (ck < 0 && cp < 0) continue;  // a constant
    const Eigen::VectorXd previous = k == 0 ? d.u_before : d.u_nominal[k - 1];
    const Eigen::VectorXd rate = d.u_nominal[k] - previous;
    if (ck >= 0) {
      c.segment(ck, nu) += 2.0 * d.rate_weight * rate;
      P.block(ck, ck, nu, nu).diagonal().array() += 2.0 * d.rate_weight;
    }
    if (cp >= 0) {
      c.segment(cp, nu) -= 2.0 * d.rate_weight * rate;
      P.block(cp, cp, nu, nu).diagonal().array() += 2.0 * d.rate_weight;
    }
    if (ck >= 0 && cp >= 0) {
      P.block(ck, cp, nu, nu).diagonal().array() -= 2.0 * d.rate_weight;
      P.block(cp, ck, nu, nu).diagonal().array() -= 2.0 * d.rate_weight;
    }
  }
  P = 0.5 * (P + P.transpose());
  problem->Q = SparseRowMatrix::FromDense(P);
  problem->c = c;
  // Trust region: δu >= −r and −δu >= −r.
  problem->G.Reset(nx);
  for (int i = 0; i < nx; ++i) {
    problem->G.AppendRow();
    problem->G.Append(i, 1.0);
  }
  for (int i = 0; i < nx; ++i) {
    problem->G.AppendRow();
    problem->G.Append(i, -1.0);
  }
  problem->h = Eigen::VectorXd::Constant(2 * nx, -d.trust_region);
}

QpSettings TrajoptQpSettings() {
  QpSettings settings;
  settings.sparse_min_variables = std::numeric_limits<int>::max();  // never: Q is dense
  return settings;
}

std::vector<Eigen::VectorXd> PredictedStates(const TrajoptQpData& d, const Eigen::VectorXd& du) {
  CheckData(d);
  const int H = static_cast<int>(d.A.size());
  const int nu = static_cast<int>(d.B[0].cols());
  int nx = 0;
  const std::vector<int> column = TrajoptColumns(d, &nx);
  CheckVector("PredictedStates", "du", du, nx, "n_u times the non-regrasp steps");
  std::vector<Eigen::VectorXd> q(H);
  Eigen::VectorXd dq = d.dq0;
  for (int k = 0; k < H; ++k) {
    dq = d.A[k] * dq;
    if (column[k] >= 0) dq += d.B[k] * du.segment(column[k], nu);
    q[k] = d.q_nominal[k] + dq;
  }
  return q;
}

double TrajoptCost(const TrajoptQpData& d, const std::vector<Eigen::VectorXd>& q,
                   const std::vector<Eigen::VectorXd>& u) {
  const int H = static_cast<int>(q.size());
  QUASIDYN_CHECK_ARGUMENT(static_cast<int>(u.size()) == H, "TrajoptCost",
                          "q and u must have the same number of steps");
  QUASIDYN_CHECK_ARGUMENT(d.regrasp.empty() || static_cast<int>(d.regrasp.size()) == H,
                          "TrajoptCost", "regrasp must be empty or have one entry per step");
  double cost = 0.0;
  for (int k = 0; k < H; ++k) {
    const Eigen::VectorXd& w = k + 1 == H ? d.terminal_weight : d.object_weight;
    const Eigen::VectorXd e = q[k].head(d.object_size) - d.goal;
    cost += e.dot(w.asDiagonal() * e);
    if (IsRegraspStep(d, k)) continue;  // a reset, not a motion
    cost += d.rate_weight * (u[k] - (k == 0 ? d.u_before : u[k - 1])).squaredNorm();
  }
  return cost;
}

}  // namespace quasidyn
