#include "quasidyn/solvers/second_order_cone.h"

#include <cmath>
#include <limits>

namespace quasidyn::second_order_cone {

void NesterovToddScaling(ConstSegment s, ConstSegment z, Eigen::Ref<Eigen::MatrixXd> W,
                         Eigen::Ref<Eigen::MatrixXd> W_inverse) {
  const Eigen::Index m = s.size();
  if (m == 1) {
    W(0, 0) = std::sqrt(s[0] / z[0]);
    W_inverse(0, 0) = 1.0 / W(0, 0);
    return;
  }
  const double s_norm = std::sqrt(JNorm2(s));
  const double z_norm = std::sqrt(JNorm2(z));
  const double beta = std::sqrt(s_norm / z_norm);
  const double gamma = std::sqrt((1.0 + s.dot(z) / (s_norm * z_norm)) / 2.0);
  // w̄ = (s̄ + J z̄)/(2γ).
  const double w0 = (s[0] / s_norm + z[0] / z_norm) / (2 * gamma);
  const double v_scale = 1.0 / std::sqrt(2.0 * (w0 + 1.0));
  // v = (w̄ + e) · v_scale; v0 = (w0 + 1)·v_scale, v1 = w̄1 · v_scale.
  const double v0 = (w0 + 1.0) * v_scale;
  // W = β(2 v vᵀ − J), W⁻¹ = (1/β)(2 Jv (Jv)ᵀ − J) with Jv = (v0, −v1).
  const auto v1 = ((s.tail(m - 1) / s_norm - z.tail(m - 1) / z_norm) / (2 * gamma)) * v_scale;
  W(0, 0) = beta * (2 * v0 * v0 - 1.0);
  W.block(1, 0, m - 1, 1) = beta * 2 * v0 * v1;
  W.block(0, 1, 1, m - 1) = W.block(1, 0, m - 1, 1).transpose();
  W.block(1, 1, m - 1, m - 1).noalias() = (2 * beta) * v1 * v1.transpose();
  W.block(1, 1, m - 1, m - 1).diagonal().array() += beta;
  W_inverse(0, 0) = (2 * v0 * v0 - 1.0) / beta;
  W_inverse.block(1, 0, m - 1, 1) = -2 * v0 * v1 / beta;
  W_inverse.block(0, 1, 1, m - 1) = W_inverse.block(1, 0, m - 1, 1).transpose();
  W_inverse.block(1, 1, m - 1, m - 1).noalias() = (2 / beta) * v1 * v1.transpose();
  W_inverse.block(1, 1, m - 1, m - 1).diagonal().array() += 1.0 / beta;
}

}  // namespace quasidyn::second_order_cone
