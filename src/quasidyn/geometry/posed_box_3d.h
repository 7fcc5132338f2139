#pragma once
// A box posed in world, and the features of it that the exact box closed forms
// (box_box_3d.h, capsule_box_3d.h) read: corners, edges, the closest point to a point, the
// half extent along a direction, the support feature (vertex, edge or face), and a point of
// the overlap of a feature with one of its faces. Nothing here allocates.

#include <Eigen/Core>
#include <Eigen/Geometry>
#include <cmath>

#include "quasidyn/geometry/fixed_capacity_vector.h"

namespace quasidyn {

// Up to 4 points of a box's support feature (a corner, an edge's ends, or a face's corners in
// cyclic order), or a segment's ends.
using BoxFeature3d = FixedCapacityVector<Eigen::Vector3d, 4>;

// The box of half sides `half` [m] (each > 0) centred at the origin of its frame S, posed at
// X_WS (S in world).
struct PosedBox3d {
  Eigen::Isometry3d X_WS = Eigen::Isometry3d::Identity();
  Eigen::Vector3d half = Eigen::Vector3d::Zero();

  Eigen::Vector3d Centre() const { return X_WS.translation(); }
  // S's axis i in world (unit).
  Eigen::Vector3d Axis(int i) const { return X_WS.linear().col(i); }
  // Corner i in world: coordinate k is +half_k when bit k of i is set, else −half_k.
  Eigen::Vector3d Corner(int i) const {
    const Eigen::Vector3d p_S((i & 1) ? half.x() : -half.x(), (i & 2) ? half.y() : -half.y(),
                              (i & 4) ? half.z() : -half.z());
    return X_WS * p_S;
  }
  // Edge e (0..11) in world: parallel to axis e / 4, its other two coordinates' signs from
  // bits 0 and 1 of e % 4 (in increasing axis order); from the − end to the + end.
  void Edge(int e, Eigen::Vector3d* start, Eigen::Vector3d* end) const {
    const int along = e / 4;
    const int j = (along + 1) % 3, k = (along + 2) % 3;
    const int first = j < k ? j : k, second = j < k ? k : j;
    Eigen::Vector3d p_S;
    p_S[first] = (e & 1) ? half[first] : -half[first];
    p_S[second] = (e & 2) ? half[second] : -half[second];
    p_S[along] = -half[along];
    *start = X_WS * p_S;
    p_S[along] = half[along];
    *end = X_WS * p_S;
  }
  // Σ_i half_i |n·axis_i|: half the box's extent along the unit direction n [m].
  double Radius(const Eigen::Vector3d& n) const {
    return half.x() * std::abs(n.dot(Axis(0))) + half.y() * std::abs(n.dot(Axis(1))) +
           half.z() * std::abs(n.dot(Axis(2)));
  }
  // The point of the (solid) box closest to p_W: p_W clamped in S (Ericson, Real-Time
  // Collision Detection, 2005, §5.1.3).
  Eigen::Vector3d ClosestPoint(const Eigen::Vector3d& p_W) const;
};

// The corners maximising u·p (u unit, world): an axis i with |u·axis_i| <= tie counts as
// perpendicular to u, so the feature is 1 corner, an edge (2 corners) or a face (4 corners
// in cyclic order).
BoxFeature3d BoxSupportFeature3d(const PosedBox3d& box, const Eigen::Vector3d& u, double tie);

// A point of the face of `box` with outward normal sign·axis(axis) (sign = ±1) that lies
// under `feature` (points of another shape, in world): the feature is projected onto the
// face's plane along the face normal and clipped to the face's rectangle (Sutherland &
// Hodgman, "Reentrant polygon clipping", CACM 1974); the answer is the mean of the clipped
// polygon's vertices, which lies in the overlap. When round-off leaves nothing, the mean of
// the projected feature clamped to the rectangle.
Eigen::Vector3d BoxFacePointUnder(const PosedBox3d& box, int axis, double sign,
                                  const BoxFeature3d& feature);

}  // namespace quasidyn
