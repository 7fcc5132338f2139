#include "quasidyn/dynamics/failure_message.h"

namespace quasidyn {

std::string FailureMessage(const StepProblem& problem, std::string_view formulation,
                           std::string_view solver_message, const Eigen::VectorXd& last_iterate) {
  const bool usable = last_iterate.size() == problem.contacts.nv && last_iterate.allFinite();
  const Eigen::VectorXd v = usable ? last_iterate : Eigen::VectorXd::Zero(problem.contacts.nv);
  std::string message(formulation);
  message += ": ";
  message += solver_message.empty() ? std::string_view("solver failed") : solver_message;
  message += "; most violated: " + DescribeWorstContact(problem, v);
  return message;
}

bool StartSolution(const StepProblem& problem, std::string_view formulation, SolverStatus status,
                   const SolverInfo& info, std::string_view solver_message,
                   const Eigen::VectorXd& x, FormulationSolution* solution) {
  solution->status = status;
  solution->info = info;
  solution->v = x;
  const int nc = problem.contacts.size();
  solution->normal_impulse = Eigen::VectorXd::Zero(nc);
  solution->friction_impulse = Eigen::Matrix3Xd::Zero(3, nc);
  const bool solved = status == SolverStatus::kSolved || status == SolverStatus::kSolvedInaccurate;
  if (!solved) solution->message = FailureMessage(problem, formulation, solver_message, x);
  return solved;
}

}  // namespace quasidyn
