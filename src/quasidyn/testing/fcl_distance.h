#pragma once
// Signed distance of two bounded 3D shapes through FCL 0.7 (GJK for separated shapes, EPA
// for penetrating ones; fcl::distance with enable_nearest_points and
// enable_signed_distance): an independent reference for tests and benchmarks only (target
// fcl_reference, linked by geometry_test and the benchmarks). The library's narrow phase
// uses its own GJK/EPA (geometry/convex_distance_3d.h) because FCL 0.7/libccd, on shapes the
// scene loader accepts, can abort the process (an assert in gjk_libccd-inl.h's EPA, e.g. a
// cylinder and a capsule of 0.1 mm), run for seconds to minutes in one query
// (fcl::detail::GJKSignedDistance, e.g. a 1 mm tetrahedron inside a sphere of radius 0.5 m:
// 8 s; a 4 cm cylinder inside a capsule of radius 90 m: no answer after 5 minutes),
// allocates inside every query and answers in its last bits by heap addresses
// (convex_distance_3d_stress_test.cc keeps the reproducers). Call it only on shapes where it
// is known to behave (sizes 0.05 to 2 m, as the comparison test does: a small shape deep in a
// sphere or capsule a hundred times larger already costs it up to a second).
//
// Accuracy, measured against the closed forms in fcl_distance_test.cc (FCL 0.7.0):
//  * polytopes (box, convex): φ, witness points and normal exact to ~1e-9 m, separated
//    and penetrating;
//  * curved shapes (sphere, capsule, cylinder): φ within kFclCurvedPhiAccuracy and the
//    normal within kFclCurvedNormalAccuracy for shapes of metre size; e.g. a sphere 0.84 m
//    from another is off by 1.7e-5 m in φ and 2e-3 rad in the normal, and a sphere–convex
//    witness point is off the sphere by 3e-5 m. libccd's GJK stops on its own internal
//    tolerance: the request's distance_tolerance and gjk_solver_type (GST_LIBCCD or
//    GST_INDEP) give bit-identical answers on this signed-distance path.
//
// Cost: a query reads FCL geometries built once (MakeFclGeometry) through fcl::distance's
// geometry-and-transform overload, without fcl::CollisionObjects. FCL/libccd still allocate inside
// every query (GJK simplices, EPA polytopes): 2 heap allocations for two separated boxes, from 16
// to about 150 for penetrating ones (one per EPA vertex, edge and face), measured with FCL 0.7.0.
// The Shape overload builds both geometries on every call (no cache keyed by shape address,
// which would be unsafe when a Shape is moved or freed). See fcl_distance_test.cc for a
// timing.
//
// Failures: libccd can throw on a degenerate configuration. Every exception of FCL/libccd is
// caught here; after the one retry below, the prebuilt-geometry overload returns false with
// the message, and the Shape overload throws std::runtime_error with it. An answer that is
// not finite is a failure too. (An abort inside libccd cannot be caught.)
//
// Reproducibility: for penetrating shapes with exactly tied features (e.g. two axis-aligned
// boxes whose faces are parallel), FCL 0.7's EPA can answer differently for the same input
// depending on the heap addresses its polytope gets (it iterates std::unordered_sets of
// pointers, gjk_libccd-inl.h, when it expands the polytope), so the answer may change in the
// last bits, and the witness points along the tied face, with the allocations made before
// the query.

#include <Eigen/Core>
#include <Eigen/Geometry>
#include <memory>
#include <string>

#include "quasidyn/common/outcome.h"
#include "quasidyn/geometry/contact_point.h"
#include "quasidyn/model/shape.h"

namespace fcl {
template <typename S>
class CollisionGeometry;
}  // namespace fcl

namespace quasidyn::testing {

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

// The FCL geometry of a bounded shape (sphere, box, cylinder, capsule, convex; the sizes are
// not checked), with its local bounding box computed as fcl::CollisionObject's constructor
// would do. Throws std::invalid_argument for a half-space. Read-only afterwards: one geometry
// may serve any number of threads.
std::shared_ptr<const fcl::CollisionGeometry<double>> MakeFclGeometry(const Shape& shape);

// Signed distance, witness points and normal (conventions of contact_point.h) of the FCL
// geometries a at X_WA and b at X_WB (shape frames in world), into *out. A failure
// (common/outcome.h) on a failure of FCL/libccd (see above), with its message (*out is then
// unspecified).
Outcome FclSignedDistance3d(const fcl::CollisionGeometry<double>& a, const Eigen::Isometry3d& X_WA,
                            const fcl::CollisionGeometry<double>& b, const Eigen::Isometry3d& X_WB,
                            ContactPoint* out);

// The same for shapes `a` and `b`, their FCL geometries built for this call. Both must be
// bounded (not half_space): throws std::invalid_argument otherwise; throws
// std::runtime_error on a failure of FCL/libccd.
ContactPoint FclSignedDistance3d(const Shape& a, const Eigen::Isometry3d& X_WA, const Shape& b,
                                 const Eigen::Isometry3d& X_WB);

}  // namespace quasidyn::testing
