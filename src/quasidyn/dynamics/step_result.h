#pragma once
// What one time step returns, whatever the formulation.

#include <Eigen/Core>
#include <string>
#include <vector>

#include "quasidyn/model/state.h"
#include "quasidyn/solvers/solver_status.h"

namespace quasidyn {

// One contact of the step, with the impulse B exerts on A over the step (world frame, N·s:
// the solver's multipliers) and the force it implies, the impulse divided by h (N). Under the
// quasi-dynamic model the impulse also resets the objects' momentum every step: see
// StepResult::momentum_force for that part (docs/formulations.md, "What the forces are").
struct ContactReport {
  int geometry_a = -1, geometry_b = -1;
  int body_a = -1, body_b = -1;
  // Witness point on B at the start [m]; for ecp, the equivalent contact point a2 at the end of
  // the step (the point where the pair's wrench acts).
  Eigen::Vector3d point = Eigen::Vector3d::Zero();
  Eigen::Vector3d normal = Eigen::Vector3d::UnitZ();  // unit, from B to A
  double phi_start = 0.0;     // φ at the start of the step [m] (from the geometry)
  double phi_end = 0.0;       // φ + h·J_n v, its first-order prediction at the end [m]
  double normal_force = 0.0;  // c_n >= 0 [N], along normal
  Eigen::Vector3d friction_force = Eigen::Vector3d::Zero();  // tangential [N], world
  double normal_impulse = 0.0;                               // λ_n >= 0 [N·s] = h · normal_force
  Eigen::Vector3d friction_impulse = Eigen::Vector3d::Zero();  // [N·s] = h · friction_force
  // ecp only (0 otherwise): the frictional moment about the normal through the point, on A,
  // p_r [N·m·s] and p_r/h [N·m] (Xie & Chakraborty, eq. (7)'s W_r p_r).
  double torsional_impulse = 0.0;
  double torsional_moment = 0.0;
};

// The solver's statistics of one step, in the same four numbers for every formulation
// (docs/trajectory-format.md says what each means for each formulation; each solver has its
// own, fuller info struct in solvers/).
struct SolverSummary {
  int iterations = 0;                // interior-point or Newton steps, Lemke pivots
  double primal_residual = 0.0;      // ∞-norm, constraint units (0 where there is none)
  double dual_residual = 0.0;        // ∞-norm, cost-gradient units
  double complementarity_gap = 0.0;  // sᵀz (interior point), Σ|w_i z_i| (LCP), λ²/2 (barrier)
  double solve_time_seconds = 0.0;   // wall-clock time of the solver's Solve [s]
  // QP and SOCP: the active-set polish (solvers/active_set_polish.h) replaced the
  // interior-point answer (it was attempted and reduced the KKT residual). The residuals above
  // are the interior point's.
  bool polished = false;
};

struct StepResult {
  SolverStatus status = SolverStatus::kNotRun;
  std::string message;  // empty when solved; otherwise what failed and which contact
  // x⁺: q⁺ (size n_q) and, for models with a velocity state, v⁺; the input state when the
  // step failed.
  State next;
  Eigen::VectorXd velocity;  // (q⁺ ⊖ q)/h (size n_v) [m/s, rad/s]; zero when the step failed
  std::vector<ContactReport> contacts;  // the contacts at q with their forces
  // What the objects' momentum term ½ s vᵀ M_u v of the cost contributes, as a generalized force
  // on the objects (size n_v,u) [N, N·m]: s · M_u · v_u / h. The contacts' generalized force on
  // the objects balances gravity plus this term, Σ J_u,iᵀ λ_i / h = s M_u v_u / h − τ_u
  // (stationarity of quasi_dynamic_cost.h), so a pushed object's contact forces exceed
  // Coulomb friction by it. Zero when the step failed or s = 0.
  Eigen::VectorXd momentum_force;
  // The joint limits' generalized impulse over the step (size n_v) [N·s on a prismatic
  // coordinate, N·m·s on a revolute one]: Σ_l d_l λ_l e_j over the limit rows (dynamics/
  // joint_limit_rows.h), positive where a lower limit pushes a coordinate up, negative where an
  // upper one pushes it down, zero on coordinates without limits. Divided by h it is the
  // limits' force; at a limit that holds a robot it cancels the impedance's pull K (u − q_lim).
  // Zero when the step failed.
  Eigen::VectorXd joint_limit_impulse;
  SolverSummary solver;
  // How far the step moved the bodies that carry collision geometry [m]: the largest, over
  // those bodies, of ‖p⁺ − p‖ + θ·r, the displacement of the body origin plus the rotation angle
  // between the start and end orientations times the body's bounding radius (the distance from
  // its origin to the furthest point of its shapes): a bound on how far any point of its shapes
  // moved (stepping/body_motion.h). 0 when the step failed.
  double max_body_motion = 0.0;
  // Informational, never a failure (the status is that of the solve): max_body_motion exceeds
  // the distance within which the step saw contacts (the scene's contact_tolerance ε, or a log
  // barrier's larger candidate distance). A pair of shapes further apart than that at the start
  // of the step was not in its program, so a body that moved further may have passed into
  // another one unseen; a finer time step, or smaller command changes per step, avoid it. The
  // rollouts count such steps (Trajectory::large_motion_steps), the planner repairs or refuses
  // its edges by them (planning/rrt.h).
  bool large_motion = false;
  bool ok() const { return Succeeded(status); }
};

}  // namespace quasidyn
