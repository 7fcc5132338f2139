#include "quasidyn/dynamics/quasistatic_lcp.h"

#include <Eigen/Cholesky>
#include <stdexcept>

#include "quasidyn/dynamics/failure_message.h"

namespace quasidyn {

QuasistaticLcp BuildQuasistaticLcp(const StepProblem& problem) {
  const ContactSet& contacts = problem.contacts;
  const double h = problem.settings.time_step;
  const int nv = contacts.nv, nc = contacts.size();
  const Eigen::LLT<Eigen::MatrixXd> P_factor(problem.cost.P);
  if (P_factor.info() != Eigen::Success)
    throw std::invalid_argument(
        "the quasistatic LCP (Pang & Tedrake 2021, eq. 6) eliminates v through P = "
        "blockdiag(s·M_u, h²K_a), which is singular: set formulation.object_mass_scale > 0");

  int nf = 0;
  for (const Contact& c : contacts.contacts) nf += static_cast<int>(c.J_d.rows());
  const int nz = 2 * nc + nf;
  // Jᵀ = [J_nᵀ  J_dᵀ  0]: the generalized impulse of z (n_v × n_z).
  Eigen::MatrixXd JT = Eigen::MatrixXd::Zero(nv, nz);
  Eigen::VectorXd offset = Eigen::VectorXd::Zero(nz);  // φ/h on the λ_n rows
  for (int i = 0, f = 0; i < nc; ++i) {
    const Contact& c = contacts.contacts[i];
    JT.col(i) = c.J_n.transpose();
    offset[i] = c.phi / h;
    const int nd = static_cast<int>(c.J_d.rows());
    JT.middleCols(nc + f, nd) = c.J_d.transpose();
    f += nd;
  }
  QuasistaticLcp out;
  out.num_contacts = nc;
  out.num_friction = nf;
  out.velocity_offset = P_factor.solve(problem.cost.tau_h);
  out.velocity_map = P_factor.solve(JT);
  // The velocity rows (w_n, w_f) = Jv + offset, then the E and (μ, −Eᵀ) couplings.
  out.lcp.M = JT.transpose() * out.velocity_map;
  out.lcp.q = JT.transpose() * out.velocity_offset + offset;
  for (int i = 0, f = 0; i < nc; ++i) {
    const Contact& c = contacts.contacts[i];
    const int nd = static_cast<int>(c.J_d.rows());
    const int gamma = nc + nf + i;
    out.lcp.M.block(nc + f, gamma, nd, 1).setOnes();        // Γ_i e in w_f,i
    out.lcp.M(gamma, i) = c.friction;                       // μ_i λ_n,i
    out.lcp.M.block(gamma, nc + f, 1, nd).setConstant(-1);  // −eᵀ λ_f,i
    f += nd;
  }
  return out;
}

FormulationSolution SolveQuasistaticLcp(const StepProblem& problem, LemkeSolver* solver,
                                        const LemkeSettings& settings) {
  constexpr const char* kName = "quasistatic LCP (Pang & Tedrake 2021, eq. 6)";
  FormulationSolution solution;
  const int nc = problem.contacts.size();
  solution.normal_impulse = Eigen::VectorXd::Zero(nc);
  solution.friction_impulse = Eigen::Matrix3Xd::Zero(3, nc);
  QuasistaticLcp built;
  try {
    built = BuildQuasistaticLcp(problem);
  } catch (const std::invalid_argument& e) {
    solution.status = SolverStatus::kNumericalFailure;
    solution.message = std::string(kName) + ": " + e.what();
    return solution;
  }
  Eigen::VectorXd z = Eigen::VectorXd::Zero(built.lcp.q.size());
  if (z.size() > 0) {
    const LcpResult result = solver->Solve(built.lcp, settings);
    solution.status = result.status;
    solution.info = result.info;
    if (result.status != SolverStatus::kSolved &&
        result.status != SolverStatus::kSolvedInaccurate) {
      solution.message = FailureMessage(problem, kName, result.message, Eigen::VectorXd());
      return solution;
    }
    z = result.z;
  } else {
    solution.status = SolverStatus::kSolved;  // no contact: v = P⁻¹τ_h
  }
  solution.v = built.velocity_offset + built.velocity_map * z;
  for (int i = 0, f = 0; i < nc; ++i) {
    const Contact& c = problem.contacts.contacts[i];
    solution.normal_impulse[i] = z[i];
    for (int j = 0; j < c.J_d.rows(); ++j, ++f)
      solution.friction_impulse.col(i) += z[nc + f] * c.rays.col(j);
  }
  return solution;
}

}  // namespace quasidyn
