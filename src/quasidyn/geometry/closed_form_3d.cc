#include "quasidyn/geometry/closed_form_3d.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "quasidyn/geometry/segment_distance_3d.h"
#include "quasidyn/geometry/support_3d.h"

namespace quasidyn {
namespace {

// Two spheres of radii radius_A, radius_B centred at core_A, core_B (the closest points of
// the shapes' cores): φ = |core_A − core_B| − r_A − r_B, witness points on the spheres.
// `fallback_normal` (unit) is used when the cores coincide.
ContactPoint FromCorePoints(const Eigen::Vector3d& core_A, double radius_A,
                            const Eigen::Vector3d& core_B, double radius_B,
                            const Eigen::Vector3d& fallback_normal) {
  const Eigen::Vector3d d = core_A - core_B;
  const double distance = d.norm();
  ContactPoint c;
  c.normal = distance > kCoincidentCores ? Eigen::Vector3d(d / distance) : fallback_normal;
  c.phi = distance - radius_A - radius_B;
  c.p_A = core_A - radius_A * c.normal;
  c.p_B = core_B + radius_B * c.normal;
  return c;
}

// A unit vector perpendicular to the unit vector `axis`: `preferred` with its axial part
// removed when that is not tiny, else the same for the world x or y axis.
Eigen::Vector3d PerpendicularTo(const Eigen::Vector3d& axis, const Eigen::Vector3d& preferred) {
  for (const Eigen::Vector3d& candidate : {preferred, Eigen::Vector3d(Eigen::Vector3d::UnitX()),
                                           Eigen::Vector3d(Eigen::Vector3d::UnitY())}) {
    const Eigen::Vector3d perpendicular = candidate - candidate.dot(axis) * axis;
    if (perpendicular.norm() > 1e-6 * std::max(1.0, candidate.norm())) {
      return perpendicular.normalized();
    }
  }
  return Eigen::Vector3d::UnitZ();  // unreachable for a unit axis
}

// Contact of sphere A with a convex solid B described in B's frame: `closest_S` is the
// point of B closest to the centre c_S when c_S is outside; when c_S is inside,
// `inside_normal_S` and `inside_depth` (>= 0) give the exit face. Shared by box and
// cylinder.
ContactPoint SphereSolidContact(const Eigen::Vector3d& center_A, double radius_A,
                                const Eigen::Isometry3d& X_WB, const Eigen::Vector3d& center_S,
                                const Eigen::Vector3d& closest_S, bool inside,
                                const Eigen::Vector3d& inside_normal_S, double inside_depth) {
  ContactPoint c;
  if (!inside) {
    const Eigen::Vector3d d_S = center_S - closest_S;
    const double distance = d_S.norm();
    c.normal = X_WB.linear() * (d_S / distance);
    c.phi = distance - radius_A;
    c.p_B = X_WB * closest_S;
  } else {
    c.normal = X_WB.linear() * inside_normal_S;
    c.phi = -inside_depth - radius_A;
    c.p_B = center_A + inside_depth * c.normal;
  }
  c.p_A = center_A - radius_A * c.normal;
  return c;
}

}  // namespace

ContactPoint SphereSphereDistance3d(const Eigen::Vector3d& center_A, double radius_A,
                                    const Eigen::Vector3d& center_B, double radius_B) {
  return FromCorePoints(center_A, radius_A, center_B, radius_B, Eigen::Vector3d::UnitZ());
}

ContactPoint SphereBoxDistance3d(const Eigen::Vector3d& center_A, double radius_A,
                                 const Eigen::Vector3d& size_B, const Eigen::Isometry3d& X_WB) {
  const Eigen::Vector3d half = 0.5 * size_B;
  const Eigen::Vector3d c_S = X_WB.inverse() * center_A;
  const Eigen::Vector3d clamped = c_S.cwiseMax(-half).cwiseMin(half);
  const bool inside = (c_S - clamped).norm() <= kCoincidentCores;
  Eigen::Vector3d inside_normal = Eigen::Vector3d::UnitZ();
  double depth = 0.0;
  if (inside) {
    // Depth below each face pair: h_i − |c_i| >= 0; the least one is the exit face.
    const Eigen::Vector3d depths = half - c_S.cwiseAbs();
    int axis = 0;
    depths.minCoeff(&axis);
    depth = std::max(0.0, depths[axis]);
    inside_normal = Eigen::Vector3d::Zero();
    inside_normal[axis] = c_S[axis] >= 0.0 ? 1.0 : -1.0;
  }
  return SphereSolidContact(center_A, radius_A, X_WB, c_S, clamped, inside, inside_normal, depth);
}

ContactPoint SphereCapsuleDistance3d(const Eigen::Vector3d& center_A, double radius_A,
                                     double radius_B, double length_B,
                                     const Eigen::Isometry3d& X_WB) {
  const Eigen::Vector3d axis = X_WB.linear().col(2);
  const Eigen::Vector3d q0 = X_WB.translation() - 0.5 * length_B * axis;
  const Eigen::Vector3d q1 = X_WB.translation() + 0.5 * length_B * axis;
  const SegmentClosestPoints closest = ClosestPointsOfSegments(center_A, center_A, q0, q1);
  return FromCorePoints(center_A, radius_A, closest.on_q, radius_B, X_WB.linear().col(0));
}

ContactPoint SphereCylinderDistance3d(const Eigen::Vector3d& center_A, double radius_A,
                                      double radius_B, double length_B,
                                      const Eigen::Isometry3d& X_WB) {
  const double half = 0.5 * length_B;
  const Eigen::Vector3d c_S = X_WB.inverse() * center_A;
  const double radial = std::hypot(c_S.x(), c_S.y());
  const Eigen::Vector3d radial_unit = radial > kCoincidentCores
                                          ? Eigen::Vector3d(c_S.x() / radial, c_S.y() / radial, 0.0)
                                          : Eigen::Vector3d::UnitX();
  const bool inside = radial <= radius_B && std::abs(c_S.z()) <= half;
  Eigen::Vector3d closest = c_S;
  Eigen::Vector3d inside_normal = Eigen::Vector3d::UnitZ();
  double depth = 0.0;
  if (!inside) {
    closest.head<2>() = std::min(radial, radius_B) * radial_unit.head<2>();
    closest.z() = std::clamp(c_S.z(), -half, half);
  } else {
    const double side_depth = radius_B - radial;
    const double end_depth = half - std::abs(c_S.z());
    if (end_depth <= side_depth) {
      depth = end_depth;
      inside_normal = Eigen::Vector3d(0.0, 0.0, c_S.z() >= 0.0 ? 1.0 : -1.0);
    } else {
      depth = side_depth;
      inside_normal = radial_unit;
    }
  }
  return SphereSolidContact(center_A, radius_A, X_WB, c_S, closest, inside, inside_normal, depth);
}

ContactPoint CapsuleCapsuleDistance3d(double radius_A, double length_A,
                                      const Eigen::Isometry3d& X_WA, double radius_B,
                                      double length_B, const Eigen::Isometry3d& X_WB) {
  const Eigen::Vector3d axis_A = X_WA.linear().col(2);
  const Eigen::Vector3d axis_B = X_WB.linear().col(2);
  const Eigen::Vector3d center_A = X_WA.translation();
  const Eigen::Vector3d center_B = X_WB.translation();
  const SegmentClosestPoints closest = ClosestPointsOfSegments(
      center_A - 0.5 * length_A * axis_A, center_A + 0.5 * length_A * axis_A,
      center_B - 0.5 * length_B * axis_B, center_B + 0.5 * length_B * axis_B);
  // Fallback for crossing or coincident cores (used only when the cores touch).
  const Eigen::Vector3d centers = center_A - center_B;
  Eigen::Vector3d fallback;
  const Eigen::Vector3d cross = axis_A.cross(axis_B);
  if (cross.norm() > 1e-9) {
    fallback = cross.normalized();
    if (fallback.dot(centers) < 0.0) fallback = -fallback;
  } else {
    fallback = PerpendicularTo(axis_B, centers.norm() > kCoincidentCores
                                           ? Eigen::Vector3d(centers)
                                           : Eigen::Vector3d(X_WB.linear().col(0)));
  }
  return FromCorePoints(closest.on_p, radius_A, closest.on_q, radius_B, fallback);
}

ContactPoint ShapeHalfSpaceDistance3d(const Shape& shape_A, const Eigen::Isometry3d& X_WA,
                                      const Eigen::Isometry3d& X_WB) {
  if (shape_A.type == ShapeType::kHalfSpace) {
    throw std::invalid_argument("signed distance: two half_spaces have no closest pair");
  }
  const Eigen::Vector3d n = X_WB.linear().col(2);
  ContactPoint c;
  c.normal = n;
  c.p_A = SupportPoint3d(shape_A, X_WA, -n);
  c.phi = n.dot(c.p_A - X_WB.translation());
  c.p_B = c.p_A - c.phi * n;
  return c;
}

}  // namespace quasidyn
