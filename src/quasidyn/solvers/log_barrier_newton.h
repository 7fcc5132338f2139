#pragma once
// Smooth log-barrier relaxation of a contact QP / SOCP, minimised by damped Newton:
//
//   minimise  f(x) = ½ xᵀ Q x + cᵀ x − (1/κ) [ Σ_i log(G_i x − h_i) + Σ_k log(t_k² − ‖z_k‖²) ],
//             (t_k, z_k) = A_k x + b_k,
//
// the barrier ("smoothed") quasi-dynamic time step of Pang, Suh, Yang & Tedrake, T-RO 2023
// (arXiv 2206.10787v2), eq. (34) for the cones (and the same relaxation of the pyramid rows of
// Pang & Tedrake 2021, eq. (10)); as κ → ∞ the minimiser tends to the QP / SOCP solution, at
// distance O(1/κ). Newton with Armijo backtracking that keeps every barrier strictly positive
// (Boyd & Vandenberghe, "Convex Optimization", §9.5 and §11.3), stopping on the Newton
// decrement. The start is the best (lowest f) strictly feasible of the cheap candidates
// x_start, the solver's previous minimiser and x = 0; when none is strictly feasible or the
// best is too close to a barrier's boundary, Newton steps on the barrier with shifted arguments
// bring it inside (the shifted start, LogBarrierSettings::shifted_start), and a phase-1 SOCP
// runs only when that fails; continuation in κ is used when the direct solve fails. The Newton
// system H = Q + Σ_k A_kᵀ M_k A_k (one block per linear row or cone) is dense or sparse by size
// (block_normal_matrix.h).
//
// Use (the set-up / solve split of OSQP): Setup(problem, settings) validates and may
// allocate; UpdateValues(problem) takes new values with the same sparsity pattern; Solve()
// does not allocate unless it fails (its message) or runs phase 1 on a new pattern.

#include <Eigen/Cholesky>
#include <Eigen/Core>
#include <string>
#include <vector>

#include "quasidyn/solvers/block_normal_matrix.h"
#include "quasidyn/solvers/sized_storage_pool.h"
#include "quasidyn/solvers/socp.h"
#include "quasidyn/solvers/solver_status.h"
#include "quasidyn/solvers/sparse_row_matrix.h"

namespace quasidyn {

struct LogBarrierProblem {
  SparseRowMatrix Q;  // (n × n) symmetric PSD
  Eigen::VectorXd c;  // (n) linear cost
  SparseRowMatrix G;  // (p × n) linear barriers G x − h > 0 (p may be 0)
  Eigen::VectorXd h;  // (p)
  SparseRowMatrix A;  // (Σ m_k × n) cone barriers A_k x + b_k ∈ int K_k, cone after cone
  Eigen::VectorXd b;  // (Σ m_k)
  std::vector<int> cone_dims;  // m_k >= 1 per cone
  double kappa = 100.0;        // barrier weight κ, > 0 (dimensionless; larger = closer to the QP)
};

struct LogBarrierSettings {
  // Stop when the Newton decrement λ² = ∇fᵀ H⁻¹ ∇f satisfies λ²/2 <= decrement_tolerance
  // (Boyd & Vandenberghe eq. (9.29); λ²/2 estimates f(x) − f*, units of f), then take that
  // last Newton step, so x is accurate to O(λ²). > 0.
  double decrement_tolerance = 1e-14;
  int max_newton_iterations = 100;  // per κ stage, > 0
  double armijo_fraction = 1e-4;    // c in f(x + αΔx) <= f(x) + c α ∇fᵀΔx, in (0, 0.5)
  double backtrack_factor = 0.5;    // α ← backtrack_factor·α, in (0, 1)
  int max_backtracks = 60;          // > 0
  // Continuation when the direct solve fails: κ_j = initial_kappa · kappa_growth^j (< κ),
  // then κ; each stage starts from the previous minimiser.
  double initial_kappa = 1.0;  // > 0
  double kappa_growth = 10.0;  // > 1
  // Phase 1 declares the barriers infeasible when the best achievable common margin
  // max_x min_i barrier_i is below this (units of the barrier arguments, >= 0).
  double feasibility_margin = 1e-10;
  // A strictly feasible start whose smallest barrier argument (G_i x − h_i, or t_k − ‖z_k‖)
  // is below this is replaced by the phase-1 point when that one has a larger margin (units
  // of the barrier arguments, >= 0; 0 keeps every strictly feasible start, +infinity always
  // starts from the phase-1 point).
  double centring_margin = 1e-6;
  // The shifted start (the .cc, LogBarrierSolver::ShiftedStart): when the best candidate is
  // not strictly feasible or has a margin below centring_margin, Newton steps on the barrier
  // with every argument offset by a shift σ that starts at shift_margin − (smallest margin) and
  // is lowered by shift_reduction · (smallest shifted argument) after each step; the start is
  // where σ reaches 0. The SOCP phase 1 runs only when σ has not reached 0 within
  // max_shift_iterations (or when centring_margin is +infinity). Not stated in a paper; ours:
  // shift_margin 1e-2 (units of the barrier arguments, > 0; on the 3D hand's node
  // linearisations 1e-3 and 1e-1 also work, 1 does not: docs/performance.md), shift_reduction θ
  // 0.9 (in (0, 1)), max_shift_iterations 20 (> 0).
  bool shifted_start = true;
  double shift_margin = 1e-2;
  double shift_reduction = 0.9;
  int max_shift_iterations = 20;
  // Try the minimiser of the previous successful Solve of this solver (same n) as a start
  // candidate: consecutive time steps have nearby minimisers, which usually saves phase 1 and
  // most Newton steps. The minimiser does not depend on the start (f is strictly convex) up
  // to the Newton tolerance.
  bool use_previous_solution = true;
  // Sparse Newton system when n >= sparse_min_variables (>= 0) and the fraction of non-zeros
  // of [Q; G; A] is <= sparse_max_density (in [0, 1]).
  int sparse_min_variables = 40;
  double sparse_max_density = 0.5;
};

// Statistics of one Solve.
struct LogBarrierInfo {
  int newton_iterations = 0;         // Newton steps over all κ stages and the shifted start
  double gradient_norm = 0.0;        // ‖∇f‖∞ at the returned x (units of f per unit of x)
  double decrement = 0.0;            // the last λ²/2 (units of f)
  double solve_time_seconds = 0.0;   // wall-clock time of Solve()
  bool used_phase_one = false;       // a phase 1: the shifted start or the SOCP
  bool used_shifted_start = false;   // the start is the shifted start's point
  bool used_phase_one_socp = false;  // the phase-1 SOCP ran
  bool used_continuation = false;
  bool used_previous_solution = false;  // Newton started from the previous Solve's minimiser
  bool used_sparse_path = false;        // the Newton system was factorised by the sparse path
};

struct LogBarrierResult {
  SolverStatus status = SolverStatus::kNotRun;
  std::string message;     // names the offending barrier when infeasible
  Eigen::VectorXd x;       // (n) minimiser
  double objective = 0.0;  // f(x) as defined above
  LogBarrierInfo info;
};

class LogBarrierSolver {
 public:
  // Validates the problem and the settings (std::invalid_argument naming the field) and sizes
  // the workspace. The previous minimiser (a start candidate) is kept.
  void Setup(const LogBarrierProblem& problem, const LogBarrierSettings& settings = {});
  // True when problem has the sizes and sparsity patterns of the last Setup.
  bool SamePattern(const LogBarrierProblem& problem) const;
  // New values (κ included), same patterns (throws std::invalid_argument otherwise).
  void UpdateValues(const LogBarrierProblem& problem);

  // Minimises f. x_start (empty, or finite of size n; std::invalid_argument otherwise) is a
  // start candidate (see the top of this file).
  const LogBarrierResult& Solve(const Eigen::VectorXd& x_start = Eigen::VectorXd());
  const LogBarrierResult& result() const { return result_; }
  const LogBarrierSettings& settings() const { return settings_; }
  // Forgets the previous minimiser, so the next Solve starts as the first one did.
  void ClearPreviousSolution() { has_previous_x_ = false; }

  // The Hessian of f at the last result's x (same scaling as f):
  //   H = Q + (1/κ)[ Σ_i g_i g_iᵀ / s_i² + Σ_k A_kᵀ(4 J u_k u_kᵀ J / ψ_k² − 2 J / ψ_k) A_k ],
  //   s_i = G_i x − h_i, u_k = A_k x + b_k, ψ_k = u_kᵀ J u_k, J = diag(1, −I),
  // factorised as the Newton steps are (dense Cholesky, or sparse LDLᵀ for a large sparse
  // problem: no dense n × n copy); false when that fails. Optimality is Qx + c − (1/κ)∇Σlog = 0,
  // so ∂x*/∂c = −H⁻¹ (if the objective is scaled by κ instead, H_κ = κH and ∂x*/∂c = −κH_κ⁻¹).
  bool FactorHessianAtSolution();
  // *out = H⁻¹ rhs with the factorisation of FactorHessianAtSolution (valid until the next
  // Solve); out must not be rhs.
  void SolveWithHessian(const Eigen::VectorXd& rhs, Eigen::VectorXd* out);

 private:
  void Stack();
  // u_ = A_ x + b_ (the barrier arguments); false if any is not strictly inside its domain.
  bool StrictlyFeasible(const Eigen::VectorXd& x);
  // Smallest barrier argument at x: min_i (G_i x − h_i) and min_k (t_k − ‖z_k‖).
  double MinimumMargin(const Eigen::VectorXd& x);
  // The same of the arguments in u_.
  double MarginOfArguments() const;
  // f(x); +infinity outside the domain.
  double Objective(double kappa, const Eigen::VectorXd& x);
  // gradient_ (and, when hessian, the assembled Newton matrix, not factorised) at x.
  void Gradient(double kappa, const Eigen::VectorXd& x, bool hessian);
  // Factorises the Newton matrix, with a small diagonal shift when plain Cholesky fails on a
  // badly scaled H; false when no shift helps.
  bool FactorHessian();
  // Damped Newton at fixed κ from x (updated in place); status kSolved on convergence.
  SolverStatus Newton(double kappa, Eigen::VectorXd& x, int& iterations, double& decrement,
                      int max_iterations);
  // The shifted start (see the .cc) from x, updated in place; adds its Newton steps to
  // iterations. True when x is then strictly feasible.
  bool ShiftedStart(double kappa, Eigen::VectorXd& x, int& iterations);
  // u_ += b_, and the shift σ added to every block's first argument (0 outside ShiftedStart).
  void AddOffset();
  // Phase 1 (see the .cc): the largest common margin and its x; −infinity on failure.
  double PhaseOne(Eigen::VectorXd& x);
  std::string InfeasibilityMessage(double margin, const Eigen::VectorXd& x);

  LogBarrierProblem problem_;
  LogBarrierSettings settings_;
  LogBarrierResult result_;
  bool ready_ = false;
  std::vector<int> offset_, dim_;  // block k occupies rows [offset_[k], offset_[k] + dim_[k])
  int linear_rows_ = 0;            // blocks [0, linear_rows_) are the rows of G
  SparseRowMatrix A_;              // [G; A]
  Eigen::VectorXd b_;              // [−h; b]
  Eigen::VectorXd u_, dual_;       // barrier arguments A_ x + b_, and ∂(barrier)/∂u
  Eigen::MatrixXd weights_;        // per block ∂²(barrier)/∂u², row-stacked like socp.h's W
  BlockNormalMatrix normal_;       // H = Q + Aᵀ blockdiag(weights) A, dense or sparse
  Eigen::VectorXd gradient_, step_, trial_, objective_scratch_, previous_x_, zero_, start_,
      centred_;
  bool has_previous_x_ = false;    // previous_x_ is a start candidate
  double shift_ = 0.0;             // σ of ShiftedStart (units of the barrier arguments)
  bool hessian_factored_ = false;  // normal_ holds the factorised H of the last result
  SocpProblem phase_one_;
  SocpSolver phase_one_solver_;
  // The storage of the buffers above for other sizes (sized_storage_pool.h).
  SizedStoragePool storage_;
};

// Convenience: a fresh solver per call.
LogBarrierResult Solve(const LogBarrierProblem& problem, const LogBarrierSettings& settings = {},
                       const Eigen::VectorXd& x_start = Eigen::VectorXd());

// Checks of the settings' documented ranges (std::invalid_argument naming the field).
void ValidateLogBarrierSettings(const LogBarrierSettings& settings);

}  // namespace quasidyn
