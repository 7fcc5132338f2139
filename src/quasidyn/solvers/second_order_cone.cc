#include "quasidyn/solvers/second_order_cone.h"

#include <cmath>
#include <limits>

namespace quasidyn::second_order_cone {

double JNorm2(ConstSegment u) {
  if (u.size() == 1) return u[0] * u[0];
  const double tail = u.tail(u.size() - 1).norm();
  return (u[0] - tail) * (u[0] + tail);
}

double InteriorMargin(ConstSegment u) {
  return u.size() == 1 ? u[0] : u[0] - u.tail(u.size() - 1).norm();
}

void JordanProduct(ConstSegment u, ConstSegment v, Segment out) {
  const Eigen::Index m = u.size();
  const double head = u.dot(v);
  if (m > 1) out.tail(m - 1) = u[0] * v.tail(m - 1) + v[0] * u.tail(m - 1);
  out[0] = head;
}

void JordanDivide(ConstSegment lambda, ConstSegment r, Segment out) {
  const Eigen::Index m = lambda.size();
  if (m == 1) {
    out[0] = r[0] / lambda[0];
    return;
  }
  // [λ0 λ1ᵀ; λ1 λ0 I] u = r  ⇒  u0 = (λ0 r0 − λ1ᵀ r1) / (λ0² − ‖λ1‖²),  u1 = (r1 − u0 λ1) / λ0.
  const double head = (lambda[0] * r[0] - lambda.tail(m - 1).dot(r.tail(m - 1))) / JNorm2(lambda);
  out.tail(m - 1) = (r.tail(m - 1) - head * lambda.tail(m - 1)) / lambda[0];
  out[0] = head;
}

double MaxStepToBoundary(ConstSegment u, ConstSegment du) {
  constexpr double kInfinity = std::numeric_limits<double>::infinity();
  const Eigen::Index m = u.size();
  if (m == 1) return du[0] < 0 ? -u[0] / du[0] : kInfinity;
  // f(α) = a α² + 2 b α + c with f(0) = c > 0; the first positive root is on ∂K (the path
  // cannot reach the component u0 < 0 of f > 0 without crossing f = 0).
  // K lies in the half-space u0 >= 0, so −u0/du0 bounds the step whenever du0 < 0. This
  // bound also catches a direction through the apex (du ∝ −u), where the roots below are a
  // double root that rounding can turn into a negative discriminant.
  const double head_bound = du[0] < 0 ? -u[0] / du[0] : kInfinity;
  const double a = JNorm2(du);
  const double b = u[0] * du[0] - u.tail(m - 1).dot(du.tail(m - 1));
  const double c = std::max(JNorm2(u), 0.0);
  if (a == 0.0) return std::min(head_bound, b < 0 ? -c / (2 * b) : kInfinity);
  double discriminant = b * b - a * c;
  if (discriminant < 0) {
    // a > 0 and b < 0 with a negative discriminant is impossible in exact arithmetic for u in
    // K (du ∈ K gives b >= 0; du ∈ −K must cross ∂K), so it is rounding: a double root.
    if (!(a > 0 && b < 0)) return head_bound;
    discriminant = 0.0;
  }
  // Stable roots of a α² + 2bα + c: q = −(b + sign(b)·sqrt(disc)), roots q/a and c/q.
  const double q = -(b + std::copysign(std::sqrt(discriminant), b));
  double best = head_bound;
  for (const double root : {q / a, q != 0.0 ? c / q : kInfinity}) {
    if (root > 0 && root < best) best = root;
  }
  return best;
}

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
