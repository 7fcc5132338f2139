#pragma once
// The intermediate lists of one 3D contact manifold (manifold_3d.h): the two support
// features, their ordering, the side planes, the clipping buffers and the points before the
// cap. Each list keeps its storage between manifolds (small_vector.h: inline room for a
// cylinder's feature, then a heap buffer that is kept), so a scratch that has already held
// a pair's features builds the next manifolds of that pair without heap allocation.
// About 6 kB; neither copyable nor movable (hold it by std::unique_ptr to move it).

#include <Eigen/Core>

#include "quasidyn/geometry/contact_point.h"
#include "quasidyn/geometry/small_vector.h"
#include "quasidyn/geometry/support_3d.h"

namespace quasidyn {

// A support feature as a segment (2 points) or a convex polygon (>= 3 points, ordered
// counter-clockwise about n), from its points' projections onto the plane ⟂ n.
struct ManifoldFeature3d {
  PointList points;
  double diameter = 0.0;  // of the projection onto the plane ⟂ n [m]
  bool IsPolygon() const { return points.size() >= 3; }
};

// A clipping plane {p : normal·(p − point) >= 0} (the kept side).
struct ManifoldSidePlane3d {
  Eigen::Vector3d normal;
  Eigen::Vector3d point;
  double Distance(const Eigen::Vector3d& p) const { return normal.dot(p - point); }
};

// What the last manifold built in a scratch chose when it clipped (manifold_3d.h steps 4–5),
// so that a caller can name the features of each of its points (FeaturesOfClippedPoint3d):
// `clipped` is false when that manifold was not clipped (a half-space, the closest pair alone,
// or empty), and the rest is then stale. The reference plane is the reference feature's
// (manifold_3d.h step 5; ReferencePlane3d).
struct ManifoldClipRecord3d {
  bool clipped = false;
  bool reference_is_B = true;  // the reference feature is feature_B (else feature_A)
};

struct Manifold3dScratch {
  PointList raw_A, raw_B;  // support features of A along −n and of B along +n
  ManifoldFeature3d feature_A, feature_B;
  // Ordering a feature: sort order, hull indices (twice the room, Andrew's chain), and the
  // points' coordinates in the plane ⟂ n.
  SmallVector<int, kInlinePoints> order;
  SmallVector<int, 2 * kInlinePoints> hull;
  SmallVector<Eigen::Vector2d, kInlinePoints> planar;
  SmallVector<ManifoldSidePlane3d, kInlinePoints> planes;
  PointList clip[2];  // Sutherland–Hodgman passes alternate between these
  SmallVector<ContactPoint, kInlinePoints> points;  // before the cap of 8
  ManifoldClipRecord3d record;                      // the last manifold's choices (above)
};

}  // namespace quasidyn
