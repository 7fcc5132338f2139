#include "quasidyn/formulations/log_barrier_cone/log_barrier_cone_gradient.h"

#include <span>
#include <stdexcept>
#include <string>

#include "quasidyn/formulations/programs/barrier_hessian_factor.h"

namespace quasidyn {
namespace {

// A block has m_b = 1 + n_t <= 3 rows: its vectors and matrices have that capacity inline (no
// heap allocation).
using BlockVector = Eigen::Matrix<double, Eigen::Dynamic, 1, 0, 3, 1>;
using BlockMatrix = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, 0, 3, 3>;

struct BlockState {
  BlockVector u;     // u_b (m_b) [m/s]
  BlockVector Ju;    // J u_b
  double psi = 0.0;  // u_bᵀ J u_b [m²/s²]
};

// f(b, state of block b) for every block at v, in order; *gap: the gap velocities' storage
// (GapVelocities).
template <typename F>
void ForEachBlockState(const StepProblem& problem, const std::vector<ContactConeBlock>& blocks,
                       const Eigen::VectorXd& v, Eigen::VectorXd* gap, const F& f) {
  if (v.size() != problem.scene.nv)
    throw std::invalid_argument("LogBarrierConeVelocityGradient: v has size " +
                                std::to_string(v.size()) +
                                ", n_v = " + std::to_string(problem.scene.nv));
  GapVelocities(problem.contacts, v, problem.time_step, gap);
  for (size_t b = 0; b < blocks.size(); ++b) {
    BlockState s;
    const ContactConeBlock& block = blocks[b];
    s.u.noalias() = block.R * gap->segment(block.first_row, block.R.cols());  // BlockValues
    const int m = static_cast<int>(s.u.size());
    const double radius = m > 1 ? s.u.tail(m - 1).norm() : 0.0;
    if (!(s.u[0] - radius > 0))
      throw std::invalid_argument("LogBarrierConeVelocityGradient: block " + std::to_string(b) +
                                  " (contact " + std::to_string(blocks[b].contact) +
                                  ") is not strictly inside its cone: t = " +
                                  std::to_string(s.u[0]) + ", |z| = " + std::to_string(radius));
    s.psi = (s.u[0] - radius) * (s.u[0] + radius);  // less cancellation than t² − |z|²
    s.Ju = -s.u;
    s.Ju[0] = s.u[0];
    f(b, s);
  }
}

}  // namespace

std::vector<Eigen::VectorXd> BarrierConeMultipliers(const StepProblem& problem, double kappa,
                                                    const std::vector<ContactConeBlock>& blocks,
                                                    const Eigen::VectorXd& v) {
  std::vector<Eigen::VectorXd> y;
  Eigen::VectorXd gap;
  BarrierConeMultipliers(problem, kappa, blocks, v, &gap, &y);
  return y;
}

void BarrierConeMultipliers(const StepProblem& problem, double kappa,
                            const std::vector<ContactConeBlock>& blocks, const Eigen::VectorXd& v,
                            Eigen::VectorXd* gap, std::vector<Eigen::VectorXd>* y) {
  if (!(kappa > 0)) throw std::invalid_argument("BarrierConeMultipliers: kappa must be > 0");
  y->resize(blocks.size());
  ForEachBlockState(problem, blocks, v, gap, [&](size_t b, const BlockState& s) {
    (*y)[b] = (2.0 / (kappa * s.psi)) * s.Ju;
  });
}

VelocityGradient LogBarrierConeVelocityGradient(const StepProblem& problem, double kappa,
                                                const std::vector<ContactConeBlock>& blocks,
                                                const Eigen::VectorXd& v,
                                                const StepDataContraction* contraction) {
  LogBarrierGradientWorkspace w;
  VelocityGradient gradient;
  LogBarrierConeVelocityGradient(problem, kappa, blocks, v, contraction, &w, &gradient);
  return gradient;
}

void LogBarrierConeVelocityGradient(const StepProblem& problem, double kappa,
                                    const std::vector<ContactConeBlock>& blocks,
                                    const Eigen::VectorXd& v,
                                    const StepDataContraction* contraction,
                                    LogBarrierGradientWorkspace* w, VelocityGradient* out) {
  if (!(kappa > 0))
    throw std::invalid_argument("LogBarrierConeVelocityGradient: kappa must be > 0");
  if (contraction != nullptr) CheckContractionSizes(problem.contacts, *contraction);
  if (v.size() != problem.scene.nv)
    throw std::invalid_argument("LogBarrierConeVelocityGradient: v has size " +
                                std::to_string(v.size()) +
                                ", n_v = " + std::to_string(problem.scene.nv));
  const Scene& scene = problem.scene;
  const double h = problem.time_step;
  const int n = scene.nv;
  const int nq_dirs = contraction != nullptr ? n : 0;
  GapVelocities(problem.contacts, v, h, &w->g);

  // H = P − Σ A_bᵀ Y_b A_b; the data term Σ A_bᵀ Y_b ∂u_b/∂ε accumulated alongside. A_b =
  // R_b J_c,i is non-zero on contact i's columns only, where J_c,i is stored compactly
  // (contact_set.h): with S_b = R_bᵀ Y_b R_b ((1 + n_t) square), A_bᵀ Y_b A_b = J_c,iᵀ S_b J_c,i
  // and A_bᵀ Y_b ∂u_b/∂ε = J_c,iᵀ S_b ∂c_i/∂ε (∂c_i = ∂(J_c,i v) + e₀ ∂φ_i/h), both added on
  // those columns (and ∂c_i is zero along the other directions).
  Eigen::MatrixXd& H = w->H;
  problem.cost.P.ToDense(&H);
  Eigen::MatrixXd& rhs = w->rhs;
  rhs.resize(n, nq_dirs + scene.nq_a);
  if (contraction != nullptr) StationarityDataDerivative(*contraction, rhs.leftCols(n));
  WriteCommandForceJacobian(scene, h, rhs.rightCols(scene.nq_a));
  const ContactSet& contacts = problem.contacts;
  const int nr = 1 + contacts.tangent_count();
  const int r = contraction != nullptr ? static_cast<int>(contraction->d_Jc_v.rows()) : 0;
  const int nc = contraction != nullptr ? static_cast<int>(contraction->d_phi.rows()) : 0;
  for (size_t b = 0; b < blocks.size(); ++b) {
    const ContactConeBlock& block = blocks[b];
    BlockState s;
    s.u.noalias() = block.R * w->g.segment(block.first_row, block.R.cols());  // BlockValues
    const int m = static_cast<int>(s.u.size());
    const double radius = m > 1 ? s.u.tail(m - 1).norm() : 0.0;
    if (!(s.u[0] - radius > 0))
      throw std::invalid_argument("LogBarrierConeVelocityGradient: block " + std::to_string(b) +
                                  " (contact " + std::to_string(block.contact) +
                                  ") is not strictly inside its cone: t = " +
                                  std::to_string(s.u[0]) + ", |z| = " + std::to_string(radius));
    s.psi = (s.u[0] - radius) * (s.u[0] + radius);  // less cancellation than t² − |z|²
    s.Ju = -s.u;
    s.Ju[0] = s.u[0];
    BlockMatrix J = -BlockMatrix::Identity(m, m);
    J(0, 0) = 1.0;
    const BlockMatrix Y =
        (2.0 / kappa) * (J / s.psi - 2.0 * s.Ju * s.Ju.transpose() / (s.psi * s.psi));
    // S = R_bᵀ Y R_b (nr × nr), each product into inline storage (a product of R_b, a
    // dynamic matrix, would otherwise be evaluated into a heap temporary).
    BlockMatrix RtY, S;
    RtY.noalias() = block.R.transpose() * Y;
    S.noalias() = RtY * block.R;
    const std::span<const int> columns = contacts.Columns(block.contact);
    const int k = static_cast<int>(columns.size());
    const ContactSet::RowMap J_n = contacts.NormalJacobian(block.contact);
    const ContactSet::RowsMap J_t = contacts.TangentJacobian(block.contact);
    const auto J_c = [&](int row, int c) { return row == 0 ? J_n[c] : J_t(row - 1, c); };
    for (int c = 0; c < k; ++c) {
      double S_Jc[3] = {0.0, 0.0, 0.0};  // S_b J_c,i(:, c), nr <= 3
      for (int a = 0; a < nr; ++a)
        for (int e = 0; e < nr; ++e) S_Jc[a] += S(a, e) * J_c(e, c);
      double* const H_column = H.col(columns[c]).data();
      for (int row = 0; row < k; ++row) {
        double entry = 0.0;
        for (int a = 0; a < nr; ++a) entry += J_c(a, row) * S_Jc[a];
        H_column[columns[row]] -= entry;
      }
      if (contraction == nullptr) continue;
      // Direction columns[c]: rhs(:, columns[c]) += J_c,iᵀ S_b ∂c_i on the contact's rows.
      const double* rates = contraction->d_Jc_v.data() + block.first_row + columns[c] * r;
      double dc[3] = {0.0, 0.0, 0.0};
      for (int e = 0; e < nr; ++e) dc[e] = rates[e];
      dc[0] += contraction->d_phi.data()[block.contact + columns[c] * nc] / h;
      double S_dc[3] = {0.0, 0.0, 0.0};
      for (int a = 0; a < nr; ++a)
        for (int e = 0; e < nr; ++e) S_dc[a] += S(a, e) * dc[e];
      double* const rhs_column = rhs.col(columns[c]).data();
      for (int row = 0; row < k; ++row) {
        double entry = 0.0;
        for (int a = 0; a < nr; ++a) entry += J_c(a, row) * S_dc[a];
        rhs_column[columns[row]] += entry;
      }
    }
  }
  // The joint-limit rows, linear barriers −(1/κ) log g_l (dynamics/log_barrier_cone.h): Hessian
  // G_lᵀ G_l/(κ g_l²), and the data term −G_lᵀ (∂g_l/∂ε)/(κ g_l²) with ∂g_l/∂ε = G_l/h.
  const JointLimitRows& limits = problem.cost.limits;
  for (int l = 0; l < limits.size(); ++l) {
    const double g = JointLimitSlack(limits, l, v);
    if (!(g > 0))
      throw std::invalid_argument("LogBarrierConeVelocityGradient: joint-limit row " +
                                  std::to_string(l) + " has g = " + std::to_string(g) + " <= 0");
    const int j = limits.rows[l].velocity;
    const double weight = 1.0 / (kappa * g * g);
    H(j, j) += weight;  // (d_l e_j)(d_l e_j)ᵀ, d_l² = 1
    if (contraction != nullptr) rhs(j, j) -= weight / h;
  }
  if (!w->factor.Compute(H, /*require_positive=*/true))
    return FailGradient("the Newton Hessian of the cone log barrier is not positive definite", out);
  w->factor.SolveInPlace(&rhs);  // dv

  SetSolvedGradient(rhs, nq_dirs, static_cast<int>(blocks.size()), n, out);
}

}  // namespace quasidyn
