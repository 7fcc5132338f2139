#pragma once
// A bounded 3D shape as the input of GJK/EPA (gjk_3d.h, epa_3d.h): a convex core given by its
// support function, expanded by a ball of radius `margin` (van den Bergen, "Proximity queries
// and penetration depth computation on 3D game objects", GDC 2001, §2: a sphere is a point
// with a margin, a capsule a segment with a margin). The distance of two shapes is the
// distance of their cores minus both margins, so GJK/EPA run on the cores only: exact to
// round-off for polytope cores (point, segment, box, convex), approximate only where a core
// is curved (the rims of a cylinder).
//
//   shape      core                                  margin
//   sphere     the point 0                           r
//   capsule    the segment from -l/2 z to +l/2 z     r
//   box        the box of full sides `size`          0
//   cylinder   the cylinder (r, l), axis z           0
//   convex     the hull of its vertices              0
//
// The support point s(u) of a core in a direction u of its frame S maximises u·p over the
// core (support function: e.g. Ericson, Real-Time Collision Detection, 2005, §9.5). Ties
// are broken by fixed rules (a box corner on the + side of a zero component, the first of
// tied convex vertices, the centre of a cylinder's end disc when u is along the axis), so the
// same u gives the same bits. A convex core's support is a linear scan of its vertices.
//
// A ConvexCore3d points into the Shape's vertex list: the Shape must outlive it. Making one
// does not allocate.

#include <Eigen/Core>
#include <Eigen/Geometry>
#include <cstddef>

#include "quasidyn/model/shape.h"

namespace quasidyn {

enum class ConvexCoreKind { kPoint, kSegment, kBox, kCylinder, kPolytope };

struct ConvexCore3d {
  ConvexCoreKind kind = ConvexCoreKind::kPoint;
  double margin = 0.0;                                  // [m] >= 0
  double half_length = 0.0;                             // segment, cylinder [m]
  double radius = 0.0;                                  // cylinder [m]
  Eigen::Vector3d half_size = Eigen::Vector3d::Zero();  // box [m]
  const Eigen::Vector3d* vertices = nullptr;            // polytope, in S [m]
  std::size_t vertex_count = 0;
  // Largest |p| over the whole shape (core and margin) about the origin of S [m]: the
  // length scale of the shape's coordinates, which sets the tolerances of GJK/EPA.
  double bounding_radius = 0.0;
};

// The core of a bounded shape (not checked: a valid shape, shape_validation.h). Throws
// std::invalid_argument for a half-space.
ConvexCore3d MakeConvexCore3d(const Shape& shape);

// The support point of `core` (margin excluded) along u_S, in S. u_S must be finite; a zero
// u_S gives a point of the core (the tie rules above).
Eigen::Vector3d CoreSupport3d(const ConvexCore3d& core, const Eigen::Vector3d& u_S);

// One point of the Minkowski difference A − B of two cores: w = a − b, with a on A's core
// and b on B's core (all in the frame of B).
struct SupportVertex3d {
  Eigen::Vector3d w = Eigen::Vector3d::Zero();
  Eigen::Vector3d a = Eigen::Vector3d::Zero();
  Eigen::Vector3d b = Eigen::Vector3d::Zero();
};

// Cores A and B with A's pose in B's frame: GJK and EPA work in B's frame, whose origin lies
// within B's bounding radius of the answer, so coordinates stay of the shapes' size however
// far the pair is from the world origin.
class CorePair3d {
 public:
  // X_WA, X_WB: the shape frames in world.
  CorePair3d(const ConvexCore3d& a, const Eigen::Isometry3d& X_WA, const ConvexCore3d& b,
             const Eigen::Isometry3d& X_WB);

  // The support point of A − B along d (in B's frame): s_A(d) − s_B(−d).
  SupportVertex3d Support(const Eigen::Vector3d& d) const;

  const ConvexCore3d& a() const { return *a_; }
  const ConvexCore3d& b() const { return *b_; }
  // The origin of A's frame in B's frame [m].
  const Eigen::Vector3d& a_origin() const { return t_BA_; }
  // bounding_radius of A plus that of B [m]: the length scale of the pair.
  double scale() const { return a_->bounding_radius + b_->bounding_radius; }

 private:
  const ConvexCore3d* a_;
  const ConvexCore3d* b_;
  Eigen::Matrix3d R_BA_;  // A's orientation in B's frame
  Eigen::Vector3d t_BA_;  // A's origin in B's frame [m]
};

}  // namespace quasidyn
