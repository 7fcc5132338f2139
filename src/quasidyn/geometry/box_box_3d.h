#pragma once
// Exact signed distance of two boxes, with witness points and normal. Conventions of
// geometry/contact_point.h: φ > 0 separated, φ < 0 penetrating, the unit normal points from
// B to A, p_A − p_B = φ·normal (to round-off), p_A on A's surface and p_B on B's.
//
// Separated boxes: φ is the least distance over the 16 corner–box pairs (each corner against
// the other box, the box point closest to it being the corner clamped in the box's frame)
// and the 144 edge–edge pairs (segment_distance_3d.h); the closest pair of two disjoint
// convex polyhedra is a vertex–face, edge–edge or lower-dimensional pair, all among these
// (Ericson, Real-Time Collision Detection, 2005, ch. 5).
//
// Penetrating (or touching) boxes: the separating-axis test over the 15 axes, the 3 + 3 face
// normals and the 9 cross products of an edge of A with an edge of B (Gottschalk, Lin &
// Manocha, "OBBTree", SIGGRAPH 1996), each oriented from B's centre toward A's. The
// Minkowski difference of two boxes has its facet normals among these axes, so the axis of
// least overlap gives the exact penetration depth: φ = −depth, the normal is that axis.
// Witness points: for a face axis, a point of the overlap of that face and the other box's
// deepest feature (its deepest vertex, or the middle of the overlap when an edge or a face
// of it is parallel to the face; posed_box_3d.h) and the point of the other box above it;
// for an edge axis, the closest points of the two edges. Face axes are tried first, B's
// then A's, and a later axis replaces the best only when its gap is larger by more than
// 1e-12 × the pair's size, so parallel features resolve to a face.
//
// Lengths in [m]; sizes are the full side lengths (each > 0, not checked). No heap
// allocation.

#include <Eigen/Core>
#include <Eigen/Geometry>

#include "quasidyn/geometry/contact_point.h"

namespace quasidyn {

ContactPoint BoxBoxDistance3d(const Eigen::Vector3d& size_A, const Eigen::Isometry3d& X_WA,
                              const Eigen::Vector3d& size_B, const Eigen::Isometry3d& X_WB);

}  // namespace quasidyn
