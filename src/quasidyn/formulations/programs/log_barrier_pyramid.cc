#include "quasidyn/formulations/programs/log_barrier_pyramid.h"

#include "quasidyn/formulations/programs/pyramid_qp.h"

namespace quasidyn {

void BuildPyramidLogBarrier(const StepProblem& problem, double kappa, LogBarrierProblem* barrier,
                            SizedStoragePool* storage) {
  barrier->Q = problem.cost.P;
  barrier->c = -problem.cost.tau_h;
  // G v >= −φ/h, Pang & Tedrake 2021, eq. (10b), the QP's constraints.
  BuildPyramidConstraints(problem, &barrier->G, &barrier->h, storage);
  barrier->A.Reset(problem.contacts.nv());
  barrier->b.resize(0);
  barrier->cone_dims.clear();
  barrier->kappa = kappa;
}

SolverSummary SummaryOf(const LogBarrierInfo& info) {
  // The barrier's iterates are strictly feasible (no primal residual); its optimality
  // residual is the gradient of the barrier objective and its stopping measure the Newton
  // decrement λ²/2.
  return {info.newton_iterations, 0.0, info.gradient_norm, info.decrement, info.solve_time_seconds};
}

const LogBarrierResult& SolveLogBarrier(const LogBarrierSettings& settings,
                                        LogBarrierWorkspace* w) {
  if (w->solver.SamePattern(w->problem)) {
    w->solver.UpdateValues(w->problem);
  } else {
    w->solver.Setup(w->problem, settings);
  }
  return w->solver.Solve();
}

}  // namespace quasidyn
