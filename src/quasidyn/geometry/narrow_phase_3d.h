#pragma once
// The 3D narrow phase: signed distance and contact manifold of two posed shapes.
//
// Shapes and frames: model/shape.h. X_WA, X_WB are the SHAPE frames in world (the body
// pose already composed with the geometry's X_BS). Conventions: geometry/contact_point.h
// (φ > 0 separated, φ < 0 penetrating, unit normal from B to A, p_A − p_B = φ·normal).
//
// Pairs with a closed form (closed_form_3d.h), exact: sphere–sphere, sphere–box,
// sphere–capsule, sphere–cylinder, capsule–capsule, box–box (box_box_3d.h), capsule–box
// (capsule_box_3d.h), and every bounded shape against a half-space. Every other pair
// (box–cylinder, cylinder–cylinder, cylinder–capsule, convex–anything bounded) goes through
// our GJK/EPA on the shapes' support functions (convex_distance_3d.h): exact up to round-off
// when no cylinder is involved, within 1e-12 (apart) or 1e-10 (overlapping) of the pair's
// size for a cylinder; always finite, bounded in time, without heap allocation. Either
// argument may be the half-space: swapping the arguments swaps p_A and p_B and negates the
// normal.
//
// Two forms:
//  * on Shapes: validating (shape_validation.h) on every call. Bad input throws
//    std::invalid_argument naming the problem: two half-spaces, a non-positive or
//    non-finite radius, length or box side, a convex shape with fewer than 4 vertices or all
//    of them coplanar, a non-finite pose, a negative tolerance; a GJK/EPA answer that is not
//    usable (ConvexDistanceResult::Usable: it did not converge and its error bound is too
//    large) throws std::runtime_error.
//  * on CompiledShape3d (what geometry_model.h builds once per shape): nothing is checked,
//    the manifold is written into fixed-capacity storage, and an unusable GJK/EPA answer is a
//    false return with its message. These make no heap allocation (with a
//    Manifold3dScratch that has already held the pair's support features).

#include <Eigen/Core>
#include <Eigen/Geometry>
#include <string>
#include <vector>

#include "quasidyn/common/outcome.h"
#include "quasidyn/geometry/contact_point.h"
#include "quasidyn/geometry/convex_core_3d.h"
#include "quasidyn/geometry/manifold_points.h"
#include "quasidyn/model/shape.h"

namespace quasidyn {

struct Manifold3dScratch;  // manifold_3d_scratch.h

// A shape that passed ShapeProblem3d, with its convex core (convex_core_3d.h; unused for a
// half-space). Points into the Shape, which must outlive it.
struct CompiledShape3d {
  const Shape* shape = nullptr;
  ConvexCore3d core;
};

// The compiled form of a valid shape (not checked; no allocation).
CompiledShape3d CompileShape3d(const Shape& shape);

// True when the pair of shape types (either order) has no closed form above and goes
// through GJK/EPA (convex_distance_3d.h); false for a half-space with anything.
bool PairUsesGjk3d(ShapeType a, ShapeType b);

// The single closest pair (or deepest penetration) of two posed shapes.
ContactPoint SignedDistance3d(const Shape& a, const Eigen::Isometry3d& X_WA, const Shape& b,
                              const Eigen::Isometry3d& X_WB);

// Every contact point with φ <= tolerance [m] (tolerance >= 0): one point for curved
// contact, several for face contact (the contact manifold, built as in manifold_3d.h; at
// most kMaxManifoldPoints = 8 points). Empty when φ > tolerance.
std::vector<ContactPoint> ContactManifold3d(const Shape& a, const Eigen::Isometry3d& X_WA,
                                            const Shape& b, const Eigen::Isometry3d& X_WB,
                                            double tolerance);

// SignedDistance3d of compiled shapes into *out. Preconditions (not checked): finite poses,
// not two half-spaces. A failure (common/outcome.h) when GJK/EPA gives no usable answer, its
// message the status, error bound and iterations.
Outcome SignedDistance3d(const CompiledShape3d& a, const Eigen::Isometry3d& X_WA,
                         const CompiledShape3d& b, const Eigen::Isometry3d& X_WB,
                         ContactPoint* out);

// ContactManifold3d of compiled shapes into *out (cleared first), using `scratch` for the
// intermediate lists. Preconditions as above, and a finite tolerance >= 0. A failure when
// GJK/EPA gives no usable answer, as above.
Outcome ContactManifold3d(const CompiledShape3d& a, const Eigen::Isometry3d& X_WA,
                          const CompiledShape3d& b, const Eigen::Isometry3d& X_WB, double tolerance,
                          Manifold3dScratch* scratch, ManifoldPoints* out);

}  // namespace quasidyn
