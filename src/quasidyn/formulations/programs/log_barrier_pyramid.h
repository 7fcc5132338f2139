#pragma once
// The pyramid QP of eq. (10) of Pang & Tedrake 2021 with its constraints moved into a log
// barrier, the smoothed quasi-dynamic step of Pang, Suh, Yang & Tedrake, T-RO 2023 (log-barrier
// smoothing of the contact dynamics):
//
//   minimise_v  ½ vᵀ P v − τ_hᵀ v − (1/κ) Σ_ij log g_ij(v),
//   g_ij(v) = φ_i/h + (J_n,i + μ_i J_d,ij) v   [m/s],
//
// an unconstrained smooth convex problem solved by damped Newton (solvers/log_barrier_newton.h).
// Units: the objective is in N·m (quasi_dynamic_cost.h), so κ (the formulation's `kappa`) is
// in 1/(N·m); κ → ∞ recovers the QP's solution (at distance O(1/κ) under strict
// complementarity).
//
// Implied impulses. Stationarity is P v − τ_h = Σ_ij (J_n,i + μ_i J_d,ij)ᵀ / (κ g_ij), the
// force balance (9a)-(9b) of Pang & Tedrake 2021 with
//   β_ij = 1 / (κ g_ij(v))  [N·s]  >  0,   so that  β_ij g_ij = 1/κ
// (the "φ λ = 1/κ" of the smoothed KKT conditions of Pang, Suh, Yang & Tedrake 2023): forces act at
// a distance, and every contact in the candidate set pushes. Normal impulse Σ_j β_ij, friction
// impulse μ_i Σ_j β_ij d_ij, as for the QP: the impulse lies in the friction pyramid.
// The joint-limit rows o_l + d_l v_j > 0 (joint_limit_rows.h) enter the barrier as the contact
// rows do, with the impulse λ_l = 1/(κ g_l): a limit holds within the barrier's stand-off
// h·g_l = h/(κ λ_l) of its bound.

#include "quasidyn/formulations/program.h"
#include "quasidyn/formulations/programs/log_barrier_gradient.h"
#include "quasidyn/formulations/programs/socp_gradient_blocks.h"
#include "quasidyn/formulations/programs/step_data_derivative.h"
#include "quasidyn/solvers/log_barrier_newton.h"

namespace quasidyn {

// The barrier problem above into *barrier: linear barriers G v > h with the rows of
// BuildPyramidQp (contact-major) and h_ij = −φ_i/h; weight κ = kappa [1/(N·m)]. No heap
// allocation once *barrier has held a problem of this size, or, with `storage`, once its
// vectors' sizes have been met (its spares).
void BuildPyramidLogBarrier(const StepProblem& problem, double kappa, LogBarrierProblem* barrier,
                            SizedStoragePool* storage = nullptr);

SolverSummary SummaryOf(const LogBarrierInfo& info);

struct LogBarrierWorkspace final : ProgramWorkspace {
  LogBarrierProblem problem;
  SizedStoragePool storage;  // the problem's vectors for other row counts (sized_storage_pool.h)
  LogBarrierSolver solver;
  PyramidStepData pyramid;  // the pyramid barrier's derivative (step_data_derivative.h)
  LogBarrierGradientWorkspace gradient;  // its storage (log_barrier_gradient.h)
  // The cone barrier's derivative (log_barrier_cone/log_barrier_cone.h): its blocks and
  // multipliers.
  std::vector<ContactConeBlock> cone_blocks;
  std::vector<Eigen::VectorXd> cone_multipliers;
  Eigen::VectorXd cone_gap, cone_impulse;  // its gap velocities and stacked impulse λ
};

// Solves a barrier problem in the workspace's solver (set up again only for a new pattern).
const LogBarrierResult& SolveLogBarrier(const LogBarrierSettings& settings,
                                        LogBarrierWorkspace* workspace);

}  // namespace quasidyn
