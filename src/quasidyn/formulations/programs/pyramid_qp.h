#pragma once
// The quasi-dynamic time step with Anitescu's friction pyramid as a convex QP,
// Pang & Tedrake 2021, eq. (10):
//
//   minimise_v  ½ vᵀ P v − τ_hᵀ v                                   (quasi_dynamic_cost.h)
//   subject to  φ_i/h + (J_n,i + μ_i J_d,ij) v >= 0,   every contact i, ray j = 1 … n_d,
//               o_l + d_l v_j >= 0,                    every joint-limit row l
//                                                      (joint_limit_rows.h).
//
// The multipliers β_ij >= 0 are impulses [N·s] along the pyramid edges n_i + μ_i d_ij
// (eq. (9)): the normal impulse is Σ_j β_ij and the friction impulse μ_i Σ_j β_ij d_ij.

#include "quasidyn/formulations/program.h"
#include "quasidyn/formulations/programs/pyramid_qp_warm_start.h"
#include "quasidyn/formulations/programs/qp_gradient.h"
#include "quasidyn/formulations/programs/step_data_derivative.h"
#include "quasidyn/solvers/qp.h"
#include "quasidyn/solvers/sized_storage_pool.h"

namespace quasidyn {

// The pyramid constraints of eq. (10b), G v >= h, shared by the QP and the pyramid log
// barrier: rows contact-major (row i·n_d + j) on the contact's columns, (n_i + μ_i d_ij)ᵀ J_i,
// every entry on those columns stored, exact zeros included (an axis-aligned box has some), so
// that G's pattern depends on the contact set alone and the solvers keep their pattern while
// the contacts stay (solvers/qp.h); h = −φ_i/h (h the time step [s]); then the joint-limit rows
// of problem.cost.limits (joint_limit_rows.h), from row n_c·n_d on. No heap allocation once *G
// and *h have held this size, or, with `storage`, once h's size has been met (its spares).
void BuildPyramidConstraints(const StepProblem& problem, SparseRowMatrix* G, Eigen::VectorXd* h,
                             SizedStoragePool* storage = nullptr);

// The QP of eq. (10) into *qp: x = v, G rows contact-major (row i·n_d + j) on the contact's
// columns (exact zeros not stored), h = −φ_i/h. No heap allocation once *qp has held a
// problem of this size, or, with `storage`, once h's size has been met.
void BuildPyramidQp(const StepProblem& problem, QpProblem* qp, SizedStoragePool* storage = nullptr);

// Solver settings for contact problems: every row of G touches at most the two bodies of its
// contact, so the sparse KKT path pays off from 16 velocities on (measured on the arm + 10 cubes
// scene: 0.67 ms sparse vs 2.8 ms dense per solve, 69 velocities, 208 rows; on the 16-joint
// hand, 22 velocities and 140 rows, 2.9 times faster: step_bench's BM_HandSolveQp,
// docs/performance.md).
// The warm start's slacks are lifted relative to the primal scale (QpSettings::
// scaled_warm_start_slack): a grasp's rows bind at φ ≈ 0.
QpSettings ContactQpSettings();

// The solver's statistics in the step's summary (step_result.h).
SolverSummary SummaryOf(const QpInfo& info);

// The pyramid QP's storage, its solver, and what its derivative keeps (qp/qp_program.h,
// anitescu/anitescu_program.h).
struct PyramidQpWorkspace final : ProgramWorkspace {
  QpProblem qp;
  QpSolver solver;
  PyramidQpWarmStart previous;  // the last step's answer (QpStart::kFromPreviousStep)
  QpWarmStart start;            // its start for this step
  PyramidStepData pyramid;      // G, offsets and their rows (step_data_derivative.h)
  QpSensitivity sensitivity;    // the active set, factors and solve buffers (qp_gradient.h)
  SizedStoragePool storage;     // qp.h's storage for other row counts (sized_storage_pool.h)
};

// Where SolvePyramidQp starts the interior point: cold (solvers/qp.h), or from the previous
// step's answer kept in the workspace (pyramid_qp_warm_start.h; cold when there is none). A warm
// solve that does not end kSolved is solved again cold, so a warm start never changes a
// status, and the summary's iterations and time are those of both solves.
enum class QpStart { kCold, kFromPreviousStep };

// Builds the QP of `problem` into the workspace, solves it (set up again only for a new
// pattern) from `start` and writes v and the impulses into *solution: β_ij along the pyramid edges
// give the normal impulse Σ_j β_ij and the friction impulse μ_i Σ_j β_ij d_ij. The same program
// serves two step models, by the cost it is given (step_problem.h): the quasi-dynamic step
// (quasi_dynamic_cost.h), Pang & Tedrake 2021, eq. (10), and the second-order step
// (second_order_cost.h, P = M̂): Anitescu's convex relaxation of the Stewart–Trinkle LCP
// (Anitescu 2006, "Optimization-based simulation of nonsmooth rigid multibody dynamics", Math.
// Program. 105), whose pyramid rows φ/h + (J_n + μ d_j) v ≥ 0 let a sliding contact separate at
// the normal speed μ|v_t| (the relaxation's boundary layer). `description` names the program in
// messages.
void SolvePyramidQp(const StepProblem& problem, const QpSettings& settings, const char* description,
                    PyramidQpWorkspace* workspace, FormulationSolution* solution,
                    QpStart start = QpStart::kCold);

// Sets the solver up for qp when its pattern differs from the last one, else updates the
// values (shared by the formulations that solve a QP).
void SetupOrUpdate(const QpProblem& qp, const QpSettings& settings, QpSolver* solver);

}  // namespace quasidyn
