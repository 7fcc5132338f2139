#include "quasidyn/formulations/halm_posa/halm_posa_lcp.h"

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

void BuildHalmPosaLcp(const ContactSet& contacts, const JointLimitRows& limits,
                      const Eigen::MatrixXd& W, const Eigen::VectorXd& u, double h,
                      HalmPosaLcp* out) {
  const int nv = contacts.nv(), nc = contacts.size();
  const int na = static_cast<int>(u.size());
  const int nz = ContactLcpSize(contacts, limits);
  out->num_contacts = nc;
  out->time_step = h;
  out->penetration_kept = false;
  out->JT.resize(nv, nz);
  ContactImpulseMap(contacts, limits, out->JT);
  out->displacement_offset.setZero(nv);
  out->displacement_offset.tail(na) = h * u;  // d₀ = [0; h u], eq. (33)
  out->displacement_map.resize(nv, nz);
  out->displacement_map.noalias() = W * out->JT;
  out->lcp.M.resize(nz, nz);
  out->lcp.M.noalias() = out->JT.transpose() * out->displacement_map;  // J W Jᵀ, eq. (37)
  AddFrictionCouplings(contacts, out->lcp.M);
  out->displacement_map *= h;  // Δq = d₀ + h W Jᵀ z_F (rate form)
  out->lcp.q.resize(nz);
  // No contact and no limit: an empty LCP (a block of the empty Jᵀ would offset a null pointer).
  if (nz == 0) return;
  // w(h u)/h = J [0; u], eq. (38), + [φ⁻/h; 0].
  out->lcp.q.noalias() = out->JT.bottomRows(na).transpose() * u;
  for (int i = 0; i < nc; ++i) out->lcp.q[i] += contacts[i].phi / h;
  out->lcp.q.tail(limits.size()) += limits.offsets();  // o_l = d_l (q_j − bound_l)/h
}

const LcpResult& HalmPosaLcpSolver::Solve(const ContactSet& contacts, HalmPosaLcp* lcp,
                                          bool* warm_started) {
  const LcpProblem& problem = lcp->lcp;
  const int nc = contacts.size();
  const LcpResult* result = nullptr;
  const bool warm = solver_.TryWarmStart(contacts, problem, &result);
  if (warm_started != nullptr) *warm_started = warm;
  if (!warm) {
    const LcpResult* answer = &solver_.SolveWithRetries(problem);
    bool penetrating = false;
    for (int i = 0; i < nc; ++i) penetrating = penetrating || contacts[i].phi < 0.0;
    if (!Succeeded(answer->status) && penetrating) {  // keep the penetrations (above)
      const int pivots = answer->info.pivots;
      for (int i = 0; i < nc; ++i)
        if (contacts[i].phi < 0.0) lcp->lcp.q[i] -= contacts[i].phi / lcp->time_step;
      lcp->penetration_kept = true;
      answer = &solver_.SolveWithRetries(problem);
      kept_answer_ = *answer;
      kept_answer_.info.pivots += pivots;
      answer = &kept_answer_;
    }
    result = answer;
  }
  solver_.Remember(contacts, *result);
  return *result;
}

}  // namespace quasidyn
