#pragma once
// Broad phase: world-frame axis-aligned bounding boxes of posed shapes, and the pairs of
// boxes close enough that their shapes may be within a contact tolerance.

#include <Eigen/Core>
#include <Eigen/Geometry>
#include <utility>
#include <vector>

#include "quasidyn/model/shape.h"

namespace quasidyn {

// An axis-aligned box [lower, upper] in world [m]. Half-spaces (and half-planes) are
// `unbounded`: their box is the whole space and lower/upper are meaningless.
struct Aabb {
  Eigen::Vector3d lower = Eigen::Vector3d::Zero();
  Eigen::Vector3d upper = Eigen::Vector3d::Zero();
  bool unbounded = false;
};

// The tight world box of `shape` at the shape-frame pose X_WS. In 3D (planar == false):
//   sphere    centre ± r
//   box       centre ± |R| h, h the half sizes and |R| the entry-wise absolute rotation
//   capsule   core segment's box ± r (segment along S's z)
//   cylinder  per world axis i, with a = R e_z: ± (|a_i| l/2 + r √(1 − a_i²))
//             (the box of a disc of radius r with unit normal a has half width r √(1 − a_i²))
//   convex    box of the transformed vertices
// In planar scenes (planar == true) the planar section's x-y box with z extent 0 at the
// pose's z (stadium segment along S's x, polygon from its vertices' x-y); a cylinder throws.
// Throws std::invalid_argument for a non-positive size or an empty convex shape.
Aabb ComputeWorldAabb(const Shape& shape, const Eigen::Isometry3d& X_WS, bool planar);

// The same box without the checks, for shapes validated once (geometry_model.h): every size
// finite and > 0, a convex shape not empty, no cylinder in planar scenes. No heap allocation.
Aabb WorldAabbOfValidShape(const Shape& shape, const Eigen::Isometry3d& X_WS, bool planar);

// True when boxes a and b are within `tolerance` [m] (>= 0) of each other along every
// axis, i.e. they overlap once each is inflated by tolerance/2 on every side. An unbounded
// box overlaps everything. Since projections onto an axis do not increase distances, two
// shapes with signed distance φ <= tolerance always have boxes that pass this test.
bool AabbsWithinTolerance(const Aabb& a, const Aabb& b, double tolerance);

// Every pair (i, j), i < j, of `boxes` for which AabbsWithinTolerance holds, sorted by
// (i, j). Sort and sweep along x (D. Baraff, "Dynamic simulation of non-penetrating rigid
// bodies", PhD thesis, Cornell 1992), O(n log n + pairs) for bounded boxes; unbounded
// boxes pair with every other box. Throws std::invalid_argument for a negative or NaN
// tolerance. The boxes' coordinates must not be NaN.
std::vector<std::pair<int, int>> OverlappingPairs(const std::vector<Aabb>& boxes, double tolerance);

// The same pairs into *pairs (cleared first), with *sweep_order as the buffer of the sweep
// (the bounded boxes sorted by (lower x, index)). No heap allocation once both vectors have
// the capacity of the answer.
void OverlappingPairs(const std::vector<Aabb>& boxes, double tolerance,
                      std::vector<int>* sweep_order, std::vector<std::pair<int, int>>* pairs);

}  // namespace quasidyn
