#pragma once
// Random points on collision shapes (model/shape.h), for contact sampling
// (contact_sampler.h): where on an object a robot may touch it, and which point of a robot's
// shape goes there. Everything is in the shape's frame S [m]; draws come from the caller's
// generator.
//
// Object surface points are uniform in area (3D) or in perimeter length (planar scenes, where a
// shape is its planar section: a rounded convex polygon, geometry/planar_shape_2d.h):
//   sphere, box, cylinder, capsule   exactly uniform, with the outward unit normal there;
//   convex (3D)                      the support point in a uniformly random direction d, with
//                                    normal d (a vertex of the hull, approximately uniform over
//                                    the directions its normal cone covers).
// Half-spaces have no bounded surface: std::invalid_argument.

#include <Eigen/Core>

#include "quasidyn/gradients/randomized_smoothing_sampler.h"
#include "quasidyn/model/shape.h"

namespace quasidyn {

struct SurfacePoint {
  Eigen::Vector3d point = Eigen::Vector3d::Zero();    // on the surface, in S [m]
  Eigen::Vector3d normal = Eigen::Vector3d::UnitX();  // unit, outward, in S
};

// A uniformly random surface point of `shape` (see above); planar scenes give z = 0.
SurfacePoint SampleSurfacePoint(const Shape& shape, bool planar, Xoshiro256StarStar* generator);

// The point of a robot's shape that contact sampling puts onto an object's surface point p with
// outward normal n: the shape's `anchor` goes to p + offset · n. Rounded shapes touch with their
// core: sphere → its centre, capsule → a uniform point of its core segment, offset = radius;
// other shapes → a uniform surface point, offset 0 (the settling steps resolve what the
// orientation leaves in penetration).
struct RobotAnchor {
  Eigen::Vector3d anchor = Eigen::Vector3d::Zero();  // in S [m]
  double offset = 0.0;                               // [m] >= 0
};

RobotAnchor SampleRobotAnchor(const Shape& shape, bool planar, Xoshiro256StarStar* generator);

}  // namespace quasidyn
