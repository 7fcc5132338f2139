#pragma once
// Algebra of the second-order cone K = {u = (u0, u1) : ‖u1‖ <= u0} (dimension m >= 1; for
// m = 1 it is the half-line u0 >= 0) used by the SOCP interior point (socp.h) and the
// log-barrier Newton method. Notation of L. Vandenberghe, "The CVXOPT linear and quadratic
// cone program solvers" (2010), §2 and §4: J = diag(1, −I), e = (1, 0, …, 0),
// Jordan product u ∘ v = (uᵀv, u0 v1 + v0 u1).
//
// All functions take segments of length m (Eigen::Ref) and do not allocate.

#include <Eigen/Core>

namespace quasidyn::second_order_cone {

using ConstSegment = Eigen::Ref<const Eigen::VectorXd>;
using Segment = Eigen::Ref<Eigen::VectorXd>;

// u0² − ‖u1‖² computed as (u0 − ‖u1‖)(u0 + ‖u1‖) to limit cancellation; for m = 1, u0².
double JNorm2(ConstSegment u);

// u0 − ‖u1‖: > 0 inside K, 0 on its boundary.
double InteriorMargin(ConstSegment u);

// out = u ∘ v.
void JordanProduct(ConstSegment u, ConstSegment v, Segment out);

// out = L(λ)⁻¹ r, i.e. the u with λ ∘ u = r, for λ in the interior of K (closed form of the
// inverse arrow matrix).
void JordanDivide(ConstSegment lambda, ConstSegment r, Segment out);

// Largest α >= 0 with u + α·du in K, for u in the interior of K (infinity when unbounded):
// the first positive root of (u0 + α du0)² − ‖u1 + α du1‖².
double MaxStepToBoundary(ConstSegment u, ConstSegment du);

// Nesterov–Todd scaling of s, z in the interior of K (Vandenberghe 2010, §4.3, eq. (4.26)):
// a symmetric W with W z = W⁻¹ s (= λ, the scaled point),
//   W = β (2 v vᵀ − J),  W⁻¹ = (1/β)(2 J v vᵀ J − J),  β = (sᵀJs / zᵀJz)^{1/4},
//   v = (w̄ + e) / sqrt(2 (w̄0 + 1)),  w̄ = (s̄ + J z̄) / (2γ),
//   s̄ = s / sqrt(sᵀJs),  z̄ = z / sqrt(zᵀJz),  γ = sqrt((1 + s̄ᵀz̄) / 2).
// For m = 1, W = sqrt(s/z). W and W_inverse must be preallocated (m × m).
void NesterovToddScaling(ConstSegment s, ConstSegment z, Eigen::Ref<Eigen::MatrixXd> W,
                         Eigen::Ref<Eigen::MatrixXd> W_inverse);

}  // namespace quasidyn::second_order_cone
