#include "quasidyn/formulations/log_barrier/log_barrier_program.h"

#include <string>

#include "quasidyn/common/argument_check.h"
#include "quasidyn/dynamics/failure_message.h"
#include "quasidyn/dynamics/joint_limit_rows.h"
#include "quasidyn/formulations/programs/log_barrier_gradient.h"
#include "quasidyn/formulations/quasi_dynamic/barrier_stand_off.h"

namespace quasidyn {

PyramidLogBarrierProgram::PyramidLogBarrierProgram(double kappa, const LogBarrierSettings& settings)
    : kappa_(kappa), settings_(settings) {
  CheckPositive("PyramidLogBarrierProgram", "kappa", kappa);
}

double PyramidLogBarrierProgram::CandidateDistance(const Scene& scene) const {
  return BarrierCandidateDistance(scene, BarrierKind::kPyramid, kappa_, "log-barrier");
}

std::unique_ptr<ProgramWorkspace> PyramidLogBarrierProgram::CreateWorkspace() const {
  return std::make_unique<LogBarrierWorkspace>();
}

void PyramidLogBarrierProgram::ClearWarmStart(ProgramWorkspace* workspace) const {
  WorkspaceOf<LogBarrierWorkspace>(workspace, description()).solver.ClearPreviousSolution();
}

void PyramidLogBarrierProgram::Solve(const StepProblem& problem, ProgramWorkspace* workspace,
                                     FormulationSolution* solution) const {
  LogBarrierWorkspace& w = WorkspaceOf<LogBarrierWorkspace>(workspace, description());
  BuildPyramidLogBarrier(problem, kappa_, &w.problem, &w.storage);
  const LogBarrierResult& result = SolveLogBarrier(settings_, &w);
  if (!StartSolution(problem, description(), result.status, SummaryOf(result.info), result.message,
                     result.x, solution))
    return;
  const ContactSet& contacts = problem.contacts;
  const double kappa = w.problem.kappa;
  int row = 0;
  for (int i = 0; i < contacts.size(); ++i) {
    const Contact& c = contacts[i];
    const ContactSet::RaysMap rays = contacts.Rays(i);
    for (int j = 0; j < rays.cols(); ++j, ++row) {
      // g_ij = G_ij v − h_ij = φ_i/h + (J_n,i + μ_i J_d,ij) v; β_ij g_ij = 1/κ.
      double g = -w.problem.h[row];
      for (int k = w.problem.G.row_start(row); k < w.problem.G.row_start(row + 1); ++k)
        g += w.problem.G.value(k) * result.x[w.problem.G.column(k)];
      const double beta = 1.0 / (kappa * g);
      solution->normal_impulse[i] += beta;
      solution->friction_impulse[i] += c.friction * beta * rays.col(j);
    }
  }
  // The joint-limit rows after the contacts' (BuildPyramidConstraints): λ_l g_l = 1/κ.
  for (int l = 0; l < problem.cost.limits.size(); ++l)
    solution->limit_impulse[l] = 1.0 / (kappa * JointLimitSlack(problem.cost.limits, l, result.x));
}

namespace {

// The first pyramid row with g_j = G_j v + o_j <= 0, as a message; empty when v is strictly
// inside every barrier (a solver's last iterate can land on a boundary by rounding).
std::string PyramidBarrierViolation(const PyramidStepData& data, const Eigen::VectorXd& v,
                                    Eigen::VectorXd* scratch) {
  Eigen::VectorXd& g = *scratch;
  g.noalias() = data.G * v;
  g += data.offset;
  for (int j = 0; j < static_cast<int>(g.size()); ++j)
    if (!(g[j] > 0))
      return "the log-barrier solution is on the boundary of pyramid row " + std::to_string(j) +
             " (G v + o = " + NumberText(g[j]) + ")";
  return "";
}

}  // namespace

void PyramidLogBarrierProgram::Differentiate(const QuasiDynamicDerivativeInput& input,
                                             ProgramWorkspace* workspace,
                                             VelocityGradient* gradient) const {
  LogBarrierWorkspace& w = WorkspaceOf<LogBarrierWorkspace>(workspace, description());
  const StepProblem& problem = input.problem;
  const Eigen::VectorXd& v = input.solution.v;
  PyramidStepData& pyramid = w.pyramid;
  BuildPyramidStepData(problem, &pyramid);
  if (const std::string violation = PyramidBarrierViolation(pyramid, v, &w.gradient.g);
      !violation.empty())
    return FailGradient(violation, gradient);
  const StepDataContraction* contraction = nullptr;
  if (input.contractor != nullptr) {
    contraction =
        input.contractor->Contract(BarrierContactImpulse(pyramid, kappa_, v, &w.gradient));
    if (contraction == nullptr) return FailGradient("A: " + input.contractor->failure(), gradient);
  }
  LogBarrierVelocityGradient(problem.scene, problem.time_step, kappa_, pyramid, contraction, v,
                             &w.gradient, gradient);
}

}  // namespace quasidyn
