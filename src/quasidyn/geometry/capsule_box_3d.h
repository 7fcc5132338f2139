#pragma once
// Exact signed distance of a capsule A (radius r, core segment of length l along A's z,
// model/shape.h) and a box B, with witness points and normal. Conventions of
// geometry/contact_point.h: φ > 0 separated, φ < 0 penetrating, the unit normal points from
// B to A, p_A − p_B = φ·normal (to round-off), p_A on the capsule's surface, p_B on the
// box's.
//
// The capsule is its core segment S swept by a ball of radius r, so φ = dist(S, B) − r
// when S misses the box and φ = −depth(S, B) − r when it enters it:
//  * S outside the box: the least distance over the 2 end–box pairs (an end against the box
//    point closest to it, the end clamped in the box's frame) and the 12 segment–edge pairs
//    (segment_distance_3d.h), the first of tied pairs (S parallel to a face or an edge: an
//    end of S); the normal is the direction between the closest points;
//  * S entering the box: the separating-axis test over the 3 box face normals and the 3
//    cross products of S's direction with the box's edges (the facet normals of the
//    Minkowski difference of a segment and a box), each oriented from the box's centre
//    toward S's middle; the axis of least overlap is the normal. Witness points: for a face
//    axis, the point of the face under S's deepest end (under the middle of S's part over
//    the face when S is parallel to it; posed_box_3d.h); for an edge axis, the closest
//    points of S and the box's extreme edge; p_A is then r below S's point along the normal.
// Face axes are tried first, and an edge axis replaces the best only when its gap is larger
// by more than 1e-12 × the pair's size.
//
// Lengths in [m]; radius, length and sizes > 0 (not checked). No heap allocation.

#include <Eigen/Core>
#include <Eigen/Geometry>

#include "quasidyn/geometry/contact_point.h"

namespace quasidyn {

ContactPoint CapsuleBoxDistance3d(double radius_A, double length_A, const Eigen::Isometry3d& X_WA,
                                  const Eigen::Vector3d& size_B, const Eigen::Isometry3d& X_WB);

}  // namespace quasidyn
