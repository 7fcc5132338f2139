#pragma once
// Signed distance of two bounded convex shapes from their support functions: GJK when the
// cores are apart (gjk_3d.h), EPA when they touch or overlap (epa_3d.h), then the margins
// (convex_core_3d.h: a sphere's or capsule's radius) subtracted. Used by the 3D narrow phase
// for every pair without a closed form (narrow_phase_3d.h): cylinder against box, capsule
// or cylinder, and convex polytopes against any bounded shape.
//
// Guarantees:
//  * Termination by construction: at most kGjkMaxIterations GJK iterations and
//    kEpaMaxVertices − 4 EPA iterations, each a fixed amount of work (no recursion, no
//    unbounded loop); never an abort or an exception: a status.
//  * No heap allocation (fixed-capacity simplex and polytope on the stack, about 45 KB).
//  * Deterministic: the same inputs give the same bits (no addresses, hashing or threads
//    involved).
//  * Accuracy, with scale = the sum of the shapes' bounding radii about their frame origins
//    (ConvexCore3d::bounding_radius):
//      - cores that are polytopes (point, segment, box, convex: every pair without a
//        cylinder): exact up to round-off, φ and witness points to a few ulps of scale
//        (GJK and EPA end on a vertex, edge or face of the Minkowski difference);
//      - a cylinder: φ within kGjkRelativeTolerance · scale (separated) or
//        kEpaRelativeTolerance · scale (overlapping) when status is kConverged, and within
//        error_bound otherwise;
//      - touching cores (GJK's |v| <= kGjkTouchTolerance · scale) go to EPA for their normal:
//        φ is then within that touch tolerance.
//    convex_distance_3d_test.cc measures these against the closed forms and against FCL.
// Frames: X_WA, X_WB are the shape frames in world; the answer is in world coordinates with
// the conventions of contact_point.h (normal from B to A, p_A − p_B = φ · normal).

#include <Eigen/Geometry>
#include <string>

#include "quasidyn/geometry/contact_point.h"
#include "quasidyn/geometry/convex_core_3d.h"

namespace quasidyn {

enum class ConvexDistanceStatus {
  kConverged,       // GJK or EPA met its tolerance (or M was flat: exact)
  kIterationLimit,  // GJK's cap or EPA's vertex capacity: φ within error_bound
  kDegenerate,      // GJK or EPA stopped by round-off before its tolerance: φ within
                    // error_bound
};

const char* ConvexDistanceStatusName(ConvexDistanceStatus status);

// An answer that did not converge is still used when its error bound is below this fraction
// of the pair's scale [-]: far below any contact tolerance of a scene (1e-6 of a metre-sized
// pair is a micrometre),
inline constexpr double kConvexDistanceAcceptance = 1e-6;
// or, for an overlap, below this fraction of the penetration depth [-]. EPA's polytope
// (kEpaMaxVertices) cannot resolve a curved core to the tolerance when the depth is nearly
// the same in a whole circle of directions (a small shape deep inside a large cylinder,
// where 128 vertices bound the depth to about 2e-3 of itself); an overlap that deep is
// pushed apart by the step whatever its last digits.
inline constexpr double kConvexDistanceDeepAcceptance = 1e-2;

struct ConvexDistanceResult {
  ContactPoint point;  // world frame
  ConvexDistanceStatus status = ConvexDistanceStatus::kConverged;
  // The gap between the upper and lower bounds GJK or EPA proved for φ [m] (φ itself is the
  // upper end): 0 up to round-off on polytopes.
  double error_bound = 0.0;
  double scale = 0.0;  // the pair's length scale [m] (above)
  int gjk_iterations = 0;
  int epa_iterations = 0;  // 0 when the cores are apart

  // kConverged, or an error bound within kConvexDistanceAcceptance · scale, or within
  // kConvexDistanceDeepAcceptance · (−φ) for an overlap.
  bool Usable() const;
};

ConvexDistanceResult ConvexSignedDistance3d(const ConvexCore3d& a, const Eigen::Isometry3d& X_WA,
                                            const ConvexCore3d& b, const Eigen::Isometry3d& X_WB);

// "GJK/EPA signed distance not usable: <status> after <n> GJK and <m> EPA iterations (error
// bound <e> m for a pair of size <s> m)": the narrow phase's message for an unusable answer.
std::string ConvexDistanceFailure(const ConvexDistanceResult& result);

}  // namespace quasidyn
