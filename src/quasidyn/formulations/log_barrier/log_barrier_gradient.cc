#include "quasidyn/formulations/log_barrier/log_barrier_gradient.h"

#include <stdexcept>
#include <string>

#include "quasidyn/common/argument_check.h"

namespace quasidyn {
namespace {

// g = G v + o into *g, checked > 0.
void BarrierArguments(const PyramidStepData& data, double kappa, const Eigen::VectorXd& v,
                      const char* caller, Eigen::VectorXd* g) {
  if (!(kappa > 0)) throw std::invalid_argument(std::string(caller) + ": kappa must be > 0");
  if (v.size() != data.G.cols())
    throw std::invalid_argument(std::string(caller) + ": v has size " + std::to_string(v.size()) +
                                ", expected " + std::to_string(data.G.cols()));
  g->noalias() = data.G * v;
  *g += data.offset;
  for (int j = 0; j < static_cast<int>(g->size()); ++j)
    if (!((*g)[j] > 0))
      throw std::invalid_argument(std::string(caller) + ": barrier row " + std::to_string(j) +
                                  " has G v + o = " + std::to_string((*g)[j]) + " <= 0");
}

}  // namespace

const Eigen::VectorXd& BarrierContactImpulse(const PyramidStepData& data, double kappa,
                                             const Eigen::VectorXd& v,
                                             LogBarrierGradientWorkspace* w) {
  BarrierArguments(data, kappa, v, "BarrierContactImpulse", &w->g);
  w->weights = (kappa * w->g.array()).inverse().matrix();
  ContactImpulseOf(data, w->weights, &w->impulse);
  return w->impulse;
}

Eigen::VectorXd BarrierContactImpulse(const PyramidStepData& data, double kappa,
                                      const Eigen::VectorXd& v) {
  LogBarrierGradientWorkspace w;
  return BarrierContactImpulse(data, kappa, v, &w);
}

VelocityGradient LogBarrierVelocityGradient(const Scene& scene, double time_step, double kappa,
                                            const PyramidStepData& data,
                                            const StepDataContraction* contraction,
                                            const Eigen::VectorXd& v) {
  LogBarrierGradientWorkspace w;
  VelocityGradient gradient;
  LogBarrierVelocityGradient(scene, time_step, kappa, data, contraction, v, &w, &gradient);
  return gradient;
}

void LogBarrierVelocityGradient(const Scene& scene, double time_step, double kappa,
                                const PyramidStepData& data, const StepDataContraction* contraction,
                                const Eigen::VectorXd& v, LogBarrierGradientWorkspace* w,
                                VelocityGradient* out) {
  BarrierArguments(data, kappa, v, "LogBarrierVelocityGradient", &w->g);
  const int n = scene.nv;
  if (data.P.rows() != n)
    throw std::invalid_argument("LogBarrierVelocityGradient: the data has " +
                                std::to_string(data.P.rows()) + " velocities, the scene " +
                                std::to_string(n));
  Eigen::VectorXd& inv_kg2 = w->weights;
  inv_kg2 = (kappa * w->g.array().square()).inverse().matrix();  // 1/(κ g²)
  // H = P + Gᵀ diag(1/(κ g²)) G, both products with G on each row's non-zeros (G_rows: a row
  // is non-zero on its contact's two bodies' chains, a limit row on one velocity).
  const SparseRowMatrix& G = data.G_rows;
  QUASIDYN_CHECK_ARGUMENT(G.rows() == data.G.rows() && G.cols() == data.G.cols(),
                          "LogBarrierVelocityGradient",
                          "the data's G_rows must hold G's non-zeros (BuildPyramidStepData)");
  const int m = G.rows();
  Eigen::MatrixXd& H = w->H;
  H = data.P;
  for (int j = 0; j < m; ++j)
    for (int a = G.row_start(j); a < G.row_start(j + 1); ++a) {
      const double weighted = inv_kg2[j] * G.value(a);
      for (int b = G.row_start(j); b < G.row_start(j + 1); ++b)
        H(G.column(b), G.column(a)) += weighted * G.value(b);
    }
  if (!w->factor.Compute(H, /*require_positive=*/false)) {
    FailGradient("the Newton Hessian of the log barrier is not factorable", out);
    return;
  }

  const int nq_dirs = contraction != nullptr ? n : 0;
  Eigen::MatrixXd& rhs = w->rhs;
  rhs.resize(n, nq_dirs + scene.nq_a);
  if (contraction != nullptr) {
    const StepDataContraction& d = *contraction;
    if (d.d_JcT_lambda.rows() != n || d.d_JcT_lambda.cols() != n ||
        d.d_Jc_v.rows() != data.contact_rows || d.d_phi.cols() != n)
      throw std::invalid_argument(
          "LogBarrierVelocityGradient: the contraction's sizes do not "
          "match the step data");
    // dg = dG v + do (m × n_v): ray_map · d(J_c v) + dφ/h per pyramid row.
    Eigen::MatrixXd& dg = w->dg;
    PyramidRowsOf(data, d.d_Jc_v, &dg);
    for (int i = 0; i < static_cast<int>(data.contact_keys.size()); ++i) {
      const PyramidStepData::ContactKey& key = data.contact_keys[i];
      for (int k = 0; k < n; ++k) {
        const double d_o = d.d_phi(i, k) / time_step;
        for (int row = key.first_row; row < key.first_row + key.rows; ++row) dg(row, k) += d_o;
      }
    }
    if (data.limits.size() > 0)
      dg.bottomRows(data.limits.size()) = JointLimitRowDerivative(data, time_step);
    rhs.leftCols(n) = d.d_tau_h - d.d_P_v + d.d_JcT_lambda;
    for (int j = 0; j < m; ++j)  // − Gᵀ diag(1/(κ g²)) dg
      for (int a = G.row_start(j); a < G.row_start(j + 1); ++a)
        rhs.row(G.column(a)).head(n) -= (inv_kg2[j] * G.value(a)) * dg.row(j);
  }
  WriteCommandForceJacobian(scene, time_step, rhs.rightCols(scene.nq_a));
  w->factor.SolveInPlace(&rhs);  // dv

  out->ok = true;
  out->failure.clear();
  out->active_rows = static_cast<int>(data.G.rows());
  out->kkt_rank = n;
  if (nq_dirs > 0)
    out->dv_dq = rhs.leftCols(nq_dirs);
  else
    out->dv_dq.resize(0, 0);
  out->dv_du = rhs.rightCols(scene.nq_a);
}

}  // namespace quasidyn
