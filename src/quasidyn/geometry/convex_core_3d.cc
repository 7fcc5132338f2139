#include "quasidyn/geometry/convex_core_3d.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace quasidyn {

ConvexCore3d MakeConvexCore3d(const Shape& shape) {
  ConvexCore3d core;
  switch (shape.type) {
    case ShapeType::kSphere:
      core.kind = ConvexCoreKind::kPoint;
      core.margin = shape.radius;
      core.bounding_radius = shape.radius;
      return core;
    case ShapeType::kCapsule:
      core.kind = ConvexCoreKind::kSegment;
      core.margin = shape.radius;
      core.half_length = 0.5 * shape.length;
      core.bounding_radius = core.half_length + shape.radius;
      return core;
    case ShapeType::kBox:
      core.kind = ConvexCoreKind::kBox;
      core.half_size = 0.5 * shape.size;
      core.bounding_radius = core.half_size.norm();
      return core;
    case ShapeType::kCylinder:
      core.kind = ConvexCoreKind::kCylinder;
      core.radius = shape.radius;
      core.half_length = 0.5 * shape.length;
      core.bounding_radius = std::hypot(shape.radius, core.half_length);
      return core;
    case ShapeType::kConvex:
      core.kind = ConvexCoreKind::kPolytope;
      core.vertices = shape.vertices.data();
      core.vertex_count = shape.vertices.size();
      for (const Eigen::Vector3d& vertex : shape.vertices) {
        core.bounding_radius = std::max(core.bounding_radius, vertex.norm());
      }
      return core;
    case ShapeType::kHalfSpace:
      break;
  }
  throw std::invalid_argument("convex core: a half_space is unbounded (only bounded shapes)");
}

Eigen::Vector3d CoreSupport3d(const ConvexCore3d& core, const Eigen::Vector3d& u_S) {
  switch (core.kind) {
    case ConvexCoreKind::kPoint:
      return Eigen::Vector3d::Zero();
    case ConvexCoreKind::kSegment:
      return Eigen::Vector3d(0.0, 0.0, u_S.z() >= 0.0 ? core.half_length : -core.half_length);
    case ConvexCoreKind::kBox:
      return Eigen::Vector3d(u_S.x() >= 0.0 ? core.half_size.x() : -core.half_size.x(),
                             u_S.y() >= 0.0 ? core.half_size.y() : -core.half_size.y(),
                             u_S.z() >= 0.0 ? core.half_size.z() : -core.half_size.z());
    case ConvexCoreKind::kCylinder: {
      // hypot avoids the underflow of x² + y² for tiny components.
      const double radial = std::hypot(u_S.x(), u_S.y());
      const double z = u_S.z() >= 0.0 ? core.half_length : -core.half_length;
      if (radial == 0.0) return Eigen::Vector3d(0.0, 0.0, z);
      return Eigen::Vector3d(core.radius * (u_S.x() / radial), core.radius * (u_S.y() / radial), z);
    }
    case ConvexCoreKind::kPolytope: {
      std::size_t best = 0;
      double best_value = u_S.dot(core.vertices[0]);
      for (std::size_t i = 1; i < core.vertex_count; ++i) {
        const double value = u_S.dot(core.vertices[i]);
        if (value > best_value) {
          best_value = value;
          best = i;
        }
      }
      return core.vertices[best];
    }
  }
  return Eigen::Vector3d::Zero();
}

CorePair3d::CorePair3d(const ConvexCore3d& a, const Eigen::Isometry3d& X_WA, const ConvexCore3d& b,
                       const Eigen::Isometry3d& X_WB)
    : a_(&a), b_(&b) {
  const Eigen::Matrix3d R_BW = X_WB.linear().transpose();
  R_BA_ = R_BW * X_WA.linear();
  t_BA_ = R_BW * (X_WA.translation() - X_WB.translation());
}

SupportVertex3d CorePair3d::Support(const Eigen::Vector3d& d) const {
  SupportVertex3d s;
  s.a = R_BA_ * CoreSupport3d(*a_, R_BA_.transpose() * d) + t_BA_;
  s.b = CoreSupport3d(*b_, -d);
  s.w = s.a - s.b;
  return s;
}

}  // namespace quasidyn
