#include "quasidyn/gradients/log_barrier_gradient.h"

#include <Eigen/Cholesky>
#include <stdexcept>
#include <string>

namespace quasidyn {

VelocityGradient LogBarrierVelocityGradient(const Scene& scene, double time_step, double kappa,
                                            const PyramidStepData& data,
                                            const PyramidStepDataDerivative* derivative,
                                            const Eigen::VectorXd& v) {
  if (!(kappa > 0)) throw std::invalid_argument("LogBarrierVelocityGradient: kappa must be > 0");
  const int n = scene.nv;
  const int m = static_cast<int>(data.G.rows());
  const Eigen::VectorXd g = data.G * v + data.offset;
  for (int j = 0; j < m; ++j)
    if (!(g[j] > 0))
      throw std::invalid_argument("LogBarrierVelocityGradient: barrier row " + std::to_string(j) +
                                  " has G v + o = " + std::to_string(g[j]) + " <= 0");
  const Eigen::VectorXd inv_kg = (kappa * g.array()).inverse().matrix();            // 1/(κ g)
  const Eigen::VectorXd inv_kg2 = (kappa * g.array().square()).inverse().matrix();  // 1/(κ g²)
  const Eigen::MatrixXd H = data.P + data.G.transpose() * inv_kg2.asDiagonal() * data.G;
  const Eigen::LDLT<Eigen::MatrixXd> factor(H);
  if (factor.info() != Eigen::Success)
    throw std::runtime_error("LogBarrierVelocityGradient: the Newton Hessian is not factorable");

  VelocityGradient gradient;
  gradient.active_rows = m;
  gradient.kkt_rank = n;
  gradient.dv_du = factor.solve(CommandForceJacobian(scene, time_step));
  if (derivative != nullptr) {
    Eigen::MatrixXd rhs(n, n);
    for (int k = 0; k < n; ++k) {
      const Eigen::MatrixXd& dG = derivative->d_G[k];
      const Eigen::VectorXd dg = dG * v + derivative->d_offset.col(k);
      rhs.col(k) = derivative->d_tau_h.col(k) - derivative->d_P[k] * v + dG.transpose() * inv_kg -
                   data.G.transpose() * inv_kg2.cwiseProduct(dg);
    }
    gradient.dv_dq = factor.solve(rhs);
  }
  return gradient;
}

}  // namespace quasidyn
