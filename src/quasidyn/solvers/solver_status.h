#pragma once
// The outcome of every quasidyn solver (QP, SOCP, log-barrier Newton, Lemke, ...), and the
// statistics every solver reports. Shared by all solvers in this folder.

#include <string_view>

namespace quasidyn {

enum class SolverStatus {
  kSolved,            // every stopping test of the solver's Settings passed
  kSolvedInaccurate,  // stopped (iteration limit or stalled) with residuals below a looser
                      // tolerance (the solver documents which)
  kMaxIterations,     // iteration limit reached, residuals above every tolerance
  kInfeasible,        // the problem has no (strictly, where required) feasible point; the
                      // message names the offending constraint index
  kNumericalFailure,  // a factorisation failed or a non-finite number appeared
  kNotRun,            // the solver was not called (default value of a Result)
};

constexpr std::string_view ToString(SolverStatus status) {
  switch (status) {
    case SolverStatus::kSolved:
      return "solved";
    case SolverStatus::kSolvedInaccurate:
      return "solved_inaccurate";
    case SolverStatus::kMaxIterations:
      return "max_iterations";
    case SolverStatus::kInfeasible:
      return "infeasible";
    case SolverStatus::kNumericalFailure:
      return "numerical_failure";
    case SolverStatus::kNotRun:
      return "not_run";
  }
  return "unknown";
}

// Statistics of one solve. Residual definitions are given by each solver next to its
// tolerance fields; a solver that has no notion of one of them leaves it at 0.
struct SolverInfo {
  int iterations = 0;                // Newton / interior-point / pivot steps taken
  double primal_residual = 0.0;      // infinity norm, in the units of the constraints
  double dual_residual = 0.0;        // infinity norm, in the units of the cost gradient
  double complementarity_gap = 0.0;  // sᵀz (interior point) or wᵀz (LCP)
  double solve_time_seconds = 0.0;   // wall-clock time of Solve()
};

}  // namespace quasidyn
