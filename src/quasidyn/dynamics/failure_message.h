#pragma once
// The message of a failed step, shared by every formulation: which formulation, what the
// solver said, and the contact whose pyramid row is most violated at the solver's last
// iterate (DescribeWorstContact in step_problem.h).

#include <Eigen/Core>
#include <string>
#include <string_view>

#include "quasidyn/dynamics/step_problem.h"

namespace quasidyn {

// "<formulation>: <solver_message>; most violated: contact i (a / b, phi = … m)", then, when
// the step starts with shapes overlapping, "; the start overlaps: deepest …" (DescribeOverlap).
// last_iterate (size n_v) may be empty or non-finite (a solver that stopped before its first
// iterate): the contacts are then ranked at v = 0, i.e. by φ alone.
std::string FailureMessage(const StepProblem& problem, std::string_view formulation,
                           std::string_view solver_message, const Eigen::VectorXd& last_iterate);

// Starts a formulation's solution from its solver's answer (FormulationSolution::Start: status,
// statistics, v = x and zero impulses for every contact) and, when the solver did not succeed,
// sets the FailureMessage. Returns true when it succeeded (solved or solved_inaccurate): the
// caller then fills the impulses from the solver's multipliers.
bool StartSolution(const StepProblem& problem, std::string_view formulation, SolverStatus status,
                   const SolverSummary& summary, std::string_view solver_message,
                   const Eigen::VectorXd& x, FormulationSolution* solution);

}  // namespace quasidyn
