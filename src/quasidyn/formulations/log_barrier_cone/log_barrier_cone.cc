#include "quasidyn/formulations/log_barrier_cone/log_barrier_cone.h"

#include <cmath>

#include "quasidyn/common/argument_check.h"
#include "quasidyn/dynamics/failure_message.h"
#include "quasidyn/dynamics/joint_limit_rows.h"
#include "quasidyn/formulations/log_barrier_cone/log_barrier_cone_gradient.h"
#include "quasidyn/formulations/programs/friction_cone_socp.h"
#include "quasidyn/formulations/quasi_dynamic/barrier_stand_off.h"

namespace quasidyn {

void BuildConeLogBarrier(const StepProblem& problem, double kappa, LogBarrierProblem* barrier,
                         SizedStoragePool* storage) {
  const ContactSet& contacts = problem.contacts;
  const double h = problem.time_step;
  barrier->Q = problem.cost.P;
  barrier->c = -problem.cost.tau_h;
  // The joint-limit rows are the only linear barriers: −(1/κ) log g_l (joint_limit_rows.h).
  barrier->G.Reset(contacts.nv());
  ResizeThrough(storage, &barrier->h, problem.cost.limits.size());
  AppendJointLimitRows(problem.cost.limits, &barrier->G, &barrier->h, 0);
  int rows = 0;
  for (const Contact& c : contacts) rows += c.friction > 0 ? 1 + contacts.tangent_count() : 1;
  barrier->A.Reset(contacts.nv());
  ResizeThrough(storage, &barrier->b, rows);
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
  barrier->kappa = kappa;
}

ConeLogBarrierProgram::ConeLogBarrierProgram(double kappa, const LogBarrierSettings& settings)
    : kappa_(kappa), settings_(settings) {
  CheckPositive("ConeLogBarrierProgram", "kappa", kappa);
}

double ConeLogBarrierProgram::CandidateDistance(const Scene& scene) const {
  return BarrierCandidateDistance(scene, BarrierKind::kCone, kappa_, "log-barrier-cone");
}

std::unique_ptr<ProgramWorkspace> ConeLogBarrierProgram::CreateWorkspace() const {
  return std::make_unique<LogBarrierWorkspace>();
}

void ConeLogBarrierProgram::ClearWarmStart(ProgramWorkspace* workspace) const {
  WorkspaceOf<LogBarrierWorkspace>(workspace, description()).solver.ClearPreviousSolution();
}

void ConeLogBarrierProgram::Solve(const StepProblem& problem, ProgramWorkspace* workspace,
                                  FormulationSolution* solution) const {
  LogBarrierWorkspace& w = WorkspaceOf<LogBarrierWorkspace>(workspace, description());
  BuildConeLogBarrier(problem, kappa_, &w.problem, &w.storage);
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
    // ‖z‖ of the m − 1 entries after t, summed one by one (a segment of variable length of a
    // fixed-size vector is vectorised past its end by GCC 12's -Warray-bounds analysis).
    double z_squared = 0.0;
    for (int r = 1; r < m; ++r) z_squared += u[r] * u[r];
    const double z_norm = std::sqrt(z_squared);
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

namespace {

// *gap: the gap velocities' storage (GapVelocities); each u_b = R_b c_i (BlockValues) in
// inline storage (m_b <= 3): no allocation.
std::string ConeBarrierViolation(const StepProblem& problem,
                                 const std::vector<ContactConeBlock>& blocks,
                                 const Eigen::VectorXd& v, Eigen::VectorXd* gap) {
  GapVelocities(problem.contacts, v, problem.time_step, gap);
  for (size_t b = 0; b < blocks.size(); ++b) {
    Eigen::Matrix<double, Eigen::Dynamic, 1, 0, 3, 1> u;
    u.noalias() = blocks[b].R * gap->segment(blocks[b].first_row, blocks[b].R.cols());
    double radius_squared = 0.0;  // |z_b|², summed in order (a check, not a result)
    for (Eigen::Index k = 1; k < u.size(); ++k) radius_squared += u[k] * u[k];
    const double radius = std::sqrt(radius_squared);
    if (!(u[0] - radius > 0))
      return "the log-barrier solution is on the boundary of the cone of contact " +
             std::to_string(blocks[b].contact);
  }
  return "";
}

// The first joint-limit row with g_l <= 0, as a message; empty when v is strictly inside.
std::string LimitBarrierViolation(const JointLimitRows& limits, const Eigen::VectorXd& v) {
  for (int l = 0; l < limits.size(); ++l)
    if (!(JointLimitSlack(limits, l, v) > 0))
      return "the log-barrier solution is on the boundary of joint-limit row " + std::to_string(l);
  return "";
}

}  // namespace

void ConeLogBarrierProgram::Differentiate(const QuasiDynamicDerivativeInput& input,
                                          ProgramWorkspace* workspace,
                                          VelocityGradient* gradient) const {
  LogBarrierWorkspace& w = WorkspaceOf<LogBarrierWorkspace>(workspace, description());
  const StepProblem& problem = input.problem;
  const ContactSet& contacts = problem.contacts;
  const Eigen::VectorXd& v = input.solution.v;
  std::vector<ContactConeBlock>& blocks = w.cone_blocks;
  BarrierConeBlocks(contacts, &blocks);
  if (const std::string violation = ConeBarrierViolation(problem, blocks, v, &w.cone_gap);
      !violation.empty())
    return FailGradient(violation, gradient);
  if (const std::string violation = LimitBarrierViolation(problem.cost.limits, v);
      !violation.empty())
    return FailGradient(violation, gradient);
  BarrierConeMultipliers(problem, kappa_, blocks, v, &w.cone_gap, &w.cone_multipliers);
  const StepDataContraction* contraction = nullptr;
  if (input.contractor != nullptr) {
    StackedImpulseCoordinates(contacts, blocks, w.cone_multipliers, &w.cone_impulse);
    contraction = input.contractor->Contract(w.cone_impulse);
    if (contraction == nullptr) return FailGradient("A: " + input.contractor->failure(), gradient);
  }
  LogBarrierConeVelocityGradient(problem, kappa_, blocks, v, contraction, &w.gradient, gradient);
}

}  // namespace quasidyn
