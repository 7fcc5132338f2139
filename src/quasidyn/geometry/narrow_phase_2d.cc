#include "quasidyn/geometry/narrow_phase_2d.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>

#include "quasidyn/geometry/fixed_capacity_vector.h"

namespace quasidyn {
namespace {

using Eigen::Vector2d;
using Core = std::span<const Vector2d>;
// An incident feature (1 point or a segment), before and after clipping.
using FeaturePoints = FixedCapacityVector<Vector2d, 2>;

constexpr double kRelativeLengthTolerance = 1e-9;  // see narrow_phase_2d.h

// One contact point in the plane, before it becomes a ContactPoint.
struct PlanarContact {
  double phi = 0.0;
  Vector2d p_A = Vector2d::Zero();
  Vector2d p_B = Vector2d::Zero();
  Vector2d normal = Vector2d::UnitY();  // from B to A
};

ContactPoint ToContactPoint(const PlanarContact& c) {
  ContactPoint point;
  point.phi = c.phi;
  point.p_A << c.p_A, 0.0;
  point.p_B << c.p_B, 0.0;
  point.normal << c.normal, 0.0;
  return point;
}

// The points of one planar manifold (narrow_phase_2d.h, manifold_points.h).
using PlanarContacts = FixedCapacityVector<PlanarContact, kMaxPlanarManifoldPoints>;

// The same contact seen with A and B exchanged.
PlanarContact Swapped(const PlanarContact& c) {
  return PlanarContact{c.phi, c.p_B, c.p_A, -c.normal};
}

// max over the core's vertices of v·direction (the support function of the core).
double Support(const Core& core, const Vector2d& direction) {
  double best = -std::numeric_limits<double>::infinity();
  for (const Vector2d& v : core) best = std::max(best, v.dot(direction));
  return best;
}

// Index of the first vertex attaining Support(core, direction).
int SupportIndex(const Core& core, const Vector2d& direction) {
  int best = 0;
  for (int i = 1; i < static_cast<int>(core.size()); ++i) {
    if (core[i].dot(direction) > core[best].dot(direction)) best = i;
  }
  return best;
}

// The point of segment [s0, s1] closest to p (Ericson 2005, §5.1.2); works for s0 == s1.
Vector2d ClosestPointOnSegment(const Vector2d& p, const Vector2d& s0, const Vector2d& s1) {
  const Vector2d edge = s1 - s0;
  const double length_squared = edge.squaredNorm();
  if (length_squared == 0.0) return s0;
  const double t = std::clamp((p - s0).dot(edge) / length_squared, 0.0, 1.0);
  return s0 + t * edge;
}

// Edge i of a core runs from core[i] to core[(i + 1) % n]: a single point has one
// degenerate edge, a segment has two (one per side), a polygon n.
Vector2d EdgeEnd(const Core& core, int i) { return core[(i + 1) % core.size()]; }

// The outward unit normal of edge i of a counter-clockwise core (the edge's right side);
// zero for a degenerate edge.
Vector2d EdgeOutwardNormal(const Core& core, int i) {
  const Vector2d edge = EdgeEnd(core, i) - core[i];
  const double length = edge.norm();
  if (length == 0.0) return Vector2d::Zero();
  return Vector2d(edge.y(), -edge.x()) / length;
}

struct ClosestPair {
  Vector2d on_p, on_q;
  double distance = std::numeric_limits<double>::infinity();
};

// The closest pair of points of the convex cores P and Q, valid when they do not overlap:
// one of the pair is then a vertex and the other lies on an edge (Ericson 2005, ch. 5).
ClosestPair ClosestCorePoints(const Core& p, const Core& q) {
  ClosestPair best;
  auto consider = [&best](const Vector2d& on_p, const Vector2d& on_q) {
    const double distance = (on_p - on_q).norm();
    if (distance < best.distance) best = ClosestPair{on_p, on_q, distance};
  };
  for (const Vector2d& v : p) {
    for (int j = 0; j < static_cast<int>(q.size()); ++j) {
      consider(v, ClosestPointOnSegment(v, q[j], EdgeEnd(q, j)));
    }
  }
  for (const Vector2d& v : q) {
    for (int i = 0; i < static_cast<int>(p.size()); ++i) {
      consider(ClosestPointOnSegment(v, p[i], EdgeEnd(p, i)), v);
    }
  }
  return best;
}

// min_{a∈P} a·n − max_{b∈Q} b·n: the separation of the cores along n (unit, from Q to P).
double CoreGap(const Core& p, const Core& q, const Vector2d& n) {
  return -Support(p, -n) - Support(q, n);
}

// A reference face: edge `edge` of the core of shape `owner` (0 = A, 1 = B).
struct Face {
  int owner = 1;
  int edge = 0;
  Vector2d outward = Vector2d::Zero();
  double core_gap = -std::numeric_limits<double>::infinity();
};

// The edge normal of either core with the largest separating-axis gap; B's faces come
// first and a later face wins only by more than `length_tolerance`. nullopt when neither
// core has an edge of positive length (two points).
std::optional<Face> BestFace(const Core& p, const Core& q, double length_tolerance) {
  std::optional<Face> best;
  auto consider = [&](int owner, const Core& core) {
    for (int i = 0; i < static_cast<int>(core.size()); ++i) {
      const Vector2d m = EdgeOutwardNormal(core, i);
      if (m.isZero()) continue;
      // A face of B separates along n = m; a face of A along n = −m.
      const double gap = owner == 1 ? CoreGap(p, q, m) : CoreGap(p, q, -m);
      if (!best || gap > best->core_gap + length_tolerance) best = Face{owner, i, m, gap};
    }
  };
  consider(1, q);
  consider(0, p);
  return best;
}

// The incident feature of a core against a reference face with outward normal m: the
// whole core when it has 1 or 2 vertices, else its edge most anti-parallel to m.
FeaturePoints IncidentFeature(const Core& core, const Vector2d& m) {
  FeaturePoints feature;
  if (core.size() <= 2) {
    for (const Vector2d& v : core) feature.push_back(v);
    return feature;
  }
  int best = 0;
  double best_alignment = std::numeric_limits<double>::infinity();
  for (int i = 0; i < static_cast<int>(core.size()); ++i) {
    const double alignment = EdgeOutwardNormal(core, i).dot(m);
    if (alignment < best_alignment) {
      best_alignment = alignment;
      best = i;
    }
  }
  feature.push_back(core[best]);
  feature.push_back(EdgeEnd(core, best));
  return feature;
}

// Clips the incident feature (1 point or a segment) to the slab between the lines
// through face_start and face_end perpendicular to the face.
FeaturePoints ClipToFaceSlab(const FeaturePoints& feature, const Vector2d& face_start,
                             const Vector2d& face_end, double length_tolerance) {
  const double face_length = (face_end - face_start).norm();
  const Vector2d along = (face_end - face_start) / face_length;
  auto coordinate = [&](const Vector2d& x) { return (x - face_start).dot(along); };
  if (feature.size() == 1) {
    const double t = coordinate(feature[0]);
    if (t >= -length_tolerance && t <= face_length + length_tolerance) return feature;
    return {};
  }
  // Parametric clip of x(s) = f0 + s (f1 − f0), s ∈ [0, 1], to 0 <= t(x) <= face_length.
  const double t0 = coordinate(feature[0]);
  const double t1 = coordinate(feature[1]);
  double s_low = 0.0, s_high = 1.0;
  if (std::abs(t1 - t0) <= length_tolerance) {
    // Perpendicular to the face: all in or all out.
    const double t = 0.5 * (t0 + t1);
    if (t < -length_tolerance || t > face_length + length_tolerance) return {};
  } else {
    const double s_at_start = (0.0 - t0) / (t1 - t0);
    const double s_at_end = (face_length - t0) / (t1 - t0);
    s_low = std::max(s_low, std::min(s_at_start, s_at_end));
    s_high = std::min(s_high, std::max(s_at_start, s_at_end));
    if (s_low > s_high) return {};
  }
  const Vector2d f0 = feature[0];
  const Vector2d f1 = feature[1];
  FeaturePoints clipped;
  clipped.push_back(f0 + s_low * (f1 - f0));
  clipped.push_back(f0 + s_high * (f1 - f0));
  if ((clipped[1] - clipped[0]).norm() <= length_tolerance) clipped.pop_back();
  return clipped;
}

// A contact point of an incident core point v (shape radius incident_radius) against a
// reference line through face_point with outward normal m (shape radius reference_radius):
// φ = (v − face_point)·m − r_incident − r_reference. Reported with B → A normal given
// which shape owns the reference face.
PlanarContact FaceContact(const Vector2d& v, double incident_radius, const Vector2d& face_point,
                          const Vector2d& m, double reference_radius, bool reference_is_b) {
  const double height = (v - face_point).dot(m);
  const Vector2d on_incident = v - incident_radius * m;
  const Vector2d on_reference = v - height * m + reference_radius * m;
  const double phi = height - incident_radius - reference_radius;
  PlanarContact contact{phi, on_incident, on_reference, m};
  return reference_is_b ? contact : Swapped(contact);
}

// The closest pair of the rounded shapes from the closest pair of their cores, along the
// unit normal n from Q to P.
PlanarContact VertexContact(const ClosestPair& pair, double radius_a, double radius_b,
                            const Vector2d& n) {
  return PlanarContact{pair.distance - radius_a - radius_b, pair.on_p - radius_a * n,
                       pair.on_q + radius_b * n, n};
}

double LengthScale(const PlanarShape2dView& a, const PlanarShape2dView& b) {
  double scale = std::max(a.radius, b.radius);
  for (const PlanarShape2dView* shape : {&a, &b}) {
    for (const Vector2d& v : shape->core) scale = std::max(scale, v.cwiseAbs().maxCoeff());
    if (shape->is_half_plane) scale = std::max(scale, shape->point.cwiseAbs().maxCoeff());
  }
  return scale;
}

void AppendIfWithin(const PlanarContact& contact, double tolerance, PlanarContacts* out) {
  if (contact.phi <= tolerance) out->push_back(contact);
}

// Rounded shape a against half-plane b.
PlanarContacts ShapeOnHalfPlane(const PlanarShape2dView& a, const PlanarShape2dView& b,
                                double tolerance) {
  PlanarContacts contacts;
  for (const Vector2d& v : IncidentFeature(a.core, b.normal)) {
    AppendIfWithin(FaceContact(v, a.radius, b.point, b.normal, 0.0, true), tolerance, &contacts);
  }
  return contacts;
}

// Two rounded convex polygons.
PlanarContacts RoundedPolygons(const PlanarShape2dView& a, const PlanarShape2dView& b,
                               double tolerance, double length_tolerance) {
  const Core& p = a.core;
  const Core& q = b.core;
  const ClosestPair closest = ClosestCorePoints(p, q);
  bool separated = false;
  Vector2d closest_direction = Vector2d::UnitY();  // concentric circles: +y by convention
  if (closest.distance > 0.0) {
    closest_direction = (closest.on_p - closest.on_q) / closest.distance;
    // Certificate: for disjoint cores the gap along this direction is the distance; for
    // overlapping cores every gap is <= 0.
    separated = CoreGap(p, q, closest_direction) > 0.5 * closest.distance;
  }
  const std::optional<Face> face = BestFace(p, q, length_tolerance);
  const double phi_exact = separated || !face ? closest.distance - a.radius - b.radius
                                              : face->core_gap - a.radius - b.radius;
  PlanarContacts contacts;
  if (phi_exact > tolerance) return contacts;
  const PlanarContact vertex_contact =
      VertexContact(closest, a.radius, b.radius, closest_direction);
  const bool face_contact =
      face && (!separated || face->core_gap >= closest.distance - length_tolerance);
  if (!face_contact) {
    contacts.push_back(vertex_contact);
    return contacts;
  }

  const bool reference_is_b = face->owner == 1;
  const Core& reference = reference_is_b ? q : p;
  const Core& incident = reference_is_b ? p : q;
  const double reference_radius = reference_is_b ? b.radius : a.radius;
  const double incident_radius = reference_is_b ? a.radius : b.radius;
  const Vector2d& face_start = reference[face->edge];
  const Vector2d& face_end = EdgeEnd(reference, face->edge);
  const Vector2d m = face->outward;

  double deepest = std::numeric_limits<double>::infinity();
  for (const Vector2d& v :
       ClipToFaceSlab(IncidentFeature(incident, m), face_start, face_end, length_tolerance)) {
    const PlanarContact contact =
        FaceContact(v, incident_radius, face_start, m, reference_radius, reference_is_b);
    deepest = std::min(deepest, contact.phi);
    AppendIfWithin(contact, tolerance, &contacts);
  }
  if (deepest > phi_exact + length_tolerance) {
    // The deepest incident vertex lies beyond the reference face's ends: report it too, so
    // the manifold always holds the exact φ.
    const Vector2d v = incident[SupportIndex(incident, -m)];
    contacts.push_back(
        FaceContact(v, incident_radius, face_start, m, reference_radius, reference_is_b));
  }
  return contacts;
}

void CheckTolerance(double tolerance) {
  if (!(tolerance >= 0.0)) {
    throw std::invalid_argument("ContactManifold2d: tolerance must be >= 0 [m] (got " +
                                std::to_string(tolerance) + ")");
  }
}

PlanarContacts PlanarManifold(const PlanarShape2dView& a, const PlanarShape2dView& b,
                              double tolerance) {
  if (a.is_half_plane && b.is_half_plane) {
    throw std::invalid_argument("narrow phase 2d: two half-planes have no signed distance");
  }
  if (a.is_half_plane) {
    PlanarContacts contacts = ShapeOnHalfPlane(b, a, tolerance);
    for (PlanarContact& c : contacts) c = Swapped(c);
    return contacts;
  }
  if (b.is_half_plane) return ShapeOnHalfPlane(a, b, tolerance);
  const double length_tolerance = kRelativeLengthTolerance * LengthScale(a, b);
  return RoundedPolygons(a, b, tolerance, length_tolerance);
}

}  // namespace

void ContactManifold2d(const PlanarShape2dView& a, const PlanarShape2dView& b, double tolerance,
                       ManifoldPoints* out) {
  CheckTolerance(tolerance);
  out->clear();
  for (const PlanarContact& c : PlanarManifold(a, b, tolerance)) {
    out->push_back(ToContactPoint(c));
  }
}

ContactPoint SignedDistance2d(const PlanarShape2dView& a, const PlanarShape2dView& b) {
  const PlanarContacts contacts = PlanarManifold(a, b, std::numeric_limits<double>::infinity());
  // Every shape pair yields at least one point at tolerance +∞; average the deepest ones
  // (the middle of two parallel faces' overlap).
  double deepest = std::numeric_limits<double>::infinity();
  for (const PlanarContact& c : contacts) deepest = std::min(deepest, c.phi);
  const double length_tolerance = kRelativeLengthTolerance * LengthScale(a, b);
  PlanarContact mean{0.0, Vector2d::Zero(), Vector2d::Zero(), Vector2d::Zero()};
  int count = 0;
  for (const PlanarContact& c : contacts) {
    if (c.phi > deepest + length_tolerance) continue;
    mean.phi += c.phi;
    mean.p_A += c.p_A;
    mean.p_B += c.p_B;
    mean.normal = c.normal;  // the deepest points of one manifold share their normal
    ++count;
  }
  mean.phi /= count;
  mean.p_A /= count;
  mean.p_B /= count;
  return ToContactPoint(mean);
}

std::vector<ContactPoint> ContactManifold2d(const PlanarShape2d& a, const PlanarShape2d& b,
                                            double tolerance) {
  ManifoldPoints points;
  ContactManifold2d(ViewOf(a), ViewOf(b), tolerance, &points);
  return std::vector<ContactPoint>(points.begin(), points.end());
}

ContactPoint SignedDistance2d(const PlanarShape2d& a, const PlanarShape2d& b) {
  return SignedDistance2d(ViewOf(a), ViewOf(b));
}

ContactPoint SignedDistance2d(const Shape& a, const Eigen::Isometry3d& X_WA, const Shape& b,
                              const Eigen::Isometry3d& X_WB) {
  return SignedDistance2d(TransformPlanarShape2d(MakePlanarShape2d(a), X_WA),
                          TransformPlanarShape2d(MakePlanarShape2d(b), X_WB));
}

std::vector<ContactPoint> ContactManifold2d(const Shape& a, const Eigen::Isometry3d& X_WA,
                                            const Shape& b, const Eigen::Isometry3d& X_WB,
                                            double tolerance) {
  return ContactManifold2d(TransformPlanarShape2d(MakePlanarShape2d(a), X_WA),
                           TransformPlanarShape2d(MakePlanarShape2d(b), X_WB), tolerance);
}

}  // namespace quasidyn
