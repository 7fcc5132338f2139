#pragma once
// The contact points of one shape pair (a contact manifold) in a list that never allocates.
//
// Its capacity is the largest manifold either narrow phase produces:
//  * 3D (manifold_3d.h): at most kMaxManifoldPoints = 8, the cap of the clipped manifold;
//  * planar (narrow_phase_2d.h): at most kMaxPlanarManifoldPoints = 3, the two ends of a
//    clipped incident edge plus the deepest incident vertex when it lies beyond the
//    reference face's ends.

#include "quasidyn/geometry/contact_point.h"
#include "quasidyn/geometry/fixed_capacity_vector.h"

namespace quasidyn {

inline constexpr int kMaxManifoldPoints = 8;
inline constexpr int kMaxPlanarManifoldPoints = 3;
static_assert(kMaxPlanarManifoldPoints <= kMaxManifoldPoints);

using ManifoldPoints = FixedCapacityVector<ContactPoint, kMaxManifoldPoints>;

}  // namespace quasidyn
