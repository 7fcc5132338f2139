#include "quasidyn/dynamics/quasi_dynamic_stepper.h"

#include <stdexcept>
#include <string>

#include "quasidyn/dynamics/quasi_dynamic_qp.h"

namespace quasidyn {

QuasiDynamicStepper::QuasiDynamicStepper(const Scene& scene, const FormulationSettings& settings)
    : scene_(scene), settings_(settings), engine_(scene) {
  if (!(settings.time_step > 0))
    throw std::invalid_argument("time step h must be > 0 (got " +
                                std::to_string(settings.time_step) + ")");
}

StepResult QuasiDynamicStepper::Step(const Eigen::VectorXd& q, const Eigen::VectorXd& u) {
  const ContactSet& contacts = engine_.Compute(q);  // validates q
  const QuasiDynamicCost cost = BuildQuasiDynamicCost(engine_.kinematics(), u, settings_);
  const StepProblem problem{scene_, contacts, cost, settings_};

  FormulationSolution solution;
  switch (settings_.type) {
    case FormulationType::kQp:
      solution = SolvePyramidQp(problem, &qp_solver_);
      break;
    default:
      solution.status = SolverStatus::kNotRun;
      solution.message = std::string("formulation ") + FormulationName(settings_.type) +
                         " is not available yet";
  }

  StepResult result;
  result.status = solution.status;
  result.message = solution.message;
  result.info = solution.info;
  if (!result.ok()) {
    result.q_next = q;
    result.v = Eigen::VectorXd::Zero(scene_.nv);
    return result;
  }
  result.v = solution.v;
  result.q_next = IntegrateConfiguration(scene_, q, solution.v, settings_.time_step);
  FillContactReports(problem, solution, &result);
  return result;
}

}  // namespace quasidyn
