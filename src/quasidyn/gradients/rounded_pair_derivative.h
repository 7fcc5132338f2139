#pragma once
// The closed-form derivative D u of a pair's contact points under a rigid motion u of body A
// alone (pair_motion_derivative.h), for pairs of ROUNDED CORES: spheres and capsules in 3D,
// circles and stadiums in a planar scene (geometry/convex_core_3d.h, planar_shape_2d.h: a
// point or a segment expanded by a radius r), against each other or against a half-space.
// It replaces the 2r differenced manifold queries of such a pair where the geometry is smooth.
//
// Notation: u = (ω, v) about the reference point c; a world point x fixed to A moves by
// V(x) = ω × (x − c) + v; B does not move. The contact (normal n from B to A, docs of
// geometry/contact_point.h) gives the closest points of the two cores:
//   a = p_A + r_A n,   b = p_B − r_B n,   a − b = d n,   d = φ + r_A + r_B > 0.
// A core point is a VERTEX (a sphere's centre, a capsule's end) or INTERIOR to a capsule's
// segment (origin o, unit direction e): the foot of the other core's closest point. Then
//   vertex of A:     ȧ = V(a)                    vertex of B:     ḃ = 0
//   interior of B:   ḃ = (ȧ·e_B) e_B             (b = o_B + ((a − o_B)·e_B) e_B, B fixed)
//   interior of A:   ȧ = V(o_A) + ṡ e_A + s (ω × e_A),  s = (b − o_A)·e_A,
//                    ṡ = (ḃ − V(o_A))·e_A + (b − o_A)·(ω × e_A)
// (the foot of b on A's moving line), and with Δ = a − b:
//   ḋ = n·Δ̇,  ṅ = (Δ̇ − ḋ n)/d,  φ̇ = ḋ,  ṗ_A = ȧ − r_A ṅ,  ṗ_B = ḃ + r_B ṅ
// (Ericson, Real-Time Collision Detection, 2005, §5.1.2 and §5.1.9 for the closest points of
// a point and a segment; the derivatives are those of these expressions).
// Against a half-space B (normal n fixed to B) every contact is a vertex a of A's core:
//   ṗ_A = ȧ = V(a),  φ̇ = n·ȧ,  ṗ_B = ṗ_A − φ̇ n,  ṅ = 0.
//
// Used only where this is the derivative: one contact for two rounded cores, one or two
// contacts (a capsule's two ends) against a half-space; every core point at least
// feature_margin from a change of feature (a segment's end against its interior), so that the
// motions of ±step the central differences would make stay on one feature; the cores apart by
// more than that margin (two interiors, i.e. two crossing segments, are left to the
// differences). Otherwise the function declines and the caller differences.
//
// Two contacts of two cores (two capsules side by side, parallel or in one plane: the clipped
// manifold of two segments, manifold_3d.h step 4): each contact must be a vertex of one core
// against its perpendicular foot on the other's segment, the foot at least the margin from
// that segment's ends, and gets the vertex/interior formulas above. This is the derivative of
// the point's own vertex–foot quantity, smooth there, and the manifold is not differentiable at
// such a pair: a turn about the normal leaves only the closest pair of two crossing segments on
// both sides (the clipped points vanish), and a turn in the segments' plane swaps the closest
// pair, whose normal all points share (one-sided slopes ṅ = 0 and ω × n). The vertex–foot
// quantity is the manifold point on the side where that point is the closest pair and a vertex
// fixed to its body under the other motions, the choice the analytic polytope case makes
// (pair_motion_derivative.h) (issue 39: the fingers of a hand side by side).

#include <Eigen/Core>
#include <Eigen/Geometry>
#include <vector>

#include "quasidyn/contact/contact_set.h"
#include "quasidyn/geometry/contact_point.h"
#include "quasidyn/geometry/geometry_model.h"

namespace quasidyn {

struct ContactPointDerivative;  // pair_motion_derivative.h

// For the contacts `members` of one geometry pair at the body poses X_WB, writes
// (*along)[j·|members| + m] = D basis[j] for member m (basis: twists (ω, v) about `reference`
// [m], as 6-vectors) and returns true, or returns false without writing when the pair is not
// such a smooth rounded pair. step > 0 [m or rad]: the difference step the caller would use;
// the feature margin is 100·step [m]. *along must hold basis.size()·members.size() entries.
bool RoundedPairDerivative(const GeometryModel& geometry, const ContactSet& contacts,
                           const std::vector<int>& members,
                           const std::vector<Eigen::Isometry3d>& X_WB,
                           const Eigen::Vector3d& reference,
                           const std::vector<Eigen::Matrix<double, 6, 1>>& basis, double step,
                           std::vector<ContactPointDerivative>* along);

}  // namespace quasidyn
