#include "quasidyn/formulations/socp/socp_program.h"

namespace quasidyn {

std::unique_ptr<ProgramWorkspace> SocpProgram::CreateWorkspace() const {
  return std::make_unique<FrictionConeSocpWorkspace>();
}

void SocpProgram::Solve(const StepProblem& problem, ProgramWorkspace* workspace,
                        FormulationSolution* solution) const {
  SolveFrictionConeSocp(problem, settings_, description(),
                        &WorkspaceOf<FrictionConeSocpWorkspace>(workspace, description()), solution,
                        start_);
}

void SocpProgram::ClearWarmStart(ProgramWorkspace* workspace) const {
  WorkspaceOf<FrictionConeSocpWorkspace>(workspace, description()).previous.Clear();
}

void SocpProgram::Differentiate(const QuasiDynamicDerivativeInput& input,
                                ProgramWorkspace* workspace, VelocityGradient* gradient) const {
  DifferentiateFrictionConeSocp(input.problem, input.solution, input.contractor,
                                &WorkspaceOf<FrictionConeSocpWorkspace>(workspace, description()),
                                gradient);
}

}  // namespace quasidyn
