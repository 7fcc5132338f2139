#include "quasidyn/formulations/programs/pyramid_qp.h"

#include <string>

#include "quasidyn/common/argument_check.h"
#include "quasidyn/dynamics/failure_message.h"
#include "quasidyn/dynamics/joint_limit_rows.h"

namespace quasidyn {

void BuildPyramidConstraints(const StepProblem& problem, SparseRowMatrix* G, Eigen::VectorXd* h,
                             SizedStoragePool* storage) {
  const ContactSet& contacts = problem.contacts;
  const double time_step = problem.time_step;
  const int contact_rows = contacts.size() * contacts.ray_count();
  G->Reset(contacts.nv());
  ResizeThrough(storage, h, contact_rows + problem.cost.limits.size());
  int row = 0;
  for (int i = 0; i < contacts.size(); ++i) {
    const Contact& c = contacts[i];
    const std::span<const int> columns = contacts.Columns(i);
    const ContactSet::RowMap J_n = contacts.NormalJacobian(i);
    const ContactSet::RowsMap J_d = contacts.RayJacobian(i);
    for (int j = 0; j < J_d.rows(); ++j, ++row) {
      G->AppendRow();
      for (size_t k = 0; k < columns.size(); ++k) {
        const int col = static_cast<int>(k);
        G->Append(columns[k], J_n[col] + c.friction * J_d(j, col));  // (n + μ d)ᵀ J
      }
      (*h)[row] = -c.phi / time_step;
    }
  }
  AppendJointLimitRows(problem.cost.limits, G, h, contact_rows);
}

void BuildPyramidQp(const StepProblem& problem, QpProblem* qp, SizedStoragePool* storage) {
  qp->Q = problem.cost.P;
  qp->c = -problem.cost.tau_h;
  BuildPyramidConstraints(problem, &qp->G, &qp->h, storage);
}

QpSettings ContactQpSettings() {
  QpSettings settings;
  settings.sparse_min_variables = 16;
  settings.sparse_max_density = 0.5;
  settings.scaled_warm_start_slack = true;
  return settings;
}

SolverSummary SummaryOf(const QpInfo& info) {
  SolverSummary summary{info.iterations, info.primal_residual, info.dual_residual,
                        info.complementarity_gap, info.solve_time_seconds};
  summary.polished = info.polish.succeeded;
  return summary;
}

void SetupOrUpdate(const QpProblem& qp, const QpSettings& settings, QpSolver* solver) {
  if (!solver->UpdateValuesIfSamePattern(qp)) solver->Setup(qp, settings);
}

void SolvePyramidQp(const StepProblem& problem, const QpSettings& settings, const char* description,
                    PyramidQpWorkspace* workspace, FormulationSolution* solution, QpStart start) {
  PyramidQpWorkspace& w = *workspace;
  BuildPyramidQp(problem, &w.qp, &w.storage);  // h of a row count met before from the spares
  SetupOrUpdate(w.qp, settings, &w.solver);
  const bool warm =
      start == QpStart::kFromPreviousStep && w.previous.Start(problem, w.qp, &w.start);
  const QpWarmStart cold;                                           // empty vectors: no allocation
  const QpResult* solved = &w.solver.Solve(warm ? w.start : cold);  // no copy of w.start
  SolverSummary summary = SummaryOf(solved->info);
  if (warm && solved->status != SolverStatus::kSolved) {  // the cold solve decides
    const SolverSummary warm_summary = summary;
    solved = &w.solver.Solve();
    summary = SummaryOf(solved->info);
    summary.iterations += warm_summary.iterations;
    summary.solve_time_seconds += warm_summary.solve_time_seconds;
  }
  const QpResult& result = *solved;
  if (start == QpStart::kFromPreviousStep) {
    if (Succeeded(result.status)) {
      w.previous.Remember(problem, result);
    } else {
      w.previous.Clear();
    }
  }
  if (!StartSolution(problem, description, result.status, summary, result.message, result.x,
                     solution))
    return;
  const ContactSet& contacts = problem.contacts;
  int row = 0;
  for (int i = 0; i < contacts.size(); ++i) {
    const Contact& c = contacts[i];
    const ContactSet::RaysMap rays = contacts.Rays(i);
    for (int j = 0; j < rays.cols(); ++j, ++row) {
      const double beta = result.z.size() ? result.z[row] : 0.0;
      solution->normal_impulse[i] += beta;
      solution->friction_impulse[i] += c.friction * beta * rays.col(j);
    }
  }
  for (int l = 0; l < problem.cost.limits.size(); ++l, ++row)
    solution->limit_impulse[l] = result.z.size() ? result.z[row] : 0.0;
}

}  // namespace quasidyn
