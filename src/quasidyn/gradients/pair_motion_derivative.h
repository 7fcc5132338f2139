#pragma once
// Derivatives of one geometry pair's contact points with respect to rigid motions of its two
// bodies, from central differences of the pair's manifold along the RELATIVE motions only
// (used by contact_data_derivative.cc).
//
// A twist ξ = (ω, v) is a rigid motion per unit ε: ω [rad] the rotation, v [m] the motion of
// the world point c (the reference point), so that a point p of the moved body moves by
// ṗ = ω × (p − c) + v.
//
// The manifold of a pair depends only on the relative pose of its two bodies, and it moves
// with them when both move together: under a common motion ξ of A and B, φ is unchanged and
// the witness points and the normal are carried along,
//   common(ξ):  ṗ_A = ω × (p_A − c) + v,   ṗ_B = ω × (p_B − c) + v,   ṅ = ω × n,   φ̇ = 0.
// To first order, moving A by ξ_A and B by ξ_B is moving both by ξ_B and then A alone by the
// relative twist δ = ξ_A − ξ_B, so
//   d(point)/dε = D δ + common(ξ_B),
// with D the derivative under motions of A alone. D is needed only on the span of the
// relative twists that occur: at most 6 dimensions in 3D, 3 in a planar scene, fewer when the
// joints allow less. With u_1 … u_r an orthonormal basis of that span (modified Gram–Schmidt
// with one re-orthogonalisation, Golub & Van Loan §5.2.8; twists as 6-vectors (ω, v), 1 rad
// counted as 1 m, as in the tangent coordinates of q), D u_j is the central difference of
// GeometryModel::PairManifold with A moved by ±ε u_j:
//   D u_j ≈ [points(A moved by +ε u_j) − points(A moved by −ε u_j)] / (2ε),
// 2r manifold queries per pair instead of two per velocity direction that moves the pair (a
// finger of the 7-joint arm against a free cube: 14 directions, 28 queries; here 12).
//
// The motion of A by s u (s = ±ε, u = (ω, v)) is p ↦ c + s v + R(s ω)(p − c), R(s ω) the
// rotation by the angle s|ω| about ω: its derivative at s = 0 is u exactly, and its
// second-order term is even in s, so the central difference cancels it.
//
// Analytic case: a polytope A (box or convex shape) against a half-space B. Its manifold
// points are vertices of A with the plane's normal (manifold_3d.h step 3), so under the
// motion u of A alone each point's vertex moves rigidly, the normal (fixed to B) does not
// turn, φ = n·(p_A − o) and p_B = p_A − φ n is the vertex's foot on the plane:
//   D u:  ṗ_A = ω × (p_A − c) + v,   φ̇ = n·ṗ_A,   ṗ_B = ṗ_A − φ̇ n,   ṅ = 0,
// the limit of the central difference above (no manifold query). Used when every contact of
// the pair is such a vertex (checked: the contact's p_A is a vertex of A's shape to within
// kManifoldSlack and its normal is the plane's); a vertex cannot disappear under a small
// motion, so this case never reports one. On arm_cubes at the grasp: 120 of the 156 manifold
// queries (the cubes on the ground).
//
// Closed form: spheres and capsules (circles and stadiums in a planar scene) against each
// other or against a half-space, where their geometry is smooth (rounded_pair_derivative.h):
// no manifold query either (rounded()), including two capsules side by side with a two-point
// manifold (rounded_pair_derivative.h).
//
// Closed form: two boxes, with the features that produced each point at q held fixed
// (polytope_pair_derivative.h): one manifold query at q instead of 2r (polytope()). Where the
// faces rest parallel (a kink) it is the one-sided derivative on the side where those features
// persist, not the central differences' convention.
//
// Points that leave the manifold. A manifold's point count can change under the ±ε motions: a
// point's φ crosses the tolerance, or the construction changes (manifold_3d.h: two segments
// are clipped only while their projections are parallel). Matching is one to one, so a lost
// point is not given a neighbour's values. A point kept on one side gets that side's one-sided
// difference: the derivative of the piecewise smooth point where it exists, to O(ε). A point
// lost on both sides has no derivative; if it is a point of the manifold at q it is treated as
// a vertex fixed to A against a normal fixed to B (the analytic case's formulas), a convention;
// if not (a contact that belongs to no manifold here), Compute fails as before.

#include <Eigen/Core>
#include <Eigen/Geometry>
#include <memory>
#include <string>
#include <vector>

#include "quasidyn/common/outcome.h"
#include "quasidyn/contact/contact_set.h"
#include "quasidyn/geometry/contact_point.h"
#include "quasidyn/geometry/geometry_model.h"
#include "quasidyn/geometry/manifold_3d_scratch.h"

namespace quasidyn {

struct Twist {
  Eigen::Vector3d angular = Eigen::Vector3d::Zero();  // ω [rad per unit ε]
  Eigen::Vector3d linear = Eigen::Vector3d::Zero();   // v of the reference point [m per unit ε]
};

// d/dε of the fields of a ContactPoint.
struct ContactPointDerivative {
  double phi = 0.0;                                  // [m]
  Eigen::Vector3d p_A = Eigen::Vector3d::Zero();     // [m]
  Eigen::Vector3d p_B = Eigen::Vector3d::Zero();     // [m]
  Eigen::Vector3d normal = Eigen::Vector3d::Zero();  // [1]
};

// The analytic case of the header (every member a vertex of a polytope A on a half-space B,
// with the plane's normal): writes (*along)[j·|members| + m] = D twists[j] for member m
// (twists: (ω, v) about `reference` [m], as 6-vectors) and returns true, or returns false
// without writing when the pair is not such a case. No manifold query. *along must hold
// twists.size()·members.size() entries.
bool PolytopeHalfSpaceDerivative(const GeometryModel& geometry, const ContactSet& contacts,
                                 const std::vector<int>& members,
                                 const std::vector<Eigen::Isometry3d>& X_WB,
                                 const Eigen::Vector3d& reference,
                                 const std::vector<Eigen::Matrix<double, 6, 1>>& twists,
                                 std::vector<ContactPointDerivative>* along);

class PairMotionDerivative {
 public:
  // The contacts `members` of `contacts` (indices, all of the pair geometry_a, geometry_b,
  // on bodies body_a, body_b, at the body poses X_WB), the reference point c [m, world], the
  // relative twists (ξ_A − ξ_B about c) whose span is needed, the contact tolerance [m] of
  // the scene and the difference step ε > 0 [m or rad]. Queries 2r manifolds (one more when a
  // contact is lost on both sides). Manifold points are matched to the contacts one to one,
  // closest pair first (sum of the two witness distances, within 1000 ε). A contact matched on
  // both sides gets the central difference; on one side only (it leaves the manifold on the
  // other, e.g. its φ crosses the tolerance) the one-sided difference of that side, O(ε); on
  // neither, when it is a point of the pair's manifold at the given poses (within ε), it is
  // treated as fixed to A with the normal fixed to B (the analytic case's formulas). A failure
  // (common/outcome.h) naming the contact and the pair when a contact is matched on neither
  // side and is not a point of that manifold (it disappears: no derivative there) or a
  // manifold query fails numerically.
  // Throws std::invalid_argument for bad arguments (indices, contacts of different pairs,
  // step <= 0).
  Outcome Compute(const GeometryModel& geometry, const ContactSet& contacts,
                  const std::vector<int>& members, const std::vector<Eigen::Isometry3d>& X_WB,
                  double tolerance, const Eigen::Vector3d& reference,
                  const std::vector<Twist>& relative, double step);

  // r: the dimension of the span of the relative twists (2r manifold queries were made,
  // none when analytic() or rounded()).
  int BasisSize() const { return static_cast<int>(basis_.size()); }
  // Whether the last Compute used the analytic polytope–half-space case (header).
  bool analytic() const { return analytic_; }
  // Whether the last Compute used the closed form of rounded cores (spheres, capsules;
  // rounded_pair_derivative.h) instead of manifold queries.
  bool rounded() const { return rounded_; }
  // Whether the last Compute used the closed form of a box pair with its features at q held
  // fixed (polytope_pair_derivative.h): one manifold query instead of 2r.
  bool polytope() const { return polytope_; }
  // With false, Compute differences the manifold of every pair but the polytope–half-space
  // case (the reference the closed forms of rounded_pair_derivative.h and
  // polytope_pair_derivative.h are tested against).
  // Default true.
  void set_closed_forms(bool closed_forms) { closed_forms_ = closed_forms; }

  // d(contact m)/dε for every member m (out[m], m indexes `members`) when A moves by xi_A
  // and B by xi_B (both about the reference point) per unit ε; xi_A − xi_B must lie in the
  // span of the relative twists given (a component outside it is ignored). After a Compute
  // that returned true.
  void Derivatives(const Twist& xi_A, const Twist& xi_B,
                   std::vector<ContactPointDerivative>* out) const;

 private:
  using Vector6d = Eigen::Matrix<double, 6, 1>;
  Eigen::Vector3d reference_;
  bool analytic_ = false;
  bool rounded_ = false;
  bool polytope_ = false;
  bool closed_forms_ = true;
  std::unique_ptr<Manifold3dScratch> scratch_;  // the box pair's manifold at q (made once)
  std::vector<ContactPoint> base_;              // per member
  std::vector<Vector6d> basis_;                 // u_1 … u_r
  std::vector<ContactPointDerivative> along_;   // [j · |members| + m] = D u_j for member m
  std::vector<Eigen::Isometry3d> moved_;        // scratch: X_WB with A moved
  ManifoldPoints points_;                       // scratch: one manifold query
  std::vector<int> match_[3];                   // scratch: per member, the point matched at +ε,
  std::vector<ContactPoint> matched_[3];        // −ε and q (index, −1 for none; copy)
};

}  // namespace quasidyn
