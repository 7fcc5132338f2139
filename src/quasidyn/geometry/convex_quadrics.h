#pragma once
// Convex bodies as intersections of C² convex inequalities, the geometry of the equivalent
// contact point formulation (Xie & Chakraborty, "Rigid Body Dynamic Simulation with Line and
// Surface Contact", §IV-A: F = {ξ : f_i(ξ) <= 0, i = 1 … m}, each f_i convex and C²).
//
// Every inequality of the shapes here is a quadric
//
//   f(ξ) = ½ ξᵀ A ξ + bᵀ ξ + c <= 0,   A symmetric positive semidefinite,   ∇f = Aξ + b,
//
// scaled so that |∇f| = 1 on its own surface for planes, spheres and cylinder sides (and
// between a_min/a_max and 1 on an ellipsoid), so that f is a signed distance to first order
// there [m]:
//
//   half_space  ξ_z                       (the region z <= 0 of model/shape.h)
//   box         ±ξ_k − s_k/2, k = x, y, z  (six planes)
//   convex      n_f·ξ − d_f per facet of the vertices' hull (polytope_facets.h)
//   cylinder    (ξ_x² + ξ_y² − r²)/(2r) and ±ξ_z − l/2 (the paper's disk constraint and the
//               two end planes, §VI)
//   sphere      (|ξ|² − r²)/(2r)
//   ellipsoid   (a_min/2)(Σ_k ξ_k²/a_k² − 1), semi-axes a_k along the frame's axes
//
// A capsule is not such an intersection (its surface joins a cylinder and two hemispheres, so
// its curvature jumps: no finite set of C² convex inequalities bounds exactly it), and neither
// is a mesh.

#include <Eigen/Core>
#include <Eigen/Geometry>
#include <limits>
#include <string>
#include <vector>

#include "quasidyn/common/outcome.h"
#include "quasidyn/model/shape.h"

namespace quasidyn {

struct Quadric {
  Eigen::Matrix3d A = Eigen::Matrix3d::Zero();  // [1/m], symmetric PSD
  Eigen::Vector3d b = Eigen::Vector3d::Zero();  // [-]
  double c = 0.0;                               // [m]

  double Value(const Eigen::Vector3d& xi) const { return 0.5 * xi.dot(A * xi) + b.dot(xi) + c; }
  Eigen::Vector3d Gradient(const Eigen::Vector3d& xi) const { return A * xi + b; }
  bool flat() const { return A.isZero(0.0); }
};

// The same inequality in new coordinates η, where the old ones are ξ = X η (X = X_old_new):
// f(Xη) = ½ ηᵀ(RᵀAR)η + (Rᵀ(At + b))ᵀη + ½tᵀAt + bᵀt + c, X = (R, t).
Quadric TransformQuadric(const Quadric& quadric, const Eigen::Isometry3d& X_old_new);

struct ConvexQuadricSet {
  std::vector<Quadric> inequalities;  // the set is where every one is <= 0
  // A ball that holds the set: centre [m] in the set's frame and radius [m]; the radius is
  // +∞ for an unbounded set (a half-space).
  Eigen::Vector3d bounding_center = Eigen::Vector3d::Zero();
  double bounding_radius = std::numeric_limits<double>::infinity();

  int size() const { return static_cast<int>(inequalities.size()); }
  bool bounded() const { return std::isfinite(bounding_radius); }
  // max_i f_i(ξ): <= 0 inside or on the set [m, to first order near the surface].
  double MaxValue(const Eigen::Vector3d& xi) const;
};

// The inequalities of `shape` in its own frame S into *out, or an empty set and a failure saying
// why (common/outcome.h; e.g. "capsule: a capsule is not an intersection of C² convex
// inequalities (its surface's curvature jumps); use a cylinder, a sphere or a convex
// polytope") when the shape has none.
Outcome ConvexQuadricSetFromShape(const Shape& shape, ConvexQuadricSet* out);

// The ellipsoid of semi-axes a (each > 0 [m]) along the frame's axes, centred at its origin.
ConvexQuadricSet EllipsoidQuadricSet(const Eigen::Vector3d& semi_axes);

// The set in new coordinates η with ξ = X_old_new η (every inequality and the ball).
ConvexQuadricSet TransformQuadricSet(const ConvexQuadricSet& set,
                                     const Eigen::Isometry3d& X_old_new);

}  // namespace quasidyn
