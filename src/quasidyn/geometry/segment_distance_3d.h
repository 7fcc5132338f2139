#pragma once
// Closest points between two line segments in 3D.

#include <Eigen/Core>

namespace quasidyn {

// A closest pair of points between segment P = [p0, p1] and segment Q = [q0, q1]:
//   on_p = p0 + s (p1 − p0), on_q = q0 + t (q1 − q0), with s, t in [0, 1].
struct SegmentClosestPoints {
  Eigen::Vector3d on_p = Eigen::Vector3d::Zero();  // [m]
  Eigen::Vector3d on_q = Eigen::Vector3d::Zero();  // [m]
  double s = 0.0;                                  // parameter on P [-], in [0, 1]
  double t = 0.0;                                  // parameter on Q [-], in [0, 1]
};

// Minimises |on_p − on_q| over both segments (Ericson, Real-Time Collision Detection,
// 2005, §5.1.9 "Closest points of two line segments"). Either segment may be a single
// point (p0 == p1). When the segments are parallel and their projections overlap, the
// closest pair is not unique: this returns the pair at the middle of the overlap, so that
// the answer is symmetric and does not jump between the overlap's ends. Endpoints in [m].
SegmentClosestPoints ClosestPointsOfSegments(const Eigen::Vector3d& p0, const Eigen::Vector3d& p1,
                                             const Eigen::Vector3d& q0, const Eigen::Vector3d& q1);

}  // namespace quasidyn
