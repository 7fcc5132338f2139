#include "quasidyn/dynamics/quasi_dynamic_stepper.h"

#include <cmath>
#include <stdexcept>
#include <string>

#include "quasidyn/dynamics/log_barrier_cone.h"
#include "quasidyn/dynamics/log_barrier_pyramid.h"
#include "quasidyn/dynamics/quasi_dynamic_qp.h"
#include "quasidyn/dynamics/quasi_dynamic_socp.h"
#include "quasidyn/dynamics/quasistatic_lcp.h"

namespace quasidyn {

QuasiDynamicStepper::QuasiDynamicStepper(const Scene& scene, const FormulationSettings& settings)
    : scene_(scene), settings_(settings), engine_(scene) {
  if (!(settings.time_step > 0) || !std::isfinite(settings.time_step))
    throw std::invalid_argument("time step h must be finite and > 0 (got " +
                                std::to_string(settings.time_step) + ")");
  if (!(settings.kappa > 0) || !std::isfinite(settings.kappa))
    throw std::invalid_argument("formulation kappa must be finite and > 0 (got " +
                                std::to_string(settings.kappa) + ")");
  if (!(settings.object_mass_scale >= 0) || !std::isfinite(settings.object_mass_scale))
    throw std::invalid_argument("formulation object_mass_scale must be finite and >= 0 (got " +
                                std::to_string(settings.object_mass_scale) + ")");
}

StepResult QuasiDynamicStepper::Step(const Eigen::VectorXd& q, const Eigen::VectorXd& u) {
  // Bad input (wrong sizes, NaN) throws std::invalid_argument from here on purpose; a
  // geometry query that fails on valid input (std::runtime_error, e.g. FCL's GJK on a
  // degenerate touching pair) is a failed step like a failed solve: status, message, q kept.
  const ContactSet* contacts_at_q = nullptr;
  try {
    contacts_at_q = &engine_.Compute(q);
  } catch (const std::runtime_error& error) {
    StepResult failed;
    failed.status = SolverStatus::kNumericalFailure;
    failed.message = std::string("contact query failed: ") + error.what();
    failed.q_next = q;
    failed.v = Eigen::VectorXd::Zero(scene_.nv);
    return failed;
  }
  const ContactSet& contacts = *contacts_at_q;
  const QuasiDynamicCost cost = BuildQuasiDynamicCost(engine_.kinematics(), u, settings_);
  const StepProblem problem{scene_, contacts, cost, settings_};

  FormulationSolution solution;
  switch (settings_.type) {
    case FormulationType::kQp:
      solution = SolvePyramidQp(problem, &qp_solver_);
      break;
    case FormulationType::kSocp:
      solution = SolveFrictionConeSocp(problem, &socp_solver_);
      break;
    case FormulationType::kLogBarrierPyramid:
      solution = SolvePyramidLogBarrier(problem, &barrier_solver_);
      break;
    case FormulationType::kLogBarrierCone:
      solution = SolveConeLogBarrier(problem, &barrier_solver_);
      break;
    case FormulationType::kLcp:
      solution = SolveQuasistaticLcp(problem, &lemke_solver_);
      break;
  }

  StepResult result;
  result.status = solution.status;
  result.message = solution.message;
  result.info = solution.info;
  if (result.ok() && (solution.v.size() != scene_.nv || !solution.v.allFinite())) {
    result.status = SolverStatus::kNumericalFailure;
    result.message = std::string(FormulationName(settings_.type)) +
                     ": the solver reported success but returned a non-finite velocity";
  }
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
