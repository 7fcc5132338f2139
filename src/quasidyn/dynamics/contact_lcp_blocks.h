#pragma once
// The contact blocks of the Stewart–Trinkle LCPs of quasidyn (quasistatic_lcp.h, Pang &
// Tedrake 2021, eq. (6); halm_posa_lcp.h, Halm & Posa 2018, eqs. (34)–(37)), with the unknowns
// stacked per LCP as
//
//   z = (λ_n (n_c), λ_f (Σ n_d, contact-major, one per friction ray d_ij), γ (n_c),
//        λ_l (n_l, the joint-limit rows of joint_limit_rows.h)):
//
//   ContactImpulseMap     Jᵀ = [J_nᵀ  J_dᵀ  0  G_lᵀ] (n_v × n_z): the generalized impulse Jᵀz
//                         of z, G_l the limit rows d_l e_jᵀ (a limit is a frictionless contact
//                         of one coordinate: w_l = o_l + G_l v >= 0 ⊥ λ_l >= 0);
//   AddFrictionCouplings  the rows and columns that do not involve the bodies' motion:
//                         γ_i e in w_f,i (the "E" block), and w_γ,i = μ_i λ_n,i − eᵀ λ_f,i.

#include <Eigen/Core>

#include "quasidyn/contact/contact_set.h"
#include "quasidyn/dynamics/joint_limit_rows.h"

namespace quasidyn {

// n_z = 2 n_c + n_c n_d + n_l.
int ContactLcpSize(const ContactSet& contacts, const JointLimitRows& limits);

// Writes the n_v × n_z matrix [J_nᵀ J_dᵀ 0 G_lᵀ] into JT, which must have that size (the caller
// sizes it: a MatrixXd, or a view on storage kept across sizes); std::invalid_argument
// otherwise. No heap allocation.
void ContactImpulseMap(const ContactSet& contacts, const JointLimitRows& limits,
                       Eigen::Ref<Eigen::MatrixXd> JT);

// Adds the E, μ and −Eᵀ blocks to the n_z × n_z matrix M (its other entries untouched).
void AddFrictionCouplings(const ContactSet& contacts, Eigen::Ref<Eigen::MatrixXd> M);

}  // namespace quasidyn
