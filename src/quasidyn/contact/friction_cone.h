#pragma once
// Tangent bases, friction-cone rays and the combination of two surfaces' friction.

#include <Eigen/Core>

#include "quasidyn/model/scene.h"

namespace quasidyn {

// The contact's μ from the two shapes' coefficients μ_a, μ_b >= 0 [-]:
//   kMin            min(μ_a, μ_b)
//   kGeometricMean  sqrt(μ_a μ_b)
//   kHarmonic       2 μ_a μ_b / (μ_a + μ_b)  (0 when both are 0); the default.
double CombineFriction(FrictionCombination rule, double mu_a, double mu_b);

// An orthonormal right-handed basis (t1, t2, n) around the unit normal n. 3D scenes use
// the construction of Duff et al., "Building an Orthonormal Basis, Revisited" (JCGT 2017,
// Listing 3), with its branch moved: Duff et al. switch the sign at n_z = 0, which makes the
// basis (hence the friction-pyramid rays and J_t) jump at horizontal normals — side
// contacts, the commonest kind, where round-off alone (n_z = ±1e-17) would pick the branch.
// Here the branch is s = +1 for n_z >= −1/2 and s = −1 below, so the basis is smooth for
// every normal except on the cone n_z = −1/2 (30° below horizontal), and both branches stay
// well conditioned (|s + n_z| >= 1/2). At n = +ẑ: t1 = x̂, t2 = ŷ; at n = −ẑ: t1 = x̂,
// t2 = −ŷ. Planar scenes (bodies in the x-y plane, n_z = 0) use t1 = ẑ × n, the single
// in-plane tangent, and t2 = ẑ.
void TangentBasis(const Eigen::Vector3d& n, bool planar, Eigen::Vector3d* t1, Eigen::Vector3d* t2);

// The n_d unit directions d_j of the friction pyramid's edges in the tangent plane
// (Pang & Tedrake 2021, §III-B: the "balanced set of n_d tangent vectors" D_i):
//   3D:     d_j = cos(2πj/n_d) t1 + sin(2πj/n_d) t2, j = 0 … n_d−1, n_d >= 3;
//   planar: d_0 = t1, d_1 = −t1 (n_d is 2 whatever was asked).
// Returns a 3 × n_d matrix; the second form writes it into *rays (resized; no heap allocation
// once it has the size). Throws std::invalid_argument for n_d < 3 in 3D.
Eigen::Matrix3Xd FrictionRays(const Eigen::Vector3d& t1, const Eigen::Vector3d& t2, int num_rays,
                              bool planar);
void FrictionRays(const Eigen::Vector3d& t1, const Eigen::Vector3d& t2, int num_rays, bool planar,
                  Eigen::Matrix3Xd* rays);

}  // namespace quasidyn
