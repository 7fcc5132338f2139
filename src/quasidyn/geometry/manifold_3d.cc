#include "quasidyn/geometry/manifold_3d.h"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <limits>
#include <memory>
#include <stdexcept>
#include <string>
#include <utility>

#include "quasidyn/geometry/manifold_3d_scratch.h"
#include "quasidyn/geometry/support_3d.h"

namespace quasidyn {
namespace {

using Feature = ManifoldFeature3d;
using SidePlane = ManifoldSidePlane3d;
using ContactList = SmallVector<ContactPoint, kInlinePoints>;

ContactPoint Flipped(ContactPoint c) {
  std::swap(c.p_A, c.p_B);
  c.normal = -c.normal;
  return c;
}

// An orthonormal basis (t1, t2) of the plane ⟂ n, with t1 × t2 = n.
std::pair<Eigen::Vector3d, Eigen::Vector3d> TangentBasis(const Eigen::Vector3d& n) {
  const Eigen::Vector3d seed =
      std::abs(n.x()) < 0.9 ? Eigen::Vector3d::UnitX() : Eigen::Vector3d::UnitY();
  const Eigen::Vector3d t1 = (seed - seed.dot(n) * n).normalized();
  return {t1, n.cross(t1)};
}

double Cross2d(const Eigen::Vector2d& o, const Eigen::Vector2d& a, const Eigen::Vector2d& b) {
  return (a - o).x() * (b - o).y() - (a - o).y() * (b - o).x();
}

// Writes the ordered feature of `points` into `feature` (its points cleared first).
void OrderFeature(const PointList& points, const Eigen::Vector3d& n, Feature* feature,
                  Manifold3dScratch* scratch) {
  feature->points.clear();
  const auto [t1, t2] = TangentBasis(n);
  auto& order = scratch->order;
  order.clear();
  order.resize(points.size());
  auto& planar = scratch->planar;
  planar.clear();
  planar.resize(points.size());
  for (size_t i = 0; i < points.size(); ++i) {
    order[i] = static_cast<int>(i);
    planar[i] = Eigen::Vector2d(t1.dot(points[i]), t2.dot(points[i]));
  }
  std::sort(order.begin(), order.end(), [&](int i, int j) {
    return planar[i].x() < planar[j].x() ||
           (planar[i].x() == planar[j].x() && planar[i].y() < planar[j].y());
  });
  // Andrew's monotone chain (Andrew, "Another efficient algorithm for convex hulls in two
  // dimensions", IPL 1979): counter-clockwise, collinear points dropped.
  auto& hull = scratch->hull;
  hull.clear();
  hull.resize(2 * order.size());
  int k = 0;
  for (int i : order) {
    while (k >= 2 && Cross2d(planar[hull[k - 2]], planar[hull[k - 1]], planar[i]) <= 0.0) --k;
    hull[k++] = i;
  }
  for (int m = static_cast<int>(order.size()) - 2, lower = k + 1; m >= 0; --m) {
    const int i = order[m];
    while (k >= lower && Cross2d(planar[hull[k - 2]], planar[hull[k - 1]], planar[i]) <= 0.0) --k;
    hull[k++] = i;
  }
  hull.resize(std::max(k - 1, 1));
  // Area and diameter decide polygon versus segment: a hull thinner than kManifoldSlack
  // is a segment between its two farthest points.
  double twice_area = 0.0;
  double diameter = 0.0;
  int far_i = hull[0];
  int far_j = hull[0];
  for (size_t i = 0; i < hull.size(); ++i) {
    const size_t next = (i + 1) % hull.size();
    twice_area += Cross2d(Eigen::Vector2d::Zero(), planar[hull[i]], planar[hull[next]]);
    for (size_t j = i + 1; j < hull.size(); ++j) {
      const double d = (planar[hull[i]] - planar[hull[j]]).norm();
      if (d > diameter) {
        diameter = d;
        far_i = hull[i];
        far_j = hull[j];
      }
    }
  }
  feature->diameter = diameter;
  if (hull.size() >= 3 && std::abs(twice_area) > kManifoldSlack * diameter) {
    for (int i : hull) feature->points.push_back(points[i]);
  } else {
    feature->points.push_back(points[far_i]);
    feature->points.push_back(points[far_j]);
  }
}

// Unit normal of the plane best fitting a polygon (Newell's method; Sutherland, Sproull &
// Schumacker 1974), oriented along n.
Eigen::Vector3d PolygonNormal(const PointList& polygon, const Eigen::Vector3d& n) {
  Eigen::Vector3d normal = Eigen::Vector3d::Zero();
  for (size_t i = 0; i < polygon.size(); ++i) {
    normal += polygon[i].cross(polygon[(i + 1) % polygon.size()]);
  }
  if (normal.norm() == 0.0) return n;
  normal.normalize();
  return normal.dot(n) >= 0.0 ? normal : Eigen::Vector3d(-normal);
}

Eigen::Vector3d Centroid(const PointList& points) {
  Eigen::Vector3d sum = Eigen::Vector3d::Zero();
  for (const auto& p : points) sum += p;
  return sum / static_cast<double>(points.size());
}

// Side planes of the reference feature, each containing n and facing inward, into `planes`
// (cleared first).
void SidePlanes(const Feature& reference, const Eigen::Vector3d& n,
                SmallVector<SidePlane, kInlinePoints>* planes) {
  planes->clear();
  const auto& ref = reference.points;
  if (reference.IsPolygon()) {
    const Eigen::Vector3d centre = Centroid(ref);
    for (size_t i = 0; i < ref.size(); ++i) {
      Eigen::Vector3d normal = n.cross(ref[(i + 1) % ref.size()] - ref[i]);
      if (normal.dot(centre - ref[i]) < 0.0) normal = -normal;
      planes->push_back({normal.normalized(), ref[i]});
    }
  } else {
    Eigen::Vector3d along = ref[1] - ref[0];
    along = (along - along.dot(n) * n).normalized();
    planes->push_back({along, ref[0]});
    planes->push_back({-along, ref[1]});
  }
}

// Sutherland–Hodgman: clips a closed polygon against one plane into `out` (cleared first).
void ClipPolygon(const PointList& polygon, const SidePlane& plane, PointList* out) {
  out->clear();
  for (size_t i = 0; i < polygon.size(); ++i) {
    const Eigen::Vector3d& p = polygon[i];
    const Eigen::Vector3d& q = polygon[(i + 1) % polygon.size()];
    const double dp = plane.Distance(p);
    const double dq = plane.Distance(q);
    if (dp >= 0.0) out->push_back(p);
    if ((dp >= 0.0) != (dq >= 0.0)) out->push_back(p + dp / (dp - dq) * (q - p));
  }
}

// Clips the segment [p, q] against one plane (parametric form) into `out` (cleared first);
// empty when fully outside.
void ClipSegment(const PointList& segment, const SidePlane& plane, PointList* out) {
  out->clear();
  if (segment.size() != 2) {
    for (const auto& p : segment) out->push_back(p);
    return;
  }
  const double dp = plane.Distance(segment[0]);
  const double dq = plane.Distance(segment[1]);
  if (dp < 0.0 && dq < 0.0) return;
  if (dp >= 0.0 && dq >= 0.0) {
    out->push_back(segment[0]);
    out->push_back(segment[1]);
    return;
  }
  const Eigen::Vector3d cut = segment[0] + dp / (dp - dq) * (segment[1] - segment[0]);
  out->push_back(dp >= 0.0 ? segment[0] : cut);
  out->push_back(dp >= 0.0 ? cut : segment[1]);
}

void AddMerged(const ContactPoint& c, ContactList* points) {
  for (const auto& existing : *points) {
    if ((existing.p_A - c.p_A).norm() <= kManifoldSlack &&
        (existing.p_B - c.p_B).norm() <= kManifoldSlack) {
      return;
    }
  }
  points->push_back(c);
}

// Removes element i of `list`, keeping the order of the others.
void EraseAt(std::size_t i, ContactList* list) {
  for (std::size_t j = i; j + 1 < list->size(); ++j) (*list)[j] = (*list)[j + 1];
  list->resize(list->size() - 1);
}

// The cap of manifold_3d.h step 6: the kept points of `points` (consumed) into `kept`.
void CapPoints(ContactList* points, ManifoldPoints* kept) {
  if (static_cast<int>(points->size()) <= kMaxManifoldPoints) {
    for (const ContactPoint& c : *points) kept->push_back(c);
    return;
  }
  const ContactPoint* deepest = std::min_element(
      points->begin(), points->end(), [](const auto& x, const auto& y) { return x.phi < y.phi; });
  kept->push_back(*deepest);
  EraseAt(static_cast<std::size_t>(deepest - points->begin()), points);
  while (static_cast<int>(kept->size()) < kMaxManifoldPoints) {
    size_t best = 0;
    double best_distance = -1.0;
    for (size_t i = 0; i < points->size(); ++i) {
      double nearest = std::numeric_limits<double>::infinity();
      for (const auto& k : *kept) nearest = std::min(nearest, (k.p_A - (*points)[i].p_A).norm());
      if (nearest > best_distance) {
        best_distance = nearest;
        best = i;
      }
    }
    kept->push_back((*points)[best]);
    EraseAt(best, points);
  }
}

void AgainstHalfSpace(const Shape& a, const Eigen::Isometry3d& X_WA, const Eigen::Isometry3d& X_WB,
                      const ContactPoint& closest, double tolerance, double band,
                      Manifold3dScratch* scratch, ManifoldPoints* out) {
  if (a.type == ShapeType::kSphere) {
    out->push_back(closest);
    return;
  }
  const Eigen::Vector3d n = X_WB.linear().col(2);
  const Eigen::Vector3d origin = X_WB.translation();
  PointList& feature = scratch->raw_A;
  SupportFeature3d(a, X_WA, -n, band, &feature);
  ContactList& points = scratch->points;
  points.clear();
  for (const auto& p : feature) {
    ContactPoint c;
    c.normal = n;
    c.phi = n.dot(p - origin);
    c.p_A = p;
    c.p_B = p - c.phi * n;
    if (c.phi <= tolerance + kManifoldSlack) AddMerged(c, &points);
  }
  if (points.empty()) {
    out->push_back(closest);
    return;
  }
  CapPoints(&points, out);
}

}  // namespace

std::vector<ContactPoint> ContactManifoldFromClosest3d(
    const Shape& a, const Eigen::Isometry3d& X_WA, const Shape& b, const Eigen::Isometry3d& X_WB,
    const ContactPoint& closest, double tolerance) {
  if (!(tolerance >= 0.0) || !std::isfinite(tolerance)) {
    throw std::invalid_argument("contact manifold: tolerance must be finite and >= 0, got " +
                                std::to_string(tolerance));
  }
  if (a.type == ShapeType::kHalfSpace && b.type == ShapeType::kHalfSpace) {
    throw std::invalid_argument("contact manifold: two half_spaces");
  }
  const auto scratch = std::make_unique<Manifold3dScratch>();
  ManifoldPoints points;
  ContactManifoldFromClosest3d(a, X_WA, b, X_WB, closest, tolerance, scratch.get(), &points);
  return std::vector<ContactPoint>(points.begin(), points.end());
}

void ContactManifoldFromClosest3d(const Shape& a, const Eigen::Isometry3d& X_WA, const Shape& b,
                                  const Eigen::Isometry3d& X_WB, const ContactPoint& closest,
                                  double tolerance, Manifold3dScratch* scratch,
                                  ManifoldPoints* out) {
  out->clear();
  scratch->record.clipped = false;
  if (closest.phi > tolerance) return;
  const double band = (tolerance - closest.phi) + kManifoldSlack;
  if (b.type == ShapeType::kHalfSpace) {
    AgainstHalfSpace(a, X_WA, X_WB, closest, tolerance, band, scratch, out);
    return;
  }
  if (a.type == ShapeType::kHalfSpace) {
    AgainstHalfSpace(b, X_WB, X_WA, Flipped(closest), tolerance, band, scratch, out);
    for (auto& c : *out) c = Flipped(c);
    return;
  }
  const Eigen::Vector3d n = closest.normal;
  PointList& raw_A = scratch->raw_A;
  SupportFeature3d(a, X_WA, -n, band, &raw_A);
  if (raw_A.size() < 2) {
    out->push_back(closest);
    return;
  }
  PointList& raw_B = scratch->raw_B;
  SupportFeature3d(b, X_WB, n, band, &raw_B);
  if (raw_B.size() < 2) {
    out->push_back(closest);
    return;
  }
  Feature& feature_A = scratch->feature_A;
  OrderFeature(raw_A, n, &feature_A, scratch);
  Feature& feature_B = scratch->feature_B;
  OrderFeature(raw_B, n, &feature_B, scratch);
  // A feature whose projection is a point (e.g. an edge along n) acts as a single point.
  if (feature_A.diameter <= kManifoldSlack || feature_B.diameter <= kManifoldSlack) {
    out->push_back(closest);
    return;
  }

  // Choose the reference feature (manifold_3d.h step 4).
  bool reference_is_B = true;
  if (feature_A.IsPolygon() && feature_B.IsPolygon()) {
    const double align_A = PolygonNormal(feature_A.points, n).dot(n);
    const double align_B = PolygonNormal(feature_B.points, n).dot(n);
    reference_is_B = align_B >= align_A - 1e-12;
  } else if (feature_A.IsPolygon()) {
    reference_is_B = false;
  } else if (!feature_B.IsPolygon()) {
    // Two segments: clip only when their projections onto the plane ⟂ n are parallel.
    auto projected = [&n](const Feature& f) {
      const Eigen::Vector3d d = f.points[1] - f.points[0];
      return Eigen::Vector3d(d - d.dot(n) * n);
    };
    const Eigen::Vector3d d_A = projected(feature_A);
    const Eigen::Vector3d d_B = projected(feature_B);
    if (d_A.cross(d_B).norm() > 1e-6 * d_A.norm() * d_B.norm()) {
      out->push_back(closest);
      return;
    }
  }
  const Feature& reference = reference_is_B ? feature_B : feature_A;
  const Feature& incident = reference_is_B ? feature_A : feature_B;

  // Sutherland–Hodgman passes alternate between two buffers; `clipped` is the latest.
  PointList* buffers = scratch->clip;
  buffers[0].clear();
  for (const auto& p : incident.points) buffers[0].push_back(p);
  int latest = 0;
  SidePlanes(reference, n, &scratch->planes);
  for (const SidePlane& plane : scratch->planes) {
    PointList* clip_out = &buffers[1 - latest];
    if (incident.IsPolygon()) {
      ClipPolygon(buffers[latest], plane, clip_out);
    } else {
      ClipSegment(buffers[latest], plane, clip_out);
    }
    latest = 1 - latest;
    if (buffers[latest].empty()) break;
  }
  const PointList& clipped = buffers[latest];

  // Reference plane: the fitted plane of a polygon; for a segment, the plane through it
  // whose normal is n without its component along the segment.
  Eigen::Vector3d plane_normal;
  if (reference.IsPolygon()) {
    plane_normal = PolygonNormal(reference.points, n);
  } else {
    const Eigen::Vector3d along = (reference.points[1] - reference.points[0]).normalized();
    plane_normal = (n - n.dot(along) * along).normalized();
  }
  if (plane_normal.dot(n) < 0.5) plane_normal = n;  // a reference nearly along n: use n
  const Eigen::Vector3d plane_point = Centroid(reference.points);

  ContactList& points = scratch->points;
  points.clear();
  for (const Eigen::Vector3d& p : clipped) {
    // p + t n lies on the reference plane.
    const double t = plane_normal.dot(plane_point - p) / plane_normal.dot(n);
    ContactPoint c;
    c.normal = n;
    c.p_A = reference_is_B ? p : Eigen::Vector3d(p + t * n);
    c.p_B = reference_is_B ? Eigen::Vector3d(p + t * n) : p;
    c.phi = n.dot(c.p_A - c.p_B);
    if (c.phi <= tolerance + kManifoldSlack) AddMerged(c, &points);
  }
  if (points.empty()) {
    out->push_back(closest);
    return;
  }
  CapPoints(&points, out);
  scratch->record = {true, reference_is_B};
}

void ReferencePlane3d(const Manifold3dScratch& scratch, const Eigen::Vector3d& n,
                      Eigen::Vector3d* normal, Eigen::Vector3d* point, bool* normal_is_n) {
  const Feature& reference = scratch.record.reference_is_B ? scratch.feature_B : scratch.feature_A;
  *normal = PolygonNormal(reference.points, n);
  *normal_is_n = normal->dot(n) < 0.5;
  if (*normal_is_n) *normal = n;
  *point = Centroid(reference.points);
}

bool FeaturesOfClippedPoint3d(const Manifold3dScratch& scratch, const ContactPoint& point,
                              ClippedPointFeatures3d* out) {
  const ManifoldClipRecord3d& record = scratch.record;
  if (!record.clipped) return false;
  const Feature& reference = record.reference_is_B ? scratch.feature_B : scratch.feature_A;
  const Feature& incident = record.reference_is_B ? scratch.feature_A : scratch.feature_B;
  if (!reference.IsPolygon() || scratch.planes.size() != reference.points.size()) return false;
  const Eigen::Vector3d& p = record.reference_is_B ? point.p_A : point.p_B;
  const int incident_count = static_cast<int>(incident.points.size());
  // Sutherland–Hodgman keeps an incident vertex as it is (a copy).
  for (int i = 0; i < incident_count; ++i) {
    if (incident.points[i] == p) {
      *out = {ClippedPointFeatures3d::kIncidentVertex, i, -1};
      return true;
    }
  }
  // A cut lies on its side plane to round-off: ε_machine times the coordinates' size.
  const double on =
      1e-12 * (1.0 + p.cwiseAbs().maxCoeff() + reference.diameter + incident.diameter);
  const int plane_count = static_cast<int>(scratch.planes.size());
  int on_planes[2] = {-1, -1};
  int count = 0;
  for (int i = 0; i < plane_count; ++i) {
    if (std::abs(scratch.planes[i].Distance(p)) > on) continue;
    if (count < 2) on_planes[count] = i;
    ++count;
  }
  if (count == 2 && incident.IsPolygon()) {
    // Planes i and i + 1 share reference point i + 1 (cyclic).
    const int first = on_planes[0], second = on_planes[1];
    if (second == first + 1) {
      *out = {ClippedPointFeatures3d::kReferenceVertex, -1, second};
      return true;
    }
    if (first == 0 && second == plane_count - 1) {
      *out = {ClippedPointFeatures3d::kReferenceVertex, -1, 0};
      return true;
    }
    return false;
  }
  if (count != 1) return false;
  // The incident edge through p: the nearest to p of those whose segment holds it.
  const int edge_count = incident.IsPolygon() ? incident_count : 1;
  int best = -1;
  double best_distance = on;
  for (int j = 0; j < edge_count; ++j) {
    const Eigen::Vector3d& a = incident.points[j];
    const Eigen::Vector3d e = incident.points[(j + 1) % incident_count] - a;
    const double length_squared = e.squaredNorm();
    if (!(length_squared > 0.0)) continue;
    const double s = (p - a).dot(e) / length_squared;
    if (s < -on || s > 1.0 + on) continue;
    const double distance = (p - a - s * e).norm();
    if (distance <= best_distance) {
      best = j;
      best_distance = distance;
    }
  }
  if (best < 0) return false;
  *out = {ClippedPointFeatures3d::kIncidentEdgeCut, best, on_planes[0]};
  return true;
}

}  // namespace quasidyn
