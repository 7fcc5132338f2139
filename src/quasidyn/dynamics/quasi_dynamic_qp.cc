#include "quasidyn/dynamics/quasi_dynamic_qp.h"

namespace quasidyn {

QpProblem BuildPyramidQp(const StepProblem& problem) {
  const ContactSet& contacts = problem.contacts;
  const double h = problem.settings.time_step;
  int rows = 0;
  for (const Contact& c : contacts.contacts) rows += static_cast<int>(c.J_d.rows());
  QpProblem qp;
  qp.Q = problem.cost.P;
  qp.c = -problem.cost.tau_h;
  qp.G.resize(rows, contacts.nv);
  qp.h.resize(rows);
  int row = 0;
  for (const Contact& c : contacts.contacts) {
    for (int j = 0; j < c.J_d.rows(); ++j, ++row) {
      qp.G.row(row) = c.J_n + c.friction * c.J_d.row(j);  // (n_i + μ_i d_ij)ᵀ J_i
      qp.h[row] = -c.phi / h;
    }
  }
  return qp;
}

QpSettings ContactQpSettings() {
  QpSettings settings;
  settings.sparse_min_variables = 40;
  settings.sparse_max_density = 0.5;
  return settings;
}

FormulationSolution SolvePyramidQp(const StepProblem& problem, QpSolver* solver,
                                   const QpSettings& settings) {
  const QpProblem qp = BuildPyramidQp(problem);
  const QpResult result = solver->Solve(qp, settings);
  FormulationSolution solution;
  solution.status = result.status;
  solution.info = result.info;
  solution.v = result.x;
  const int nc = problem.contacts.size();
  solution.normal_impulse = Eigen::VectorXd::Zero(nc);
  solution.friction_impulse = Eigen::Matrix3Xd::Zero(3, nc);
  int row = 0;
  for (int i = 0; i < nc; ++i) {
    const Contact& c = problem.contacts.contacts[i];
    for (int j = 0; j < c.J_d.rows(); ++j, ++row) {
      const double beta = result.z.size() ? result.z[row] : 0.0;
      solution.normal_impulse[i] += beta;
      solution.friction_impulse.col(i) += c.friction * beta * c.rays.col(j);
    }
  }
  if (result.status != SolverStatus::kSolved && result.status != SolverStatus::kSolvedInaccurate)
    solution.message = "QP (Pang & Tedrake 2021, eq. 10): " + result.message +
                       "; most violated: " + DescribeWorstContact(problem, result.x);
  return solution;
}

}  // namespace quasidyn
