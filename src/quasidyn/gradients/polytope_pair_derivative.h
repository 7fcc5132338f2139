#pragma once
// The closed-form derivative D u of a BOX–BOX pair's contact points under a rigid motion u of
// body A alone (pair_motion_derivative.h), with the features that produced each point at q
// held fixed. It replaces the 2r differenced manifold queries of such a pair by one query at q
// (which names the features, geometry/manifold_3d.h FeaturesOfClippedPoint3d).
//
// Notation as in rounded_pair_derivative.h: u = (ω, v) about the reference point c; a world
// point x fixed to A moves by V(x) = ω × (x − c) + v and a direction d fixed to A turns by
// ω × d; nothing fixed to B moves. The manifold at q (geometry/manifold_3d.h steps 4–5) has:
//  * the normal n of the closest pair (box_box_3d.h): a face axis of one box, fixed to it (B's
//    when n is an axis of both, the side box_box_3d.h prefers; ṅ = ω × n or 0), or the
//    normalised cross product x/|x|, x = a × b, of an edge direction a of A and b of B (an
//    edge–edge closest pair; ṅ = (ẋ − (n·ẋ) n)/|x|, ẋ = (ω × a) × b, the sign folded into a);
//  * a reference face R (its ordered corners r_i, plane normal m and centroid o, fixed to R),
//    whose side planes k_i·(x − r_i) = 0, k_i = n × (r_{i+1} − r_i), contain n, and an
//    incident feature I (a face or an edge of the other box, corners fixed to I).
// Each point's incident witness p is one of (Sutherland & Hodgman 1974 clipping, the kinds of
// manifold_3d.h):
//  * an incident corner a:           ṗ = ȧ;
//  * an incident edge a → b cut by side plane i: p = a + s e, e = b − a,
//      s = k_i·(r_i − a)/(k_i·e),  w = ȧ + s (ḃ − ȧ),
//      ṡ = −[k̇_i·(p − r_i) + k_i·(w − ṙ_i)]/(k_i·e),  ṗ = w + ṡ e,
//      k̇_i = ṅ × (r_{i+1} − r_i) + n × (ṙ_{i+1} − ṙ_i)   (the point slides along the edge);
//  * a reference corner r inside the incident face (plane f·(x − g) = 0, f its unit normal and
//    g its centroid, fixed to I): p = r + λ n, λ = f·(g − r)/(f·n),
//      λ̇ = −[f·(ṙ + λ ṅ − ġ) + ḟ·(p − g)]/(f·n),  ṗ = ṙ + λ̇ n + λ ṅ;
// and its reference witness is q = p + t n on the reference plane, t = m·(o − p)/(m·n):
//      ṫ = −[m·(ṗ + t ṅ − ȯ) + ṁ·(q − o)]/(m·n),  q̇ = ṗ + ṫ n + t ṅ
// (m = n when the manifold used n for the plane). With (p_A, p_B) = (p, q) when the reference
// is B's and (q, p) when it is A's: φ = n·(p_A − p_B), φ̇ = ṅ·(p_A − p_B) + n·(ṗ_A − ṗ_B).
// Each is the derivative of the manifold point's own expression (the intersections of lines
// and planes above), so where the manifold is differentiable it equals the central
// differences to O(ε²). Where it is not (faces resting parallel, the benchmark grasp: the
// normal is either box's face axis once they tilt, and a corner on a side plane changes kind
// as it crosses), it is the one-sided derivative on the side where q's features persist.
//
// Declines (returns false: the caller differences the manifold) when the pair is not two boxes,
// the normal is neither (a corner's or parallel edges' direction of closest points), the
// manifold at q was not clipped (the closest pair alone), its reference is a segment, or a
// contact is no point of it or has no features.

#include <Eigen/Core>
#include <Eigen/Geometry>
#include <vector>

#include "quasidyn/contact/contact_set.h"
#include "quasidyn/geometry/geometry_model.h"

namespace quasidyn {

struct ContactPointDerivative;  // pair_motion_derivative.h
struct Manifold3dScratch;       // geometry/manifold_3d_scratch.h

// For the contacts `members` of one geometry pair at the body poses X_WB, queries the pair's
// manifold at q once (contact tolerance `tolerance` [m], as the contact query's) into *scratch,
// writes (*along)[j·|members| + m] = D basis[j] for member m (basis: twists (ω, v) about
// `reference` [m], as 6-vectors) and returns true, or returns false (*along then undefined)
// when the pair is not such a box pair (header). *along must hold basis.size()·members.size()
// entries.
bool PolytopePairDerivative(const GeometryModel& geometry, const ContactSet& contacts,
                            const std::vector<int>& members,
                            const std::vector<Eigen::Isometry3d>& X_WB, double tolerance,
                            const Eigen::Vector3d& reference,
                            const std::vector<Eigen::Matrix<double, 6, 1>>& basis,
                            Manifold3dScratch* scratch, std::vector<ContactPointDerivative>* along);

}  // namespace quasidyn
