#pragma once
// Linear complementarity problem LCP(M, q): find z, w with
//   w = M z + q,   w >= 0,   z >= 0,   wᵀ z = 0,
// solved by Lemke's complementary pivoting with the covering vector d = (1, …, 1) and the
// lexicographic minimum-ratio rule, which prevents cycling on degenerate problems
// (Cottle, Pang & Stone, "The Linear Complementarity Problem", 1992, §4.4 and §4.9).
// Lemke's method finds a solution whenever M is copositive-plus (e.g. positive semidefinite)
// and the LCP is feasible; otherwise it may end on a secondary ray, reported as kInfeasible.
// Dense basis inverse with rank-one updates: O(n²) per pivot.

#include <Eigen/Core>
#include <string>
#include <vector>

#include "quasidyn/solvers/solver_status.h"

namespace quasidyn {

struct LcpProblem {
  Eigen::MatrixXd M;  // (n × n)
  Eigen::VectorXd q;  // (n)
};

struct LemkeSettings {
  // Pivot limit, > 0; 0 means 50·(n + 1). Lemke terminates in finitely many pivots with the
  // lexicographic rule, but the count can be exponential in n in the worst case.
  int max_pivots = 0;
  // A pivot-column entry a_i counts as positive when a_i > pivot_tolerance · max(1, ‖a‖∞).
  // Dimensionless, in (0, 1e-3].
  double pivot_tolerance = 1e-11;
  // Two ratios are treated as tied (and the next lexicographic column decides) when they
  // differ by at most tie_tolerance · max(1, |ratio|). Dimensionless, in [0, 1e-3].
  double tie_tolerance = 1e-12;
};

struct LcpResult {
  SolverStatus status = SolverStatus::kNotRun;
  std::string message;  // on ray termination names the driving variable
  Eigen::VectorXd z;    // (n)
  Eigen::VectorXd w;    // (n) = M z + q
  // info.iterations: pivots; primal_residual: ‖w − Mz − q‖∞; dual_residual:
  // max(0, −min(z), −min(w)); complementarity_gap: Σ |w_i z_i|.
  SolverInfo info;
};

class LemkeSolver {
 public:
  // Throws std::invalid_argument on mismatched sizes, non-finite data or bad settings.
  LcpResult Solve(const LcpProblem& problem, const LemkeSettings& settings = {});

 private:
  // Row of the lexicographic minimum ratio among rows with a_i > threshold; −1 if none.
  int LexicographicMinimumRow(double threshold, double tie_tolerance);
  void Pivot(int row, int entering);
  void EnteringColumn(const LcpProblem& problem, int variable);

  Eigen::MatrixXd basis_inverse_;  // B⁻¹ (n × n)
  Eigen::VectorXd basic_values_;   // B⁻¹ q
  Eigen::VectorXd column_;         // B⁻¹ A_entering
  std::vector<int> basis_;         // variable in each row: w_i = i, z_i = n + i, z0 = 2n
  std::vector<int> candidates_, survivors_;
};

LcpResult Solve(const LcpProblem& problem, const LemkeSettings& settings = {});

}  // namespace quasidyn
