#pragma once
// The contact blocks of the Stewart–Trinkle LCPs of quasidyn (quasistatic_lcp.h, Pang &
// Tedrake 2021, eq. (6); halm_posa_lcp.h, Halm & Posa 2018, eqs. (34)–(37)), with the unknowns
// stacked per LCP as
//
//   z = (λ_n (n_c), λ_f (Σ n_d, contact-major, one per friction ray d_ij), γ (n_c)):
//
//   ContactImpulseMap     Jᵀ = [J_nᵀ  J_dᵀ  0] (n_v × n_z): the generalized impulse Jᵀz of z;
//   AddFrictionCouplings  the rows and columns that do not involve the bodies' motion:
//                         γ_i e in w_f,i (the "E" block), and w_γ,i = μ_i λ_n,i − eᵀ λ_f,i.

#include <Eigen/Core>

#include "quasidyn/contact/contact_set.h"

namespace quasidyn {

// n_z = 2 n_c + n_c n_d.
int ContactLcpSize(const ContactSet& contacts);

// *JT set to the n_v × n_z matrix [J_nᵀ J_dᵀ 0] (no heap allocation once it has that size).
void ContactImpulseMap(const ContactSet& contacts, Eigen::MatrixXd* JT);

// Adds the E, μ and −Eᵀ blocks to the n_z × n_z matrix *M (its other entries untouched).
void AddFrictionCouplings(const ContactSet& contacts, Eigen::MatrixXd* M);

}  // namespace quasidyn
