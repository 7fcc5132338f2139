#pragma once
// A = ∂q⁺/∂q and B = ∂q⁺/∂u of the halm-posa step (dynamics/halm_posa_lcp.h; Halm & Posa 2018,
// eqs. (31)–(38)) by implicit differentiation of its LCP at the solution Calc found:
//
//   q⁺ = q + Δq,   Δq = d₀(u) + W(q) J(q)ᵀ z,   r(z, q, u) = M̃(q) z + w̃(q, u),
//
// on the active set S = {i : z_i > max(w_i, 0)} (z_i basic; z_i = 0 off S, r_i = 0 on S), so that
// M̃_SS dz_S = −(∂r/∂(q, u))_S, then
//
//   B = ∂Δq/∂u = [0; h I] + (W Jᵀ)_S ∂z_S/∂u,        ∂r/∂u = h J [0; I]
//   A = I + ∂W/∂q (Jᵀz) + W ∂(Jᵀz)/∂q + (W Jᵀ)_S ∂z_S/∂q,
//   ∂r/∂q_k (z fixed), velocity rows: ∂(J Δq)/∂q_k (Δq fixed) + J ∂W/∂q_k Jᵀz + J W ∂(Jᵀz)/∂q_k
//                                     + [∂φ/∂q_k; 0];  the rows of γ (μΛ_N − EᵀΛ_T) are constant.
//
// ∂W/∂q: only through each object's θ (∂A/∂θ, dynamics/limit_surface.h). ∂J/∂q and ∂φ/∂q
// come from the contractions of contact_data_derivative.h (the rows J_T,ij = (d_ij · t_i) J_t,i
// of the planar friction rays ±t_i). Planar scenes: q and v are indexed alike and q ⊕ v = q + v.
// The joint-limit rows (the last n_l entries of z, dynamics/joint_limit_rows.h) have constant
// rows of J and the offset d_l (q_j − bound_l)/h, whose ∂/∂q_j = d_l/h is their only data term.
// A degenerate point (z_i = w_i = 0) is taken off S: the derivative is that of the side where
// z_i stays 0. M̃_SS is solved by a complete orthogonal decomposition (the minimum-norm dz_S when
// it is singular, e.g. more active contact rows than the bodies have coordinates).

#include <Eigen/Core>
#include <string>
#include <vector>

#include "quasidyn/contact/contact_model.h"
#include "quasidyn/formulations/halm_posa/halm_posa_lcp.h"
#include "quasidyn/formulations/halm_posa/limit_surface.h"

namespace quasidyn {

struct HalmPosaStepInputs {
  const ContactModel& contact_model;
  double time_step;  // h [s]
  const std::vector<ObjectLimitSurface>& surfaces;
  const Eigen::VectorXd& q;             // n_q
  const Eigen::VectorXd& u;             // n_q,a [m/s, rad/s]
  const ContactSet& contacts;           // at q
  const JointLimitRows& limits;         // at q (the LCP's last rows)
  const Eigen::MatrixXd& W;             // the mobility at q (n_v × n_v)
  const HalmPosaLcp& lcp;               // as built at q
  const Eigen::VectorXd& z;             // its solution (n_z)
  const Eigen::VectorXd& displacement;  // Δq (n_v)
};

struct HalmPosaGradient {
  Eigen::MatrixXd A;  // n_q × n_q, when requested
  Eigen::MatrixXd B;  // n_q × n_q,a
  int active = 0;     // |S|
  int rank = 0;       // numerical rank of M̃_SS
  bool ok = true;     // false: `failure` says why (a contact lost under perturbation)
  std::string failure;
};

// B always, A when want_a. data_step [m or rad] > 0: the finite-difference step of the data
// contractions (contact_data_derivative.h).
HalmPosaGradient DifferentiateHalmPosaStep(const HalmPosaStepInputs& in, bool want_a,
                                           double data_step);

}  // namespace quasidyn
