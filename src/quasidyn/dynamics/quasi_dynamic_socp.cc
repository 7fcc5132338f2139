#include "quasidyn/dynamics/quasi_dynamic_socp.h"

#include "quasidyn/dynamics/failure_message.h"

namespace quasidyn {

SecondOrderConeConstraint FrictionConeOfContact(const Contact& contact, double time_step) {
  const int nt = static_cast<int>(contact.J_t.rows());
  SecondOrderConeConstraint cone;
  cone.A.resize(1 + nt, contact.J_n.size());
  cone.A.row(0) = contact.J_n;
  cone.A.bottomRows(nt) = contact.friction * contact.J_t;
  cone.b = Eigen::VectorXd::Zero(1 + nt);
  cone.b[0] = contact.phi / time_step;
  return cone;
}

SocpProblem BuildFrictionConeSocp(const StepProblem& problem) {
  const ContactSet& contacts = problem.contacts;
  const double h = problem.settings.time_step;
  SocpProblem socp;
  socp.Q = problem.cost.P;
  socp.c = -problem.cost.tau_h;
  int linear_rows = 0;
  for (const Contact& c : contacts.contacts) {
    if (!(c.friction > 0))
      linear_rows += 1;
    else if (c.J_t.rows() == 1)
      linear_rows += 2;
    else
      socp.cones.push_back(FrictionConeOfContact(c, h));
  }
  socp.G.resize(linear_rows, contacts.nv);
  socp.h.resize(linear_rows);
  int row = 0;
  for (const Contact& c : contacts.contacts) {
    if (!(c.friction > 0)) {
      socp.G.row(row) = c.J_n;
      socp.h[row++] = -c.phi / h;
    } else if (c.J_t.rows() == 1) {  // t_i + z_i >= 0, t_i − z_i >= 0
      socp.G.row(row) = c.J_n + c.friction * c.J_t;
      socp.h[row++] = -c.phi / h;
      socp.G.row(row) = c.J_n - c.friction * c.J_t;
      socp.h[row++] = -c.phi / h;
    }
  }
  return socp;
}

FormulationSolution SolveFrictionConeSocp(const StepProblem& problem, SocpSolver* solver,
                                          const SocpSettings& settings) {
  const SocpProblem socp = BuildFrictionConeSocp(problem);
  SocpResult result = solver->Solve(socp, settings);
  if (result.status == SolverStatus::kNumericalFailure) {
    // Work-around for solvers/socp.h: it can stop on a non-finite iterate when a cone's slack
    // or dual reaches the apex (a sticking contact at φ = 0) before its tolerances are met.
    // One retry with tolerances 100× looser, reported as solved_inaccurate at best.
    SocpSettings looser = settings;
    looser.absolute_tolerance *= 100;
    looser.relative_tolerance *= 100;
    result = solver->Solve(socp, looser);
    if (result.status == SolverStatus::kSolved) result.status = SolverStatus::kSolvedInaccurate;
  }
  FormulationSolution solution;
  if (!StartSolution(problem, "SOCP (Pang 2022, exact friction cone)", result.status, result.info,
                     result.message, result.x, &solution))
    return solution;
  const int nc = problem.contacts.size();
  int cone = 0, row = 0;
  for (int i = 0; i < nc; ++i) {
    const Contact& c = problem.contacts.contacts[i];
    if (!(c.friction > 0)) {
      solution.normal_impulse[i] = result.linear_duals[row++];
      continue;
    }
    if (c.J_t.rows() == 1) {  // ζ₊, ζ₋ of t ± z >= 0
      const double plus = result.linear_duals[row++], minus = result.linear_duals[row++];
      solution.normal_impulse[i] = plus + minus;
      solution.friction_impulse.col(i) = c.friction * (plus - minus) * c.tangent1;
      continue;
    }
    const Eigen::VectorXd& y = result.cone_duals[cone++];
    solution.normal_impulse[i] = y[0];  // λ_n = y_0
    // λ̂_t = μ y_1: in the tangent basis (t1, t2); planar contacts have only t1.
    solution.friction_impulse.col(i) = c.friction * y[1] * c.tangent1;
    if (y.size() > 2) solution.friction_impulse.col(i) += c.friction * y[2] * c.tangent2;
  }
  return solution;
}

}  // namespace quasidyn
