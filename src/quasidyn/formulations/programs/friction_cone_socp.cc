#include "quasidyn/formulations/programs/friction_cone_socp.h"

#include "quasidyn/dynamics/failure_message.h"
#include "quasidyn/dynamics/joint_limit_rows.h"

namespace quasidyn {

void AppendFrictionCone(const ContactSet& contacts, int i, double time_step, SparseRowMatrix* A,
                        Eigen::VectorXd* b, int row, std::vector<int>* cone_dims) {
  const Contact& c = contacts[i];
  const std::span<const int> columns = contacts.Columns(i);
  const ContactSet::RowMap J_n = contacts.NormalJacobian(i);
  const ContactSet::RowsMap J_t = contacts.TangentJacobian(i);
  A->AppendRow();
  for (size_t k = 0; k < columns.size(); ++k)
    A->AppendNonZero(columns[k], J_n[static_cast<int>(k)]);
  for (int t = 0; t < J_t.rows(); ++t) {
    A->AppendRow();
    for (size_t k = 0; k < columns.size(); ++k)
      A->AppendNonZero(columns[k], c.friction * J_t(t, static_cast<int>(k)));
  }
  (*b)[row] = c.phi / time_step;
  for (int t = 0; t < J_t.rows(); ++t) (*b)[row + 1 + t] = 0.0;
  cone_dims->push_back(1 + static_cast<int>(J_t.rows()));
}

void BuildFrictionConeSocp(const StepProblem& problem, SocpProblem* socp,
                           SizedStoragePool* storage) {
  const ContactSet& contacts = problem.contacts;
  const double h = problem.time_step;
  const int nt = contacts.tangent_count();
  socp->Q = problem.cost.P;
  socp->c = -problem.cost.tau_h;
  int linear_rows = 0, cone_rows = 0;
  for (const Contact& c : contacts) {
    if (!(c.friction > 0))
      linear_rows += 1;
    else if (nt == 1)
      linear_rows += 2;
    else
      cone_rows += 1 + nt;
  }
  const JointLimitRows& limits = problem.cost.limits;
  socp->G.Reset(contacts.nv());
  ResizeThrough(storage, &socp->h, linear_rows + limits.size());
  socp->A.Reset(contacts.nv());
  ResizeThrough(storage, &socp->b, cone_rows);
  socp->cone_dims.clear();
  int row = 0, cone_row = 0;
  for (int i = 0; i < contacts.size(); ++i) {
    const Contact& c = contacts[i];
    const std::span<const int> columns = contacts.Columns(i);
    const ContactSet::RowMap J_n = contacts.NormalJacobian(i);
    if (!(c.friction > 0)) {
      socp->G.AppendRow();
      for (size_t k = 0; k < columns.size(); ++k)
        socp->G.AppendNonZero(columns[k], J_n[static_cast<int>(k)]);
      socp->h[row++] = -c.phi / h;
    } else if (nt == 1) {  // t_i + z_i >= 0, t_i − z_i >= 0
      const ContactSet::RowsMap J_t = contacts.TangentJacobian(i);
      for (const double sign : {1.0, -1.0}) {
        socp->G.AppendRow();
        for (size_t k = 0; k < columns.size(); ++k) {
          const int col = static_cast<int>(k);
          socp->G.AppendNonZero(columns[k], sign > 0 ? J_n[col] + c.friction * J_t(0, col)
                                                     : J_n[col] - c.friction * J_t(0, col));
        }
        socp->h[row++] = -c.phi / h;
      }
    } else {
      AppendFrictionCone(contacts, i, h, &socp->A, &socp->b, cone_row, &socp->cone_dims);
      cone_row += 1 + nt;
    }
  }
  AppendJointLimitRows(limits, &socp->G, &socp->h, linear_rows);
}

SolverSummary SummaryOf(const SocpInfo& info) {
  SolverSummary summary{info.iterations, info.primal_residual, info.dual_residual,
                        info.complementarity_gap, info.solve_time_seconds};
  summary.polished = info.polish.succeeded;
  return summary;
}

void SolveFrictionConeSocp(const StepProblem& problem, const SocpSettings& settings,
                           const char* description, FrictionConeSocpWorkspace* workspace,
                           FormulationSolution* solution, SocpStart start) {
  FrictionConeSocpWorkspace& w = *workspace;
  BuildFrictionConeSocp(problem, &w.socp, &w.storage);
  if (w.solver.SamePattern(w.socp)) {
    w.solver.UpdateValues(w.socp);
  } else {
    w.solver.Setup(w.socp, settings);
  }
  const bool warm =
      start == SocpStart::kFromPreviousStep && w.previous.Start(problem, w.socp, &w.start);
  const SocpWarmStart cold;  // empty vectors: no allocation
  const SocpResult* result = &w.solver.Solve(warm ? w.start : cold);
  SolverSummary warm_summary;
  if (warm && result->status != SolverStatus::kSolved) {  // the cold solve decides
    warm_summary = SummaryOf(result->info);
    result = &w.solver.Solve();
  }
  SolverStatus status = result->status;
  if (status == SolverStatus::kNumericalFailure) {
    // solvers/socp.h can stop on a non-finite iterate when a cone's slack or dual reaches the
    // apex (a sticking contact at φ = 0) before its tolerances are met: one retry with
    // tolerances 100× looser, reported as solved_inaccurate at best.
    SocpSettings looser = settings;
    looser.absolute_tolerance *= 100;
    looser.relative_tolerance *= 100;
    w.solver.UpdateSettings(looser);
    result = &w.solver.Solve();
    w.solver.UpdateSettings(settings);
    status =
        result->status == SolverStatus::kSolved ? SolverStatus::kSolvedInaccurate : result->status;
  }
  if (start == SocpStart::kFromPreviousStep) {
    if (Succeeded(status)) {
      w.previous.Remember(problem, *result);
    } else {
      w.previous.Clear();
    }
  }
  SolverSummary summary = SummaryOf(result->info);
  summary.iterations += warm_summary.iterations;
  summary.solve_time_seconds += warm_summary.solve_time_seconds;
  if (!StartSolution(problem, description, status, summary, result->message, result->x, solution))
    return;
  const ContactSet& contacts = problem.contacts;
  const int nt = contacts.tangent_count();
  int cone = 0, row = 0;
  for (int i = 0; i < contacts.size(); ++i) {
    const Contact& c = contacts[i];
    if (!(c.friction > 0)) {
      solution->normal_impulse[i] = result->linear_duals[row++];
      continue;
    }
    if (nt == 1) {  // ζ₊, ζ₋ of t ± z >= 0
      const double plus = result->linear_duals[row++], minus = result->linear_duals[row++];
      solution->normal_impulse[i] = plus + minus;
      solution->friction_impulse[i] = c.friction * (plus - minus) * c.tangent1;
      continue;
    }
    const auto y = result->ConeDual(cone++);
    solution->normal_impulse[i] = y[0];  // λ_n = y_0
    // λ̂_t = μ y_1: in the tangent basis (t1, t2).
    solution->friction_impulse[i] = c.friction * y[1] * c.tangent1;
    if (y.size() > 2) solution->friction_impulse[i] += c.friction * y[2] * c.tangent2;
  }
  for (int l = 0; l < problem.cost.limits.size(); ++l)
    solution->limit_impulse[l] = result->linear_duals[row++];
}

bool DifferentiateFrictionConeSocp(const StepProblem& problem, const FormulationSolution& solution,
                                   StepDataContractor* contractor,
                                   FrictionConeSocpWorkspace* workspace,
                                   VelocityGradient* gradient) {
  FrictionConeSocpWorkspace& w = *workspace;
  const ContactSet& contacts = problem.contacts;
  SocpConeBlocks(contacts, &w.cone_blocks);
  SocpBlockMultipliers(contacts, w.cone_blocks, solution, &w.cone_multipliers);
  const StepDataContraction* contraction = nullptr;
  if (contractor != nullptr) {
    StackedImpulseCoordinates(contacts, w.cone_blocks, w.cone_multipliers, &w.cone_impulse);
    contraction = contractor->Contract(w.cone_impulse);
    if (contraction == nullptr) {
      FailGradient("A: " + contractor->failure(), gradient);
      return false;
    }
  }
  w.sensitivity.Compute(problem, w.cone_blocks, w.cone_multipliers, solution.limit_impulse,
                        solution.v, contraction, SocpKktSolve::kRangeSpace, gradient);
  return true;
}

}  // namespace quasidyn
