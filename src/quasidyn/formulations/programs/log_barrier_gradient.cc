#include "quasidyn/formulations/programs/log_barrier_gradient.h"

#include <stdexcept>
#include <string>
#include <vector>

#include "quasidyn/common/argument_check.h"

namespace quasidyn {
namespace {

// g = G v + o into *g (on G's non-zeros, data.G_rows), checked > 0.
void BarrierArguments(const PyramidStepData& data, double kappa, const Eigen::VectorXd& v,
                      const char* caller, Eigen::VectorXd* g) {
  if (!(kappa > 0)) throw std::invalid_argument(std::string(caller) + ": kappa must be > 0");
  if (v.size() != data.G.cols())
    throw std::invalid_argument(std::string(caller) + ": v has size " + std::to_string(v.size()) +
                                ", expected " + std::to_string(data.G.cols()));
  const SparseRowMatrix& G = data.G_rows;
  QUASIDYN_CHECK_ARGUMENT(G.rows() == data.G.rows() && G.cols() == data.G.cols(), caller,
                          "the data's G_rows must hold G's non-zeros (BuildPyramidStepData)");
  g->resize(G.rows());
  for (int j = 0; j < G.rows(); ++j) {
    double sum = 0.0;
    for (int a = G.row_start(j); a < G.row_start(j + 1); ++a) sum += G.value(a) * v[G.column(a)];
    (*g)[j] = sum + data.offset[j];
  }
  for (int j = 0; j < static_cast<int>(g->size()); ++j)
    if (!((*g)[j] > 0))
      throw std::invalid_argument(std::string(caller) + ": barrier row " + std::to_string(j) +
                                  " has G v + o = " + std::to_string((*g)[j]) + " <= 0");
}

// rhs(:, 0:n_v) −= Gᵀ diag(1/(κ g²)) (dG v + do) (header), contact by contact. Contact i's rows
// have dg_j = ray_map_j (∂(J_c,i v) + e₀ ∂φ_i/h) and G_j non-zero on its columns only, and every
// derivative of its data along a direction outside those columns is zero
// (PyramidStepData::ContactKey::columns), so its term is M_i ∂u_i on columns × columns with
// M_i = Σ_j G_jᵀ (1/(κ g_j²)) ray_map_j (k_i × (1 + n_t)) and ∂u_i = ∂(J_c,i v) + e₀ ∂φ_i/h
// ((1 + n_t) × k_i). The joint-limit rows have dg_l = G_l/h.
void SubtractWeightedRowRates(const PyramidStepData& data, const StepDataContraction& d,
                              double time_step, const Eigen::VectorXd& inv_kg2,
                              LogBarrierGradientWorkspace* w, Eigen::MatrixXd* rhs) {
  const SparseRowMatrix& G = data.G_rows;
  const int n = static_cast<int>(rhs->rows());
  const int r = static_cast<int>(d.d_Jc_v.rows()), nc = static_cast<int>(d.d_phi.rows());
  double* const out = rhs->data();  // column-major: rhs(a, b) = out[a + b·n]
  const double* const d_Jc_v = d.d_Jc_v.data();
  const double* const d_phi = d.d_phi.data();
  for (int i = 0; i < static_cast<int>(data.contact_keys.size()); ++i) {
    const PyramidStepData::ContactKey& key = data.contact_keys[i];
    const int k = static_cast<int>(key.columns.size()), c = static_cast<int>(key.ray_map.cols());
    QUASIDYN_CHECK_ARGUMENT(c >= 1 && c <= 3, "LogBarrierVelocityGradient",
                            "a contact has 1 + n_t <= 3 rows of J_c");
    const int* const columns = key.columns.data();
    std::vector<double>& M = w->row_weights;  // k × c, column-major (grows, never shrinks)
    M.assign(static_cast<size_t>(k) * c, 0.0);
    double* const m = M.data();
    for (int j = key.first_row; j < key.first_row + key.rows; ++j) {
      double weight[3];  // 1/(κ g_j²) ray_map_j, c <= 3
      for (int e = 0; e < c; ++e) weight[e] = inv_kg2[j] * key.ray_map(j - key.first_row, e);
      // G_j's non-zeros lie on the contact's columns (both increasing; exact zeros dropped).
      int position = 0;
      for (int a = G.row_start(j); a < G.row_start(j + 1); ++a) {
        while (position < k && columns[position] < G.column(a)) ++position;
        QUASIDYN_CHECK_ARGUMENT(position < k && columns[position] == G.column(a),
                                "LogBarrierVelocityGradient",
                                "a contact's rows of G_rows must be on its columns");
        for (int e = 0; e < c; ++e) m[position + e * k] += G.value(a) * weight[e];
      }
    }
    for (int b = 0; b < k; ++b) {
      const int column = columns[b];
      double du[3];  // ∂u_i along this column's direction
      const double* rates = d_Jc_v + key.first_contact_row + column * r;
      for (int e = 0; e < c; ++e) du[e] = rates[e];
      du[0] += d_phi[i + column * nc] / time_step;
      double* const target = out + column * n;
      for (int a = 0; a < k; ++a) {
        double sum = m[a] * du[0];
        for (int e = 1; e < c; ++e) sum += m[a + e * k] * du[e];
        target[columns[a]] -= sum;
      }
    }
  }
  for (int j = data.first_limit_row; j < G.rows(); ++j)
    for (int a = G.row_start(j); a < G.row_start(j + 1); ++a)
      for (int b = G.row_start(j); b < G.row_start(j + 1); ++b)
        (*rhs)(G.column(a), G.column(b)) -= inv_kg2[j] * G.value(a) * G.value(b) / time_step;
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
  const SparseRowMatrix& G = data.G_rows;  // checked by BarrierArguments
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
    rhs.leftCols(n) = d.d_tau_h - d.d_P_v + d.d_JcT_lambda;
    SubtractWeightedRowRates(data, d, time_step, inv_kg2, w, &rhs);
  }
  WriteCommandForceJacobian(scene, time_step, rhs.rightCols(scene.nq_a));
  w->factor.SolveInPlace(&rhs);  // dv

  SetSolvedGradient(rhs, nq_dirs, static_cast<int>(data.G.rows()), n, out);
}

}  // namespace quasidyn
