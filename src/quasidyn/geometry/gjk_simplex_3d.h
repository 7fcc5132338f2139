#pragma once
// The distance sub-algorithm of GJK: the point of a simplex (1 to 4 points) closest to the
// origin, its barycentric weights and the smallest sub-simplex that holds it.
//
// Method: the signed-volumes sub-algorithm of Montanari, Petrinic & Barbieri, "Improving the
// GJK algorithm for faster and more reliable distance queries between convex objects", ACM
// Trans. Graph. 36(3), 2017, §4 (their S1D, S2D, S3D), which replaces Johnson's sub-algorithm
// of the original GJK (Gilbert, Johnson & Keerthi, IEEE J. Robotics & Automation 4(2), 1988,
// eqs. 14–17) and its Gram-matrix determinants:
//  * tetrahedron: the barycentric coordinates of the origin are ratios of signed volumes,
//    C_j / Σ C (C_j the volume with vertex j replaced by the origin). All of one sign as the
//    total: the origin is inside. Otherwise every face j whose C_j differs in sign (or is 0)
//    is searched as a triangle and the closest answer kept.
//  * triangle: the origin is projected onto the triangle's plane and the barycentric
//    coordinates are ratios of signed areas in the coordinate plane where the triangle's
//    projection is largest (the best-conditioned projection). Otherwise the edges facing
//    the projected origin are searched as segments.
//  * segment: the projection onto the line, clamped to the ends.
// Degenerate simplices (coincident points, collinear or coplanar sets) fall through to
// their faces and edges: every branch ends in a point of the simplex, so the answer is a
// point of its convex hull, never a NaN.

#include <Eigen/Core>
#include <Eigen/Geometry>
#include <array>

namespace quasidyn {

struct SimplexPoint3d {
  Eigen::Vector3d point = Eigen::Vector3d::Zero();
  double weight = 0.0;  // barycentric weight (>= 0; the kept weights sum to 1)
  int index = 0;        // index of the point in the input simplex
};

struct SimplexClosest3d {
  // The kept points (the support set), count in 1..4; 4 only when the origin is inside the
  // tetrahedron (then `closest` is zero).
  std::array<SimplexPoint3d, 4> kept;
  int count = 0;
  // Σ weight · point; for a triangle, the origin's projection onto its plane (the same point,
  // computed without the weights' round-off).
  Eigen::Vector3d closest = Eigen::Vector3d::Zero();
  bool contains_origin = false;  // the origin is inside a tetrahedron
};

// The point of the convex hull of points[0 .. count-1] (count in 1..4) closest to the origin.
// Not checked: count in range, finite points.
SimplexClosest3d ClosestPointOfSimplex3d(const Eigen::Vector3d* points, int count);

}  // namespace quasidyn
