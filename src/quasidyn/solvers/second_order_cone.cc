#include "quasidyn/solvers/second_order_cone.h"

#include <cmath>
#include <limits>
#include <vector>

namespace quasidyn::second_order_cone {

void NesterovToddScaling(ConstSegment s, ConstSegment z, Eigen::Ref<Eigen::MatrixXd> W,
                         Eigen::Ref<Eigen::MatrixXd> W_inverse) {
  NesterovToddScaling(s.data(), z.data(), s.size(), W.data(), W.outerStride(), W_inverse.data(),
                      W_inverse.outerStride());
}

// Plain loops on the entries (the cones are tiny: 3 for a friction cone); the formulas of the
// header.
void NesterovToddScaling(const double* s, const double* z, Eigen::Index m, double* W,
                         Eigen::Index W_stride, double* W_inverse, Eigen::Index inverse_stride) {
  if (m == 1) {
    W[0] = std::sqrt(s[0] / z[0]);
    W_inverse[0] = 1.0 / W[0];
    return;
  }
  const double s_norm = std::sqrt(JNorm2(s, m));
  const double z_norm = std::sqrt(JNorm2(z, m));
  const double beta = std::sqrt(s_norm / z_norm);
  double s_dot_z = 0.0;
  for (Eigen::Index i = 0; i < m; ++i) s_dot_z += s[i] * z[i];
  const double gamma = std::sqrt((1.0 + s_dot_z / (s_norm * z_norm)) / 2.0);
  // w̄ = (s̄ + J z̄)/(2γ).
  const double w0 = (s[0] / s_norm + z[0] / z_norm) / (2 * gamma);
  const double v_scale = 1.0 / std::sqrt(2.0 * (w0 + 1.0));
  // v = (w̄ + e) · v_scale; v0 = (w0 + 1)·v_scale, v1 = w̄1 · v_scale, kept in a small buffer
  // (friction cones have m = 3; a larger cone takes a heap buffer).
  const double v0 = (w0 + 1.0) * v_scale;
  constexpr Eigen::Index kBuffer = 16;
  double small[kBuffer];
  std::vector<double> large(m > kBuffer ? m : 0);
  double* v1 = m > kBuffer ? large.data() : small;
  for (Eigen::Index i = 1; i < m; ++i)
    v1[i] = ((s[i] / s_norm - z[i] / z_norm) / (2 * gamma)) * v_scale;
  // W = β(2 v vᵀ − J), W⁻¹ = (1/β)(2 Jv (Jv)ᵀ − J) with Jv = (v0, −v1).
  const double head = 2 * v0 * v0 - 1.0;
  W[0] = beta * head;
  W_inverse[0] = head / beta;
  for (Eigen::Index i = 1; i < m; ++i) {
    const double w = beta * 2 * v0 * v1[i];
    const double w_inverse = -2 * v0 * v1[i] / beta;
    W[i] = w;
    W[W_stride * i] = w;
    W_inverse[i] = w_inverse;
    W_inverse[inverse_stride * i] = w_inverse;
    for (Eigen::Index j = 1; j <= i; ++j) {
      const double outer = v1[i] * v1[j];
      const double entry = i == j ? 2 * beta * outer + beta : 2 * beta * outer;
      const double inverse_entry = i == j ? (2 / beta) * outer + 1.0 / beta : (2 / beta) * outer;
      W[i + W_stride * j] = entry;
      W[j + W_stride * i] = entry;
      W_inverse[i + inverse_stride * j] = inverse_entry;
      W_inverse[j + inverse_stride * i] = inverse_entry;
    }
  }
}

}  // namespace quasidyn::second_order_cone
