#pragma once
// The ellipsoidal limit surface of an object sliding on its support plane (Halm & Posa 2018,
// §3.3–3.4, eqs. (10)–(12); the ellipsoid of Lee & Cutkosky 1991 and Howe & Cutkosky 1996):
//
//   H(F) = Fᵀ Ã F,  F = (f_x, f_y, m) the friction wrench in the object's body frame,
//   V = k Ã F (eq. (11)),   q̇_o = R̃(θ) V = k A F_o,   A = R̃(θ) Ã R̃(θ)ᵀ (eq. (12)),
//
// with R̃(θ) = blockdiag(R(θ), 1) and q_o = (x, y, θ) the object's planar joint (world x-y
// plane seen from above). The time-stepping scheme (eq. (32)) uses A as the map from the
// impulse on the object to its displacement, Δq_o = A J_oᵀ Λ, so A is in m/(N·s) (x, y rows),
// rad/(N·m·s) (θ) and 1/(N·s) (the cross terms). Only the ratio of A to the manipulators'
// c·B shapes the motion: the force scale k of eq. (10) is not determined by the model.
//
// Ã is the scene's (objects[].limit_surface, halm_posa_keys.h) or, by default, that of a uniform
// pressure over the object's footprint (the union of its bodies' planar shapes): for a pressure p
// over the area S, f_max = μ_s p S and m_max = μ_s p ∫_S |r − c| dS, the ellipsoid with these
// semi-axes (Howe & Cutkosky 1996; Lynch, Maekawa & Tanie 1992) is
//
//   Ã_c = a · diag(1, 1, 1/ρ²),   ρ = m_max / f_max = (1/S) ∫_S |r − c| dS,
//
// about the footprint's centroid c, with the scale a = 1 m/(N·s) (the model's k absorbs any
// other: give `limit_surface` in the scene to set it). About the body origin (c in the body
// frame, a wrench (f, m_o) at the origin is (f, m_o − c × f) at c, and the twists transform
// dually): Ã = Tᵀ Ã_c T, T = [1 0 0; 0 1 0; c_y −c_x 1].
// ρ in closed form for one circle of radius r: 2r/3; for one rectangle with half sides
// a, b, d = √(a² + b²): [2abd + a³ ln((b + d)/a) + b³ ln((a + d)/b)] / (6ab). Any other
// footprint (stadiums, polygons, several shapes) by midpoint quadrature on a 512 × 512 grid
// over its bounding box (relative error ~1e-3 on curved outlines).

#include <Eigen/Core>
#include <vector>

#include "quasidyn/model/scene.h"

namespace quasidyn {

// The footprint of uniform pressure: area [m²], centroid c and mean distance ρ from it [m],
// in the object's body frame.
struct UniformPressureFootprint {
  double area = 0.0;
  Eigen::Vector2d centroid = Eigen::Vector2d::Zero();
  double mean_distance = 0.0;
};

// The footprint of object instance `instance` of a planar scene (its bodies' planar shapes,
// placed in the object's frame). Throws std::invalid_argument when the instance is not an
// object with shapes, or the scene is not planar.
UniformPressureFootprint FootprintOf(const Scene& scene, int instance);

// Ã (body frame, about the body origin) of uniform pressure over `footprint` (above).
Eigen::Matrix3d UniformPressureLimitSurface(const UniformPressureFootprint& footprint);

// The limit surface of every moving object (planar joint) of a planar scene: its velocity
// columns and Ã (the scene's, else the uniform-pressure default).
struct ObjectLimitSurface {
  int instance = -1;
  int v_start = 0;                                     // (x, y, θ) are v[v_start … v_start + 2]
  Eigen::Matrix3d body = Eigen::Matrix3d::Identity();  // Ã
};
std::vector<ObjectLimitSurface> ObjectLimitSurfaces(const Scene& scene);

// A = R̃(θ) Ã R̃(θ)ᵀ (eq. (12)) and its derivative ∂A/∂θ.
Eigen::Matrix3d WorldLimitSurface(const Eigen::Matrix3d& body, double theta);
Eigen::Matrix3d WorldLimitSurfaceDerivative(const Eigen::Matrix3d& body, double theta);

}  // namespace quasidyn
