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

// The reference quasistatic simulator's frame (model/simulator_conventions.h, FrictionRayBasis
// kQsim), as Drake's RotationMatrix::MakeFromOneUnitVector(n, 2) builds it: with a = e_i,
// j = i+1, k = i+2 (mod 3), m = sqrt(1 − n_i²), r = 1/m,
//   t1 = (a × n)/m:  t1_i = 0,  t1_j = −r n_k,  t1_k = r n_j;
//   t2 = n × t1:     t2_i = m,  t2_j = −r n_i n_j,  t2_k = −r n_i n_k,
// so that (t1, t2, n) are the columns of a rotation. i = QsimReferenceAxis(n, n_d): the index of
// n's smallest |component| (the first of equals), or 0 (a = x̂, qsim's rays ±x̂ × n) for n_d = 2
// unless n = ±x̂. At n = +ẑ: t1 = −ŷ, t2 = x̂; at n = −ẑ: t1 = ŷ, t2 = x̂.
int QsimReferenceAxis(const Eigen::Vector3d& n, int num_rays);
void QsimTangentBasis(const Eigen::Vector3d& n, int axis, Eigen::Vector3d* t1, Eigen::Vector3d* t2);

// The frame of a contact of `scene` with unit normal n: TangentBasis, or QsimTangentBasis for a
// 3D scene whose conventions.friction_ray_basis is qsim.
void ContactTangentBasis(const Scene& scene, const Eigen::Vector3d& n, Eigen::Vector3d* t1,
                         Eigen::Vector3d* t2);

// The n_d unit directions d_j of the friction pyramid's edges in the tangent plane
// (Pang & Tedrake 2021, §III-B: the "balanced set of n_d tangent vectors" D_i):
//   3D:     d_j = cos(2πj/n_d) t1 + sin(2πj/n_d) t2, j = 0 … n_d−1, n_d >= 3;
//           n_d = 2 (qsim's, with its frame): d_0 = t1, d_1 = −t1;
//   planar: d_0 = t1, d_1 = −t1 (n_d is 2 whatever was asked).
// Returns a 3 × n_d matrix; the second form writes it into *rays (resized; no heap allocation
// once it has the size). Throws std::invalid_argument for n_d < 2 in 3D.
Eigen::Matrix3Xd FrictionRays(const Eigen::Vector3d& t1, const Eigen::Vector3d& t2, int num_rays,
                              bool planar);
void FrictionRays(const Eigen::Vector3d& t1, const Eigen::Vector3d& t2, int num_rays, bool planar,
                  Eigen::Matrix3Xd* rays);

}  // namespace quasidyn
