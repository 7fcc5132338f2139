#include "quasidyn/gradients/polytope_pair_derivative.h"

#include <cmath>

#include "quasidyn/geometry/box_box_3d.h"
#include "quasidyn/geometry/manifold_3d.h"
#include "quasidyn/geometry/manifold_3d_scratch.h"
#include "quasidyn/gradients/pair_motion_derivative.h"

namespace quasidyn {
namespace {

using Vector6d = Eigen::Matrix<double, 6, 1>;

// Whether n is ± an axis of the box posed at X_WS, bitwise: box_box_3d.h returns a face axis
// of either box exactly (the column of the pose's rotation, or its negation).
bool IsFaceAxis(const Eigen::Isometry3d& X_WS, const Eigen::Vector3d& n) {
  for (int i = 0; i < 3; ++i) {
    const Eigen::Vector3d axis = X_WS.linear().col(i);
    if (n == axis || n == -axis) return true;
  }
  return false;
}

// The rates of a point and a direction under the twist u (header): moved with A, or fixed
// (B).
struct TwistRates {
  Eigen::Vector3d omega, velocity, c;
  Eigen::Vector3d Point(const Eigen::Vector3d& x, bool on_A) const {
    return on_A ? Eigen::Vector3d(omega.cross(x - c) + velocity) : Eigen::Vector3d::Zero();
  }
  Eigen::Vector3d Direction(const Eigen::Vector3d& d, bool on_A) const {
    return on_A ? Eigen::Vector3d(omega.cross(d)) : Eigen::Vector3d::Zero();
  }
};

// What the normal n of the closest pair is fixed to (header): a face axis of B or of A, or the
// cross product x = a × b of an edge direction a of A and b of B (an edge–edge closest pair,
// box_box_3d.h), n = x/|x| up to sign, whose rate is ṅ = (ẋ − (n·ẋ) n)/|x| (the sign folded
// into x), ẋ = (ω × a) × b.
struct NormalOwner {
  enum Kind { kFaceOfB, kFaceOfA, kEdges } kind = kFaceOfB;
  Eigen::Vector3d a = Eigen::Vector3d::Zero(), b = Eigen::Vector3d::Zero();  // kEdges: x = a × b
  double length = 1.0;                                                       // |x|

  Eigen::Vector3d Rate(const Eigen::Vector3d& n, const TwistRates& u) const {
    switch (kind) {
      case kFaceOfB:
        return Eigen::Vector3d::Zero();
      case kFaceOfA:
        return u.omega.cross(n);
      case kEdges: {
        const Eigen::Vector3d x_dot = u.omega.cross(a).cross(b);
        return (x_dot - n.dot(x_dot) * n) / length;
      }
    }
    return Eigen::Vector3d::Zero();
  }
};

// The owner of n: B's face axis first (box_box_3d.h tries B's faces first, so on a tie the
// normal is B's), then A's, then the edge pair whose normalised cross product is n to
// round-off (box_box_3d.cc: the same product of the edges' directions, normalised). False when
// none is (n from a corner's or parallel edges' difference of points).
bool OwnerOfNormal(const Eigen::Isometry3d& X_WSa, const Eigen::Isometry3d& X_WSb,
                   const Eigen::Vector3d& n, NormalOwner* owner) {
  if (IsFaceAxis(X_WSb, n)) {
    owner->kind = NormalOwner::kFaceOfB;
    return true;
  }
  if (IsFaceAxis(X_WSa, n)) {
    owner->kind = NormalOwner::kFaceOfA;
    return true;
  }
  // Round-off of a normalised cross product of unit vectors: a few ε_machine; box_box_3d.cc
  // skips products shorter than 1e-9 (parallel edges).
  constexpr double kSameDirection = 1e-12, kParallel = 1e-9;
  double best = kSameDirection;
  bool found = false;
  for (int i = 0; i < 3; ++i) {
    for (int j = 0; j < 3; ++j) {
      const Eigen::Vector3d a = X_WSa.linear().col(i), b = X_WSb.linear().col(j);
      const Eigen::Vector3d x = a.cross(b);
      const double length = x.norm();
      if (!(length > kParallel)) continue;
      const double sign = x.dot(n) >= 0.0 ? 1.0 : -1.0;
      const double deviation = (n - sign * x / length).norm();
      if (deviation <= best) {
        best = deviation;
        found = true;
        *owner = {NormalOwner::kEdges, sign * a, b, length};
      }
    }
  }
  return found;
}

// Unit normal (Newell's method, as manifold_3d.cc orders it) and centroid of a polygon.
void PlaneOf(const PointList& polygon, const Eigen::Vector3d& n, Eigen::Vector3d* normal,
             Eigen::Vector3d* centroid) {
  Eigen::Vector3d sum = Eigen::Vector3d::Zero(), newell = Eigen::Vector3d::Zero();
  for (size_t i = 0; i < polygon.size(); ++i) {
    newell += polygon[i].cross(polygon[(i + 1) % polygon.size()]);
    sum += polygon[i];
  }
  *normal = newell.normalized();
  if (normal->dot(n) < 0.0) *normal = -*normal;
  *centroid = sum / static_cast<double>(polygon.size());
}

// One point's features at q, with what its derivative reads.
struct PointFeatures {
  ClippedPointFeatures3d kind;
  Eigen::Vector3d p, q;  // incident and reference witnesses at q
};

// D u of one point (header's formulas).
// The reference plane m·(x − o) = 0 of the manifold (ReferencePlane3d).
struct Plane {
  Eigen::Vector3d normal, point;
  bool normal_is_n;
};

ContactPointDerivative PointDerivative(const Manifold3dScratch& scratch, const Eigen::Vector3d& n,
                                       const NormalOwner& owner, const Plane& plane,
                                       const PointFeatures& point, const Eigen::Vector3d& f,
                                       const Eigen::Vector3d& g, const TwistRates& u) {
  const ManifoldClipRecord3d& record = scratch.record;
  const bool reference_on_A = !record.reference_is_B, incident_on_A = record.reference_is_B;
  const PointList& reference =
      (record.reference_is_B ? scratch.feature_B : scratch.feature_A).points;
  const PointList& incident =
      (record.reference_is_B ? scratch.feature_A : scratch.feature_B).points;
  const Eigen::Vector3d n_dot = owner.Rate(n, u);
  const Eigen::Vector3d& p = point.p;
  Eigen::Vector3d p_dot = Eigen::Vector3d::Zero();
  switch (point.kind.kind) {
    case ClippedPointFeatures3d::kIncidentVertex:
      p_dot = u.Point(incident[point.kind.incident], incident_on_A);
      break;
    case ClippedPointFeatures3d::kIncidentEdgeCut: {
      const int j = point.kind.incident, i = point.kind.reference;
      const Eigen::Vector3d& a = incident[j];
      const Eigen::Vector3d& b = incident[(j + 1) % incident.size()];
      const Eigen::Vector3d& r0 = reference[i];
      const Eigen::Vector3d& r1 = reference[(i + 1) % reference.size()];
      const Eigen::Vector3d e = b - a, k = n.cross(r1 - r0);
      const Eigen::Vector3d a_dot = u.Point(a, incident_on_A), b_dot = u.Point(b, incident_on_A);
      const Eigen::Vector3d r0_dot = u.Point(r0, reference_on_A);
      const Eigen::Vector3d r1_dot = u.Point(r1, reference_on_A);
      const Eigen::Vector3d k_dot = n_dot.cross(r1 - r0) + n.cross(r1_dot - r0_dot);
      const double s = k.dot(r0 - a) / k.dot(e);
      const Eigen::Vector3d w = a_dot + s * (b_dot - a_dot);
      const double s_dot = -(k_dot.dot(p - r0) + k.dot(w - r0_dot)) / k.dot(e);
      p_dot = w + s_dot * e;
      break;
    }
    case ClippedPointFeatures3d::kReferenceVertex: {
      const Eigen::Vector3d& r = reference[point.kind.reference];
      const Eigen::Vector3d r_dot = u.Point(r, reference_on_A);
      const Eigen::Vector3d g_dot = u.Point(g, incident_on_A);
      const Eigen::Vector3d f_dot = u.Direction(f, incident_on_A);
      const double lambda = f.dot(g - r) / f.dot(n);
      const double lambda_dot =
          -(f.dot(r_dot + lambda * n_dot - g_dot) + f_dot.dot(p - g)) / f.dot(n);
      p_dot = r_dot + lambda_dot * n + lambda * n_dot;
      break;
    }
  }
  // The reference witness: p moved along n onto the reference plane m·(x − o) = 0.
  const Eigen::Vector3d& m = plane.normal;
  const Eigen::Vector3d& o = plane.point;
  const Eigen::Vector3d m_dot = plane.normal_is_n ? n_dot : u.Direction(m, reference_on_A);
  const Eigen::Vector3d o_dot = u.Point(o, reference_on_A);
  const double t = m.dot(o - p) / m.dot(n);
  const Eigen::Vector3d& q = point.q;
  const double t_dot = -(m.dot(p_dot + t * n_dot - o_dot) + m_dot.dot(q - o)) / m.dot(n);
  const Eigen::Vector3d q_dot = p_dot + t_dot * n + t * n_dot;
  ContactPointDerivative d;
  d.p_A = record.reference_is_B ? p_dot : q_dot;
  d.p_B = record.reference_is_B ? q_dot : p_dot;
  d.normal = n_dot;
  const Eigen::Vector3d p_A = record.reference_is_B ? p : q, p_B = record.reference_is_B ? q : p;
  d.phi = n_dot.dot(p_A - p_B) + n.dot(d.p_A - d.p_B);
  return d;
}

}  // namespace

bool PolytopePairDerivative(const GeometryModel& geometry, const ContactSet& contacts,
                            const std::vector<int>& members,
                            const std::vector<Eigen::Isometry3d>& X_WB, double tolerance,
                            const Eigen::Vector3d& reference, const std::vector<Vector6d>& basis,
                            Manifold3dScratch* scratch,
                            std::vector<ContactPointDerivative>* along) {
  const Scene& scene = geometry.scene();
  if (scene.planar || members.empty() || members.size() > kMaxManifoldPoints) return false;
  const Contact& first = contacts[members[0]];
  const CollisionGeometry& ga = scene.geometries[first.geometry_a];
  const CollisionGeometry& gb = scene.geometries[first.geometry_b];
  if (ga.shape.type != ShapeType::kBox || gb.shape.type != ShapeType::kBox) return false;
  // The manifold at q, as the contact query builds it (geometry_model.cc, narrow_phase_3d.cc).
  const Eigen::Isometry3d X_WSa = X_WB[ga.body] * ga.X_BS;
  const Eigen::Isometry3d X_WSb = X_WB[gb.body] * gb.X_BS;
  const ContactPoint closest = BoxBoxDistance3d(ga.shape.size, X_WSa, gb.shape.size, X_WSb);
  if (!(closest.phi <= tolerance)) return false;
  ManifoldPoints points;
  ContactManifoldFromClosest3d(ga.shape, X_WSa, gb.shape, X_WSb, closest, tolerance, scratch,
                               &points);
  const ManifoldClipRecord3d& record = scratch->record;
  if (!record.clipped) return false;
  const Eigen::Vector3d& n = closest.normal;  // every clipped point's
  NormalOwner owner;
  if (!OwnerOfNormal(X_WSa, X_WSb, n, &owner)) return false;
  Plane plane;
  ReferencePlane3d(*scratch, n, &plane.normal, &plane.point, &plane.normal_is_n);
  // Each contact is a point of this manifold (the same arithmetic: equal but for a merge).
  PointFeatures features[kMaxManifoldPoints];
  const size_t count = members.size();
  for (size_t m = 0; m < count; ++m) {
    const Contact& c = contacts[members[m]];
    const ContactPoint* match = nullptr;
    for (const ContactPoint& point : points) {
      if ((point.p_A - c.p_A).norm() <= kManifoldSlack &&
          (point.p_B - c.p_B).norm() <= kManifoldSlack &&
          (point.normal - c.normal).norm() <= kManifoldSlack) {
        match = &point;
        break;
      }
    }
    if (match == nullptr || !FeaturesOfClippedPoint3d(*scratch, *match, &features[m].kind))
      return false;
    features[m].p = record.reference_is_B ? match->p_A : match->p_B;
    features[m].q = record.reference_is_B ? match->p_B : match->p_A;
  }
  // The incident face's plane, for points at a reference corner.
  const PointList& incident =
      (record.reference_is_B ? scratch->feature_A : scratch->feature_B).points;
  Eigen::Vector3d f = n, g = Eigen::Vector3d::Zero();
  if (incident.size() >= 3) PlaneOf(incident, n, &f, &g);
  for (size_t j = 0; j < basis.size(); ++j) {
    const TwistRates u{basis[j].head<3>(), basis[j].tail<3>(), reference};
    for (size_t m = 0; m < count; ++m)
      (*along)[j * count + m] = PointDerivative(*scratch, n, owner, plane, features[m], f, g, u);
  }
  return true;
}

}  // namespace quasidyn
