#pragma once
// GJK: the distance between two convex cores (convex_core_3d.h), or the simplex that shows
// they overlap (the start of EPA, epa_3d.h).
//
// Method: Gilbert, Johnson & Keerthi, "A fast procedure for computing the distance between
// complex objects in three-dimensional space", IEEE J. Robotics & Automation 4(2), 1988, in
// the form of van den Bergen, "Collision Detection in Interactive 3D Environments", 2003,
// §4.3 (Algorithm 4.5): v is the point of the Minkowski difference M = A − B closest to the
// origin found so far (an upper bound |v| on the distance), w = s_M(−v) its support point
// the other way, and v·w / |v| a lower bound (M lies beyond the plane through w normal to
// v). Each iteration adds w to the simplex and replaces v by the simplex point closest to
// the origin (the signed-volumes sub-algorithm, gjk_simplex_3d.h). It stops when
//  * the bounds meet: |v| − max(v·w/|v|) <= kGjkRelativeTolerance · (scale + |v|), scale
//    the pair's bounding radii (CorePair3d::scale); on polytopes this happens exactly when
//    v is the true closest point, up to round-off. The computed gap itself carries a
//    round-off of about ε·max|y|²/|v| (y the simplex's points and w: van den Bergen 2003,
//    §4.3.3, who stops on ‖v‖² − v·w against ε·max‖y‖² for the same reason), so a gap below
//    kGjkRoundOff times that also counts as met;
//  * w is already a vertex of the simplex, or |v| does not decrease (round-off stalls; the
//    previous v is kept): the answer is then as exact as the arithmetic allows (kStalled
//    when the bounds are still farther apart than the tolerance);
//  * |v| <= kGjkTouchTolerance · scale or the simplex encloses the origin: the cores touch
//    or overlap, and EPA takes over from the simplex (its normal is not defined by v);
//  * kGjkMaxIterations iterations: the bounds are returned as they are (no hang by
//    construction); callers decide from the gap whether the answer is usable.
// On polytopes GJK ends in a few iterations (each adds a vertex of M); on a curved core
// (a cylinder's rim) the gap shrinks geometrically and stays far inside the cap.
// No heap allocation; deterministic (a fixed sequence of arithmetic on the inputs).

#include <Eigen/Core>
#include <array>

#include "quasidyn/geometry/convex_core_3d.h"

namespace quasidyn {

// Relative tolerance of the distance (see above) [-]: 1e-12 of the pair's size, about 1e4
// times the round-off of its coordinates.
inline constexpr double kGjkRelativeTolerance = 1e-12;
// Below this fraction of the pair's size [-], the cores count as touching and the normal
// comes from EPA: the direction of a v this short would carry a relative round-off of
// about 1e-16 / 1e-10 = 1e-6 rad.
inline constexpr double kGjkTouchTolerance = 1e-10;
// Multiple of ε·max|y|²/|v| below which the gap is round-off (see above) [-].
inline constexpr double kGjkRoundOff = 64.0;
// Iteration cap (each iteration is one support evaluation of each core).
inline constexpr int kGjkMaxIterations = 128;

enum class GjkOutcome {
  kSeparated,       // `closest` is the answer, distance − lower_bound within the tolerance
  kOverlap,         // touching or overlapping: `simplex` encloses the origin (up to the
                    // touch tolerance) for EPA
  kIterationLimit,  // separated, stopped by the cap: the gap is distance − lower_bound
  kStalled,         // separated, stopped by round-off with the gap above the tolerance
};

struct GjkResult {
  GjkOutcome outcome = GjkOutcome::kSeparated;
  double distance = 0.0;     // |closest|, an upper bound of the cores' distance [m]
  double lower_bound = 0.0;  // a lower bound of it [m] (0 until a plane separates them)
  Eigen::Vector3d closest = Eigen::Vector3d::Zero();    // v = witness_a − witness_b, B's frame
  Eigen::Vector3d witness_a = Eigen::Vector3d::Zero();  // on A's core, B's frame [m]
  Eigen::Vector3d witness_b = Eigen::Vector3d::Zero();  // on B's core, B's frame [m]
  std::array<SupportVertex3d, 4> simplex;               // the final simplex (the support set of v)
  int simplex_size = 0;
  int iterations = 0;
};

GjkResult Gjk3d(const CorePair3d& pair);

}  // namespace quasidyn
