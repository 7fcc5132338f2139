#pragma once
// Convex quadratic program with linear inequality constraints, solved by a primal-dual
// interior-point method with Mehrotra's predictor-corrector:
//
//   minimise   ½ xᵀ Q x + cᵀ x     subject to   G x >= h,
//
// the shape of the quasi-dynamic time step of Pang & Tedrake 2021, eq. (10) (x = v, the
// rows of G are (n_i + μ_i d_ij)ᵀ J_i and h_i = −φ_i / h).
//
// Method: Nocedal & Wright, "Numerical Optimization" (2nd ed.), §16.6, with slacks s = Gx − h
// and multipliers z (one per row of G). Each iteration solves the reduced (normal-equation)
// system (Q + Gᵀ diag(z/s) G) Δx = r by Cholesky, dense (Eigen::LLT) or sparse
// (Eigen::SimplicialLDLT), see QpSettings::sparse_min_variables.

#include <Eigen/Cholesky>
#include <Eigen/Core>
#include <Eigen/SparseCholesky>
#include <Eigen/SparseCore>
#include <string>
#include <vector>

#include "quasidyn/solvers/solver_status.h"

namespace quasidyn {

struct QpProblem {
  Eigen::MatrixXd Q;  // (n × n) symmetric positive semidefinite cost Hessian; may be singular
                      // on directions bounded by the constraints
  Eigen::VectorXd c;  // (n) linear cost
  Eigen::MatrixXd G;  // (m × n) constraint matrix, m >= 0
  Eigen::VectorXd h;  // (m) constraint lower bounds: G x >= h
};

// Optional starting point. Empty vectors mean "not supplied".
struct QpWarmStart {
  Eigen::VectorXd x;  // (n) primal guess
  Eigen::VectorXd z;  // (m) multiplier guess, entries > 0 (smaller ones are lifted)
};

struct QpSettings {
  // Stopping tests (all three must hold), with r_p = Gx − s − h, r_d = Qx + c − Gᵀz:
  //   primal:  ‖r_p‖∞ <= absolute_tolerance + relative_tolerance · max(‖Gx‖∞, ‖s‖∞, ‖h‖∞)
  //   dual:    ‖r_d‖∞ <= absolute_tolerance + relative_tolerance · max(‖Qx‖∞, ‖c‖∞, ‖Gᵀz‖∞)
  //   gap:     sᵀz    <= absolute_tolerance + relative_tolerance · max(1, |½xᵀQx + cᵀx|)
  // Dimensionless, > 0.
  double absolute_tolerance = 1e-9;
  double relative_tolerance = 1e-9;
  // When the iteration limit is reached or the step stalls, status is kSolvedInaccurate if the
  // three tests hold with the tolerances multiplied by this factor (>= 1).
  double inaccurate_factor = 1e4;
  // Primal infeasibility certificate (Farkas): z >= 0 with ‖Gᵀz‖∞ <= infeasibility_tolerance ·
  // hᵀz and hᵀz > 0 proves G x >= h has no solution. Dimensionless, > 0.
  double infeasibility_tolerance = 1e-8;
  int max_iterations = 100;  // > 0
  // Fraction of the step to the boundary of s, z > 0 taken each iteration, in (0, 1).
  double step_to_boundary = 0.99;
  // Tikhonov term δ·I added to the reduced matrix before factorising (units of Q), >= 0;
  // one step of iterative refinement on the unregularised matrix follows.
  double kkt_regularization = 1e-12;
  // Sparse path (Eigen::SimplicialLDLT on Q + Gᵀ diag(z/s) G) when n >= sparse_min_variables
  // and the fraction of non-zeros in G and Q is <= sparse_max_density (in [0, 1]).
  int sparse_min_variables = 200;
  double sparse_max_density = 0.1;
  // Warm start: slacks and multipliers are lifted to at least this value (> 0, units of h).
  double warm_start_min_value = 1e-6;
};

struct QpResult {
  SolverStatus status = SolverStatus::kNotRun;
  std::string message;     // empty when solved; names the offending row otherwise
  Eigen::VectorXd x;       // (n) primal solution
  Eigen::VectorXd z;       // (m) multipliers of G x >= h, >= 0 (contact impulses in eq. (10))
  Eigen::VectorXd s;       // (m) slacks G x − h, >= 0
  double objective = 0.0;  // ½ xᵀQx + cᵀx
  bool used_sparse_path = false;
  SolverInfo info;
};

// Holds the workspace so repeated solves of same-sized problems do not reallocate.
class QpSolver {
 public:
  // Throws std::invalid_argument when the dimensions of problem or warm_start disagree, or a
  // setting is out of its range; never throws for an infeasible or ill-posed problem.
  QpResult Solve(const QpProblem& problem, const QpSettings& settings = {},
                 const QpWarmStart& warm_start = {});

 private:
  void Allocate(const QpProblem& problem, bool sparse);
  void BuildSparsePattern(const QpProblem& problem);
  bool FactorReduced(const QpProblem& problem, const QpSettings& settings);
  void SolveReduced(const QpProblem& problem, const Eigen::VectorXd& rhs, Eigen::VectorXd& out);

  bool sparse_ = false;
  Eigen::VectorXd weights_;  // z/s
  Eigen::MatrixXd scaled_G_, reduced_;
  Eigen::LLT<Eigen::MatrixXd> dense_factor_;
  Eigen::SparseMatrix<double> sparse_reduced_;  // lower triangle of Q + Gᵀ diag(w) G
  Eigen::SparseMatrix<double, Eigen::RowMajor> sparse_G_;
  Eigen::SparseMatrix<double> sparse_Q_;
  Eigen::SimplicialLDLT<Eigen::SparseMatrix<double>, Eigen::Lower> sparse_factor_;
  std::vector<int> q_value_index_;     // position of each stored Q entry in sparse_reduced_
  std::vector<double> q_value_;        // its value
  std::vector<int> gram_value_index_;  // position of each product G_ij G_ik in sparse_reduced_
  std::vector<double> gram_value_;     // G_ij G_ik
  std::vector<int> gram_row_;          // i
  std::vector<int> diagonal_index_;    // position of each diagonal entry in sparse_reduced_
  bool pattern_ready_ = false;         // sparse_reduced_ and its symbolic factorisation match
                                       // the patterns of sparse_G_ and sparse_Q_
  Eigen::VectorXd correction_, residual_, product_m_;
};

// Convenience: a fresh workspace per call.
QpResult Solve(const QpProblem& problem, const QpSettings& settings = {},
               const QpWarmStart& warm_start = {});

}  // namespace quasidyn
