#include "quasidyn/formulations/anitescu_cone/anitescu_cone_program.h"

namespace quasidyn {

std::unique_ptr<ProgramWorkspace> AnitescuConeProgram::CreateWorkspace() const {
  return std::make_unique<FrictionConeSocpWorkspace>();
}

void AnitescuConeProgram::Solve(const StepProblem& problem, ProgramWorkspace* workspace,
                                FormulationSolution* solution) const {
  SolveFrictionConeSocp(problem, settings_, description(),
                        &WorkspaceOf<FrictionConeSocpWorkspace>(workspace, description()),
                        solution);
}

void AnitescuConeProgram::Differentiate(const SecondOrderDerivativeInput& input,
                                        ProgramWorkspace* workspace, VelocityGradient* gradient,
                                        Eigen::MatrixXd* dv_dv) const {
  FrictionConeSocpWorkspace& w = WorkspaceOf<FrictionConeSocpWorkspace>(workspace, description());
  if (!DifferentiateFrictionConeSocp(input.problem, input.solution, input.contractor, &w, gradient))
    return;
  // ∂v⁺/∂v: the right side ∂τ_h/∂v − ∂(P v⁺)/∂v with the constraint values held (the gap
  // φ/h + J v⁺ does not depend on v), solved with the factors of the gradient above.
  if (input.contractor != nullptr) w.sensitivity.CostSensitivity(*input.velocity_force, dv_dv);
}

}  // namespace quasidyn
