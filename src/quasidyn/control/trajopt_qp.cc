#include "quasidyn/control/trajopt_qp.h"

#include <cmath>
#include <string>

#include "quasidyn/common/argument_check.h"

namespace quasidyn {
namespace {

constexpr const char* kWhere = "BuildTrajoptQp";

void CheckData(const TrajoptQpData& d) {
  const int H = static_cast<int>(d.A.size());
  QUASIDYN_CHECK_ARGUMENT(H >= 1, kWhere, "the window has no step (H = 0)");
  QUASIDYN_CHECK_ARGUMENT(static_cast<int>(d.B.size()) == H &&
                              static_cast<int>(d.q_nominal.size()) == H &&
                              static_cast<int>(d.u_nominal.size()) == H,
                          kWhere, "A, B, q_nominal and u_nominal must all have H entries");
  const int nq = static_cast<int>(d.A[0].rows());
  const int nu = static_cast<int>(d.B[0].cols());
  QUASIDYN_CHECK_ARGUMENT(d.object_size >= 0 && d.object_size <= nq, kWhere,
                          "object_size must be in [0, n_q]");
  for (int k = 0; k < H; ++k) {
    QUASIDYN_CHECK_ARGUMENT(d.A[k].rows() == nq && d.A[k].cols() == nq, kWhere,
                            "A[" + std::to_string(k) + "] is not n_q × n_q");
    QUASIDYN_CHECK_ARGUMENT(d.B[k].rows() == nq && d.B[k].cols() == nu, kWhere,
                            "B[" + std::to_string(k) + "] is not n_q × n_u");
    CheckVector(kWhere, "q_nominal[" + std::to_string(k) + "]", d.q_nominal[k], nq, "n_q");
    CheckVector(kWhere, "u_nominal[" + std::to_string(k) + "]", d.u_nominal[k], nu, "n_u");
  }
  CheckVector(kWhere, "u_before", d.u_before, nu, "n_u");
  CheckVector(kWhere, "dq0", d.dq0, nq, "n_q");
  CheckVector(kWhere, "goal", d.goal, d.object_size, "n_q,u");
  CheckVector(kWhere, "object_weight", d.object_weight, d.object_size, "n_q,u");
  CheckVector(kWhere, "terminal_weight", d.terminal_weight, d.object_size, "n_q,u");
  QUASIDYN_CHECK_ARGUMENT(
      (d.object_weight.array() >= 0.0).all() && (d.terminal_weight.array() >= 0.0).all(), kWhere,
      "the object weights must be >= 0");
  QUASIDYN_CHECK_ARGUMENT(d.rate_weight > 0.0 && std::isfinite(d.rate_weight), kWhere,
                          "rate_weight ρ must be finite and > 0");
  QUASIDYN_CHECK_ARGUMENT(d.trust_region > 0.0 && std::isfinite(d.trust_region), kWhere,
                          "trust_region r must be finite and > 0");
}

const Eigen::VectorXd& StepWeight(const TrajoptQpData& d, int k_after) {
  return k_after == static_cast<int>(d.A.size()) ? d.terminal_weight : d.object_weight;
}

}  // namespace

void BuildTrajoptQp(const TrajoptQpData& d, QpProblem* problem) {
  CheckData(d);
  const int H = static_cast<int>(d.A.size());
  const int nq = static_cast<int>(d.A[0].rows());
  const int nu = static_cast<int>(d.B[0].cols());
  const int nx = nu * H, no = d.object_size;
  Eigen::MatrixXd P = Eigen::MatrixXd::Zero(nx, nx);
  Eigen::VectorXd c = Eigen::VectorXd::Zero(nx);
  // Forward recursion of the state sensitivities: δq_k = free_k + gamma_k δu.
  Eigen::MatrixXd gamma = Eigen::MatrixXd::Zero(nq, nx), next(nq, nx);
  Eigen::VectorXd free = d.dq0;
  for (int k = 0; k < H; ++k) {
    next.noalias() = d.A[k] * gamma;
    next.middleCols(k * nu, nu) += d.B[k];
    gamma.swap(next);
    free = d.A[k] * free;
    const Eigen::VectorXd& w = StepWeight(d, k + 1);
    const Eigen::MatrixXd M = gamma.topRows(no);
    const Eigen::VectorXd e = d.q_nominal[k].head(no) + free.head(no) - d.goal;
    P.noalias() += 2.0 * M.transpose() * w.asDiagonal() * M;
    c.noalias() += 2.0 * M.transpose() * (w.asDiagonal() * e);
  }
  // ρ Σ ‖Δu_k + δu_k − δu_{k−1}‖², Δu_k the nominal increments: 2ρ DᵀD and 2ρ DᵀΔu.
  for (int k = 0; k < H; ++k) {
    const Eigen::VectorXd previous = k == 0 ? d.u_before : d.u_nominal[k - 1];
    const Eigen::VectorXd rate = d.u_nominal[k] - previous;
    c.segment(k * nu, nu) += 2.0 * d.rate_weight * rate;
    if (k > 0) c.segment((k - 1) * nu, nu) -= 2.0 * d.rate_weight * rate;
    P.block(k * nu, k * nu, nu, nu).diagonal().array() += 2.0 * d.rate_weight;
    if (k > 0) {
      P.block((k - 1) * nu, (k - 1) * nu, nu, nu).diagonal().array() += 2.0 * d.rate_weight;
      P.block(k * nu, (k - 1) * nu, nu, nu).diagonal().array() -= 2.0 * d.rate_weight;
      P.block((k - 1) * nu, k * nu, nu, nu).diagonal().array() -= 2.0 * d.rate_weight;
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

std::vector<Eigen::VectorXd> PredictedStates(const TrajoptQpData& d, const Eigen::VectorXd& du) {
  CheckData(d);
  const int H = static_cast<int>(d.A.size());
  const int nu = static_cast<int>(d.B[0].cols());
  CheckVector("PredictedStates", "du", du, nu * H, "H·n_u");
  std::vector<Eigen::VectorXd> q(H);
  Eigen::VectorXd dq = d.dq0;
  for (int k = 0; k < H; ++k) {
    dq = d.A[k] * dq + d.B[k] * du.segment(k * nu, nu);
    q[k] = d.q_nominal[k] + dq;
  }
  return q;
}

double TrajoptCost(const TrajoptQpData& d, const std::vector<Eigen::VectorXd>& q,
                   const std::vector<Eigen::VectorXd>& u) {
  const int H = static_cast<int>(q.size());
  QUASIDYN_CHECK_ARGUMENT(static_cast<int>(u.size()) == H, "TrajoptCost",
                          "q and u must have the same number of steps");
  double cost = 0.0;
  for (int k = 0; k < H; ++k) {
    const Eigen::VectorXd& w = k + 1 == H ? d.terminal_weight : d.object_weight;
    const Eigen::VectorXd e = q[k].head(d.object_size) - d.goal;
    cost += e.dot(w.asDiagonal() * e);
    cost += d.rate_weight * (u[k] - (k == 0 ? d.u_before : u[k - 1])).squaredNorm();
  }
  return cost;
}

}  // namespace quasidyn
