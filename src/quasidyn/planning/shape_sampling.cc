#include "quasidyn/planning/shape_sampling.h"

#include <cmath>
#include <stdexcept>
#include <vector>

#include "quasidyn/geometry/planar_shape_2d.h"

namespace quasidyn {
namespace {

double Uniform(Xoshiro256StarStar* g, double low, double high) {
  return low + (high - low) * g->NextUniform();
}

Eigen::Vector3d UniformDirection(Xoshiro256StarStar* g) {
  Eigen::VectorXd x = StandardNormalVector(g, 3);
  while (x.norm() < 1e-9) x = StandardNormalVector(g, 3);
  return x.normalized();
}

// A point uniform in perimeter length on a rounded convex polygon (core counter-clockwise,
// 1, 2 or >= 3 vertices; radius >= 0): the core's edges pushed out by the radius, and the arcs
// of the radius around the core's vertices.
SurfacePoint SampleRoundedPolygon(const PlanarShape2d& shape, Xoshiro256StarStar* g) {
  const std::vector<Eigen::Vector2d>& core = shape.core;
  const double r = shape.radius;
  const int n = static_cast<int>(core.size());
  SurfacePoint out;
  if (n == 1) {
    const double angle = Uniform(g, -M_PI, M_PI);
    const Eigen::Vector2d normal(std::cos(angle), std::sin(angle));
    out.point << core[0] + r * normal, 0.0;
    out.normal << normal, 0.0;
    return out;
  }
  // Edge i runs from core[i] to core[i + 1] (indices mod n); its outward normal (counter-
  // clockwise core) is the edge direction turned by −90°. After edge i comes the arc of radius r
  // around core[i + 1], turning from edge i's normal to edge i + 1's.
  std::vector<Eigen::Vector2d> normals(n);
  std::vector<double> lengths(n), turns(n);
  for (int i = 0; i < n; ++i) {
    const Eigen::Vector2d d = core[(i + 1) % n] - core[i];
    lengths[i] = d.norm();
    normals[i] = Eigen::Vector2d(d.y(), -d.x()) / lengths[i];
  }
  double total = 0.0;
  for (int i = 0; i < n; ++i) {
    const Eigen::Vector2d& a = normals[i];
    const Eigen::Vector2d& b = normals[(i + 1) % n];
    double turn = std::atan2(a.x() * b.y() - a.y() * b.x(), a.dot(b));
    if (turn < 0) turn += 2.0 * M_PI;
    turns[i] = turn;
    total += lengths[i] + r * turn;
  }
  double s = Uniform(g, 0.0, total);
  for (int i = 0; i < n; ++i) {
    if (s < lengths[i]) {
      out.point << core[i] + (s / lengths[i]) * (core[(i + 1) % n] - core[i]) + r * normals[i], 0.0;
      out.normal << normals[i], 0.0;
      return out;
    }
    s -= lengths[i];
    if (s < r * turns[i] || i == n - 1) {
      const double angle =
          std::atan2(normals[i].y(), normals[i].x()) + (r > 0 ? std::min(s / r, turns[i]) : 0.0);
      const Eigen::Vector2d normal(std::cos(angle), std::sin(angle));
      out.point << core[(i + 1) % n] + r * normal, 0.0;
      out.normal << normal, 0.0;
      return out;
    }
    s -= r * turns[i];
  }
  return out;  // not reached
}

SurfacePoint SampleBox(const Eigen::Vector3d& size, Xoshiro256StarStar* g) {
  const Eigen::Vector3d half = 0.5 * size;
  // Faces ±x, ±y, ±z with areas 4·h_y·h_z etc.; a face pair by area, then a side.
  const Eigen::Vector3d areas(size.y() * size.z(), size.x() * size.z(), size.x() * size.y());
  const double pick = Uniform(g, 0.0, areas.sum());
  const int axis = pick < areas[0] ? 0 : pick < areas[0] + areas[1] ? 1 : 2;
  const double side = g->NextUniform() < 0.5 ? -1.0 : 1.0;
  SurfacePoint out;
  for (int k = 0; k < 3; ++k) out.point[k] = Uniform(g, -half[k], half[k]);
  out.point[axis] = side * half[axis];
  out.normal = Eigen::Vector3d::Unit(axis) * side;
  return out;
}

// Cylinder (caps = true) or capsule (hemispherical ends) of radius r and core length l along z.
SurfacePoint SampleRoundShape(double r, double l, bool caps, Xoshiro256StarStar* g) {
  const double side = 2.0 * M_PI * r * l;
  const double ends = caps ? 2.0 * M_PI * r * r : 4.0 * M_PI * r * r;
  SurfacePoint out;
  if (Uniform(g, 0.0, side + ends) < side) {
    const double angle = Uniform(g, -M_PI, M_PI);
    out.normal = Eigen::Vector3d(std::cos(angle), std::sin(angle), 0.0);
    out.point = r * out.normal + Eigen::Vector3d(0, 0, Uniform(g, -0.5 * l, 0.5 * l));
    return out;
  }
  if (caps) {
    const double z = g->NextUniform() < 0.5 ? -0.5 * l : 0.5 * l;
    const double radius = r * std::sqrt(g->NextUniform());  // uniform on the disc
    const double angle = Uniform(g, -M_PI, M_PI);
    out.point = Eigen::Vector3d(radius * std::cos(angle), radius * std::sin(angle), z);
    out.normal = Eigen::Vector3d(0, 0, z > 0 ? 1.0 : -1.0);
    return out;
  }
  out.normal = UniformDirection(g);  // a hemisphere by the sign of z
  out.point = r * out.normal + Eigen::Vector3d(0, 0, out.normal.z() >= 0 ? 0.5 * l : -0.5 * l);
  return out;
}

}  // namespace

SurfacePoint SampleSurfacePoint(const Shape& shape, bool planar, Xoshiro256StarStar* generator) {
  if (shape.type == ShapeType::kHalfSpace)
    throw std::invalid_argument("SampleSurfacePoint: a half-space has no bounded surface");
  if (planar) return SampleRoundedPolygon(MakePlanarShape2d(shape), generator);
  switch (shape.type) {
    case ShapeType::kSphere: {
      SurfacePoint out;
      out.normal = UniformDirection(generator);
      out.point = shape.radius * out.normal;
      return out;
    }
    case ShapeType::kBox:
      return SampleBox(shape.size, generator);
    case ShapeType::kCylinder:
      return SampleRoundShape(shape.radius, shape.length, /*caps=*/true, generator);
    case ShapeType::kCapsule:
      return SampleRoundShape(shape.radius, shape.length, /*caps=*/false, generator);
    default: {  // convex: the support point in a random direction
      SurfacePoint out;
      out.normal = UniformDirection(generator);
      double best = -INFINITY;
      for (const Eigen::Vector3d& v : shape.vertices) {
        if (v.dot(out.normal) > best) {
          best = v.dot(out.normal);
          out.point = v;
        }
      }
      return out;
    }
  }
}

RobotAnchor SampleRobotAnchor(const Shape& shape, bool planar, Xoshiro256StarStar* generator) {
  RobotAnchor out;
  if (shape.type == ShapeType::kSphere) {
    out.offset = shape.radius;
  } else if (shape.type == ShapeType::kCapsule) {
    // Core along z in 3D, along x in planar scenes (model/shape.h).
    const double t = Uniform(generator, -0.5 * shape.length, 0.5 * shape.length);
    out.anchor = planar ? Eigen::Vector3d(t, 0, 0) : Eigen::Vector3d(0, 0, t);
    out.offset = shape.radius;
  } else {
    out.anchor = SampleSurfacePoint(shape, planar, generator).point;
  }
  return out;
}

}  // namespace quasidyn
