#include "quasidyn/gradients/pair_motion_derivative.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

#include "quasidyn/common/argument_check.h"
#include "quasidyn/geometry/manifold_3d.h"
#include "quasidyn/geometry/manifold_points.h"
#include "quasidyn/gradients/polytope_pair_derivative.h"
#include "quasidyn/gradients/rounded_pair_derivative.h"

namespace quasidyn {
namespace {

using Vector6d = Eigen::Matrix<double, 6, 1>;

// A residual below this fraction of the largest twist is in the span already. The twists come
// from Jacobian columns with rounding of ≈ 1e-16 relative, and a dropped component of this
// size changes a derivative by the same fraction, far below the central difference's own error.
constexpr double kSpanTolerance = 1e-12;

Vector6d Stack(const Twist& xi) {
  Vector6d x;
  x << xi.angular, xi.linear;
  return x;
}

// At most six orthonormal 6-vectors, without heap storage.
struct Basis6 {
  Vector6d u[6];
  int size = 0;

  // Modified Gram–Schmidt with one re-orthogonalisation: adds x's residual, normalised, when
  // its norm exceeds `tolerance` and fewer than six are kept.
  void Add(const Vector6d& x, double tolerance) {
    if (size == 6) return;
    Vector6d r = x;
    for (int pass = 0; pass < 2; ++pass)
      for (int j = 0; j < size; ++j) r -= u[j].dot(r) * u[j];
    const double norm = r.norm();
    if (norm > tolerance) u[size++] = r / norm;
  }
};

// The basis of span{twists} of the header, into *basis: the world axes' rotations and
// translations projected onto the span, orthonormalised in that order. It depends on the span
// only (not on the order or scale of the twists, i.e. not on how the joints are
// parameterised), and is the axes themselves when the span is everything the scene allows:
// all six in 3D, (ω_z, v_x, v_y) in a planar scene (whose twists have no other components).
// The twists are not read past the point where the span is everything.
void SpanBasis(const std::vector<Twist>& twists, bool planar, std::vector<Vector6d>* basis) {
  basis->clear();
  double largest = 0.0;
  for (const Twist& xi : twists) largest = std::max(largest, Stack(xi).norm());
  if (!(largest > 0.0)) return;
  const int everything = planar ? 3 : 6;
  Basis6 span;
  for (const Twist& xi : twists) {
    span.Add(Stack(xi), kSpanTolerance * largest);
    if (span.size == everything) {  // the axes themselves
      for (int axis = 0; axis < 6; ++axis)
        if (!planar || axis == 2 || axis == 3 || axis == 4) basis->push_back(Vector6d::Unit(axis));
      return;
    }
  }
  // Every unit w of the span has Σ_axis (w · U Uᵀ e_axis)² = |w|² = 1, so some projected axis
  // has a component >= 1/√6 along any w not yet covered: Gram–Schmidt keeps exactly dim span
  // of them (the 1e-8 cut drops only round-off).
  Basis6 axes;
  for (int axis = 0; axis < 6 && axes.size < span.size; ++axis) {
    Vector6d x = Vector6d::Zero();
    for (int j = 0; j < span.size; ++j) x += span.u[j][axis] * span.u[j];  // (U Uᵀ) e_axis
    axes.Add(x, 1e-8);
  }
  basis->assign(axes.u, axes.u + axes.size);
}

// p ↦ c + s v + R(s ω)(p − c) (header), as a pose to compose on the left of X_WA.
Eigen::Isometry3d Motion(const Vector6d& u, double s, const Eigen::Vector3d& c) {
  const Eigen::Vector3d omega = u.head<3>(), v = u.tail<3>();
  const double angle = s * omega.norm();
  const Eigen::Matrix3d R = angle != 0.0
                                ? Eigen::AngleAxisd(angle, omega.normalized()).toRotationMatrix()
                                : Eigen::Matrix3d::Identity();
  Eigen::Isometry3d motion = Eigen::Isometry3d::Identity();
  motion.linear() = R;
  motion.translation() = c + s * v - R * c;
  return motion;
}

// Whether X_WS·p = p_W, to the merge distance of the manifold (manifold_3d.h): a manifold point
// against a half-space is a vertex transformed by the same arithmetic, so equal but for a merge.
bool SameVertex(const Eigen::Isometry3d& X_WS, const Eigen::Vector3d& p_S,
                const Eigen::Vector3d& p_W) {
  return (X_WS * p_S - p_W).norm() <= kManifoldSlack;
}

// True when every member is a vertex of a polytope A (a box or a convex shape) against a
// half-space on B with the plane's normal (manifold_3d.h step 3): those points are fixed on A
// and the normal on B, which the header's analytic derivative needs.
bool PolytopeAgainstHalfSpace(const GeometryModel& geometry, const ContactSet& contacts,
                              const std::vector<int>& members,
                              const std::vector<Eigen::Isometry3d>& X_WB) {
  const Scene& scene = geometry.scene();
  if (scene.planar) return false;
  const Contact& first = contacts[members[0]];
  const CollisionGeometry& a = scene.geometries[first.geometry_a];
  const CollisionGeometry& b = scene.geometries[first.geometry_b];
  if (b.shape.type != ShapeType::kHalfSpace ||
      (a.shape.type != ShapeType::kBox && a.shape.type != ShapeType::kConvex))
    return false;
  const Eigen::Isometry3d X_WSa = X_WB[a.body] * a.X_BS;
  const Eigen::Vector3d plane_normal = (X_WB[b.body] * b.X_BS).linear().col(2);
  for (int i : members) {
    const Contact& c = contacts[i];
    if ((c.normal - plane_normal).norm() > kManifoldSlack) return false;
    bool vertex = false;
    if (a.shape.type == ShapeType::kBox) {
      const Eigen::Vector3d half = 0.5 * a.shape.size;
      for (int corner = 0; corner < 8 && !vertex; ++corner) {
        const Eigen::Vector3d p_S((corner & 1) ? half.x() : -half.x(),
                                  (corner & 2) ? half.y() : -half.y(),
                                  (corner & 4) ? half.z() : -half.z());
        vertex = SameVertex(X_WSa, p_S, c.p_A);
      }
    } else {
      for (size_t k = 0; k < a.shape.vertices.size() && !vertex; ++k)
        vertex = SameVertex(X_WSa, a.shape.vertices[k], c.p_A);
    }
    if (!vertex) return false;
  }
  return true;
}

// (x_plus − x_minus) / width, field by field: a central difference (width 2ε) or a one-sided
// one (width ε, one of the two the contact of q itself). Written as w·x_plus − w·x_minus, the
// same arithmetic as a weighted sum of the two sides.
ContactPointDerivative PointDifference(const ContactPoint& plus, const ContactPoint& minus,
                                       double width) {
  const double w = 1.0 / width;
  ContactPointDerivative d;
  d.phi = w * plus.phi - w * minus.phi;
  d.p_A = w * plus.p_A - w * minus.p_A;
  d.p_B = w * plus.p_B - w * minus.p_B;
  d.normal = w * plus.normal - w * minus.normal;
  return d;
}

// D u for a point fixed to A with the normal fixed to B (header, analytic case):
// ṗ_A = ω × (p_A − c) + v, φ̇ = n·ṗ_A, ṗ_B = ṗ_A − φ̇ n, ṅ = 0.
ContactPointDerivative FixedToA(const ContactPoint& at, const Vector6d& u,
                                const Eigen::Vector3d& c) {
  ContactPointDerivative d;
  d.p_A = u.head<3>().cross(at.p_A - c) + u.tail<3>();
  d.phi = at.normal.dot(d.p_A);
  d.p_B = d.p_A - d.phi * at.normal;
  d.normal.setZero();
  return d;
}

// Matches the manifold points of one query to the contacts `base`, one to one: repeatedly the
// closest remaining (contact, point) pair by the sum of the two witness distances, within
// match_distance [m]. (*match)[m] is the point's index or −1, (*matched)[m] a copy of it. Where
// every contact's nearest point is a different one this is the nearest match of each; where two
// contacts share a nearest point (the manifold lost one of theirs), the farther goes without.
void MatchOneToOne(const ManifoldPoints& points, const std::vector<ContactPoint>& base,
                   double match_distance, std::vector<int>* match,
                   std::vector<ContactPoint>* matched) {
  const int count = static_cast<int>(base.size());
  const int size = static_cast<int>(points.size());
  match->assign(count, -1);
  matched->resize(count);
  bool taken[kMaxManifoldPoints] = {};
  for (int round = 0; round < std::min(count, size); ++round) {
    int best_m = -1, best_p = -1;
    double best_distance = match_distance;
    for (int m = 0; m < count; ++m) {
      if ((*match)[m] >= 0) continue;
      for (int p = 0; p < size; ++p) {
        if (taken[p]) continue;
        const double distance =
            (points[p].p_A - base[m].p_A).norm() + (points[p].p_B - base[m].p_B).norm();
        if (distance <= best_distance) {
          best_m = m;
          best_p = p;
          best_distance = distance;
        }
      }
    }
    if (best_m < 0) return;
    (*match)[best_m] = best_p;
    (*matched)[best_m] = points[best_p];
    taken[best_p] = true;
  }
}

}  // namespace

bool PolytopeHalfSpaceDerivative(const GeometryModel& geometry, const ContactSet& contacts,
                                 const std::vector<int>& members,
                                 const std::vector<Eigen::Isometry3d>& X_WB,
                                 const Eigen::Vector3d& reference,
                                 const std::vector<Vector6d>& twists,
                                 std::vector<ContactPointDerivative>* along) {
  if (members.empty() || !PolytopeAgainstHalfSpace(geometry, contacts, members, X_WB)) return false;
  // Analytic (header): a vertex p_A of A moves rigidly with A, the normal n is fixed to B,
  // φ = n·(p_A − o) and p_B = p_A − φ n.
  const size_t count = members.size();
  for (size_t j = 0; j < twists.size(); ++j) {
    const Eigen::Vector3d omega = twists[j].head<3>(), velocity = twists[j].tail<3>();
    for (size_t m = 0; m < count; ++m) {
      const Contact& at = contacts[members[m]];
      ContactPointDerivative& d = (*along)[j * count + m];
      d.p_A = omega.cross(at.p_A - reference) + velocity;
      d.phi = at.normal.dot(d.p_A);
      d.p_B = d.p_A - d.phi * at.normal;
      d.normal.setZero();
    }
  }
  return true;
}

Outcome PairMotionDerivative::Compute(const GeometryModel& geometry, const ContactSet& contacts,
                                      const std::vector<int>& members,
                                      const std::vector<Eigen::Isometry3d>& X_WB, double tolerance,
                                      const Eigen::Vector3d& reference,
                                      const std::vector<Twist>& relative, double step) {
  constexpr const char* kWhere = "PairMotionDerivative";
  QUASIDYN_CHECK_ARGUMENT(step > 0 && std::isfinite(step), kWhere, "step must be finite and > 0");
  QUASIDYN_CHECK_ARGUMENT(!members.empty(), kWhere, "no contacts given");
  for (int i : members)
    QUASIDYN_CHECK_ARGUMENT(i >= 0 && i < contacts.size(), kWhere,
                            "contact index " + std::to_string(i) + " is not in the contact set");
  const Contact& first = contacts[members[0]];
  reference_ = reference;
  SpanBasis(relative, geometry.scene().planar, &basis_);
  base_.clear();
  for (int i : members) {
    const Contact& c = contacts[i];
    QUASIDYN_CHECK_ARGUMENT(c.geometry_a == first.geometry_a && c.geometry_b == first.geometry_b,
                            kWhere,
                            "contacts " + std::to_string(members[0]) + " and " + std::to_string(i) +
                                " are of different pairs");
    base_.push_back({c.phi, c.p_A, c.p_B, c.normal});
  }
  const int body_a = first.body_a;
  QUASIDYN_CHECK_ARGUMENT(body_a >= 0 && body_a < static_cast<int>(X_WB.size()), kWhere,
                          "body " + std::to_string(body_a) + " has no pose");

  along_.assign(basis_.size() * members.size(), ContactPointDerivative{});
  if (PolytopeHalfSpaceDerivative(geometry, contacts, members, X_WB, reference, basis_, &along_)) {
    analytic_ = true;
    rounded_ = false;
    polytope_ = false;
    return Outcome::Ok();
  }
  analytic_ = false;
  rounded_ = closed_forms_ && RoundedPairDerivative(geometry, contacts, members, X_WB, reference,
                                                    basis_, step, &along_);
  polytope_ = false;
  if (rounded_) return Outcome::Ok();
  if (closed_forms_) {
    if (scratch_ == nullptr) scratch_ = std::make_unique<Manifold3dScratch>();
    polytope_ = PolytopePairDerivative(geometry, contacts, members, X_WB, tolerance, reference,
                                       basis_, scratch_.get(), &along_);
    if (polytope_) return Outcome::Ok();
  }
  const double match_distance = 1000.0 * step;
  const int count = static_cast<int>(members.size());
  moved_ = X_WB;
  bool queried_q = false;  // whether match_[2] holds the matches at q itself
  for (size_t j = 0; j < basis_.size(); ++j) {
    for (int side = 0; side < 2; ++side) {
      const double s = side == 0 ? step : -step;
      moved_[body_a] = Motion(basis_[j], s, reference) * X_WB[body_a];
      if (const Outcome query = geometry.PairManifold(first.geometry_a, first.geometry_b, moved_,
                                                      tolerance, &points_);
          !query) {
        return Outcome::Failure(
            "contact " + std::to_string(members[0]) +
            ": the manifold query at a perturbed pose failed: " + query.message());
      }
      MatchOneToOne(points_, base_, match_distance, &match_[side], &matched_[side]);
    }
    for (int m = 0; m < count; ++m) {
      const ContactPoint& at = base_[m];
      ContactPointDerivative& d = along_[j * members.size() + m];
      const int plus = match_[0][m], minus = match_[1][m];
      if (plus >= 0 && minus >= 0) {  // central difference
        d = PointDifference(matched_[0][m], matched_[1][m], 2.0 * step);
      } else if (plus >= 0 || minus >= 0) {
        // The point exists on one side only (it leaves the manifold on the other: its φ
        // crosses the tolerance, or the manifold's construction changes there, manifold_3d.h
        // steps 2 and 4): the derivative of the piecewise smooth point on the side where it
        // exists, a one-sided difference, O(ε) (Nocedal & Wright, Numerical Optimization,
        // 2006, eq. 8.1).
        d = plus >= 0 ? PointDifference(matched_[0][m], at, step)
                      : PointDifference(at, matched_[1][m], step);
      } else {
        // Gone on both sides. A point of q's own manifold that both motions remove (two
        // segments whose projections are parallel only at q, manifold_3d.h step 4: a clipped
        // point at q, the closest pair alone at ±ε) has no derivative; it is treated as fixed
        // to A, with the normal fixed to B, as a vertex on a half-space (header, analytic
        // case). A contact that is not a point of q's manifold (stale or foreign) fails.
        if (!queried_q) {
          if (const Outcome query = geometry.PairManifold(first.geometry_a, first.geometry_b, X_WB,
                                                          tolerance, &points_);
              !query) {
            return Outcome::Failure("contact " + std::to_string(members[0]) +
                                    ": the manifold query at q failed: " + query.message());
          }
          MatchOneToOne(points_, base_, match_distance, &match_[2], &matched_[2]);
          queried_q = true;
        }
        if (match_[2][m] < 0 ||
            (matched_[2][m].p_A - at.p_A).norm() + (matched_[2][m].p_B - at.p_B).norm() > step) {
          return Outcome::Failure(
              "contact " + std::to_string(members[m]) + " (geometries " +
              std::to_string(first.geometry_a) + ", " + std::to_string(first.geometry_b) +
              ") of q disappears when its bodies move relative to each other by ±" +
              std::to_string(step) + " (relative motion " + std::to_string(j) +
              ") and is not a point of the pair's manifold at q: the step is not "
              "differentiable there");
        }
        d = FixedToA(at, basis_[j], reference);
      }
    }
  }
  return Outcome::Ok();
}

void PairMotionDerivative::Derivatives(const Twist& xi_A, const Twist& xi_B,
                                       std::vector<ContactPointDerivative>* out) const {
  // δ = Σ_j (u_j · δ) u_j.
  // Only the nonzero coefficients are summed (an exact zero adds nothing; the world axes are
  // the basis of most pairs, along which a body's translation columns have one component).
  const Vector6d delta = Stack(xi_A) - Stack(xi_B);
  double coefficient[6];
  int used[6];
  int r = 0;
  for (int j = 0; j < static_cast<int>(basis_.size()); ++j) {
    const double c = basis_[j].dot(delta);
    if (c == 0.0) continue;
    coefficient[r] = c;
    used[r++] = j;
  }
  out->resize(base_.size());
  for (size_t m = 0; m < base_.size(); ++m) {
    const ContactPoint& at = base_[m];
    ContactPointDerivative& d = (*out)[m];
    // common(ξ_B) (header) + D δ.
    d.phi = 0.0;
    d.p_A = xi_B.angular.cross(at.p_A - reference_) + xi_B.linear;
    d.p_B = xi_B.angular.cross(at.p_B - reference_) + xi_B.linear;
    d.normal = xi_B.angular.cross(at.normal);
    for (int k = 0; k < r; ++k) {
      const ContactPointDerivative& along = along_[used[k] * base_.size() + m];
      d.phi += coefficient[k] * along.phi;
      d.p_A += coefficient[k] * along.p_A;
      d.p_B += coefficient[k] * along.p_B;
      d.normal += coefficient[k] * along.normal;
    }
  }
}

}  // namespace quasidyn
