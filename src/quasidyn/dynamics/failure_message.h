#pragma once
// The message of a failed step, shared by every formulation: which formulation, what the
// solver said, and the contact whose pyramid row is most violated at the solver's last
// iterate (DescribeWorstContact in step_problem.h).

#include <Eigen/Core>
#include <string>
#include <string_view>

#include "quasidyn/dynamics/step_problem.h"

namespace quasidyn {

// "<formulation>: <solver_message>; most violated: contact i (a / b, phi = … m)".
// last_iterate (size n_v) may be empty or non-finite (a solver that stopped before its first
// iterate): the contacts are then ranked at v = 0, i.e. by φ alone.
std::string FailureMessage(const StepProblem& problem, std::string_view formulation,
                           std::string_view solver_message, const Eigen::VectorXd& last_iterate);

// Starts a formulation's solution from its solver's answer: status, statistics, v = x and
// zero impulses for every contact; when the solver did not succeed, also the FailureMessage.
// Returns true when it succeeded (solved or solved_inaccurate): the caller then fills the
// impulses from the solver's duals.
bool StartSolution(const StepProblem& problem, std::string_view formulation, SolverStatus status,
                   const SolverInfo& info, std::string_view solver_message,
                   const Eigen::VectorXd& x, FormulationSolution* solution);

}  // namespace quasidyn
