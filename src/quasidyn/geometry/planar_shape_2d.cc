#include "quasidyn/geometry/planar_shape_2d.h"

#include <cmath>
#include <cstddef>
#include <stdexcept>
#include <string>

#include "quasidyn/geometry/convex_hull_2d.h"

namespace quasidyn {
namespace {

void RequirePositive(double value, const char* what) {
  if (!(std::isfinite(value) && value > 0.0)) {
    throw std::invalid_argument(std::string("planar shape: ") + what +
                                " must be finite and > 0 (got " + std::to_string(value) + ")");
  }
}

}  // namespace

PlanarShape2d MakePlanarShape2d(const Shape& shape) {
  PlanarShape2d planar;
  switch (shape.type) {
    case ShapeType::kSphere:
      RequirePositive(shape.radius, "circle radius");
      planar.core = {Eigen::Vector2d::Zero()};
      planar.radius = shape.radius;
      break;
    case ShapeType::kCapsule:
      RequirePositive(shape.radius, "stadium radius");
      RequirePositive(shape.length, "stadium length");
      planar.core = {Eigen::Vector2d(-0.5 * shape.length, 0.0),
                     Eigen::Vector2d(0.5 * shape.length, 0.0)};
      planar.radius = shape.radius;
      break;
    case ShapeType::kBox: {
      RequirePositive(shape.size.x(), "rectangle size x");
      RequirePositive(shape.size.y(), "rectangle size y");
      const double hx = 0.5 * shape.size.x();
      const double hy = 0.5 * shape.size.y();
      planar.core = {Eigen::Vector2d(-hx, -hy), Eigen::Vector2d(hx, -hy), Eigen::Vector2d(hx, hy),
                     Eigen::Vector2d(-hx, hy)};
      break;
    }
    case ShapeType::kConvex: {
      std::vector<Eigen::Vector2d> points;
      points.reserve(shape.vertices.size());
      for (const Eigen::Vector3d& v : shape.vertices) {
        if (!v.allFinite()) throw std::invalid_argument("planar polygon: a vertex is not finite");
        points.push_back(v.head<2>());
      }
      planar.core = ConvexHull2d(std::move(points));
      if (planar.core.size() < 3) {
        throw std::invalid_argument(
            "planar polygon: needs at least 3 vertices that are not all on one line (got " +
            std::to_string(shape.vertices.size()) + " vertices)");
      }
      break;
    }
    case ShapeType::kHalfSpace:
      planar.is_half_plane = true;
      planar.point = Eigen::Vector2d::Zero();
      planar.normal = Eigen::Vector2d::UnitY();
      break;
    case ShapeType::kCylinder:
      throw std::invalid_argument("planar shape: a cylinder has no planar section");
  }
  return planar;
}

PlanarShape2dView ViewOf(const PlanarShape2d& shape) {
  PlanarShape2dView view;
  view.is_half_plane = shape.is_half_plane;
  view.core = shape.core;
  view.radius = shape.radius;
  view.point = shape.point;
  view.normal = shape.normal;
  return view;
}

PlanarShape2d TransformPlanarShape2d(const PlanarShape2d& shape, const Eigen::Isometry3d& X_WS) {
  PlanarShape2d world = shape;
  const PlanarShape2dView view = TransformPlanarShape2d(shape, X_WS, world.core.data());
  world.point = view.point;
  world.normal = view.normal;
  return world;
}

PlanarShape2dView TransformPlanarShape2d(const PlanarShape2d& shape, const Eigen::Isometry3d& X_WS,
                                         Eigen::Vector2d* core_storage) {
  const Eigen::Matrix2d R = X_WS.linear().topLeftCorner<2, 2>();
  const Eigen::Vector2d t = X_WS.translation().head<2>();
  const std::size_t count = shape.core.size();
  for (std::size_t i = 0; i < count; ++i) core_storage[i] = R * shape.core[i] + t;
  PlanarShape2dView world;
  world.is_half_plane = shape.is_half_plane;
  world.core = std::span<const Eigen::Vector2d>(core_storage, count);
  world.radius = shape.radius;
  world.point = R * shape.point + t;
  world.normal = R * shape.normal;
  return world;
}

}  // namespace quasidyn
