#include "quasidyn/geometry/narrow_phase_3d.h"

#include <cmath>
#include <stdexcept>
#include <string>
#include <utility>

#include "quasidyn/geometry/closed_form_3d.h"
#include "quasidyn/geometry/fcl_distance.h"
#include "quasidyn/geometry/manifold_3d.h"

namespace quasidyn {
namespace {

void RequirePositive(double value, const char* what, const Shape& shape) {
  if (!(value > 0.0) || !std::isfinite(value)) {
    throw std::invalid_argument(std::string("3D narrow phase: ") + ShapeTypeName(shape.type) + " " +
                                what + " must be finite and > 0, got " + std::to_string(value));
  }
}

// Rejects a convex vertex set that is too small, non-finite or flat: it must span a
// tetrahedron of non-negligible volume relative to its size.
void CheckConvexVertices(const Shape& shape) {
  const auto& v = shape.vertices;
  if (v.size() < 4) {
    throw std::invalid_argument("3D narrow phase: convex needs at least 4 vertices, got " +
                                std::to_string(v.size()));
  }
  for (const auto& p : v) {
    if (!p.allFinite()) throw std::invalid_argument("3D narrow phase: convex vertex not finite");
  }
  // Farthest point from v[0], then farthest from that line, then farthest from that plane.
  size_t i1 = 0;
  for (size_t i = 0; i < v.size(); ++i) {
    if ((v[i] - v[0]).norm() > (v[i1] - v[0]).norm()) i1 = i;
  }
  const double size = (v[i1] - v[0]).norm();
  const Eigen::Vector3d axis =
      size > 0.0 ? Eigen::Vector3d((v[i1] - v[0]) / size) : Eigen::Vector3d::UnitX();
  Eigen::Vector3d off_line = Eigen::Vector3d::Zero();
  for (const auto& p : v) {
    const Eigen::Vector3d d = (p - v[0]) - (p - v[0]).dot(axis) * axis;
    if (d.norm() > off_line.norm()) off_line = d;
  }
  double off_plane = 0.0;
  if (off_line.norm() > 0.0) {
    const Eigen::Vector3d normal = axis.cross(off_line.normalized());
    for (const auto& p : v) off_plane = std::max(off_plane, std::abs(normal.dot(p - v[0])));
  }
  if (!(off_plane > 1e-9 * std::max(size, 1e-300))) {
    throw std::invalid_argument("3D narrow phase: convex vertices are coplanar (no volume)");
  }
}

void CheckShape(const Shape& shape) {
  switch (shape.type) {
    case ShapeType::kSphere:
      RequirePositive(shape.radius, "radius", shape);
      break;
    case ShapeType::kBox:
      RequirePositive(shape.size.x(), "size x", shape);
      RequirePositive(shape.size.y(), "size y", shape);
      RequirePositive(shape.size.z(), "size z", shape);
      break;
    case ShapeType::kCylinder:
    case ShapeType::kCapsule:
      RequirePositive(shape.radius, "radius", shape);
      RequirePositive(shape.length, "length", shape);
      break;
    case ShapeType::kConvex:
      CheckConvexVertices(shape);
      break;
    case ShapeType::kHalfSpace:
      break;
  }
}

void CheckPose(const Eigen::Isometry3d& X, const char* which) {
  if (!X.matrix().allFinite()) {
    throw std::invalid_argument(std::string("3D narrow phase: pose ") + which + " not finite");
  }
}

ContactPoint Flipped(ContactPoint c) {
  std::swap(c.p_A, c.p_B);
  c.normal = -c.normal;
  return c;
}

// Dispatch on the pair of types (shapes already checked).
ContactPoint Distance(const Shape& a, const Eigen::Isometry3d& X_WA, const Shape& b,
                      const Eigen::Isometry3d& X_WB) {
  if (a.type == ShapeType::kHalfSpace && b.type == ShapeType::kHalfSpace) {
    throw std::invalid_argument("3D narrow phase: two half_spaces have no closest pair");
  }
  if (b.type == ShapeType::kHalfSpace) return ShapeHalfSpaceDistance3d(a, X_WA, X_WB);
  if (a.type == ShapeType::kHalfSpace) return Flipped(Distance(b, X_WB, a, X_WA));
  if (a.type == ShapeType::kSphere) {
    const Eigen::Vector3d center = X_WA.translation();
    switch (b.type) {
      case ShapeType::kSphere:
        return SphereSphereDistance3d(center, a.radius, X_WB.translation(), b.radius);
      case ShapeType::kBox:
        return SphereBoxDistance3d(center, a.radius, b.size, X_WB);
      case ShapeType::kCapsule:
        return SphereCapsuleDistance3d(center, a.radius, b.radius, b.length, X_WB);
      case ShapeType::kCylinder:
        return SphereCylinderDistance3d(center, a.radius, b.radius, b.length, X_WB);
      default:
        return FclSignedDistance3d(a, X_WA, b, X_WB);
    }
  }
  if (b.type == ShapeType::kSphere && a.type != ShapeType::kConvex) {
    return Flipped(Distance(b, X_WB, a, X_WA));
  }
  if (a.type == ShapeType::kCapsule && b.type == ShapeType::kCapsule) {
    return CapsuleCapsuleDistance3d(a.radius, a.length, X_WA, b.radius, b.length, X_WB);
  }
  return FclSignedDistance3d(a, X_WA, b, X_WB);
}

}  // namespace

ContactPoint SignedDistance3d(const Shape& a, const Eigen::Isometry3d& X_WA, const Shape& b,
                              const Eigen::Isometry3d& X_WB) {
  CheckShape(a);
  CheckShape(b);
  CheckPose(X_WA, "X_WA");
  CheckPose(X_WB, "X_WB");
  return Distance(a, X_WA, b, X_WB);
}

std::vector<ContactPoint> ContactManifold3d(const Shape& a, const Eigen::Isometry3d& X_WA,
                                            const Shape& b, const Eigen::Isometry3d& X_WB,
                                            double tolerance) {
  if (!(tolerance >= 0.0) || !std::isfinite(tolerance)) {
    throw std::invalid_argument("3D contact manifold: tolerance must be finite and >= 0, got " +
                                std::to_string(tolerance));
  }
  const ContactPoint closest = SignedDistance3d(a, X_WA, b, X_WB);
  if (closest.phi > tolerance) return {};
  return ContactManifoldFromClosest3d(a, X_WA, b, X_WB, closest, tolerance);
}

}  // namespace quasidyn
