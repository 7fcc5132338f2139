#pragma once
// The planar (2D) form of a collision shape, as the narrow phase uses it.
//
// Every bounded planar shape of model/shape.h is a "rounded convex polygon": the set of
// points within `radius` of a convex core polygon (Minkowski sum of the core and a disc):
//   circle     core = its centre (1 vertex),          radius = r
//   stadium    core = its segment (2 vertices),       radius = r
//   rectangle  core = its 4 corners,                  radius = 0
//   polygon    core = the convex hull of its vertices, radius = 0
// The half-plane is kept apart: the points x with (x − point)·normal <= 0.
// All coordinates are in the frame the shape was built or transformed into [m].

#include <Eigen/Core>
#include <Eigen/Geometry>
#include <span>
#include <vector>

#include "quasidyn/model/shape.h"

namespace quasidyn {

struct PlanarShape2d {
  bool is_half_plane = false;
  // Rounded convex polygon (is_half_plane == false):
  std::vector<Eigen::Vector2d> core;  // 1, 2, or >= 3 vertices (counter-clockwise) [m]
  double radius = 0.0;                // [m], >= 0
  // Half-plane (is_half_plane == true):
  Eigen::Vector2d point = Eigen::Vector2d::Zero();    // a point of its boundary line [m]
  Eigen::Vector2d normal = Eigen::Vector2d::UnitY();  // unit outward normal
};

// The planar section of `shape` in its own frame S (see model/shape.h). Throws
// std::invalid_argument naming the problem for a cylinder (no planar section), a
// non-positive or non-finite size, or a polygon with fewer than 3 non-collinear vertices.
PlanarShape2d MakePlanarShape2d(const Shape& shape);

// A PlanarShape2d whose core is stored elsewhere (the form the narrow phase reads, so a
// caller can keep transformed cores in buffers of its own). Fields as in PlanarShape2d.
struct PlanarShape2dView {
  bool is_half_plane = false;
  std::span<const Eigen::Vector2d> core;  // [m]
  double radius = 0.0;                    // [m]
  Eigen::Vector2d point = Eigen::Vector2d::Zero();
  Eigen::Vector2d normal = Eigen::Vector2d::UnitY();
};

// The view of `shape` (which must outlive it).
PlanarShape2dView ViewOf(const PlanarShape2d& shape);

// `shape` (given in S) expressed in world, for the planar pose X_WS: rotation about the
// world z axis and translation in x-y (only the upper-left 2×2 block of the rotation and
// the x-y translation are used).
PlanarShape2d TransformPlanarShape2d(const PlanarShape2d& shape, const Eigen::Isometry3d& X_WS);

// The same, with the transformed core written to core_storage[0 .. shape.core.size()) (room
// for that many points, not checked) and viewed by the result; no heap allocation.
PlanarShape2dView TransformPlanarShape2d(const PlanarShape2d& shape, const Eigen::Isometry3d& X_WS,
                                         Eigen::Vector2d* core_storage);

}  // namespace quasidyn
