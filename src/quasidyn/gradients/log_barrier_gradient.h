#pragma once
// Smooth sensitivities of the log-barrier pyramid step (dynamics/log_barrier_pyramid.h,
// Pang 2022, "Smoothed Dynamics"): implicit differentiation of its stationarity condition
//
//   r(v) = P v − τ_h − Σ_j G_jᵀ / (κ g_j) = 0,    g_j = G_j v + o_j > 0,
//
// (the objective ½vᵀPv − τ_hᵀv − (1/κ) Σ_j log g_j of solvers/log_barrier_newton.h). With the
// Newton Hessian H = P + Σ_j G_jᵀ G_j / (κ g_j²) (symmetric positive definite at the
// minimiser), a change of the data gives
//   H dv = dτ_h − dP v + Σ_j dG_jᵀ / (κ g_j) − Σ_j G_jᵀ (dG_j v + do_j) / (κ g_j²),
// so ∂v/∂u = H⁻¹ ∂τ_h/∂u, the "∂x*/∂b = −H⁻¹" of Pang 2022 (the sign is that of b = −τ_h).
// Every row contributes: A and B are smooth in (q, u) for every κ > 0, and tend to the exact
// QP gradients of qp_gradient.h as κ → ∞ under strict complementarity.

#include <Eigen/Core>

#include "quasidyn/gradients/step_data_derivative.h"
#include "quasidyn/gradients/velocity_gradient.h"

namespace quasidyn {

// v: the barrier problem's minimiser; κ > 0 [1/(N·m)] (FormulationSettings::kappa); h [s].
// Throws std::invalid_argument when some g_j <= 0 (v is not strictly feasible).
VelocityGradient LogBarrierVelocityGradient(const Scene& scene, double time_step, double kappa,
                                            const PyramidStepData& data,
                                            const PyramidStepDataDerivative* derivative,
                                            const Eigen::VectorXd& v);

}  // namespace quasidyn
