#include "quasidyn/formulations/lcp/lcp_program.h"

namespace quasidyn {

QuasistaticLcpProgram::QuasistaticLcpProgram(const LemkeSettings& settings) : settings_(settings) {
  ValidateLemkeSettings(settings_);
}

std::unique_ptr<ProgramWorkspace> QuasistaticLcpProgram::CreateWorkspace() const {
  return std::make_unique<QuasistaticLcpWorkspace>(settings_);
}

void QuasistaticLcpProgram::Solve(const StepProblem& problem, ProgramWorkspace* workspace,
                                  FormulationSolution* solution) const {
  SolveContactLcp(problem, ContactLcpCost::kQuasistatic, settings_, description(),
                  &WorkspaceOf<QuasistaticLcpWorkspace>(workspace, description()), solution);
}

void QuasistaticLcpProgram::Differentiate(const QuasiDynamicDerivativeInput& /*input*/,
                                          ProgramWorkspace* /*workspace*/,
                                          VelocityGradient* gradient) const {
  FailGradient(
      "the quasistatic LCP has no derivative here (its linearisations take the "
      "pyramid QP's: `exact` linearises qp)",
      gradient);
}

}  // namespace quasidyn
