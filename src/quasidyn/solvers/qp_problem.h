#pragma once
// The convex quadratic program of qp.h's interior-point solver (QpSolver) as its callers give it
// and get it back: the problem
//
//   minimise   ½ xᵀ Q x + cᵀ x     subject to   G x >= h,   A x = b,
//
// its optional starting point, the solver's settings, statistics and result. What a caller
// needs to build a problem and read an answer, without the solver's workspace (qp.h).

#include <Eigen/Core>
#include <string>

#include "quasidyn/solvers/polish_settings.h"
#include "quasidyn/solvers/solver_status.h"
#include "quasidyn/solvers/sparse_row_matrix.h"

namespace quasidyn {

struct QpProblem {
  SparseRowMatrix Q;  // (n × n) symmetric positive semidefinite cost Hessian; may be singular
                      // on directions bounded by the constraints
  Eigen::VectorXd c;  // (n) linear cost
  SparseRowMatrix G;  // (m × n) constraint matrix, m >= 0
  Eigen::VectorXd h;  // (m) constraint lower bounds: G x >= h
  SparseRowMatrix A;  // (p × n) equality rows, p >= 0 (0 rows: none; cols may then be 0)
  Eigen::VectorXd b;  // (p) A x = b
};

// Optional starting point. Empty vectors mean "not supplied".
struct QpWarmStart {
  Eigen::VectorXd x;  // (n) primal guess
  Eigen::VectorXd z;  // (m) multiplier guess, entries > 0 (smaller ones are lifted)
  Eigen::VectorXd y;  // (p) equality multiplier guess
};

struct QpSettings {
  // Stopping tests (all three must hold), with r_p = Gx − s − h, r_e = Ax − b,
  // r_d = Qx + c − Gᵀz − Aᵀy:
  //   primal:  max(‖r_p‖∞, ‖r_e‖∞) <= absolute_tolerance + relative_tolerance ·
  //                                    max(‖Gx‖∞, ‖s‖∞, ‖h‖∞, ‖Ax‖∞, ‖b‖∞)
  //   dual:    ‖r_d‖∞ <= absolute_tolerance + relative_tolerance ·
  //                      max(‖Qx‖∞, ‖c‖∞, ‖Gᵀz‖∞, ‖Aᵀy‖∞)
  //   gap:     sᵀz    <= absolute_tolerance + relative_tolerance · max(1, |½xᵀQx + cᵀx|)
  // Dimensionless, > 0.
  double absolute_tolerance = 1e-9;
  double relative_tolerance = 1e-9;
  // When the iteration limit is reached or the step stalls, status is kSolvedInaccurate if the
  // three tests hold with the tolerances multiplied by this factor (>= 1).
  double inaccurate_factor = 1e4;
  // Primal infeasibility certificate (Farkas): z >= 0 and y with ‖Gᵀz + Aᵀy‖∞ <=
  // infeasibility_tolerance · (hᵀz + bᵀy) and hᵀz + bᵀy > 0 proves G x >= h, A x = b has no
  // solution. Dimensionless, > 0.
  double infeasibility_tolerance = 1e-8;
  int max_iterations = 100;  // > 0
  // Fraction of the step to the boundary of s, z > 0 taken each iteration, in (0, 1).
  double step_to_boundary = 0.99;
  // Tikhonov term δ·I added to the reduced matrix before factorising (units of Q), >= 0;
  // one step of iterative refinement on the unregularised matrix follows.
  double kkt_regularization = 1e-12;
  // δ_e of the equality block −δ_e I (makes the KKT matrix quasi-definite), > 0; used only
  // when there are equality rows.
  double equality_regularization = 1e-10;
  // Sparse path (LDLᵀ of Q + Gᵀ diag(z/s) G) when n >= sparse_min_variables (>= 0) and the
  // fraction of non-zeros in G and Q is <= sparse_max_density (in [0, 1]).
  int sparse_min_variables = 200;
  double sparse_max_density = 0.1;
  // Warm start: slacks and multipliers are lifted to at least this value (> 0, units of h).
  double warm_start_min_value = 1e-6;
  // Warm start's slacks lifted relative to the primal scale of the stopping test instead:
  // to warm_start_min_value · max(‖G x₀‖∞, ‖h‖∞), but at least absolute_tolerance (a slack the
  // primal test cannot tell from 0) and at most warm_start_min_value (not from a paper; ours).
  // A contact QP whose rows all bind at φ ≈ 0 (the planar hand's grasp: ‖h‖∞ ≈ 1e-14 m/s)
  // otherwise starts with slacks of 1e-6 against impulses of about 1e-2 N·s, a gap sᵀz of about
  // 6e-8 against the gap test's 2e-9, and spends iterations closing it (docs/performance.md,
  // "The warm start's slack floor": 3.04 → 2.68 iterations per step on the planar hand, 3.27 on
  // arm_cubes either way). The multipliers' floor stays warm_start_min_value.
  // ContactQpSettings (pyramid_qp.h) turns it on.
  bool scaled_warm_start_slack = false;
  // Cold start's multipliers: z = 1/s, every row at s_i z_i = 1 (true), or z = 1 (false). The
  // balanced start keeps rows far from active (a joint limit's slack of tens of m/s) from
  // inflating μ = sᵀz/m: on arm_cubes' step 12 iterations instead of 15. The MIQP's node QPs
  // (miqp.h) keep z = 1: its big-M rows then branch better (78 against 88 nodes on the MPC's
  // median N = 20 problem).
  bool balanced_start = true;
  // After a successful solve, the active-set polish of qp_polish.h (exact zeros on inactive
  // rows); polish.enabled = false turns it off.
  PolishSettings polish;
};

// Statistics of one Solve.
struct QpInfo {
  int iterations = 0;                // interior-point iterations
  double primal_residual = 0.0;      // max(‖r_p‖∞, ‖r_e‖∞) at the returned point
  double dual_residual = 0.0;        // ‖r_d‖∞
  double complementarity_gap = 0.0;  // sᵀz
  double solve_time_seconds = 0.0;   // wall-clock time of Solve()
  bool used_sparse_path = false;
  PolishInfo polish;  // what the polish did (qp_polish.h); residuals above are the solver's own
};

struct QpResult {
  SolverStatus status = SolverStatus::kNotRun;
  std::string message;     // empty when solved; names the offending row otherwise
  Eigen::VectorXd x;       // (n) primal solution
  Eigen::VectorXd z;       // (m) multipliers of G x >= h, >= 0 (contact impulses in eq. (10))
  Eigen::VectorXd s;       // (m) slacks G x − h, >= 0
  Eigen::VectorXd y;       // (p) multipliers of A x = b
  double objective = 0.0;  // ½ xᵀQx + cᵀx
  QpInfo info;
};

// Checks of the settings' documented ranges (std::invalid_argument naming the field).
void ValidateQpSettings(const QpSettings& settings);

}  // namespace quasidyn
