#pragma once
// The convex mixed-integer quadratic program of miqp.h's branch and bound (MiqpSolver) as its
// callers give it and get it back:
//
//   minimise   f(x) = ½ xᵀ Q x + cᵀ x + f₀
//   subject to G x >= h,   A x = b,   x_j ∈ {0, 1} for j ∈ B (the binaries),
//
// the solver's settings (its method: miqp.h), statistics, result and pseudo-costs. What a caller
// needs to build a problem and read an answer, without the solver's workspace.

#include <Eigen/Core>
#include <limits>
#include <string>
#include <string_view>
#include <vector>

#include "quasidyn/solvers/qp_problem.h"

namespace quasidyn {

struct MiqpProblem {
  // f, G x >= h and A x = b over all n variables; the binaries' bounds 0 <= x_j <= 1 are added
  // by the solver (rows of G may still bound them, e.g. a fixing 1 <= x_j).
  QpProblem continuous;
  std::vector<int> binaries;  // indices j of the binary variables, strictly increasing
  // Empty, or one entry per binary: −1 free, 0 or 1 fixed by the caller.
  std::vector<signed char> fixed;
  double objective_offset = 0.0;  // f₀ (finite)
};

enum class MiqpStatus {
  kOptimal,           // no open node left: the incumbent is optimal within the gap tolerance
  kInfeasible,        // no integer point satisfies the constraints (every node pruned as such)
  kNodeLimit,         // node_limit reached: best solution found (if any) and its gap
  kTimeLimit,         // time_limit_seconds reached: best solution found (if any) and its gap
  kNumericalFailure,  // relaxations failed so that neither optimality nor infeasibility holds
  kNotRun,
};

constexpr std::string_view ToString(MiqpStatus status) {
  switch (status) {
    case MiqpStatus::kOptimal:
      return "optimal";
    case MiqpStatus::kInfeasible:
      return "infeasible";
    case MiqpStatus::kNodeLimit:
      return "node_limit";
    case MiqpStatus::kTimeLimit:
      return "time_limit";
    case MiqpStatus::kNumericalFailure:
      return "numerical_failure";
    case MiqpStatus::kNotRun:
      return "not_run";
  }
  return "unknown";
}

enum class BranchingRule { kMostFractional, kPseudoCost };

struct MiqpSettings {
  // Pruning and stopping (header): objective units (absolute, >= 0) and dimensionless
  // (relative, >= 0).
  double absolute_gap_tolerance = 1e-6;
  double relative_gap_tolerance = 1e-6;
  // A binary within this distance of 0 or 1 counts as integral, in (0, 0.5).
  double integrality_tolerance = 1e-6;
  // Row violation accepted by the rounding heuristic's test (units of h, relative to
  // max(1, |h_i|)), >= 0. The candidate is then solved exactly, so this only filters.
  double rounding_tolerance = 1e-6;
  // Relaxations solved (nodes and strong-branching children; not the heuristic's), > 0.
  int node_limit = 100000;
  double time_limit_seconds = std::numeric_limits<double>::infinity();  // wall clock, > 0
  BranchingRule branching = BranchingRule::kPseudoCost;
  bool dive = true;  // depth-first dives from each best-bound node
  // Children's QPs start from their parent's answer. Off by default: on the random instances
  // of miqp_test.cc and the MPC problems a cold start takes fewer interior-point iterations
  // (a warm start lifts s and z only to warm_start_min_value, near the boundary, where
  // Mehrotra's steps are short).
  bool warm_start = false;
  bool presolve = true;  // bound propagation (header)
  // The rounding heuristic (header) runs at the nodes whose depth is a multiple of this
  // (1: every node, 0: never), >= 0.
  int rounding_frequency = 1;
  // Reliability branching (Achterberg, Koch & Martin 2005; Achterberg 2007, §5.4), with the
  // pseudo-cost rule only: at a node of depth < strong_branching_depth, the candidates whose
  // pseudo-costs rest on fewer than strong_branching_reliability branchings in either
  // direction are strong-branched, best pseudo-cost score first, at most
  // strong_branching_candidates per node: both children's relaxations are solved, their bound
  // gains Δ⁻, Δ⁺ enter the pseudo-costs and the score max(Δ⁻, ε)·max(Δ⁺, ε) replaces the
  // estimate; a child whose bound already prunes it (or that is infeasible) is never opened.
  // 0 candidates: off (pure pseudo-costs). Counts >= 0.
  int strong_branching_candidates = 0;
  int strong_branching_reliability = 1;
  int strong_branching_depth = std::numeric_limits<int>::max();
  // The node relaxations. Polish off: the tree needs bounds, not exact zeros. Infeasibility
  // certificate at 1e-6 (QpSettings: 1e-8): infeasible nodes are common in a tree, and their
  // multipliers grow like 1/μ, so the stricter ratio is reached only when z ~ 1e9 and the
  // quasi-definite factorisation is already failing. The cold start with z = 1 (qp.h,
  // balanced_start).
  QpSettings qp = [] {
    QpSettings s;
    s.polish.enabled = false;
    s.infeasibility_tolerance = 1e-6;
    s.balanced_start = false;
    return s;
  }();
};

struct MiqpInfo {
  int nodes = 0;                    // node relaxations solved
  int heuristic_solves = 0;         // QPs solved by the rounding heuristic and the guesses
  int strong_branching_solves = 0;  // child relaxations solved by reliability branching
  int qp_iterations = 0;            // interior-point iterations over all QPs
  int max_depth = 0;                // deepest node solved
  int incumbents = 0;               // improvements of the incumbent (tree and heuristic)
  int presolve_fixed = 0;           // binaries fixed by the presolve
  int failed_nodes = 0;             // relaxations that failed numerically (bound: the parent's)
  double solve_time_seconds = 0;    // wall clock of Solve()
  // CPU time of Solve() in the calling thread [s]: the figure that does not depend on the load
  // of the machine (benchmarks).
  double cpu_seconds = 0;
  // The best objective (f₀ included) among the guesses passed to Solve, before the first node;
  // +∞ without guesses or when none was feasible.
  double guess_objective = std::numeric_limits<double>::infinity();
};

struct MiqpResult {
  MiqpStatus status = MiqpStatus::kNotRun;
  std::string message;        // what stopped the run, or why there is no solution
  bool has_solution = false;  // x holds an integer-feasible point
  Eigen::VectorXd x;          // (n) the incumbent (binaries exactly 0 or 1)
  // Multipliers of the incumbent's QP (every binary fixed at its value): of G x >= h (m) and
  // of A x = b (p); they satisfy the KKT conditions in the continuous variables.
  Eigen::VectorXd z, y;
  double objective = std::numeric_limits<double>::infinity();     // f(x), U
  double best_bound = -std::numeric_limits<double>::infinity();   // L_glob
  double gap = std::numeric_limits<double>::infinity();           // U − L_glob
  double relative_gap = std::numeric_limits<double>::infinity();  // gap / max(1, |U|)
  MiqpInfo info;
};

// Pseudo-costs per binary (its position among the binaries), down (0) and up (1): the sums of
// (L_child − L_parent) / f over the branchings on it and their counts (header, "Branching").
// A receding-horizon caller passes the last solve's, shifted, to the next (Solve).
struct MiqpPseudoCosts {
  std::vector<double> sum[2];
  std::vector<int> count[2];
};

// Checks of the settings' documented ranges (std::invalid_argument naming the field).
void ValidateMiqpSettings(const MiqpSettings& settings);

}  // namespace quasidyn
