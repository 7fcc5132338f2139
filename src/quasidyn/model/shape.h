#pragma once
// Collision shapes and their placement on bodies.
//
// A shape is described in its own frame S. In 3D scenes:
//   sphere     radius r [m] (> 0), centred at the origin of S.
//   box        full side lengths size = (sx, sy, sz) [m] (each > 0), centred at S.
//   cylinder   radius r, length l [m] (> 0), axis along S's z, centred at S.
//   capsule    radius r, length l [m] (> 0) of the core segment along S's z, centred at S.
//   half_space the region z <= 0 of S; its outward normal is S's +z. Only on the world body.
//   convex     convex hull of `vertices` [m] given in S (at least 4, not coplanar).
// In planar scenes (bodies move in the world x-y plane) a shape is its 2D section:
//   sphere     a circle of radius r.
//   box        a rectangle of sides (sx, sy); sz is ignored.
//   capsule    a stadium: the core segment of length l lies along S's x (not z).
//   half_space the region y <= 0 of S; outward normal S's +y.
//   convex     a convex polygon, `vertices` given as (x, y, 0) in S (at least 3).
//   cylinder   not available in planar scenes (the loader rejects it).

#include <Eigen/Geometry>
#include <memory>
#include <string>
#include <vector>

#include "quasidyn/model/triangle_mesh.h"
#include "quasidyn/model/value_source.h"

namespace quasidyn {

// The most vertices of a convex polytope the ecp formulation takes (its facets are found by
// brute force once, geometry/polytope_facets.h).
inline constexpr int kMaxEcpPolytopeVertices = 64;

enum class ShapeType { kSphere, kBox, kCylinder, kCapsule, kHalfSpace, kConvex };

// The YAML keyword of a shape type ("sphere", "box", ...).
const char* ShapeTypeName(ShapeType type);

struct Shape {
  ShapeType type = ShapeType::kSphere;
  double radius = 0.0;                             // sphere, cylinder, capsule [m]
  double length = 0.0;                             // cylinder, capsule [m]
  Eigen::Vector3d size = Eigen::Vector3d::Zero();  // box full side lengths [m]
  std::vector<Eigen::Vector3d> vertices;           // convex [m], in S
};

// A shape attached to a body: its pose in the body frame and its surface friction.
struct CollisionGeometry {
  std::string name;                                        // unique in the scene
  int body = 0;                                            // index into Scene::bodies (0 = world)
  Eigen::Isometry3d X_BS = Eigen::Isometry3d::Identity();  // shape frame S in body frame B
  Shape shape;
  double friction = 0.5;  // Coulomb coefficient μ [-], >= 0
  // For a convex shape made from a mesh file: that mesh, in S (what the viewer draws; contact
  // uses the hull in shape.vertices). Null otherwise.
  std::shared_ptr<const TriangleMesh> mesh;
  // Where the shape was declared (the scene file's line and field, or the model file's), so a
  // shape the geometry refuses is reported there; empty for shapes built in code.
  ValueSource source;
};

// What the viewer draws for a body besides (or instead of) its collision shapes: a URDF, SDF
// or MJCF <visual>. Never used by contact.
struct VisualGeometry {
  std::string name;                                        // unique among the visuals
  int body = 0;                                            // index into Scene::bodies
  Eigen::Isometry3d X_BV = Eigen::Isometry3d::Identity();  // visual frame V in body frame B
  Shape shape;  // a primitive (sphere, box, cylinder, capsule) when mesh is null
  std::shared_ptr<const TriangleMesh> mesh;  // triangles in V [m], scale applied
};

}  // namespace quasidyn
