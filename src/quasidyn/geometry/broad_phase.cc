#include "quasidyn/geometry/broad_phase.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <stdexcept>
#include <string>

namespace quasidyn {
namespace {

void RequirePositive(double value, const char* what) {
  if (!(std::isfinite(value) && value > 0.0)) {
    throw std::invalid_argument(std::string("ComputeWorldAabb: ") + what +
                                " must be finite and > 0 (got " + std::to_string(value) + ")");
  }
}

Aabb Centred(const Eigen::Vector3d& centre, const Eigen::Vector3d& half_width) {
  return Aabb{centre - half_width, centre + half_width, false};
}

// The box of points p_W = X_WS p_S; in planar mode only their x-y, z fixed to the pose's z.
Aabb BoxOfPoints(const std::vector<Eigen::Vector3d>& points_S, const Eigen::Isometry3d& X_WS) {
  Aabb box{Eigen::Vector3d::Constant(std::numeric_limits<double>::infinity()),
           Eigen::Vector3d::Constant(-std::numeric_limits<double>::infinity()), false};
  for (const Eigen::Vector3d& p_S : points_S) {
    const Eigen::Vector3d p_W = X_WS * p_S;
    box.lower = box.lower.cwiseMin(p_W);
    box.upper = box.upper.cwiseMax(p_W);
  }
  return box;
}

Aabb PlanarAabb(const Shape& shape, const Eigen::Isometry3d& X_WS) {
  // Planar poses rotate about z, so a point (x, y, 0) of S stays at the pose's z.
  const Eigen::Vector3d centre = X_WS.translation();
  switch (shape.type) {
    case ShapeType::kSphere:
      RequirePositive(shape.radius, "circle radius");
      return Centred(centre, Eigen::Vector3d(shape.radius, shape.radius, 0.0));
    case ShapeType::kCapsule: {
      RequirePositive(shape.radius, "stadium radius");
      RequirePositive(shape.length, "stadium length");
      Aabb box = BoxOfPoints({-0.5 * shape.length * Eigen::Vector3d::UnitX(),
                              0.5 * shape.length * Eigen::Vector3d::UnitX()},
                             X_WS);
      box.lower.head<2>().array() -= shape.radius;
      box.upper.head<2>().array() += shape.radius;
      box.lower.z() = box.upper.z() = centre.z();
      return box;
    }
    case ShapeType::kBox: {
      RequirePositive(shape.size.x(), "rectangle size x");
      RequirePositive(shape.size.y(), "rectangle size y");
      const double hx = 0.5 * shape.size.x(), hy = 0.5 * shape.size.y();
      Aabb box =
          BoxOfPoints({{-hx, -hy, 0.0}, {hx, -hy, 0.0}, {hx, hy, 0.0}, {-hx, hy, 0.0}}, X_WS);
      box.lower.z() = box.upper.z() = centre.z();
      return box;
    }
    case ShapeType::kConvex: {
      if (shape.vertices.empty()) throw std::invalid_argument("ComputeWorldAabb: no vertices");
      std::vector<Eigen::Vector3d> flat;
      for (const Eigen::Vector3d& v : shape.vertices) flat.emplace_back(v.x(), v.y(), 0.0);
      Aabb box = BoxOfPoints(flat, X_WS);
      box.lower.z() = box.upper.z() = centre.z();
      return box;
    }
    case ShapeType::kHalfSpace:
      return Aabb{Eigen::Vector3d::Zero(), Eigen::Vector3d::Zero(), true};
    case ShapeType::kCylinder:
      throw std::invalid_argument("ComputeWorldAabb: a cylinder has no planar section");
  }
  throw std::invalid_argument("ComputeWorldAabb: unknown shape type");
}

Aabb SpatialAabb(const Shape& shape, const Eigen::Isometry3d& X_WS) {
  const Eigen::Vector3d centre = X_WS.translation();
  const Eigen::Matrix3d& R = X_WS.linear();
  switch (shape.type) {
    case ShapeType::kSphere:
      RequirePositive(shape.radius, "sphere radius");
      return Centred(centre, Eigen::Vector3d::Constant(shape.radius));
    case ShapeType::kBox:
      RequirePositive(shape.size.x(), "box size x");
      RequirePositive(shape.size.y(), "box size y");
      RequirePositive(shape.size.z(), "box size z");
      return Centred(centre, R.cwiseAbs() * (0.5 * shape.size));
    case ShapeType::kCapsule: {
      RequirePositive(shape.radius, "capsule radius");
      RequirePositive(shape.length, "capsule length");
      const Eigen::Vector3d half_width =
          (0.5 * shape.length * R.col(2)).cwiseAbs() + Eigen::Vector3d::Constant(shape.radius);
      return Centred(centre, half_width);
    }
    case ShapeType::kCylinder: {
      RequirePositive(shape.radius, "cylinder radius");
      RequirePositive(shape.length, "cylinder length");
      const Eigen::Vector3d axis = R.col(2);
      Eigen::Vector3d half_width;
      for (int i = 0; i < 3; ++i) {
        const double disc = shape.radius * std::sqrt(std::max(0.0, 1.0 - axis[i] * axis[i]));
        half_width[i] = std::abs(axis[i]) * 0.5 * shape.length + disc;
      }
      return Centred(centre, half_width);
    }
    case ShapeType::kConvex:
      if (shape.vertices.empty()) throw std::invalid_argument("ComputeWorldAabb: no vertices");
      return BoxOfPoints(shape.vertices, X_WS);
    case ShapeType::kHalfSpace:
      return Aabb{Eigen::Vector3d::Zero(), Eigen::Vector3d::Zero(), true};
  }
  throw std::invalid_argument("ComputeWorldAabb: unknown shape type");
}

}  // namespace

Aabb ComputeWorldAabb(const Shape& shape, const Eigen::Isometry3d& X_WS, bool planar) {
  return planar ? PlanarAabb(shape, X_WS) : SpatialAabb(shape, X_WS);
}

bool AabbsWithinTolerance(const Aabb& a, const Aabb& b, double tolerance) {
  if (a.unbounded || b.unbounded) return true;
  // The gap between [a.lower, a.upper] and [b.lower, b.upper] along each axis.
  for (int i = 0; i < 3; ++i) {
    if (a.lower[i] - b.upper[i] > tolerance || b.lower[i] - a.upper[i] > tolerance) return false;
  }
  return true;
}

std::vector<std::pair<int, int>> OverlappingPairs(const std::vector<Aabb>& boxes,
                                                  double tolerance) {
  if (!(tolerance >= 0.0)) {
    throw std::invalid_argument("OverlappingPairs: tolerance must be >= 0 [m] (got " +
                                std::to_string(tolerance) + ")");
  }
  const int n = static_cast<int>(boxes.size());
  std::vector<std::pair<int, int>> pairs;
  std::vector<int> bounded;
  for (int i = 0; i < n; ++i) {
    if (boxes[i].unbounded) {
      for (int j = 0; j < n; ++j) {
        // A pair of two unbounded boxes is added once, by its lower index.
        if (j != i && (!boxes[j].unbounded || i < j))
          pairs.emplace_back(std::min(i, j), std::max(i, j));
      }
    } else {
      bounded.push_back(i);
    }
  }
  // Sweep: sorted by lower x, each box meets the later boxes that start before its upper x
  // plus the tolerance.
  std::stable_sort(bounded.begin(), bounded.end(),
                   [&boxes](int i, int j) { return boxes[i].lower.x() < boxes[j].lower.x(); });
  for (size_t k = 0; k < bounded.size(); ++k) {
    const Aabb& box = boxes[bounded[k]];
    for (size_t l = k + 1; l < bounded.size(); ++l) {
      const Aabb& other = boxes[bounded[l]];
      if (other.lower.x() - box.upper.x() > tolerance) break;
      if (AabbsWithinTolerance(box, other, tolerance)) {
        pairs.emplace_back(std::min(bounded[k], bounded[l]), std::max(bounded[k], bounded[l]));
      }
    }
  }
  std::sort(pairs.begin(), pairs.end());
  return pairs;
}

}  // namespace quasidyn
