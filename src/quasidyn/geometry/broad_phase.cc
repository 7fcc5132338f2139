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

// The empty box, which Extend grows.
Aabb EmptyBox() {
  return Aabb{Eigen::Vector3d::Constant(std::numeric_limits<double>::infinity()),
              Eigen::Vector3d::Constant(-std::numeric_limits<double>::infinity()), false};
}

// Grows `box` to hold the point p_W = X_WS p_S.
void Extend(const Eigen::Isometry3d& X_WS, const Eigen::Vector3d& p_S, Aabb* box) {
  const Eigen::Vector3d p_W = X_WS * p_S;
  box->lower = box->lower.cwiseMin(p_W);
  box->upper = box->upper.cwiseMax(p_W);
}

// The checks of ComputeWorldAabb (broad_phase.h).
void CheckShape(const Shape& shape, bool planar) {
  switch (shape.type) {
    case ShapeType::kSphere:
      RequirePositive(shape.radius, planar ? "circle radius" : "sphere radius");
      return;
    case ShapeType::kCapsule:
      RequirePositive(shape.radius, planar ? "stadium radius" : "capsule radius");
      RequirePositive(shape.length, planar ? "stadium length" : "capsule length");
      return;
    case ShapeType::kBox:
      RequirePositive(shape.size.x(), planar ? "rectangle size x" : "box size x");
      RequirePositive(shape.size.y(), planar ? "rectangle size y" : "box size y");
      if (!planar) RequirePositive(shape.size.z(), "box size z");
      return;
    case ShapeType::kConvex:
      if (shape.vertices.empty()) throw std::invalid_argument("ComputeWorldAabb: no vertices");
      return;
    case ShapeType::kHalfSpace:
      return;
    case ShapeType::kCylinder:
      if (planar) {
        throw std::invalid_argument("ComputeWorldAabb: a cylinder has no planar section");
      }
      RequirePositive(shape.radius, "cylinder radius");
      RequirePositive(shape.length, "cylinder length");
      return;
  }
  throw std::invalid_argument("ComputeWorldAabb: unknown shape type");
}

Aabb PlanarAabb(const Shape& shape, const Eigen::Isometry3d& X_WS) {
  // Planar poses rotate about z, so a point (x, y, 0) of S stays at the pose's z.
  const Eigen::Vector3d centre = X_WS.translation();
  switch (shape.type) {
    case ShapeType::kSphere:
      return Centred(centre, Eigen::Vector3d(shape.radius, shape.radius, 0.0));
    case ShapeType::kCapsule: {
      Aabb box = EmptyBox();
      Extend(X_WS, Eigen::Vector3d(-0.5 * shape.length * Eigen::Vector3d::UnitX()), &box);
      Extend(X_WS, Eigen::Vector3d(0.5 * shape.length * Eigen::Vector3d::UnitX()), &box);
      box.lower.head<2>().array() -= shape.radius;
      box.upper.head<2>().array() += shape.radius;
      box.lower.z() = box.upper.z() = centre.z();
      return box;
    }
    case ShapeType::kBox: {
      const double hx = 0.5 * shape.size.x(), hy = 0.5 * shape.size.y();
      Aabb box = EmptyBox();
      Extend(X_WS, Eigen::Vector3d(-hx, -hy, 0.0), &box);
      Extend(X_WS, Eigen::Vector3d(hx, -hy, 0.0), &box);
      Extend(X_WS, Eigen::Vector3d(hx, hy, 0.0), &box);
      Extend(X_WS, Eigen::Vector3d(-hx, hy, 0.0), &box);
      box.lower.z() = box.upper.z() = centre.z();
      return box;
    }
    case ShapeType::kConvex: {
      Aabb box = EmptyBox();
      for (const Eigen::Vector3d& v : shape.vertices) {
        Extend(X_WS, Eigen::Vector3d(v.x(), v.y(), 0.0), &box);
      }
      box.lower.z() = box.upper.z() = centre.z();
      return box;
    }
    case ShapeType::kHalfSpace:
    case ShapeType::kCylinder:  // excluded by CheckShape
      break;
  }
  return Aabb{Eigen::Vector3d::Zero(), Eigen::Vector3d::Zero(), true};
}

Aabb SpatialAabb(const Shape& shape, const Eigen::Isometry3d& X_WS) {
  const Eigen::Vector3d centre = X_WS.translation();
  const Eigen::Matrix3d& R = X_WS.linear();
  switch (shape.type) {
    case ShapeType::kSphere:
      return Centred(centre, Eigen::Vector3d::Constant(shape.radius));
    case ShapeType::kBox:
      return Centred(centre, R.cwiseAbs() * (0.5 * shape.size));
    case ShapeType::kCapsule: {
      const Eigen::Vector3d half_width =
          (0.5 * shape.length * R.col(2)).cwiseAbs() + Eigen::Vector3d::Constant(shape.radius);
      return Centred(centre, half_width);
    }
    case ShapeType::kCylinder: {
      const Eigen::Vector3d axis = R.col(2);
      Eigen::Vector3d half_width;
      for (int i = 0; i < 3; ++i) {
        const double disc = shape.radius * std::sqrt(std::max(0.0, 1.0 - axis[i] * axis[i]));
        half_width[i] = std::abs(axis[i]) * 0.5 * shape.length + disc;
      }
      return Centred(centre, half_width);
    }
    case ShapeType::kConvex: {
      Aabb box = EmptyBox();
      for (const Eigen::Vector3d& v : shape.vertices) Extend(X_WS, v, &box);
      return box;
    }
    case ShapeType::kHalfSpace:
      break;
  }
  return Aabb{Eigen::Vector3d::Zero(), Eigen::Vector3d::Zero(), true};
}

}  // namespace

Aabb ComputeWorldAabb(const Shape& shape, const Eigen::Isometry3d& X_WS, bool planar) {
  CheckShape(shape, planar);
  return WorldAabbOfValidShape(shape, X_WS, planar);
}

Aabb WorldAabbOfValidShape(const Shape& shape, const Eigen::Isometry3d& X_WS, bool planar) {
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
  std::vector<int> sweep_order;
  std::vector<std::pair<int, int>> pairs;
  OverlappingPairs(boxes, tolerance, &sweep_order, &pairs);
  return pairs;
}

void OverlappingPairs(const std::vector<Aabb>& boxes, double tolerance,
                      std::vector<int>* sweep_order, std::vector<std::pair<int, int>>* pairs) {
  if (!(tolerance >= 0.0)) {
    throw std::invalid_argument("OverlappingPairs: tolerance must be >= 0 [m] (got " +
                                std::to_string(tolerance) + ")");
  }
  const int n = static_cast<int>(boxes.size());
  pairs->clear();
  std::vector<int>& bounded = *sweep_order;
  bounded.clear();
  for (int i = 0; i < n; ++i) {
    if (boxes[i].unbounded) {
      for (int j = 0; j < n; ++j) {
        // A pair of two unbounded boxes is added once, by its lower index.
        if (j != i && (!boxes[j].unbounded || i < j))
          pairs->emplace_back(std::min(i, j), std::max(i, j));
      }
    } else {
      bounded.push_back(i);
    }
  }
  // Sweep: sorted by (lower x, index), each box meets the later boxes that start before its
  // upper x plus the tolerance. (The index breaks ties as a stable sort of the increasing
  // indices would, without its temporary buffer.)
  std::sort(bounded.begin(), bounded.end(), [&boxes](int i, int j) {
    return boxes[i].lower.x() < boxes[j].lower.x() ||
           (boxes[i].lower.x() == boxes[j].lower.x() && i < j);
  });
  for (size_t k = 0; k < bounded.size(); ++k) {
    const Aabb& box = boxes[bounded[k]];
    for (size_t l = k + 1; l < bounded.size(); ++l) {
      const Aabb& other = boxes[bounded[l]];
      if (other.lower.x() - box.upper.x() > tolerance) break;
      if (AabbsWithinTolerance(box, other, tolerance)) {
        pairs->emplace_back(std::min(bounded[k], bounded[l]), std::max(bounded[k], bounded[l]));
      }
    }
  }
  std::sort(pairs->begin(), pairs->end());
}

}  // namespace quasidyn
