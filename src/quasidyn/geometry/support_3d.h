#pragma once
// Support points and support features of the bounded 3D shapes of model/shape.h.
//
// The support value of a shape in a world direction u is h(u) = max over the shape of u·p
// (the support function of convex analysis, e.g. Ericson, Real-Time Collision Detection,
// 2005, §3.9 and §9.5). The support point attains it; the support feature is the set of
// surface points whose u·p lies within a band of h(u): one vertex, an edge, a face, or for
// curved shapes a few surface samples.

#include <Eigen/Core>
#include <Eigen/Geometry>
#include <cstddef>
#include <vector>

#include "quasidyn/geometry/small_vector.h"
#include "quasidyn/model/shape.h"

namespace quasidyn {

// Two support values closer than this count as a tie [m]. Far below any physical
// tolerance, far above rounding errors of shapes of metre size.
inline constexpr double kSupportTieBand = 1e-10;

// Number of samples on each end rim of a cylinder in a support feature (see
// SupportFeature3d for why 8).
inline constexpr int kCylinderRimSamples = 8;

// The point of `shape` posed at X_WS (shape frame S in world) that maximises u·p, for a
// world direction u = direction_W (any non-zero length; it is normalised). When a whole
// edge or face ties (within kSupportTieBand), returns the centre of the tied set, e.g. the
// centre of a box face or of a cylinder's end disc, so the answer does not jump between
// corners. Throws std::invalid_argument for a half-space (unbounded) or a zero direction.
Eigen::Vector3d SupportPoint3d(const Shape& shape, const Eigen::Isometry3d& X_WS,
                               const Eigen::Vector3d& direction_W);

// The surface points of `shape` whose u·p >= h(u) − band, band [m] >= 0, in world
// coordinates, unordered, without duplicates:
//   sphere    the single support point;
//   box       the box corners in the band;
//   convex    the hull vertices in the band;
//   capsule   the end points of the core segment in the band, pushed out by r along u;
//   cylinder  the exact support point(s) (both ends of the side line when the axis is
//             perpendicular to u), plus those of kCylinderRimSamples = 8 evenly spaced
//             samples on each end rim that are in the band. Eight samples make an octagon
//             whose edges lie at most r (1 − cos 22.5°) = 0.076 r inside the true rim, so a
//             cylinder standing on its end is supported against tipping in every direction,
//             and 8 is also the manifold's point cap (manifold_3d.h).
// Throws std::invalid_argument for a half-space, a zero direction or a negative band.
std::vector<Eigen::Vector3d> SupportFeature3d(const Shape& shape, const Eigen::Isometry3d& X_WS,
                                              const Eigen::Vector3d& direction_W, double band);

// Room for the largest built-in support feature (a cylinder: 2 + 2·8 candidates) and a
// clipped box face (4 + 4 points) without heap allocation.
inline constexpr std::size_t kInlinePoints = 2 + 2 * kCylinderRimSamples;
using PointList = SmallVector<Eigen::Vector3d, kInlinePoints>;

// As SupportFeature3d above, written into `feature` (cleared first; same points, same
// order). The allocation-free form used by the contact manifold (manifold_3d.cc).
void SupportFeature3d(const Shape& shape, const Eigen::Isometry3d& X_WS,
                      const Eigen::Vector3d& direction_W, double band, PointList* feature);

// The 8 corners of a box of full side lengths `size` [m], in its own frame.
std::vector<Eigen::Vector3d> BoxCorners(const Eigen::Vector3d& size);

}  // namespace quasidyn
