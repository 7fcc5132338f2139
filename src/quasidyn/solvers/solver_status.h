#pragma once
// The outcome of every quasidyn solver (QP, SOCP, log-barrier Newton, Lemke). Each solver
// reports its own statistics in its own info struct (QpInfo, SocpInfo, LogBarrierInfo,
// LemkeInfo), whose fields mean one thing each.

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

// A solution the caller may use: every stopping test passed, or the looser test of the solver's
// inaccurate_factor (or its equivalent) did.
constexpr bool Succeeded(SolverStatus status) {
  return status == SolverStatus::kSolved || status == SolverStatus::kSolvedInaccurate;
}

}  // namespace quasidyn
