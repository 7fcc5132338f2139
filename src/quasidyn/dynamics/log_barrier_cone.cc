#include "quasidyn/dynamics/log_barrier_cone.h"

#include "quasidyn/dynamics/failure_message.h"
#include "quasidyn/dynamics/quasi_dynamic_socp.h"

namespace quasidyn {

LogBarrierProblem BuildConeLogBarrier(const StepProblem& problem) {
  const double h = problem.settings.time_step;
  LogBarrierProblem barrier;
  barrier.Q = problem.cost.P;
  barrier.b = -problem.cost.tau_h;
  barrier.G.resize(0, problem.contacts.nv);
  barrier.h.resize(0);
  for (const Contact& c : problem.contacts.contacts) {
    if (c.friction > 0) {
      barrier.cones.push_back(FrictionConeOfContact(c, h));
    } else {
      SecondOrderConeConstraint half_line;  // t_i >= 0, barrier log(t_i²)
      half_line.A = c.J_n;
      half_line.b = Eigen::VectorXd::Constant(1, c.phi / h);
      barrier.cones.push_back(std::move(half_line));
    }
  }
  barrier.kappa = problem.settings.kappa;
  return barrier;
}

FormulationSolution SolveConeLogBarrier(const StepProblem& problem, LogBarrierSolver* solver,
                                        const LogBarrierSettings& settings) {
  const LogBarrierProblem barrier = BuildConeLogBarrier(problem);
  const LogBarrierResult result = solver->Solve(barrier, settings);
  FormulationSolution solution;
  if (!StartSolution(problem, "log-barrier cone (Pang 2022)", result.status, result.info,
                     result.message, result.x, &solution))
    return solution;
  const int nc = problem.contacts.size();
  for (int i = 0; i < nc; ++i) {
    const Contact& c = problem.contacts.contacts[i];
    const SecondOrderConeConstraint& cone = barrier.cones[i];
    const Eigen::VectorXd u = cone.A * result.x + cone.b;  // (t_i, z_i)
    const double t = u[0];
    const double z_norm = u.tail(u.size() - 1).norm();
    const double psi = (t - z_norm) * (t + z_norm);  // t² − ‖z‖², less cancellation
    const double scale = 2.0 / (barrier.kappa * psi);
    solution.normal_impulse[i] = scale * t;  // λ_n = 2t/(κψ)
    if (u.size() > 1) {                      // λ̂_t = −2μz/(κψ)
      solution.friction_impulse.col(i) = -scale * c.friction * u[1] * c.tangent1;
      if (u.size() > 2) solution.friction_impulse.col(i) -= scale * c.friction * u[2] * c.tangent2;
    }
  }
  return solution;
}

}  // namespace quasidyn
