#pragma once
// Exact sensitivities of the Stewart–Trinkle LCP step (dynamics/quasistatic_lcp.h: the
// stewart-trinkle formulation with the second-order cost, or the quasistatic lcp) by implicit
// differentiation at the solution Lemke's method found, on an active set S (z_i = 0 off S,
// w_i = 0 kept on S) chosen contact by contact, each contact in the mode it is in:
//
//   separated  w_n > 0: none of its rows (it exerts nothing);
//   sticking   w_n = 0 and Γ = 0: its normal row and every ray (all have w_f,j = J_d,j v = 0,
//              the balanced rays summing to zero), whatever their impulses, so that the contact
//              stays closed and sticks: the branch where the friction stays inside the cone
//              (four corners of a box resting flat stay down although Lemke loads only three
//              of them; with its impulse-free rays left out, a resting contact would
//              differentiate as frictionless);
//   sliding    w_n = 0, Γ > 0 and λ_n > 0: its normal row, Γ (friction on the pyramid's
//              boundary) and the rays against the motion (w_f,j = Γ + J_d,j v = 0);
//   unloaded   w_n = 0, Γ > 0 and λ_n = 0 (a sliding contact Lemke left without impulse, e.g.
//   sliding    the fourth corner of a sliding box): none, as separated. Its load stays zero
//              (Lemke's basis), where a shared load would change the friction's torque.
//
// "Zero" means at most 1e-9 of the LCP's scale ‖q‖∞ + ‖M‖∞‖z‖∞ (ten times Lemke's final check).
// At a strictly complementary solution this is the one active set; at a degenerate point (a
// touching contact without impulse, the friction exactly at the cone's edge) it picks one side
// of the non-differentiable point: sticking contacts stay closed and stick.
//
// with z = (λ_n, λ_f, Γ), Jᵀ = [J_nᵀ J_dᵀ 0] (contact_lcp_blocks.h), F the friction couplings
// (E, μ, −Eᵀ) and the offset o = (φ/h, 0, 0), the solution satisfies
//
//   P v − τ_h − Jᵀ z = 0,     (J v + o + F z)_S = 0,
//
// so, for a change of the data (dP, dτ_h, dJ, do) with z fixed on its support,
//
//   P dv − J_Sᵀ dz_S = r₁ = dτ_h − dP v + dJᵀ z,      J_S dv + F_SS dz_S = r₂ = −(dJ v + do)_S,
//
//   ⇒  M_SS dz_S = r₂ − (P⁻¹J_Sᵀ)ᵀ r₁,   dv = P⁻¹ (r₁ + J_Sᵀ dz_S),
//
// M_SS the LCP matrix restricted to S (the same Schur complement Lemke's method solved). M_SS is
// solved by a complete orthogonal decomposition (the minimum-norm dz_S when it is singular, e.g.
// a box resting on four corners: more active normal rows than the box has velocities; dv is
// unique whenever the active rows' perturbation is consistent: the sticking rays' impulses are
// not unique either).
//
// The data terms are the contractions of contact_data_derivative.h: dJᵀz = d(J_cᵀλ) with λ per
// contact row [λ_n,i; Σ_j (t_k · d_ij) λ_f,ij] (the rays d_ij lie in the tangent plane and turn
// with it, so J_d,ij = Σ_k (d_ij · t_k) J_t,k with constant coefficients), the normal rows
// dφ/h + d(J_n v) and the ray rows Σ_k (d_ij · t_k) d(J_t,k v); for u only r₁ = ∂τ_h/∂u =
// [0; h K_a] is non-zero.

#include <Eigen/Core>
#include <Eigen/QR>
#include <vector>

#include "quasidyn/contact/contact_set.h"
#include "quasidyn/formulations/programs/quasistatic_lcp.h"
#include "quasidyn/gradients/contact_data_derivative.h"
#include "quasidyn/gradients/velocity_gradient.h"

namespace quasidyn {

// Keeps pointers to scene, contacts and lcp: the caller keeps them alive while it uses this
// object (a pointer, so that a temporary cannot be bound by mistake).
class LcpStepSensitivity {
 public:
  // The LCP as built (BuildQuasistaticLcp) from `contacts` with time step h [s] > 0, and its
  // solution z (size n_z). std::invalid_argument for sizes that do not match or a non-finite z.
  LcpStepSensitivity(const Scene* scene, const ContactSet* contacts, double time_step,
                     const QuasistaticLcp* lcp, const Eigen::VectorXd& z);

  const std::vector<int>& active() const { return active_; }
  int rank() const { return rank_; }  // numerical rank of M_SS
  // λ per contact row of J_c (above): the impulse whose d(J_cᵀλ) the A right-hand side needs.
  Eigen::VectorXd ContactImpulse() const;
  // dv/du always; dv/dq when contraction is not null (made with v and ContactImpulse()).
  VelocityGradient Gradient(const StepDataContraction* contraction) const;
  // dv for changes of the cost alone (r₂ = 0): the columns of r1 (n_v × c) are dτ_h − dP v.
  Eigen::MatrixXd CostSensitivity(const Eigen::MatrixXd& r1) const;

 private:
  // dv for r1 (n_v × c) and r2 (|S| × c, the active rows' right-hand sides).
  Eigen::MatrixXd Solve(const Eigen::MatrixXd& r1, const Eigen::MatrixXd& r2) const;

  const Scene* scene_;
  const ContactSet* contacts_;
  double time_step_;
  const QuasistaticLcp* lcp_;
  Eigen::VectorXd z_;
  std::vector<int> active_;
  int rank_ = 0;
  Eigen::CompleteOrthogonalDecomposition<Eigen::MatrixXd> M_active_;  // of M_SS
  Eigen::MatrixXd velocity_map_active_;                               // (P⁻¹Jᵀ)_S, n_v × |S|
};

}  // namespace quasidyn
