#pragma once
// EPA: the penetration depth of two overlapping (or touching) convex cores, from the simplex
// GJK ends with (gjk_3d.h).
//
// Method: the expanding polytope algorithm of van den Bergen, "Proximity queries and
// penetration depth computation on 3D game objects", GDC 2001, §4 (and "Collision Detection
// in Interactive 3D Environments", 2003, §4.3.6). With M = A − B containing the origin, the
// penetration depth is min over unit n of h_M(n) (h_M the support function), attained at the
// outward normal n* of M's boundary point nearest the origin. A polytope P ⊂ M with the
// origin inside is grown: its face f nearest the origin (offset d_f = n_f·x on f) gives
// min_f d_f <= depth (P ⊂ M), the support value h_M(n_f) >= depth; the support point
// s_M(n_f) is added, the faces it sees are removed and the horizon coned to it.
//  * Start: GJK's simplex, extended to a tetrahedron by support points in directions normal
//    to its affine hull (kept when they lie more than kGjkTouchTolerance · scale off it).
//    When M is flatter than that everywhere (two points or segments as cores: concentric
//    spheres, capsules with crossing axes), the depth is 0 along a normal of M's hull
//    (EpaOutcome::kFlat), exact for such cores.
//  * Stop when h_M(n_f) − d_f <= kEpaRelativeTolerance · scale (converged), when the
//    polytope holds kEpaMaxVertices vertices (each iteration adds one: no hang by
//    construction), or when round-off breaks the polytope's structure (a support point
//    already a vertex, a horizon that is not one closed loop, a face of zero area). The
//    answer is then the nearest face so far, with the bounds that bracket the depth.
//  * The polytope lives in fixed-capacity arrays on the stack (about 40 KB): no heap
//    allocation. Every loop runs in index order, ties go to the lowest index: the same
//    input gives the same bits.
// When GJK stopped at touching distance rather than with the origin enclosed, the origin may
// lie outside P by up to kGjkTouchTolerance · scale; min_f d_f is then within that of the
// depth (negative depth: separated by that much).
// On polytope cores EPA ends on a face of M (exact up to round-off); on a curved core (a
// cylinder's rim) it refines the polytope where M is nearest the origin until the tolerance.

#include <Eigen/Core>

#include "quasidyn/geometry/convex_core_3d.h"
#include "quasidyn/geometry/gjk_3d.h"

namespace quasidyn {

// Relative tolerance of the penetration depth [-] (of CorePair3d::scale). EPA refines a
// curved core by one vertex per iteration, so it is looser than GJK's: 1e-10 takes a median
// of about 20 iterations for two cylinders and 66 at the 99th percentile (1e-12 would take
// 92 and fill the polytope more often).
inline constexpr double kEpaRelativeTolerance = 1e-10;
// Vertex capacity of the polytope (the faces have room for the 2V − 4 of a closed one).
inline constexpr int kEpaMaxVertices = 128;

enum class EpaOutcome {
  kConverged,    // the bounds met within the tolerance
  kVertexLimit,  // the polytope is full: bounds as they are
  kDegenerate,   // round-off stopped the expansion: bounds as they are
  kFlat,         // M has no volume (see above): depth 0 along `normal`
};

struct EpaResult {
  EpaOutcome outcome = EpaOutcome::kConverged;
  // The nearest face's offset min_f d_f: a lower bound of the penetration depth [m] (the
  // depth itself when converged, to the tolerance).
  double depth = 0.0;
  // The least support value h_M(n_f) seen: an upper bound of the depth [m].
  double upper_bound = 0.0;
  // n*, the outward unit normal of M at the answer, in B's frame: the contact normal (from
  // B to A) is −n*.
  Eigen::Vector3d normal = Eigen::Vector3d::UnitZ();
  // The answer's points on A's and B's cores (B's frame): witness_a − witness_b = depth · n*.
  Eigen::Vector3d witness_a = Eigen::Vector3d::Zero();
  Eigen::Vector3d witness_b = Eigen::Vector3d::Zero();
  int iterations = 0;  // support evaluations after the start tetrahedron
};

// EPA from `gjk` (whose outcome must be kOverlap; not checked).
EpaResult Epa3d(const CorePair3d& pair, const GjkResult& gjk);

}  // namespace quasidyn
