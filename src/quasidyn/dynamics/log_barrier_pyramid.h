#pragma once
// The pyramid QP of eq. (10) of Pang & Tedrake 2021 with its constraints moved into a log
// barrier, the smoothed quasi-dynamic step of Pang 2022 (talk "planning and control
// contact-rich", "Smoothing", "Smoothed Dynamics"):
//
//   minimise_v  ½ vᵀ P v − τ_hᵀ v − (1/κ) Σ_ij log g_ij(v),
//   g_ij(v) = φ_i/h + (J_n,i + μ_i J_d,ij) v   [m/s],
//
// an unconstrained smooth convex problem solved by damped Newton (solvers/log_barrier_newton.h).
// Units: the objective is in N·m (quasi_dynamic_cost.h), so κ = FormulationSettings::kappa is
// in 1/(N·m); κ → ∞ recovers the QP's solution (at distance O(1/κ) under strict
// complementarity).
//
// Implied impulses. Stationarity is P v − τ_h = Σ_ij (J_n,i + μ_i J_d,ij)ᵀ / (κ g_ij), the
// force balance (9a)-(9b) of Pang & Tedrake 2021 with
//   β_ij = 1 / (κ g_ij(v))  [N·s]  >  0,   so that  β_ij g_ij = 1/κ
// (the "φ λ = 1/κ" of Pang 2022's smoothed KKT conditions): forces act at a distance, and
// every contact in the candidate set pushes. Normal impulse Σ_j β_ij, friction impulse
// μ_i Σ_j β_ij d_ij, as for the QP: the impulse lies in the friction pyramid.

#include "quasidyn/dynamics/step_problem.h"
#include "quasidyn/solvers/log_barrier_newton.h"

namespace quasidyn {

// The barrier problem above: rows in the order of BuildPyramidQp (contact-major), h_ij = φ_i/h
// (LogBarrierProblem's convention is G x + h > 0), kappa = settings.kappa.
LogBarrierProblem BuildPyramidLogBarrier(const StepProblem& problem);

FormulationSolution SolvePyramidLogBarrier(const StepProblem& problem, LogBarrierSolver* solver,
                                           const LogBarrierSettings& settings = {});

}  // namespace quasidyn
