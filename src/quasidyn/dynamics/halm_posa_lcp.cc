#include "quasidyn/dynamics/halm_posa_lcp.h"

#include <algorithm>

#include "quasidyn/dynamics/contact_lcp_blocks.h"

namespace quasidyn {

void BuildHalmPosaMobility(const std::vector<ObjectLimitSurface>& surfaces,
                           const Eigen::VectorXd& q, const Eigen::MatrixXd& scaled_gains,
                           Eigen::MatrixXd* W) {
  const int nv = static_cast<int>(q.size());
  const int na = static_cast<int>(scaled_gains.rows());
  W->setZero(nv, nv);
  for (const ObjectLimitSurface& s : surfaces) {
    W->block<3, 3>(s.v_start, s.v_start) = WorldLimitSurface(s.body, q[s.v_start + 2]);
  }
  W->bottomRightCorner(na, na) = scaled_gains;  // c B, eq. (33)
}

void BuildHalmPosaLcp(const ContactSet& contacts, const Eigen::MatrixXd& W,
                      const Eigen::VectorXd& u, double h, HalmPosaLcp* out) {
  const int nv = contacts.nv(), nc = contacts.size();
  const int na = static_cast<int>(u.size());
  const int nz = ContactLcpSize(contacts);
  out->num_contacts = nc;
  out->time_step = h;
  out->penetration_kept = false;
  ContactImpulseMap(contacts, &out->JT);
  out->displacement_offset.setZero(nv);
  out->displacement_offset.tail(na) = h * u;  // d₀ = [0; h u], eq. (33)
  out->displacement_map.resize(nv, nz);
  out->displacement_map.noalias() = W * out->JT;
  out->lcp.M.resize(nz, nz);
  out->lcp.M.noalias() = out->JT.transpose() * out->displacement_map;  // J W Jᵀ, eq. (37)
  AddFrictionCouplings(contacts, &out->lcp.M);
  out->displacement_map *= h;  // Δq = d₀ + h W Jᵀ z_F (rate form)
  out->lcp.q.resize(nz);
  // w(h u)/h = J [0; u], eq. (38), + [φ⁻/h; 0].
  out->lcp.q.noalias() = out->JT.bottomRows(na).transpose() * u;
  for (int i = 0; i < nc; ++i) out->lcp.q[i] += contacts[i].phi / h;
}

void HalmPosaLcpSolver::SolveWithRetries(const LcpProblem& problem) {
  const int n = static_cast<int>(problem.q.size());
  if (lemke_size_ != n) {
    lemke_.Setup(n, settings_);
    lemke_size_ = n;
  }
  answer_ = lemke_.Solve(problem);
  int pivots = answer_.info.pivots;
  for (const double scale : {1e3, 1e-3}) {  // retries (halm_posa_lcp.h, "Rate form")
    if (Succeeded(answer_.status)) break;
    rescaled_.M = problem.M;
    rescaled_.q = scale * problem.q;
    const LcpResult& retry = lemke_.Solve(rescaled_);
    pivots += retry.info.pivots;
    if (Succeeded(retry.status)) {
      answer_ = retry;
      answer_.z /= scale;
      answer_.w /= scale;
      answer_.info.residual /= scale;
      answer_.info.sign_violation /= scale;
      answer_.info.complementarity /= scale * scale;
    }
  }
  answer_.info.pivots = pivots;
}

const LcpResult& HalmPosaLcpSolver::Solve(const ContactSet& contacts, HalmPosaLcp* lcp,
                                          bool* warm_started) {
  const LcpProblem& problem = lcp->lcp;
  const int nc = contacts.size();
  const LcpResult* result = nullptr;
  if (warm_start_.Try(contacts, problem, settings_.residual_tolerance, &guess_result_))
    result = &guess_result_;
  if (warm_started != nullptr) *warm_started = result != nullptr;
  if (result == nullptr) {
    SolveWithRetries(problem);
    bool penetrating = false;
    for (int i = 0; i < nc; ++i) penetrating = penetrating || contacts[i].phi < 0.0;
    if (!Succeeded(answer_.status) && penetrating) {  // keep the penetrations (above)
      const int pivots = answer_.info.pivots;
      for (int i = 0; i < nc; ++i)
        if (contacts[i].phi < 0.0) lcp->lcp.q[i] -= contacts[i].phi / lcp->time_step;
      lcp->penetration_kept = true;
      SolveWithRetries(problem);
      answer_.info.pivots += pivots;
    }
    result = &answer_;
  }
  warm_start_.Remember(contacts, *result);
  return *result;
}

}  // namespace quasidyn
