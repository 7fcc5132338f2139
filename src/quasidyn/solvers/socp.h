#pragma once
// Convex quadratic program over second-order cones, solved by a primal-dual interior-point
// method with Nesterov–Todd scaling and Mehrotra's predictor-corrector:
//
//   minimise   ½ xᵀ Q x + cᵀ x
//   subject to A_k x + b_k ∈ K_k   (k = 0 … K−1),   K_k = {(t, z) : ‖z‖ <= t} of dimension m_k
//              G x >= h            (optional linear rows; each is a 1-dimensional cone)
//
// the shape of the frictional contact problems of Pang 2022 (talk "planning and control
// contact-rich", the SOCP time step with friction cones). Method: L. Vandenberghe, "The CVXOPT
// linear and quadratic cone program solvers" (2010), §4 (coneqp) — written from the math,
// with the reduced system (Q + Σ A_kᵀ W_k⁻² A_k) Δx = r factorised by dense Cholesky or, for
// large sparse problems (contact cones touch at most two bodies), by a sparse LDLᵀ whose
// symbolic analysis is reused between iterations and solves (block_normal_matrix.h).

#include <Eigen/Cholesky>
#include <Eigen/Core>
#include <string>
#include <vector>

#include "quasidyn/solvers/block_normal_matrix.h"
#include "quasidyn/solvers/solver_status.h"

namespace quasidyn {

struct SecondOrderConeConstraint {
  Eigen::MatrixXd A;  // (m_k × n), m_k >= 1; row 0 gives t, rows 1.. give z
  Eigen::VectorXd b;  // (m_k)
};

struct SocpProblem {
  Eigen::MatrixXd Q;  // (n × n) symmetric PSD
  Eigen::VectorXd c;  // (n)
  std::vector<SecondOrderConeConstraint> cones;
  Eigen::MatrixXd G;  // (p × n) optional linear rows G x >= h (p may be 0; then G may be empty)
  Eigen::VectorXd h;  // (p)
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
  // Sparse reduced system (Eigen::SimplicialLDLT on Q + Σ A_kᵀ W_k⁻² A_k) when
  // n >= sparse_min_variables (>= 0) and the fraction of non-zeros of [Q; A] (all cone and
  // linear rows stacked) is <= sparse_max_density (in [0, 1]). The defaults pick it for
  // contact problems from a few dozen velocities on (arm + 10 cubes: 69 velocities).
  int sparse_min_variables = 40;
  double sparse_max_density = 0.5;
};

struct SocpResult {
  SolverStatus status = SolverStatus::kNotRun;
  std::string message;  // names the offending cone (or linear row) when not solved
  Eigen::VectorXd x;    // (n)
  std::vector<Eigen::VectorXd> cone_duals;  // z_k ∈ K_k, (m_k) each
  Eigen::VectorXd linear_duals;             // (p) multipliers of G x >= h, >= 0
  double objective = 0.0;
  SolverInfo info;
  bool used_sparse_path = false;  // the reduced system was factorised by the sparse path
};

// Holds the workspace (and the sparse symbolic analysis) so repeated solves of problems with
// the same sizes and sparsity pattern do not reallocate or re-analyse.
class SocpSolver {
 public:
  // Throws std::invalid_argument on inconsistent dimensions or settings out of range.
  SocpResult Solve(const SocpProblem& problem, const SocpSettings& settings = {});

 private:
  void Stack(const SocpProblem& problem, const SocpSettings& settings);
  // Per-cone Nesterov–Todd scalings and the reduced matrix; false when Cholesky fails.
  bool Factor(const SocpProblem& problem, const SocpSettings& settings);
  // True when every cone segment of v (stacked like s) is strictly inside its cone.
  bool StrictlyInterior(const Eigen::VectorXd& v) const;
  void Direction(const SocpProblem& problem, const Eigen::VectorXd& r_d, const Eigen::VectorXd& r_p,
                 const Eigen::VectorXd& rc);

  std::vector<int> offset_, dim_;  // cone k occupies rows [offset_[k], offset_[k] + dim_[k])
  int linear_rows_ = 0;
  Eigen::MatrixXd A_;  // stacked constraint rows, linear rows first
  Eigen::VectorXd b_;
  // NT scaling blocks: W_k is W_.block(offset_[k], 0, m_k, m_k) (row-stacked, not diagonal);
  // weights_ holds W_k⁻² the same way.
  Eigen::MatrixXd W_, W_inverse_, weights_;
  BlockNormalMatrix normal_;  // Q + Σ A_kᵀ W_k⁻² A_k + δI, dense or sparse
  Eigen::VectorXd s_, z_, lambda_, dx_, ds_, dz_, u_, scratch_, rhs_;
};

SocpResult Solve(const SocpProblem& problem, const SocpSettings& settings = {});

}  // namespace quasidyn
