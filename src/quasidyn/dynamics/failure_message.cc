#include "quasidyn/dynamics/failure_message.h"

namespace quasidyn {

std::string FailureMessage(const StepProblem& problem, std::string_view formulation,
                           std::string_view solver_message, const Eigen::VectorXd& last_iterate) {
  const int nv = problem.contacts.nv();
  const bool usable = last_iterate.size() == nv && last_iterate.allFinite();
  const Eigen::VectorXd v = usable ? last_iterate : Eigen::VectorXd::Zero(nv);
  std::string message(formulation);
  message += ": ";
  message += solver_message.empty() ? std::string_view("solver failed") : solver_message;
  message += "; most violated: " + DescribeWorstContact(problem, v);
  if (const std::string overlap = DescribeOverlap(problem); !overlap.empty())
    message += "; " + overlap;
  return message;
}

bool StartSolution(const StepProblem& problem, std::string_view formulation, SolverStatus status,
                   const SolverSummary& summary, std::string_view solver_message,
                   const Eigen::VectorXd& x, FormulationSolution* solution) {
  solution->Start(status, summary, x, problem.contacts.size(), problem.cost.limits.size());
  if (Succeeded(status)) return true;
  solution->message = FailureMessage(problem, formulation, solver_message, x);
  return false;
}

}  // namespace quasidyn
