#pragma once
// Exact sensitivities of the pyramid QP of Pang & Tedrake 2021, eq. (10), by implicit
// differentiation of its KKT conditions (Amos & Kolter, "OptNet", ICML 2017, §3; Nocedal &
// Wright, "Numerical Optimization", 2nd ed., §16.1 for the equality-constrained KKT system).
//
// With the data of step_data_derivative.h, the solution (v, β) satisfies on its active set 𝒜
//   P v − τ_h − G_𝒜ᵀ β_𝒜 = 0,     G_𝒜 v + o_𝒜 = 0,
// so, for a change dP, dτ_h, dG, do of the data,
//   [ P    G_𝒜ᵀ ] [  dv  ]   [ dτ_h − dP v + dG_𝒜ᵀ β_𝒜 ]
//   [ G_𝒜  0    ] [ −dβ_𝒜 ] = [ −do_𝒜 − dG_𝒜 v          ].
//
// Active set (documented choice). Row j is active when β_j d_j > s_j, where s_j = G_j v + o_j
// [m/s] is its slack and d_j = G_j P⁻¹ G_jᵀ [m/(N·s²)·s = 1/kg] its Delassus entry, so that
// β_j d_j is the velocity change the row's impulse causes by itself: the row is active when
// its impulse matters more than its gap. At a strictly complementary solution this is exact
// (one side is zero up to the solver tolerance). Where strict complementarity fails (β_j and
// s_j both ≈ 0, a mode switch) the rule still picks one side deterministically, and the
// result is the derivative of that branch (a one-sided derivative); nothing is averaged.
// P⁻¹ is taken as (P + δI)⁻¹ with δ = 1e-12·max(1, max P_ii) so that a singular P (objects
// without regularisation) is accepted.
//
// The KKT matrix is singular when G_𝒜 is rank deficient (more active pyramid rows than the
// velocities they constrain, e.g. a box flat on the ground: 16 rows, 6 velocities), then the
// multipliers are not unique but v still is: the system is solved by a complete orthogonal
// decomposition (Eigen::CompleteOrthogonalDecomposition, Golub & Van Loan §5.4.2) after a
// symmetric diagonal equilibration, which returns the minimum-norm least-squares solution:
// deterministic and finite for every input.

#include <Eigen/Core>
#include <vector>

#include "quasidyn/gradients/step_data_derivative.h"
#include "quasidyn/gradients/velocity_gradient.h"

namespace quasidyn {

// Indices of the active rows by the rule above; beta and v from the QP solver.
std::vector<int> ActivePyramidRows(const PyramidStepData& data, const Eigen::VectorXd& v,
                                   const Eigen::VectorXd& beta);

// dv/du always; dv/dq when derivative is not null. time_step h [s].
VelocityGradient QpVelocityGradient(const Scene& scene, double time_step,
                                    const PyramidStepData& data,
                                    const PyramidStepDataDerivative* derivative,
                                    const Eigen::VectorXd& v, const Eigen::VectorXd& beta);

}  // namespace quasidyn
