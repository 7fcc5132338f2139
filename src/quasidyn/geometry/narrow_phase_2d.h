#pragma once
// Signed distance and contact manifolds of planar shapes (scenes with Scene::planar).
//
// Shapes are the 2D sections of model/shape.h (circle, rectangle, stadium, convex polygon,
// half-plane); see geometry/planar_shape_2d.h for how each becomes a rounded convex
// polygon. Poses are planar: a rotation about the world z axis and a translation in x-y
// (assumed, not checked). Results live in the plane z = 0 and their normals have a zero
// z component. Conventions of geometry/contact_point.h: φ > 0 separated, the unit normal
// points from B to A, p_A − p_B = φ·normal.
//
// Method (exact for every pair; cores P of A and Q of B with radii r_A, r_B):
//  * cores apart: φ = dist(P, Q) − r_A − r_B, the closest pair found among the
//    vertex–edge pairs (C. Ericson, Real-Time Collision Detection, 2005, §5.1.2 and ch. 5);
//    the separation is certified by the support gap along the closest-pair direction.
//  * cores overlapping: φ = max over the edge normals n of both cores of the separating-axis
//    gap  min_{a∈P} a·n − max_{b∈Q} b·n − r_A − r_B  (separating axis theorem; the edge
//    normals of P and −Q are those of the Minkowski difference P ⊕ (−Q), so this is the
//    exact penetration depth).
//  * half-plane (point o, outward normal m) against A: φ = min over core vertices v of
//    (v − o)·m − r_A.
// Manifold (face contact), in the manner of E. Catto, "Contact Manifolds", GDC 2007: the
// face realising φ is the reference face; the incident feature is the other shape's core
// edge most anti-parallel to it (its one vertex for a circle, its segment for a stadium);
// the incident edge is clipped to the reference face's end lines (no clipping against a
// half-plane), giving up to 2 points, each with its own φ (its distance from the reference
// face line minus both radii); when the deepest incident vertex lies beyond the reference
// face's ends it is added as a third point, so the manifold always holds the exact φ. A rectangle
// resting on a half-plane gives its 2 bottom corners, a rectangle on a rectangle the 2 ends of
// their overlap. When the closest features are not a face (vertex–vertex, curved contact) the
// manifold is the closest pair alone.
//
// Geometric comparisons (face or vertex contact, ties) use a length tolerance of 1e-9 ×
// the pair's coordinate scale (largest |coordinate| or radius), far above round-off and far
// below any physical feature.

#include <Eigen/Geometry>
#include <vector>

#include "quasidyn/geometry/contact_point.h"
#include "quasidyn/geometry/manifold_points.h"
#include "quasidyn/geometry/planar_shape_2d.h"
#include "quasidyn/model/shape.h"

namespace quasidyn {

// The signed distance of shapes a and b at shape-frame poses X_WA and X_WB, with the
// witness points of the closest (or deepest) pair; for two parallel faces the witness
// points are the middle of their overlap. Concentric circles get the normal +y.
// Throws std::invalid_argument for a cylinder, two half-planes, or a bad shape size.
ContactPoint SignedDistance2d(const Shape& a, const Eigen::Isometry3d& X_WA, const Shape& b,
                              const Eigen::Isometry3d& X_WB);

// Every manifold point with φ <= tolerance [m] (tolerance >= 0, may be +infinity); empty
// when the shapes are farther apart than tolerance. Its deepest point has the φ of
// SignedDistance2d. Throws as SignedDistance2d, and for a negative or NaN tolerance.
std::vector<ContactPoint> ContactManifold2d(const Shape& a, const Eigen::Isometry3d& X_WA,
                                            const Shape& b, const Eigen::Isometry3d& X_WB,
                                            double tolerance);

// The same for shapes already in world coordinates (TransformPlanarShape2d), so callers
// can build each PlanarShape2d once.
ContactPoint SignedDistance2d(const PlanarShape2d& a, const PlanarShape2d& b);
std::vector<ContactPoint> ContactManifold2d(const PlanarShape2d& a, const PlanarShape2d& b,
                                            double tolerance);

// The same on views of shapes in world coordinates (planar_shape_2d.h), the manifold written
// into *out (cleared first; at most kMaxPlanarManifoldPoints = 3 points). No heap
// allocation. Throws std::invalid_argument for two half-planes or a negative or NaN
// tolerance.
ContactPoint SignedDistance2d(const PlanarShape2dView& a, const PlanarShape2dView& b);
void ContactManifold2d(const PlanarShape2dView& a, const PlanarShape2dView& b, double tolerance,
                       ManifoldPoints* out);

}  // namespace quasidyn
