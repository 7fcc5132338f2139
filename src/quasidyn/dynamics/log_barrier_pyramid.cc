#include "quasidyn/dynamics/log_barrier_pyramid.h"

#include "quasidyn/dynamics/failure_message.h"
#include "quasidyn/dynamics/quasi_dynamic_qp.h"

namespace quasidyn {

LogBarrierProblem BuildPyramidLogBarrier(const StepProblem& problem) {
  QpProblem qp = BuildPyramidQp(problem);  // G v >= −φ/h, Pang & Tedrake 2021, eq. (10b)
  LogBarrierProblem barrier;
  barrier.Q = std::move(qp.Q);
  barrier.b = std::move(qp.c);
  barrier.G = std::move(qp.G);
  barrier.h = -qp.h;  // g(v) = G v + φ/h
  barrier.kappa = problem.settings.kappa;
  return barrier;
}

FormulationSolution SolvePyramidLogBarrier(const StepProblem& problem, LogBarrierSolver* solver,
                                           const LogBarrierSettings& settings) {
  const LogBarrierProblem barrier = BuildPyramidLogBarrier(problem);
  const LogBarrierResult result = solver->Solve(barrier, settings);
  FormulationSolution solution;
  if (!StartSolution(problem, "log-barrier pyramid (Pang 2022)", result.status, result.info,
                     result.message, result.x, &solution))
    return solution;
  const int nc = problem.contacts.size();
  const Eigen::VectorXd g = barrier.G * result.x + barrier.h;
  int row = 0;
  for (int i = 0; i < nc; ++i) {
    const Contact& c = problem.contacts.contacts[i];
    for (int j = 0; j < c.J_d.rows(); ++j, ++row) {
      const double beta = 1.0 / (barrier.kappa * g[row]);  // β_ij g_ij = 1/κ
      solution.normal_impulse[i] += beta;
      solution.friction_impulse.col(i) += c.friction * beta * c.rays.col(j);
    }
  }
  return solution;
}

}  // namespace quasidyn
