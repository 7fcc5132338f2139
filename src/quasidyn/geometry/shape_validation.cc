#include "quasidyn/geometry/shape_validation.h"

#include <Eigen/Core>
#include <algorithm>
#include <cmath>

#include "quasidyn/common/argument_check.h"

namespace quasidyn {
namespace {

std::string PositiveProblem(double value, const char* what, const Shape& shape) {
  if (!(value > 0.0) || !std::isfinite(value)) {
    return std::string(ShapeTypeName(shape.type)) + " " + what + " must be finite and > 0, got " +
           NumberText(value);
  }
  return "";
}

// A convex vertex set that is too small, non-finite or flat: it must span a tetrahedron of
// non-negligible volume relative to its size.
std::string ConvexProblem(const Shape& shape) {
  const auto& v = shape.vertices;
  if (v.size() < 4) {
    return "convex needs at least 4 vertices, got " + std::to_string(v.size());
  }
  for (const auto& p : v) {
    if (!p.allFinite()) return "convex vertex not finite";
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
    return "convex vertices are coplanar (no volume)";
  }
  return "";
}

}  // namespace

std::string ShapeProblem3d(const Shape& shape) {
  switch (shape.type) {
    case ShapeType::kSphere:
      return PositiveProblem(shape.radius, "radius", shape);
    case ShapeType::kBox:
      for (int i = 0; i < 3; ++i) {
        static constexpr const char* kSides[3] = {"size x", "size y", "size z"};
        std::string problem = PositiveProblem(shape.size[i], kSides[i], shape);
        if (!problem.empty()) return problem;
      }
      return "";
    case ShapeType::kCylinder:
    case ShapeType::kCapsule: {
      std::string problem = PositiveProblem(shape.radius, "radius", shape);
      if (!problem.empty()) return problem;
      return PositiveProblem(shape.length, "length", shape);
    }
    case ShapeType::kConvex:
      return ConvexProblem(shape);
    case ShapeType::kHalfSpace:
      return "";
  }
  return "unknown shape type";
}

}  // namespace quasidyn
