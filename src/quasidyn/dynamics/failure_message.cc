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

}  // namespace quasidyn
