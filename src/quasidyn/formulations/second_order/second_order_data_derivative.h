#pragma once
// The derivatives of the smooth, contact-free data of the second-order time step
// (dynamics/second_order_cost.h) that the contractions of contact_data_derivative.h do not
// hold: the robots' inertia and every velocity-product term. With
//
//   P(q) v⁺ − τ_h(q, v, u) = M(q)(v⁺ − v) + h C(q, v) v − h τ_g(q) − h τ_ext
//                             + (h D_a + h² K_a) v⁺ − h K_a (u − q_a),
//
// the stationarity of the step's program is  P v⁺ − τ_h − Jᵀ λ = 0, and its data derivatives are
//
//   inertia_force(:, k) = ∂(M(q) w)/∂ε_k + h ∂(C(q, v) v)/∂ε_k     (w = v⁺ − v and v fixed)
//   velocity_force      = ∂τ_h/∂v = M(q) − h ∂(C(q, v) v)/∂v        (n_v × n_v)
//
// along the tangent directions q ⊕ ε e_k (kinematics.h, IntegrateConfiguration), k < n_v. The
// rest of ∂(P v⁺ − τ_h)/∂ε_k, the objects' weight −h ∂τ_g/∂ε_k and the stiffness h K_a e_k,
// is DifferentiateStepData's d_tau_h with object_mass_scale = 0 (contact_data_derivative.h).
//
// How: M(q) and C(q, v) v are smooth in q; their q-derivatives are central differences of the
// data (not of the solution), step data_step [m or rad] (∛ε ≈ 6e-6 balances truncation and
// rounding), as the contact data's are. C(q, v) v is a quadratic form in v, so the central
// difference (C(v + s e_k) − C(v − s e_k))/(2s) is its exact derivative (the quadratic part
// cancels): only rounding remains, s = max(1, |v|∞) [m/s or rad/s].

#include <Eigen/Core>

#include "quasidyn/kinematics/coriolis_force.h"
#include "quasidyn/kinematics/kinematics.h"

namespace quasidyn {

struct SecondOrderDataDerivative {
  Eigen::MatrixXd inertia_force;   // n_v × n_v [N·s per unit ε]
  Eigen::MatrixXd velocity_force;  // n_v × n_v [kg, kg·m²]
};

// At configuration q (size n_q), start velocity v and w = v⁺ − v (size n_v), time step h [s]
// > 0, data_step [m or rad] > 0. `kinematics` is any Kinematics of the scene (its
// configuration is changed). std::invalid_argument for wrong sizes or non-finite input.
void DifferentiateSecondOrderData(Kinematics* kinematics, const Eigen::VectorXd& q,
                                  const Eigen::VectorXd& v, const Eigen::VectorXd& w, double h,
                                  double data_step, SecondOrderDataDerivative* out);

}  // namespace quasidyn
