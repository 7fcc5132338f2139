#pragma once
// Exact signed distance, witness points and normal for the 3D shape pairs that have a
// closed form. Conventions of geometry/contact_point.h: φ > 0 separated, φ < 0
// penetrating, the unit normal points from B to A, p_A − p_B = φ·normal, p_A is the point
// of A deepest toward B and p_B the point of B's surface closest to it.
//
// Shapes and their frames are those of model/shape.h; X_WA, X_WB are the shape frames in
// world. Lengths in [m]; every radius, length and box side must be > 0 (not checked here:
// narrow_phase_3d.h checks the shapes before calling).
//
// Where the normal is not defined by the geometry (coincident sphere centres, a sphere
// centre on a capsule's core segment, crossing capsule cores) each function documents the
// fallback it uses; the fallback is deterministic and keeps p_A − p_B = φ·normal.

#include <Eigen/Core>
#include <Eigen/Geometry>

#include "quasidyn/geometry/contact_point.h"
#include "quasidyn/model/shape.h"

namespace quasidyn {

// Two cores closer than this count as coincident and the fallback normal is used [m].
inline constexpr double kCoincidentCores = 1e-12;

// Sphere A (centre c_A, radius r_A) and sphere B: φ = |c_A − c_B| − r_A − r_B, normal
// (c_A − c_B)/|c_A − c_B|; world +z when the centres coincide.
ContactPoint SphereSphereDistance3d(const Eigen::Vector3d& center_A, double radius_A,
                                    const Eigen::Vector3d& center_B, double radius_B);

// Sphere A and box B (full sides size_B). Outside: the box point closest to the centre is
// the centre clamped to the box (Ericson, Real-Time Collision Detection, 2005, §5.1.3), the
// normal points from it to the centre. Centre inside the box (or on its surface): the face
// of least depth h_i − |c_i| gives the normal (+ on ties in the order x, y, z), and
// φ = −(depth + r_A).
ContactPoint SphereBoxDistance3d(const Eigen::Vector3d& center_A, double radius_A,
                                 const Eigen::Vector3d& size_B, const Eigen::Isometry3d& X_WB);

// Sphere A and capsule B (radius r_B, core length l_B along B's z): the sphere–sphere
// distance to the core point closest to c_A (Ericson §5.1.2). Centre on the core: the
// normal is B's x axis (perpendicular to the core).
ContactPoint SphereCapsuleDistance3d(const Eigen::Vector3d& center_A, double radius_A,
                                     double radius_B, double length_B,
                                     const Eigen::Isometry3d& X_WB);

// Sphere A and cylinder B (radius r_B, length l_B along B's z). Outside: the cylinder
// point closest to the centre is the centre with its radial distance clamped to r_B and its
// height clamped to ±l_B/2. Inside: the nearest of the side (normal radial, B's x when the
// centre is on the axis) and the two end discs (normal ±B's z); ties prefer the ends.
ContactPoint SphereCylinderDistance3d(const Eigen::Vector3d& center_A, double radius_A,
                                      double radius_B, double length_B,
                                      const Eigen::Isometry3d& X_WB);

// Capsules A and B: the sphere–sphere distance between the closest points of their core
// segments (segment_distance_3d.h; parallel cores use the middle of their overlap). Cores
// that cross: the normal is ±(a_A × a_B)/|a_A × a_B| (a = core axis), signed to point from
// B's centre to A's centre; parallel coincident cores: perpendicular to the axis, toward A's
// centre when possible, else B's x.
ContactPoint CapsuleCapsuleDistance3d(double radius_A, double length_A,
                                      const Eigen::Isometry3d& X_WA, double radius_B,
                                      double length_B, const Eigen::Isometry3d& X_WB);

// Any bounded shape A (sphere, box, cylinder, capsule, convex) against the half-space B
// (the region z <= 0 of B's frame). With the plane normal n = B's z and origin o:
// φ = min over A of n·(p − o) = −h_A(−n) + n·o, attained at p_A = the support point of A in
// direction −n (support_3d.h; the centre of a tied face, so a flat box gives its bottom
// face's centre), p_B = p_A − φ n, normal = n.
// Throws std::invalid_argument when A is a half-space.
ContactPoint ShapeHalfSpaceDistance3d(const Shape& shape_A, const Eigen::Isometry3d& X_WA,
                                      const Eigen::Isometry3d& X_WB);

}  // namespace quasidyn
