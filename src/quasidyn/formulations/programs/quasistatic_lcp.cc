#include "quasidyn/formulations/programs/quasistatic_lcp.h"

#include <string>

#include "quasidyn/common/argument_check.h"
#include "quasidyn/dynamics/contact_lcp_blocks.h"
#include "quasidyn/dynamics/failure_message.h"
#include "quasidyn/dynamics/joint_limit_rows.h"

namespace quasidyn {

namespace {

// m = J x, J (n_z × n_v) column-major, as one axpy of J's column k per non-zero x_k. x = P⁻¹Jᵀe_j
// is non-zero only on the blocks of P (each object's mass block, the robots' stiffness block: P
// is block diagonal, and so are its Cholesky factor and its solves, whose off-block entries are
// exact zeros) of the bodies that z_j's contact moves: 6–13 of the n_v = 69 entries on
// arm_cubes. The terms skipped are exact zeros, so m differs from the full product only by the
// order of its sums (rounding); where x has no zeros it is the full product.
void MultiplyOnSupport(const ViewStorage::MatrixView& J, const Eigen::Ref<const Eigen::VectorXd>& x,
                       Eigen::Ref<Eigen::VectorXd> m) {
  m.setZero();
  for (Eigen::Index k = 0; k < x.size(); ++k)
    if (x[k] != 0.0) m += x[k] * J.col(k);
}

}  // namespace

bool BuildQuasistaticLcp(const StepProblem& problem, QuasistaticLcp* out) {
  const ContactSet& contacts = problem.contacts;
  const double h = problem.time_step;
  const int nc = contacts.size(), nd = contacts.ray_count();
  const int nv = contacts.nv();
  const JointLimitRows& limits = problem.cost.limits;
  const int nz = ContactLcpSize(contacts, limits);
  out->storage.Seat(
      {{&out->M, nz, nz}, {&out->velocity_map, nv, nz}, {&out->JT, nv, nz}, {&out->J, nz, nv}},
      {{&out->q, nz}, {&out->offset, nz}});
  problem.cost.P.ToDense(&out->P);
  out->P_factor.compute(out->P);
  if (out->P_factor.info() != Eigen::Success) return false;

  const int nf = nc * nd;
  // Jᵀ = [J_nᵀ  J_dᵀ  0  G_lᵀ]: the generalized impulse of z (n_v × n_z).
  ContactImpulseMap(contacts, limits, out->JT);
  out->offset.setZero();  // φ/h on the λ_n rows, o_l on the limit rows
  for (int i = 0; i < nc; ++i) out->offset[i] = contacts[i].phi / h;
  out->offset.tail(limits.size()) = limits.offsets();
  out->num_contacts = nc;
  out->num_friction = nf;
  out->velocity_offset = problem.cost.tau_h;
  out->P_factor.solveInPlace(out->velocity_offset);
  // P⁻¹Jᵀ and J P⁻¹ Jᵀ column by column: vector solves and products need no blocking buffer
  // (Eigen's matrix-level ones take theirs from the heap beyond 128 KB, n_z = 306–336 on
  // arm_cubes), so a step allocates nothing. A column without contact is never touched (an
  // n × 0 triangular solve binds a reference to null data, found by fuzz/step_fuzzer.cc).
  out->velocity_map = out->JT;
  out->J = out->JT.transpose();
  for (int j = 0; j < nz; ++j) {
    auto column = out->velocity_map.col(j);
    out->P_factor.solveInPlace(column);
    MultiplyOnSupport(out->J, column, out->M.col(j));
  }
  // The velocity rows (w_n, w_f) = Jv + offset, then the E and (μ, −Eᵀ) couplings.
  out->q.noalias() = out->JT.transpose() * out->velocity_offset;
  out->q += out->offset;
  AddFrictionCouplings(contacts, out->M);
  return true;
}

SolverSummary SummaryOf(const LemkeInfo& info) {
  return {info.pivots, info.residual, info.sign_violation, info.complementarity,
          info.solve_time_seconds};
}

void SolveContactLcp(const StepProblem& problem, ContactLcpCost cost, const LemkeSettings& settings,
                     const char* description, QuasistaticLcpWorkspace* workspace,
                     FormulationSolution* solution) {
  QuasistaticLcpWorkspace& w = *workspace;
  const int nc = problem.contacts.size();
  const int nl = problem.cost.limits.size();
  w.warm_started = false;
  if (!BuildQuasistaticLcp(problem, &w.built)) {
    solution->Start(SolverStatus::kNumericalFailure, SolverSummary(), Eigen::VectorXd(), nc, nl);
    solution->message =
        std::string(description) +
        (cost == ContactLcpCost::kQuasistatic
             ? ": the LCP eliminates v through P = blockdiag(s·M_u, h²K_a), which is "
               "singular: set formulation.object_mass_scale > 0"
             : ": the LCP eliminates v through M̂ = M + h D + h² K, which is not positive "
               "definite (an object without mass or inertia)");
    w.contact_solver.ClearWarmStart();
    return;
  }
  const int nz = static_cast<int>(w.built.q.size());
  w.storage.Resize(&w.z, nz);
  w.z.setZero();
  SolverSummary summary;
  SolverStatus status = SolverStatus::kSolved;  // no contact: v = P⁻¹τ_h
  if (nz > 0) {
    const bool stewart_trinkle = cost == ContactLcpCost::kStewartTrinkle;
    if (!stewart_trinkle && w.solver_size != nz) {
      w.solver.Setup(nz, settings);
      w.solver_size = nz;
    }
    const LcpResult& result =
        stewart_trinkle ? w.contact_solver.Solve(problem.contacts, w.built.lcp(), &w.warm_started)
                        : w.solver.Solve(w.built.lcp());
    status = result.status;
    summary = SummaryOf(result.info);
    if (!Succeeded(status)) {
      solution->Start(status, summary, Eigen::VectorXd(), nc, nl);
      solution->message = FailureMessage(problem, description, result.message, Eigen::VectorXd());
      return;
    }
    w.z = result.z;
  }
  // v = P⁻¹τ_h + (P⁻¹Jᵀ) z.
  solution->Start(status, summary, w.built.velocity_offset, nc, nl);
  solution->v.noalias() += w.built.velocity_map * w.z;
  const ContactSet& contacts = problem.contacts;
  const int nd = contacts.ray_count();
  for (int i = 0, f = 0; i < nc; ++i) {
    solution->normal_impulse[i] = w.z[i];
    const ContactSet::RaysMap rays = contacts.Rays(i);
    for (int j = 0; j < nd; ++j, ++f) solution->friction_impulse[i] += w.z[nc + f] * rays.col(j);
  }
  solution->limit_impulse = w.z.tail(nl);  // after (λ_n, λ_f, Γ): contact_lcp_blocks.h
}

}  // namespace quasidyn
