#include "quasidyn/geometry/support_3d.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <limits>
#include <numbers>
#include <stdexcept>
#include <string>

namespace quasidyn {
namespace {

Eigen::Vector3d UnitDirection(const Eigen::Vector3d& direction_W) {
  const double norm = direction_W.norm();
  if (!(norm > 0.0) || !std::isfinite(norm)) {
    throw std::invalid_argument("support of a shape: the direction must be finite and non-zero");
  }
  return direction_W / norm;
}

void RejectHalfSpace(const Shape& shape) {
  if (shape.type == ShapeType::kHalfSpace) {
    throw std::invalid_argument("support of a shape: a half_space is unbounded");
  }
}

// Centre of the `count` points at `points` (in S) whose u_S·p is within kSupportTieBand of
// the maximum.
Eigen::Vector3d CentreOfMaximisers(const Eigen::Vector3d* points, std::size_t count,
                                   const Eigen::Vector3d& u_S) {
  double best = -std::numeric_limits<double>::infinity();
  for (std::size_t i = 0; i < count; ++i) best = std::max(best, u_S.dot(points[i]));
  Eigen::Vector3d sum = Eigen::Vector3d::Zero();
  int tied = 0;
  for (std::size_t i = 0; i < count; ++i) {
    if (u_S.dot(points[i]) >= best - kSupportTieBand) {
      sum += points[i];
      ++tied;
    }
  }
  return sum / tied;
}

// The 8 corners of a box of full side lengths `size`, in S, in BoxCorners' order.
std::array<Eigen::Vector3d, 8> BoxCornerArray(const Eigen::Vector3d& size) {
  std::array<Eigen::Vector3d, 8> corners;
  for (int i = 0; i < 8; ++i) {
    corners[i] = Eigen::Vector3d((i & 1 ? 0.5 : -0.5) * size.x(), (i & 2 ? 0.5 : -0.5) * size.y(),
                                 (i & 4 ? 0.5 : -0.5) * size.z());
  }
  return corners;
}

// Support of the segment from −(l/2) z to +(l/2) z in S along u_S: the end with the larger
// u_S·p, or the middle when both ends tie.
Eigen::Vector3d SegmentSupport(double length, const Eigen::Vector3d& u_S) {
  if (length * std::abs(u_S.z()) <= kSupportTieBand) return Eigen::Vector3d::Zero();
  return Eigen::Vector3d(0.0, 0.0, u_S.z() > 0.0 ? 0.5 * length : -0.5 * length);
}

// Radial part of a cylinder's support in S: r times the unit projection of u_S onto the
// x-y plane, or zero when that projection vanishes (the whole rim ties).
Eigen::Vector3d RadialSupport(double radius, const Eigen::Vector3d& u_S) {
  const Eigen::Vector3d radial(u_S.x(), u_S.y(), 0.0);
  const double norm = radial.norm();
  if (radius * norm <= kSupportTieBand) return Eigen::Vector3d::Zero();
  return radius * radial / norm;
}

void AddUnique(const Eigen::Vector3d& p, PointList* points) {
  for (const auto& q : *points) {
    if ((q - p).norm() <= kSupportTieBand) return;
  }
  points->push_back(p);
}

}  // namespace

std::vector<Eigen::Vector3d> BoxCorners(const Eigen::Vector3d& size) {
  const std::array<Eigen::Vector3d, 8> corners = BoxCornerArray(size);
  return std::vector<Eigen::Vector3d>(corners.begin(), corners.end());
}

Eigen::Vector3d SupportPoint3d(const Shape& shape, const Eigen::Isometry3d& X_WS,
                               const Eigen::Vector3d& direction_W) {
  RejectHalfSpace(shape);
  const Eigen::Vector3d u_W = UnitDirection(direction_W);
  const Eigen::Vector3d u_S = X_WS.linear().transpose() * u_W;
  Eigen::Vector3d p_S = Eigen::Vector3d::Zero();
  switch (shape.type) {
    case ShapeType::kSphere:
      p_S = shape.radius * u_S;
      break;
    case ShapeType::kBox: {
      const std::array<Eigen::Vector3d, 8> corners = BoxCornerArray(shape.size);
      p_S = CentreOfMaximisers(corners.data(), corners.size(), u_S);
      break;
    }
    case ShapeType::kConvex:
      p_S = CentreOfMaximisers(shape.vertices.data(), shape.vertices.size(), u_S);
      break;
    case ShapeType::kCapsule:
      p_S = SegmentSupport(shape.length, u_S) + shape.radius * u_S;
      break;
    case ShapeType::kCylinder:
      p_S = SegmentSupport(shape.length, u_S) + RadialSupport(shape.radius, u_S);
      break;
    case ShapeType::kHalfSpace:
      break;  // rejected above
  }
  return X_WS * p_S;
}

std::vector<Eigen::Vector3d> SupportFeature3d(const Shape& shape, const Eigen::Isometry3d& X_WS,
                                              const Eigen::Vector3d& direction_W, double band) {
  PointList feature;
  SupportFeature3d(shape, X_WS, direction_W, band, &feature);
  return std::vector<Eigen::Vector3d>(feature.begin(), feature.end());
}

void SupportFeature3d(const Shape& shape, const Eigen::Isometry3d& X_WS,
                      const Eigen::Vector3d& direction_W, double band, PointList* feature) {
  feature->clear();
  RejectHalfSpace(shape);
  if (!(band >= 0.0)) {
    throw std::invalid_argument("support feature: band must be >= 0, got " + std::to_string(band));
  }
  const Eigen::Vector3d u_W = UnitDirection(direction_W);
  const Eigen::Vector3d u_S = X_WS.linear().transpose() * u_W;
  // Candidate surface points in S; the band filter below keeps the extreme ones. A convex
  // shape's candidates are its own vertices (not copied); the others fit in `local`.
  std::array<Eigen::Vector3d, kInlinePoints> local;
  const Eigen::Vector3d* candidates = local.data();
  std::size_t count = 0;
  switch (shape.type) {
    case ShapeType::kSphere:
      local[count++] = shape.radius * u_S;
      break;
    case ShapeType::kBox: {
      const std::array<Eigen::Vector3d, 8> corners = BoxCornerArray(shape.size);
      for (const auto& corner : corners) local[count++] = corner;
      break;
    }
    case ShapeType::kConvex:
      candidates = shape.vertices.data();
      count = shape.vertices.size();
      break;
    case ShapeType::kCapsule: {
      const Eigen::Vector3d half(0.0, 0.0, 0.5 * shape.length);
      local[count++] = half + shape.radius * u_S;
      local[count++] = -half + shape.radius * u_S;
      break;
    }
    case ShapeType::kCylinder: {
      const Eigen::Vector3d radial = RadialSupport(shape.radius, u_S);
      const double half = 0.5 * shape.length;
      // The rim point(s) extreme along u; when the axis is parallel to u the whole rim
      // ties (radial = 0) and the samples below stand for it.
      if (!radial.isZero(0.0)) {
        local[count++] = Eigen::Vector3d(0.0, 0.0, half) + radial;
        local[count++] = Eigen::Vector3d(0.0, 0.0, -half) + radial;
      }
      for (int k = 0; k < kCylinderRimSamples; ++k) {
        const double angle = 2.0 * std::numbers::pi * k / kCylinderRimSamples;
        const Eigen::Vector3d rim(shape.radius * std::cos(angle), shape.radius * std::sin(angle),
                                  0.0);
        local[count++] = rim + Eigen::Vector3d(0.0, 0.0, half);
        local[count++] = rim - Eigen::Vector3d(0.0, 0.0, half);
      }
      break;
    }
    case ShapeType::kHalfSpace:
      break;  // rejected above
  }
  double best = -std::numeric_limits<double>::infinity();
  for (std::size_t i = 0; i < count; ++i) best = std::max(best, u_S.dot(candidates[i]));
  for (std::size_t i = 0; i < count; ++i) {
    if (u_S.dot(candidates[i]) >= best - band - kSupportTieBand) {
      AddUnique(X_WS * candidates[i], feature);
    }
  }
}

}  // namespace quasidyn
