#pragma once
// Smooth sensitivities of the cone log-barrier step (dynamics/log_barrier_cone.h;
// Pang, Suh, Yang & Tedrake, T-RO 2023, eq. (34)) by implicit differentiation of its stationarity
// condition.
//
// With the blocks of socp_gradient_blocks.h (BarrierConeBlocks: one per contact, u_b = A_b v +
// b_b = R_b c_i(v), A_b = R_b J_c,i), the objective of log_barrier_cone.h is
//   ½ vᵀ P v − τ_hᵀ v − (1/κ) Σ_b log ψ_b,   ψ_b = u_bᵀ J u_b,  J = diag(1, −I)
// (ψ = t² − ‖z‖²; for a frictionless contact m_b = 1 and ψ = t²). Its minimiser satisfies
//   r(v) = P v − τ_h − Σ_b A_bᵀ y_b(u_b) = 0,    y_b(u) = (2/κ) J u / ψ   [N·s]
// (the implied cone multipliers; λ = Σ_b R_bᵀ y_b are the impulse coordinates of
// log_barrier_cone.h). Differentiating (T-RO 2023, §III-C: ∂x*/∂b = −H⁻¹; Boyd & Vandenberghe,
// "Convex Optimization", §11.6 for the generalised logarithm ψ):
//   H dv = dτ_h − d(P v) + d(J_cᵀ λ) + Σ_b A_bᵀ Y_b R_b (d(J_c,i v) + dφ_i/h e₀),
//   Y_b = ∂y_b/∂u = (2/κ) (J/ψ − 2 J u uᵀ J / ψ²),
//   H = P − Σ_b A_bᵀ Y_b A_b = P + (1/κ) Σ_b A_bᵀ (4 J u uᵀ J/ψ² − 2 J/ψ) A_b,
// the Newton Hessian of solvers/log_barrier_newton.h (positive definite at the minimiser when
// P is, or when the barriers bind every free direction). The joint-limit rows (problem.cost.
// limits, linear barriers −(1/κ) log g_l, g_l = o_l + d_l v_j) add (1/(κ g_l²)) e_j e_jᵀ to H
// and −e_j e_jᵀ/(κ g_l² h) to the configuration right-hand side (∂o_l/∂ε = d_l e_jᵀ/h). ∂v/∂u = H⁻¹
// ∂τ_h/∂u. Every block contributes: A and B are smooth in (q, u) for every κ > 0 and tend to the
// SOCP gradients of socp_gradient.h as κ → ∞ under strict complementarity.

#include <Eigen/Core>
#include <vector>

#include "quasidyn/dynamics/step_problem.h"
#include "quasidyn/formulations/programs/log_barrier_gradient.h"
#include "quasidyn/formulations/programs/socp_gradient_blocks.h"
#include "quasidyn/gradients/contact_data_derivative.h"
#include "quasidyn/gradients/velocity_gradient.h"

namespace quasidyn {

// y_b = (2/κ) J u_b / ψ_b for every block at v; κ = kappa > 0 [1/(N·m)].
// Throws std::invalid_argument when some u_b is not strictly inside its cone (t_b <= ‖z_b‖).
std::vector<Eigen::VectorXd> BarrierConeMultipliers(const StepProblem& problem, double kappa,
                                                    const std::vector<ContactConeBlock>& blocks,
                                                    const Eigen::VectorXd& v);
// The same into *y, reusing its vectors (a block's size is fixed by its μ), with *gap the
// storage of the gap velocities: no allocation once both have met these blocks.
void BarrierConeMultipliers(const StepProblem& problem, double kappa,
                            const std::vector<ContactConeBlock>& blocks, const Eigen::VectorXd& v,
                            Eigen::VectorXd* gap, std::vector<Eigen::VectorXd>* y);

// dv/du always; dv/dq when `contraction` is not null (computed at this v and with
// λ = StackedImpulseCoordinates(contacts, blocks, BarrierConeMultipliers(…))).
// active_rows of the result: the number of blocks (all contribute).
// Throws std::invalid_argument on bad sizes or an infeasible v; an H that cannot be
// factorised is a result with ok == false.
VelocityGradient LogBarrierConeVelocityGradient(const StepProblem& problem, double kappa,
                                                const std::vector<ContactConeBlock>& blocks,
                                                const Eigen::VectorXd& v,
                                                const StepDataContraction* contraction);
// The same into *out with w's storage (H, the right-hand sides and the factor, kept by
// CalcDiff in the barrier's workspace): one factor of H and one solve for the n_v + n_q,a
// right-hand sides together. Each block's data term is added on its contact's columns only
// (ContactSet::Columns: the velocities of its two bodies' chains; every derivative of the
// contact's data along another direction is zero, contact_data_derivative.h).
void LogBarrierConeVelocityGradient(const StepProblem& problem, double kappa,
                                    const std::vector<ContactConeBlock>& blocks,
                                    const Eigen::VectorXd& v,
                                    const StepDataContraction* contraction,
                                    LogBarrierGradientWorkspace* w, VelocityGradient* out);

}  // namespace quasidyn
