#pragma once
// The convex hull of a finite set of points in the plane.

#include <Eigen/Core>
#include <vector>

namespace quasidyn {

// The vertices of the convex hull of `points` [m], counter-clockwise, starting at the
// lowest-x (then lowest-y) point, without repeated or collinear vertices. Andrew's
// monotone chain algorithm (A. M. Andrew, "Another efficient algorithm for convex hulls
// in two dimensions", Inf. Process. Lett. 9(5), 1979), O(n log n).
// Points closer than `length_tolerance` [m] (>= 0) to the line of a hull edge count as
// collinear and are dropped. Fewer than 3 vertices come back for degenerate input (one
// point, or all points on one line). Throws std::invalid_argument on a non-finite point.
std::vector<Eigen::Vector2d> ConvexHull2d(std::vector<Eigen::Vector2d> points,
                                          double length_tolerance = 0.0);

}  // namespace quasidyn
