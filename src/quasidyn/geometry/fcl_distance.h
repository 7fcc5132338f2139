#pragma once
// Signed distance of two bounded 3D shapes through FCL 0.7 (GJK for separated shapes, EPA
// for penetrating ones; fcl::distance with enable_nearest_points and
// enable_signed_distance). Used by narrow_phase_3d for the pairs without a closed form
// (box–box, box–capsule, box–cylinder, cylinder–cylinder, cylinder–capsule, convex–any).
//
// Accuracy, measured against the closed forms in fcl_distance_test.cc (FCL 0.7.0):
//  * polytopes (box, convex): φ, witness points and normal exact to ~1e-9 m, separated
//    and penetrating;
//  * curved shapes (sphere, capsule, cylinder): φ within kFclCurvedPhiAccuracy and the
//    normal within kFclCurvedNormalAccuracy for shapes of metre size; e.g. a sphere 0.84 m
//    from another is off by 1.7e-5 m in φ and 2e-3 rad in the normal, and a sphere–convex
//    witness point is off the sphere by 3e-5 m. libccd's GJK stops on its own internal
//    tolerance: the request's distance_tolerance and gjk_solver_type (GST_LIBCCD or
//    GST_INDEP) give bit-identical answers on this signed-distance path. This is why every
//    pair with a closed form avoids FCL.
//
// Cost: the FCL geometries are built on every call (no cache keyed by shape address, which
// would be unsafe when a Shape is moved or freed); they are queried through fcl::distance's
// geometry-and-transform overload, without fcl::CollisionObjects. See fcl_distance_test.cc
// for a timing.

#include <Eigen/Core>
#include <Eigen/Geometry>

#include "quasidyn/geometry/contact_point.h"
#include "quasidyn/model/shape.h"

namespace quasidyn {

// FCL's accuracy target for the distance [m] (DistanceRequest::distance_tolerance).
inline constexpr double kFclDistanceTolerance = 1e-6;

// Documented accuracy bounds of FCL for curved shapes of size <= ~1 m (see above) [m], [-].
inline constexpr double kFclCurvedPhiAccuracy = 1e-4;
inline constexpr double kFclCurvedNormalAccuracy = 5e-3;

// When |p_A − p_B| is at least this [m], the normal is (p_A − p_B)/φ (exact from the
// witness points, sign included). Below it (touching shapes) the witness points do not
// define a direction, and the query is repeated with A moved by kFclProbeShift along
// c_A − c_B (shape frame origins; world +z if they coincide): the normal is the
// direction of the separated (or less penetrating) probe's witness points.
inline constexpr double kFclNormalFromWitnessMin = 1e-7;
inline constexpr double kFclProbeShift = 1e-4;  // [m]
// When libccd throws on a degenerate (exactly touching) configuration, the query is retried
// once with A moved by kFclRetryShift along the line of the frame origins [m].
inline constexpr double kFclRetryShift = 1e-9;  // [m]

// Signed distance, witness points and normal (conventions of contact_point.h) of `a` at
// X_WA and `b` at X_WB (shape frames in world). Both must be bounded (not half_space):
// throws std::invalid_argument otherwise.
ContactPoint FclSignedDistance3d(const Shape& a, const Eigen::Isometry3d& X_WA, const Shape& b,
                                 const Eigen::Isometry3d& X_WB);

}  // namespace quasidyn
