#include "quasidyn/dynamics/log_barrier_cone.h"

#include "quasidyn/dynamics/failure_message.h"
#include "quasidyn/dynamics/joint_limit_rows.h"
#include "quasidyn/dynamics/quasi_dynamic_socp.h"

namespace quasidyn {

void BuildConeLogBarrier(const StepProblem& problem, LogBarrierProblem* barrier) {
  const ContactSet& contacts = problem.contacts;
  const double h = problem.settings.time_step;
  barrier->Q = problem.cost.P;
  barrier->c = -problem.cost.tau_h;
  // The joint-limit rows are the only linear barriers: −(1/κ) log g_l (joint_limit_rows.h).
  barrier->G.Reset(contacts.nv());
  barrier->h.resize(problem.cost.limits.size());
  AppendJointLimitRows(problem.cost.limits, &barrier->G, &barrier->h, 0);
  int rows = 0;
  for (const Contact& c : contacts) rows += c.friction > 0 ? 1 + contacts.tangent_count() : 1;
  barrier->A.Reset(contacts.nv());
  barrier->b.resize(rows);
  barrier->cone_dims.clear();
  int row = 0;
  for (int i = 0; i < contacts.size(); ++i) {
    const Contact& c = contacts[i];
    if (c.friction > 0) {
      AppendFrictionCone(contacts, i, h, &barrier->A, &barrier->b, row, &barrier->cone_dims);
      row += 1 + contacts.tangent_count();
      continue;
    }
    // t_i >= 0, barrier log(t_i²)
    const std::span<const int> columns = contacts.Columns(i);
    const ContactSet::RowMap J_n = contacts.NormalJacobian(i);
    barrier->A.AppendRow();
    for (size_t k = 0; k < columns.size(); ++k)
      barrier->A.AppendNonZero(columns[k], J_n[static_cast<int>(k)]);
    barrier->b[row++] = c.phi / h;
    barrier->cone_dims.push_back(1);
  }
  barrier->kappa = problem.settings.kappa;
}

std::unique_ptr<FormulationWorkspace> ConeLogBarrierFormulation::CreateWorkspace() const {
  return std::make_unique<LogBarrierWorkspace>();
}

void ConeLogBarrierFormulation::ClearWarmStart(FormulationWorkspace* workspace) const {
  WorkspaceOf<LogBarrierWorkspace>(workspace, description()).solver.ClearPreviousSolution();
}

void ConeLogBarrierFormulation::Solve(const StepProblem& problem, FormulationWorkspace* workspace,
                                      FormulationSolution* solution) const {
  LogBarrierWorkspace& w = WorkspaceOf<LogBarrierWorkspace>(workspace, description());
  BuildConeLogBarrier(problem, &w.problem);
  const LogBarrierResult& result = SolveLogBarrier(settings_, &w);
  if (!StartSolution(problem, description(), result.status, SummaryOf(result.info), result.message,
                     result.x, solution))
    return;
  const ContactSet& contacts = problem.contacts;
  const SparseRowMatrix& A = w.problem.A;
  int row = 0;
  for (int i = 0; i < contacts.size(); ++i) {
    const Contact& c = contacts[i];
    const int m = w.problem.cone_dims[i];
    Eigen::Vector3d u = Eigen::Vector3d::Zero();  // (t_i, z_i), m <= 3
    for (int r = 0; r < m; ++r, ++row) {
      double value = w.problem.b[row];
      for (int k = A.row_start(row); k < A.row_start(row + 1); ++k)
        value += A.value(k) * result.x[A.column(k)];
      u[r] = value;
    }
    const double t = u[0];
    const double z_norm = u.tail(2).head(m - 1).norm();
    const double psi = (t - z_norm) * (t + z_norm);  // t² − ‖z‖², less cancellation
    const double scale = 2.0 / (w.problem.kappa * psi);
    solution->normal_impulse[i] = scale * t;  // λ_n = 2t/(κψ)
    if (m > 1) {                              // λ̂_t = −2μz/(κψ)
      solution->friction_impulse[i] = -scale * c.friction * u[1] * c.tangent1;
      if (m > 2) solution->friction_impulse[i] -= scale * c.friction * u[2] * c.tangent2;
    }
  }
  for (int l = 0; l < problem.cost.limits.size(); ++l)  // λ_l g_l = 1/κ
    solution->limit_impulse[l] =
        1.0 / (w.problem.kappa * JointLimitSlack(problem.cost.limits, l, result.x));
}

}  // namespace quasidyn
