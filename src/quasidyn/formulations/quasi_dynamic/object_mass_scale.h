#pragma once
// The reference simulator's rule for the objects' mass scale s of the quasi-dynamic cost
// (quasi_dynamic_cost.h), offered as the scene parameter `unactuated_mass_scale` under the
// reference's own name and meaning (docs/scene-format.md, "formulation"): s is chosen so that the
// largest eigenvalue of the scaled object mass matrix, times the user's divisor c, equals the
// smallest robot term of the cost,
//
//   (λ_max(M_u(q0)) · s) · c = min_j h² K_a,j    ⇒    s = min_j h² K_a,j / (c · λ_max(M_u(q0))),
//
// so the objects' momentum term stays c times below the stiffest robot's spring in the cost
// (units: both sides in kg, the cost's P in N·s² / m). c = 0 keeps s = 1 (not scaled), as the
// reference does. M_u is evaluated at the scene's q0 (for one-body objects its eigenvalues do
// not depend on q: the mass and the principal moments).

#include "quasidyn/model/scene.h"

namespace quasidyn {

// s of the rule above for divisor c >= 0 [-] and time step h > 0 [s]; 1 when c = 0, when the
// scene has no object or no robot (nothing to scale against). Throws std::invalid_argument for
// c < 0, h <= 0 or non-finite values.
double ReferenceObjectMassScale(const Scene& scene, double time_step, double divisor);

}  // namespace quasidyn
