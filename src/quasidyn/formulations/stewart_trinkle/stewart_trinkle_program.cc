#include "quasidyn/formulations/stewart_trinkle/stewart_trinkle_program.h"

#include "quasidyn/formulations/stewart_trinkle/lcp_step_gradient.h"

namespace quasidyn {

StewartTrinkleProgram::StewartTrinkleProgram(const LemkeSettings& settings) : settings_(settings) {
  ValidateLemkeSettings(settings_);
}

std::unique_ptr<ProgramWorkspace> StewartTrinkleProgram::CreateWorkspace() const {
  return std::make_unique<QuasistaticLcpWorkspace>(settings_);
}

void StewartTrinkleProgram::Solve(const StepProblem& problem, ProgramWorkspace* workspace,
                                  FormulationSolution* solution) const {
  SolveContactLcp(problem, ContactLcpCost::kStewartTrinkle, settings_, description(),
                  &WorkspaceOf<QuasistaticLcpWorkspace>(workspace, description()), solution);
}

void StewartTrinkleProgram::ClearWarmStart(ProgramWorkspace* workspace) const {
  WorkspaceOf<QuasistaticLcpWorkspace>(workspace, description()).contact_solver.ClearWarmStart();
}

void StewartTrinkleProgram::Differentiate(const SecondOrderDerivativeInput& input,
                                          ProgramWorkspace* workspace, VelocityGradient* gradient,
                                          Eigen::MatrixXd* dv_dv) const {
  const QuasistaticLcpWorkspace& w = WorkspaceOf<QuasistaticLcpWorkspace>(workspace, description());
  const StepProblem& problem = input.problem;
  const LcpStepSensitivity sensitivity(&problem.scene, &problem.contacts, problem.time_step,
                                       &w.built, w.z);
  const StepDataContraction* contraction = nullptr;
  if (input.contractor != nullptr) {
    contraction = input.contractor->Contract(sensitivity.ContactImpulse());
    if (contraction == nullptr) return FailGradient("A: " + input.contractor->failure(), gradient);
  }
  *gradient = sensitivity.Gradient(contraction);
  if (input.contractor != nullptr) *dv_dv = sensitivity.CostSensitivity(*input.velocity_force);
}

}  // namespace quasidyn
