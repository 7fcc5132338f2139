#include "quasidyn/geometry/convex_quadrics.h"

#include <algorithm>
#include <cmath>
#include <utility>

#include "quasidyn/geometry/polytope_facets.h"
#include "quasidyn/geometry/shape_validation.h"

namespace quasidyn {

namespace {

Quadric Plane(const Eigen::Vector3d& normal, double offset) {
  Quadric q;
  q.b = normal;
  q.c = -offset;
  return q;
}

// (ξᵀDξ − r²)/(2r) for D = diag(mask): a sphere (mask 1, 1, 1) or a cylinder side (1, 1, 0).
Quadric RoundSurface(const Eigen::Vector3d& mask, double radius) {
  Quadric q;
  q.A = mask.asDiagonal();
  q.A /= radius;
  q.c = -0.5 * radius;
  return q;
}

}  // namespace

Quadric TransformQuadric(const Quadric& quadric, const Eigen::Isometry3d& X_old_new) {
  const Eigen::Matrix3d R = X_old_new.linear();
  const Eigen::Vector3d t = X_old_new.translation();
  Quadric out;
  out.A = R.transpose() * quadric.A * R;
  out.A = 0.5 * (out.A + out.A.transpose()).eval();
  out.b = R.transpose() * (quadric.A * t + quadric.b);
  out.c = 0.5 * t.dot(quadric.A * t) + quadric.b.dot(t) + quadric.c;
  return out;
}

double ConvexQuadricSet::MaxValue(const Eigen::Vector3d& xi) const {
  double value = -std::numeric_limits<double>::infinity();
  for (const Quadric& q : inequalities) value = std::max(value, q.Value(xi));
  return value;
}

Outcome ConvexQuadricSetFromShape(const Shape& shape, ConvexQuadricSet* out) {
  *out = ConvexQuadricSet();
  ConvexQuadricSet& set = *out;
  if (shape.type == ShapeType::kCapsule) {
    return Outcome::Failure(
        "capsule: a capsule is not an intersection of C² convex inequalities (its surface's "
        "curvature jumps where the cylinder meets the hemispheres); use a cylinder, a sphere or a "
        "convex polytope");
  }
  if (std::string p = ShapeProblem3d(shape); !p.empty()) return Outcome::Failure(std::move(p));
  switch (shape.type) {
    case ShapeType::kHalfSpace:
      set.inequalities.push_back(Plane(Eigen::Vector3d::UnitZ(), 0.0));
      break;
    case ShapeType::kSphere:
      set.inequalities.push_back(RoundSurface(Eigen::Vector3d::Ones(), shape.radius));
      set.bounding_radius = shape.radius;
      break;
    case ShapeType::kBox:
      for (int k = 0; k < 3; ++k) {
        set.inequalities.push_back(Plane(Eigen::Vector3d::Unit(k), 0.5 * shape.size[k]));
        set.inequalities.push_back(Plane(-Eigen::Vector3d::Unit(k), 0.5 * shape.size[k]));
      }
      set.bounding_radius = 0.5 * shape.size.norm();
      break;
    case ShapeType::kCylinder:
      set.inequalities.push_back(RoundSurface(Eigen::Vector3d(1, 1, 0), shape.radius));
      set.inequalities.push_back(Plane(Eigen::Vector3d::UnitZ(), 0.5 * shape.length));
      set.inequalities.push_back(Plane(-Eigen::Vector3d::UnitZ(), 0.5 * shape.length));
      set.bounding_radius = std::hypot(shape.radius, 0.5 * shape.length);
      break;
    case ShapeType::kConvex: {
      std::vector<PolytopeFacet> facets;
      if (Outcome outcome = ConvexHullFacets(shape.vertices, &facets); !outcome) {
        set = ConvexQuadricSet();
        return outcome;
      }
      for (const PolytopeFacet& f : facets) set.inequalities.push_back(Plane(f.normal, f.offset));
      set.bounding_radius = 0.0;
      for (const Eigen::Vector3d& v : shape.vertices) {
        set.bounding_radius = std::max(set.bounding_radius, v.norm());
      }
      break;
    }
    case ShapeType::kCapsule:
      break;  // handled above
  }
  return Outcome::Ok();
}

ConvexQuadricSet EllipsoidQuadricSet(const Eigen::Vector3d& semi_axes) {
  ConvexQuadricSet set;
  const double smallest = semi_axes.minCoeff();
  Quadric q;
  q.A = (smallest * semi_axes.array().square().inverse()).matrix().asDiagonal();
  q.c = -0.5 * smallest;
  set.inequalities.push_back(q);
  set.bounding_radius = semi_axes.maxCoeff();
  return set;
}

ConvexQuadricSet TransformQuadricSet(const ConvexQuadricSet& set,
                                     const Eigen::Isometry3d& X_old_new) {
  ConvexQuadricSet out;
  out.inequalities.reserve(set.inequalities.size());
  for (const Quadric& q : set.inequalities) {
    out.inequalities.push_back(TransformQuadric(q, X_old_new));
  }
  out.bounding_center = X_old_new.inverse() * set.bounding_center;
  out.bounding_radius = set.bounding_radius;
  return out;
}

}  // namespace quasidyn
