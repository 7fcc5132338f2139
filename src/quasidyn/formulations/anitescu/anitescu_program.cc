#include "quasidyn/formulations/anitescu/anitescu_program.h"

namespace quasidyn {

std::unique_ptr<ProgramWorkspace> AnitescuProgram::CreateWorkspace() const {
  return std::make_unique<PyramidQpWorkspace>();
}

void AnitescuProgram::Solve(const StepProblem& problem, ProgramWorkspace* workspace,
                            FormulationSolution* solution) const {
  SolvePyramidQp(problem, settings_, description(),
                 &WorkspaceOf<PyramidQpWorkspace>(workspace, description()), solution);
}

void AnitescuProgram::Differentiate(const SecondOrderDerivativeInput& input,
                                    ProgramWorkspace* workspace, VelocityGradient* gradient,
                                    Eigen::MatrixXd* dv_dv) const {
  PyramidQpWorkspace& w = WorkspaceOf<PyramidQpWorkspace>(workspace, description());
  const StepProblem& problem = input.problem;
  BuildPyramidStepData(problem, &w.pyramid);
  const QpSensitivity sensitivity(&problem.scene, problem.time_step, &w.pyramid, input.solution.v,
                                  w.solver.result().z);
  const StepDataContraction* contraction = nullptr;
  if (input.contractor != nullptr) {
    contraction = input.contractor->Contract(sensitivity.ActiveContactImpulse());
    if (contraction == nullptr) return FailGradient("A: " + input.contractor->failure(), gradient);
  }
  *gradient = sensitivity.Gradient(contraction);
  if (input.contractor != nullptr) *dv_dv = sensitivity.CostSensitivity(*input.velocity_force);
}

}  // namespace quasidyn
