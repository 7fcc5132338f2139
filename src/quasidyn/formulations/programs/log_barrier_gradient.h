#pragma once
// Smooth sensitivities of the log-barrier pyramid step (dynamics/log_barrier_pyramid.h,
// the pyramid rows of Pang & Tedrake 2021, eq. (10), in the barrier of Pang, Suh, Yang &
// Tedrake, T-RO 2023, eq. (34)): implicit differentiation of its stationarity condition
//
//   r(v) = P v − τ_h − Σ_j G_jᵀ / (κ g_j) = 0,    g_j = G_j v + o_j > 0,
//
// (the objective ½vᵀPv − τ_hᵀv − (1/κ) Σ_j log g_j of solvers/log_barrier_newton.h). With the
// Newton Hessian H = P + Σ_j G_jᵀ G_j / (κ g_j²) (symmetric positive definite at the
// minimiser), a change of the data gives
//   H dv = dτ_h − dP v + Σ_j dG_jᵀ / (κ g_j) − Σ_j G_jᵀ (dG_j v + do_j) / (κ g_j²),
// so ∂v/∂u = H⁻¹ ∂τ_h/∂u, the ∂x*/∂b = −H⁻¹ of T-RO 2023, §III-C (the sign is that of b = −τ_h).
// The data terms are the contractions of contact_data_derivative.h: Σ_j dG_jᵀ/(κ g_j) =
// d(J_cᵀλ) with λ = Rᵀ(1/(κ g)) (BarrierContactImpulse), dG v + do = R d(J_c v) + dφ/h row
// by row, and dg_l = G_l/h for the joint-limit rows (G's last rows, dynamics/
// joint_limit_rows.h: constant G_l, do_l = G_l dε/h). H is factored once (LDLᵀ, sparse from
// 40 velocities on: barrier_hessian_factor.h) and back-solved for
// the n_q,a + n_v right-hand sides. Every row contributes: A and B are smooth in (q, u) for every κ
// > 0, and tend to the exact QP gradients of qp_gradient.h as κ → ∞ under strict complementarity.

#include <Eigen/Core>
#include <vector>

#include "quasidyn/formulations/programs/barrier_hessian_factor.h"
#include "quasidyn/formulations/programs/step_data_derivative.h"
#include "quasidyn/gradients/contact_data_derivative.h"
#include "quasidyn/gradients/velocity_gradient.h"

namespace quasidyn {

// λ = Rᵀ w, w_j = 1/(κ g_j) (size r): the barrier's contact impulses [N·s], whose J_cᵀλ
// the A right-hand side needs (DifferentiateStepData's lambda). κ > 0 [1/(N·m)]. Throws
// std::invalid_argument when some g_j <= 0 or for κ <= 0.
Eigen::VectorXd BarrierContactImpulse(const PyramidStepData& data, double kappa,
                                      const Eigen::VectorXd& v);

// v: the barrier problem's minimiser; κ > 0 [1/(N·m)] (the formulation's kappa); h [s].
// dv/du always; dv/dq when contraction is not null (made with v and BarrierContactImpulse).
// Throws std::invalid_argument when some g_j <= 0 (v is not strictly feasible) or for
// sizes that do not match; a Hessian that does not factorise is a result with ok == false.
VelocityGradient LogBarrierVelocityGradient(const Scene& scene, double time_step, double kappa,
                                            const PyramidStepData& data,
                                            const StepDataContraction* contraction,
                                            const Eigen::VectorXd& v);

// The storage of both functions above, kept between calls by CalcDiff (log_barrier_pyramid.h):
// a call with the sizes of the previous one allocates nothing for the small dense Hessian.
struct LogBarrierGradientWorkspace {
  Eigen::VectorXd g, weights, impulse;  // G v + o, 1/(κ g) then 1/(κ g²), λ
  Eigen::MatrixXd H, rhs;               // the Hessian, the right-hand sides then dv
  std::vector<double> row_weights;      // one contact's M_i of the data term (the .cc)
  BarrierHessianFactor factor;
};
// BarrierContactImpulse into w->impulse (returned).
const Eigen::VectorXd& BarrierContactImpulse(const PyramidStepData& data, double kappa,
                                             const Eigen::VectorXd& v,
                                             LogBarrierGradientWorkspace* w);
// LogBarrierVelocityGradient into *out, reusing its storage and w's.
void LogBarrierVelocityGradient(const Scene& scene, double time_step, double kappa,
                                const PyramidStepData& data, const StepDataContraction* contraction,
                                const Eigen::VectorXd& v, LogBarrierGradientWorkspace* w,
                                VelocityGradient* out);

}  // namespace quasidyn
