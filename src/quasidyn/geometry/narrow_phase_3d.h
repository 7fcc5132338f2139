#pragma once
// The 3D narrow phase: signed distance and contact manifold of two posed shapes.
//
// Shapes and frames: model/shape.h. X_WA, X_WB are the SHAPE frames in world (the body
// pose already composed with the geometry's X_BS). Conventions: geometry/contact_point.h
// (φ > 0 separated, φ < 0 penetrating, unit normal from B to A, p_A − p_B = φ·normal).
//
// Pairs with a closed form (closed_form_3d.h), exact: sphere–sphere, sphere–box,
// sphere–capsule, sphere–cylinder, capsule–capsule, and every bounded shape against a
// half-space. Every other pair (box–box, box–capsule, box–cylinder, cylinder–cylinder,
// cylinder–capsule, convex–anything bounded) goes through FCL (fcl_distance.h), accurate to
// about kFclDistanceTolerance in φ. Either argument may be the half-space: swapping the
// arguments swaps p_A and p_B and negates the normal.
//
// Bad input throws std::invalid_argument naming the problem: two half-spaces, a
// non-positive or non-finite radius, length or box side, a convex shape with fewer than 4
// vertices or all of them coplanar, a non-finite pose, a negative tolerance.

#include <Eigen/Core>
#include <Eigen/Geometry>
#include <vector>

#include "quasidyn/geometry/contact_point.h"
#include "quasidyn/model/shape.h"

namespace quasidyn {

// The single closest pair (or deepest penetration) of two posed shapes.
ContactPoint SignedDistance3d(const Shape& a, const Eigen::Isometry3d& X_WA, const Shape& b,
                              const Eigen::Isometry3d& X_WB);

// Every contact point with φ <= tolerance [m] (tolerance >= 0): one point for curved
// contact, several for face contact (the contact manifold, built as in manifold_3d.h; at
// most 8 points). Empty when φ > tolerance.
std::vector<ContactPoint> ContactManifold3d(const Shape& a, const Eigen::Isometry3d& X_WA,
                                            const Shape& b, const Eigen::Isometry3d& X_WB,
                                            double tolerance);

}  // namespace quasidyn
