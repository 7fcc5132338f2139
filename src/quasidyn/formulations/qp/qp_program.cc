#include "quasidyn/formulations/qp/qp_program.h"

namespace quasidyn {

std::unique_ptr<ProgramWorkspace> QpProgram::CreateWorkspace() const {
  return std::make_unique<PyramidQpWorkspace>();
}

void QpProgram::Solve(const StepProblem& problem, ProgramWorkspace* workspace,
                      FormulationSolution* solution) const {
  SolvePyramidQp(problem, settings_, description(),
                 &WorkspaceOf<PyramidQpWorkspace>(workspace, description()), solution, start_);
}

void QpProgram::ClearWarmStart(ProgramWorkspace* workspace) const {
  WorkspaceOf<PyramidQpWorkspace>(workspace, description()).previous.Clear();
}

void QpProgram::Differentiate(const QuasiDynamicDerivativeInput& input, ProgramWorkspace* workspace,
                              VelocityGradient* gradient) const {
  PyramidQpWorkspace& w = WorkspaceOf<PyramidQpWorkspace>(workspace, description());
  const StepProblem& problem = input.problem;
  BuildPyramidStepData(problem, &w.pyramid);
  const Eigen::VectorXd& beta = w.solver.result().z;
  w.sensitivity.Compute(&problem.scene, problem.time_step, &w.pyramid, input.solution.v, beta);
  const StepDataContraction* contraction = nullptr;
  if (input.contractor != nullptr) {
    contraction = input.contractor->Contract(w.sensitivity.ActiveContactImpulseInPlace());
    if (contraction == nullptr) return FailGradient("A: " + input.contractor->failure(), gradient);
  }
  w.sensitivity.Gradient(contraction, gradient);
}

}  // namespace quasidyn
