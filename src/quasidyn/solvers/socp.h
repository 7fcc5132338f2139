#pragma once
// Convex quadratic program over second-order cones, solved by a primal-dual interior-point
// method with Nesterov–Todd scaling and Mehrotra's predictor-corrector:
//
//   minimise   ½ xᵀ Q x + cᵀ x
//   subject to A_k x + b_k ∈ K_k   (k = 0 … K−1),   K_k = {(t, z) : ‖z‖ <= t} of dimension m_k
//              G x >= h            (optional linear rows; each is a 1-dimensional cone)
//
// the shape of the friction-cone time step of Pang, Suh, Yang & Tedrake, T-RO 2023 (arXiv
// 2206.10787v2), eq. (27). Method: L. Vandenberghe, "The CVXOPT linear and quadratic cone
// program solvers" (2010), §4 (coneqp) — written from the math, with the reduced system
// (Q + Σ A_kᵀ W_k⁻² A_k) Δx = r factorised by dense Cholesky or, for large sparse problems
// (contact cones touch at most two bodies), by a sparse LDLᵀ (block_normal_matrix.h).
//
// Use (the set-up / solve split of OSQP): Setup(problem, settings) validates and may
// allocate; UpdateValues(problem) takes new values with the same sparsity pattern; Solve()
// does not allocate unless it fails (its message).

#include <Eigen/Core>
#include <string>
#include <vector>

#include "quasidyn/solvers/active_set_polish.h"
#include "quasidyn/solvers/block_normal_matrix.h"
#include "quasidyn/solvers/sized_storage_pool.h"
#include "quasidyn/solvers/socp_polish.h"
#include "quasidyn/solvers/solver_status.h"
#include "quasidyn/solvers/sparse_row_matrix.h"

namespace quasidyn {

struct SocpProblem {
  SparseRowMatrix Q;           // (n × n) symmetric PSD
  Eigen::VectorXd c;           // (n)
  SparseRowMatrix G;           // (p × n) linear rows G x >= h, p >= 0
  Eigen::VectorXd h;           // (p)
  SparseRowMatrix A;           // (Σ m_k × n) the cones' rows, cone after cone; row 0 of a
                               // cone gives t, the others z
  Eigen::VectorXd b;           // (Σ m_k)
  std::vector<int> cone_dims;  // m_k >= 1 per cone
};

// Optional starting point (Solve). Empty vectors mean "not supplied": the cold start.
struct SocpWarmStart {
  Eigen::VectorXd x;  // (n) primal guess
  // (p + Σ m_k) the multipliers stacked as the solver stacks its rows: the linear rows' first,
  // then cone after cone (SocpResult's linear_duals, then its cone_duals). Each cone's segment
  // is shifted along e = (1, 0, …) into the cone's interior (SocpSettings::warm_start_min_margin).
  Eigen::VectorXd z;
};

struct SocpSettings {
  // Stopping tests, with u = stacked (G x − h, A_k x + b_k), s the cone slacks, z the duals,
  // r_p = u − s, r_d = Qx + c − Σ A_kᵀ z_k − Gᵀ z_lin:
  //   primal:  ‖r_p‖∞ <= absolute_tolerance + relative_tolerance · max(‖u‖∞, ‖s‖∞)
  //   dual:    ‖r_d‖∞ <= absolute_tolerance + relative_tolerance · max(‖Qx‖∞, ‖c‖∞, ‖Aᵀz‖∞)
  //   gap:     sᵀz    <= absolute_tolerance + relative_tolerance · max(1, |½xᵀQx + cᵀx|)
  double absolute_tolerance = 1e-9;  // > 0
  double relative_tolerance = 1e-9;  // > 0
  // >= 1. When the method stops early (iteration limit, vanished step, or a scaling /
  // factorisation failure as s or z reach the apex of a cone) at a point that passes the three
  // tests with both tolerances multiplied by this factor, the status is kSolvedInaccurate.
  double inaccurate_factor = 1e4;
  // Farkas certificate: z ∈ K with ‖Aᵀz‖∞ <= infeasibility_tolerance · (−bᵀz), −bᵀz > 0.
  double infeasibility_tolerance = 1e-8;  // > 0
  int max_iterations = 100;               // > 0
  double step_to_boundary = 0.99;         // in (0, 1)
  double kkt_regularization = 1e-12;      // >= 0, δ·I added to the reduced matrix
  // Warm start (SocpWarmStart): the Nesterov–Todd scaling needs s and z strictly inside every
  // cone, so a cone segment u of the start with margin u0 − ‖u1‖ below this value is shifted
  // along e to that margin (> 0, units of the rows). Not stated in a paper; ours: 1e-6, the
  // QP's lift (QpSettings::warm_start_min_value) carried over to the cone's margin.
  double warm_start_min_margin = 1e-6;
  // Sparse reduced system when n >= sparse_min_variables (>= 0) and the fraction of non-zeros
  // of [Q; G; A] is <= sparse_max_density (in [0, 1]). The defaults pick it for contact
  // problems from a few dozen velocities on (arm + 10 cubes: 67 velocities).
  int sparse_min_variables = 40;
  double sparse_max_density = 0.5;
  // After a successful solve, the active-set polish of socp_polish.h (exact zero duals on open
  // cones); polish.enabled = false turns it off.
  PolishSettings polish;
};

// Statistics of one Solve.
struct SocpInfo {
  int iterations = 0;                // interior-point iterations
  double primal_residual = 0.0;      // ‖r_p‖∞ at the returned point
  double dual_residual = 0.0;        // ‖r_d‖∞
  double complementarity_gap = 0.0;  // sᵀz
  double solve_time_seconds = 0.0;   // wall-clock time of Solve()
  bool used_sparse_path = false;     // the reduced system was factorised by the sparse path
  PolishInfo polish;  // what the polish did (socp_polish.h); residuals above are the solver's own
};

struct SocpResult {
  SolverStatus status = SolverStatus::kNotRun;
  std::string message;           // names the offending cone (or linear row) when not solved
  Eigen::VectorXd x;             // (n)
  Eigen::VectorXd linear_duals;  // (p) multipliers of G x >= h, >= 0
  Eigen::VectorXd cone_duals;    // (Σ m_k) z_k ∈ K_k, cone after cone
  std::vector<int> cone_offset;  // first row of cone k in cone_duals
  double objective = 0.0;
  SocpInfo info;

  // z_k, the dual of cone k.
  auto ConeDual(int k) const {
    const int end = k + 1 < static_cast<int>(cone_offset.size())
                        ? cone_offset[k + 1]
                        : static_cast<int>(cone_duals.size());
    return cone_duals.segment(cone_offset[k], end - cone_offset[k]);
  }
};

class SocpSolver {
 public:
  // Validates the problem and the settings (std::invalid_argument naming the field) and sizes
  // the workspace; keeps the sparse symbolic analysis when the pattern is that of an earlier
  // Setup.
  void Setup(const SocpProblem& problem, const SocpSettings& settings = {});
  // True when problem has the sizes and sparsity patterns of the last Setup.
  bool SamePattern(const SocpProblem& problem) const;
  // New values, same patterns (throws std::invalid_argument otherwise, or on non-finite data).
  void UpdateValues(const SocpProblem& problem);
  void UpdateSettings(const SocpSettings& settings);

  // Solves the problem of the last Setup / UpdateValues, from warm_start when given (throws
  // std::invalid_argument when its sizes are not n and p + Σ m_k, or empty; otherwise never
  // throws).
  const SocpResult& Solve(const SocpWarmStart& warm_start = {});
  const SocpResult& result() const { return result_; }
  const SocpSettings& settings() const { return settings_; }

 private:
  void Stack();
  // Per-cone Nesterov–Todd scalings and the reduced matrix; false when Cholesky fails.
  bool Factor();
  // True when every cone segment of v (stacked like s) is strictly inside its cone.
  bool StrictlyInterior(const Eigen::VectorXd& v) const;
  void Direction(const Eigen::VectorXd& r_d, const Eigen::VectorXd& r_p, const Eigen::VectorXd& rc);
  // The starts: x, A x (in Ax_) and s_, z_ strictly inside every cone.
  void ColdStart();
  void WarmStart(const SocpWarmStart& warm_start);

  SocpProblem problem_;
  SocpSettings settings_;
  SocpResult result_;
  bool ready_ = false;
  std::vector<int> offset_, dim_;  // cone k occupies rows [offset_[k], offset_[k] + dim_[k])
  int linear_rows_ = 0;
  SparseRowMatrix A_;  // stacked constraint rows, linear rows first
  Eigen::VectorXd b_;
  // NT scaling blocks: W_k is W_.block(offset_[k], 0, m_k, m_k) (row-stacked, not diagonal);
  // weights_ holds W_k⁻² the same way.
  Eigen::MatrixXd W_, W_inverse_, weights_;
  BlockNormalMatrix normal_;  // Q + Σ A_kᵀ W_k⁻² A_k + δI, dense or sparse
  Eigen::VectorXd s_, z_, lambda_, dx_, ds_, dz_, u_, scratch_, rhs_;
  Eigen::VectorXd Qx_, Atz_, r_d_, Ax_, r_p_, rc_, ds_affine_, dz_affine_, product_;
  Eigen::VectorXd Adx_;  // Direction's A Δx (Solve carries A x by the corrector's)
  SocpPolish polish_;
  SizedStoragePool storage_;  // the buffers' storage for every row count met so far
};

// Convenience: a fresh solver per call.
SocpResult Solve(const SocpProblem& problem, const SocpSettings& settings = {});

// Checks of the settings' documented ranges (std::invalid_argument naming the field).
void ValidateSocpSettings(const SocpSettings& settings);

}  // namespace quasidyn
