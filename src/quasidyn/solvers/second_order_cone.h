#pragma once
// Algebra of the second-order cone K = {u = (u0, u1) : ‖u1‖ <= u0} (dimension m >= 1; for
// m = 1 it is the half-line u0 >= 0) used by the SOCP interior point (socp.h) and the
// log-barrier Newton method. Notation of L. Vandenberghe, "The CVXOPT linear and quadratic
// cone program solvers" (2010), §2 and §4: J = diag(1, −I), e = (1, 0, …, 0),
// Jordan product u ∘ v = (uᵀv, u0 v1 + v0 u1).
//
// All functions take segments of length m (Eigen::Ref, or raw storage and m) and do not
// allocate (the scaling only for m > 16).

#include <Eigen/Core>
#include <algorithm>
#include <cmath>
#include <limits>

namespace quasidyn::second_order_cone {

using ConstSegment = Eigen::Ref<const Eigen::VectorXd>;
using Segment = Eigen::Ref<Eigen::VectorXd>;

// u0² − ‖u1‖² computed as (u0 − ‖u1‖)(u0 + ‖u1‖) to limit cancellation; for m = 1, u0².
inline double JNorm2(ConstSegment u);

// u0 − ‖u1‖: > 0 inside K, 0 on its boundary.
inline double InteriorMargin(ConstSegment u);

// out = u ∘ v.
inline void JordanProduct(ConstSegment u, ConstSegment v, Segment out);

// out = L(λ)⁻¹ r, i.e. the u with λ ∘ u = r, for λ in the interior of K (closed form of the
// inverse arrow matrix).
inline void JordanDivide(ConstSegment lambda, ConstSegment r, Segment out);

// Largest α >= 0 with u + α·du in K, for u in the interior of K (infinity when unbounded):
// the first positive root of (u0 + α du0)² − ‖u1 + α du1‖².
inline double MaxStepToBoundary(ConstSegment u, ConstSegment du);

// Nesterov–Todd scaling of s, z in the interior of K (Vandenberghe 2010, §4.3, eq. (4.26)):
// a symmetric W with W z = W⁻¹ s (= λ, the scaled point),
//   W = β (2 v vᵀ − J),  W⁻¹ = (1/β)(2 J v vᵀ J − J),  β = (sᵀJs / zᵀJz)^{1/4},
//   v = (w̄ + e) / sqrt(2 (w̄0 + 1)),  w̄ = (s̄ + J z̄) / (2γ),
//   s̄ = s / sqrt(sᵀJs),  z̄ = z / sqrt(zᵀJz),  γ = sqrt((1 + s̄ᵀz̄) / 2).
// For m = 1, W = sqrt(s/z). W and W_inverse must be preallocated (m × m).
void NesterovToddScaling(ConstSegment s, ConstSegment z, Eigen::Ref<Eigen::MatrixXd> W,
                         Eigen::Ref<Eigen::MatrixXd> W_inverse);
// The same on raw storage: s[0 … m), z[0 … m); entry (r, c) of W at W[r + W_stride · c], of
// W⁻¹ at W_inverse[r + inverse_stride · c] (blocks of column-major matrices). Allocates only
// for m > 16.
void NesterovToddScaling(const double* s, const double* z, Eigen::Index m, double* W,
                         Eigen::Index W_stride, double* W_inverse, Eigen::Index inverse_stride);

// Definitions of the small functions above: inline, since the solvers call them per cone
// and iteration.
// The cones here are tiny (3 for a friction cone, 1 for a linear row): plain loops over the
// entries, no vectorised reductions whose set-up costs more than their few products.
namespace detail {

inline double TailSquaredNorm(const double* u, Eigen::Index m) {
  double sum = 0.0;
  for (Eigen::Index i = 1; i < m; ++i) sum += u[i] * u[i];
  return sum;
}

inline double TailDot(const double* u, const double* v, Eigen::Index m) {
  double sum = 0.0;
  for (Eigen::Index i = 1; i < m; ++i) sum += u[i] * v[i];
  return sum;
}

}  // namespace detail

// The same functions on raw storage (u[0 … m)), for the solvers' per-cone loops: no Eigen::Ref
// to build per call. The Eigen::Ref forms above call these.
inline double JNorm2(const double* u, Eigen::Index m) {
  if (m == 1) return u[0] * u[0];
  const double tail = std::sqrt(detail::TailSquaredNorm(u, m));
  return (u[0] - tail) * (u[0] + tail);
}

inline double InteriorMargin(const double* u, Eigen::Index m) {
  return m == 1 ? u[0] : u[0] - std::sqrt(detail::TailSquaredNorm(u, m));
}

inline void JordanProduct(const double* u, const double* v, Eigen::Index m, double* out) {
  const double head = u[0] * v[0] + detail::TailDot(u, v, m);
  const double u0 = u[0], v0 = v[0];
  for (Eigen::Index i = 1; i < m; ++i) out[i] = u0 * v[i] + v0 * u[i];
  out[0] = head;
}

inline void JordanDivide(const double* lambda, const double* r, Eigen::Index m, double* out) {
  if (m == 1) {
    out[0] = r[0] / lambda[0];
    return;
  }
  // [λ0 λ1ᵀ; λ1 λ0 I] u = r  ⇒  u0 = (λ0 r0 − λ1ᵀ r1) / (λ0² − ‖λ1‖²),  u1 = (r1 − u0 λ1) / λ0.
  const double head = (lambda[0] * r[0] - detail::TailDot(lambda, r, m)) / JNorm2(lambda, m);
  const double lambda0 = lambda[0];
  for (Eigen::Index i = 1; i < m; ++i) out[i] = (r[i] - head * lambda[i]) / lambda0;
  out[0] = head;
}

inline double MaxStepToBoundary(const double* u, const double* du, Eigen::Index m) {
  constexpr double kInfinity = std::numeric_limits<double>::infinity();
  if (m == 1) return du[0] < 0 ? -u[0] / du[0] : kInfinity;
  // f(α) = a α² + 2 b α + c with f(0) = c > 0; the first positive root is on ∂K (the path
  // cannot reach the component u0 < 0 of f > 0 without crossing f = 0).
  // K lies in the half-space u0 >= 0, so −u0/du0 bounds the step whenever du0 < 0. This
  // bound also catches a direction through the apex (du ∝ −u), where the roots below are a
  // double root that rounding can turn into a negative discriminant.
  const double head_bound = du[0] < 0 ? -u[0] / du[0] : kInfinity;
  const double a = JNorm2(du, m);
  const double b = u[0] * du[0] - detail::TailDot(u, du, m);
  const double c = std::max(JNorm2(u, m), 0.0);
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

inline double JNorm2(ConstSegment u) { return JNorm2(u.data(), u.size()); }

inline double InteriorMargin(ConstSegment u) { return InteriorMargin(u.data(), u.size()); }

inline void JordanProduct(ConstSegment u, ConstSegment v, Segment out) {
  JordanProduct(u.data(), v.data(), u.size(), out.data());
}

inline void JordanDivide(ConstSegment lambda, ConstSegment r, Segment out) {
  JordanDivide(lambda.data(), r.data(), lambda.size(), out.data());
}

inline double MaxStepToBoundary(ConstSegment u, ConstSegment du) {
  return MaxStepToBoundary(u.data(), du.data(), u.size());
}

}  // namespace quasidyn::second_order_cone
