#include "quasidyn/geometry/fcl_distance.h"

#include <fcl/fcl.h>

#include <memory>
#include <stdexcept>
#include <string>

namespace quasidyn {
namespace {

std::shared_ptr<fcl::CollisionGeometryd> MakeFclShape(const Shape& shape) {
  switch (shape.type) {
    case ShapeType::kSphere:
      return std::make_shared<fcl::Sphered>(shape.radius);
    case ShapeType::kBox:
      return std::make_shared<fcl::Boxd>(shape.size);
    case ShapeType::kCylinder:
      // FCL's cylinder is centred with its axis along z, as ours.
      return std::make_shared<fcl::Cylinderd>(shape.radius, shape.length);
    case ShapeType::kCapsule:
      return std::make_shared<fcl::Capsuled>(shape.radius, shape.length);
    case ShapeType::kConvex: {
      // GJK/EPA need only the support function, which FCL evaluates by a linear scan of the
      // vertices when no face list is given (its edge walk needs faces); so no hull faces.
      auto vertices = std::make_shared<std::vector<fcl::Vector3d>>(shape.vertices);
      auto faces = std::make_shared<std::vector<int>>();
      return std::make_shared<fcl::Convexd>(vertices, 0, faces);
    }
    case ShapeType::kHalfSpace:
      break;
  }
  throw std::invalid_argument(std::string("FCL signed distance: unsupported shape ") +
                              ShapeTypeName(shape.type) + " (only bounded shapes)");
}

// The FCL geometry of `shape`, with its local bounding box computed as fcl::CollisionObject's
// constructor would do (the geometry is queried without a CollisionObject, see Query).
std::shared_ptr<fcl::CollisionGeometryd> MakeFclGeometry(const Shape& shape) {
  std::shared_ptr<fcl::CollisionGeometryd> geometry = MakeFclShape(shape);
  geometry->computeLocalAABB();
  return geometry;
}

struct FclAnswer {
  double phi = 0.0;
  Eigen::Vector3d p_A = Eigen::Vector3d::Zero();
  Eigen::Vector3d p_B = Eigen::Vector3d::Zero();
};

FclAnswer Query(const std::shared_ptr<fcl::CollisionGeometryd>& geometry_A,
                const Eigen::Isometry3d& X_WA,
                const std::shared_ptr<fcl::CollisionGeometryd>& geometry_B,
                const Eigen::Isometry3d& X_WB) {
  // fcl::distance on two CollisionObjects only forwards their geometries and transforms to
  // this overload (FCL 0.7, narrowphase/distance-inl.h); calling it directly skips building
  // the objects and their world bounding boxes, which a shape–shape query never reads.
  fcl::DistanceRequestd request(/*enable_nearest_points=*/true,
                                /*enable_signed_distance=*/true, kFclDistanceTolerance,
                                fcl::GST_LIBCCD);
  fcl::DistanceResultd result;
  try {
    fcl::distance(geometry_A.get(), X_WA, geometry_B.get(), X_WB, request, result);
  } catch (const std::exception& first_error) {
    // libccd's GJK/EPA can lose the origin on exactly touching faces ("The origin is
    // outside of the polytope"). Retry once with A shifted by kFclRetryShift along the line
    // of the frame origins: φ moves by at most that much. A second failure is reported as a
    // std::runtime_error, which the stepper turns into a failed step.
    Eigen::Vector3d away = X_WA.translation() - X_WB.translation();
    away = away.norm() > 0.0 ? Eigen::Vector3d(away.normalized()) : Eigen::Vector3d::UnitZ();
    Eigen::Isometry3d X_WA_retry = X_WA;
    X_WA_retry.translation() += kFclRetryShift * away;
    result.clear();
    try {
      fcl::distance(geometry_A.get(), X_WA_retry, geometry_B.get(), X_WB, request, result);
    } catch (const std::exception& second_error) {
      throw std::runtime_error(std::string("FCL signed distance failed twice: ") +
                               first_error.what() + " / " + second_error.what());
    }
  }
  // FCL 0.7 reports both nearest points in world coordinates.
  return {result.min_distance, result.nearest_points[0], result.nearest_points[1]};
}

}  // namespace

ContactPoint FclSignedDistance3d(const Shape& a, const Eigen::Isometry3d& X_WA, const Shape& b,
                                 const Eigen::Isometry3d& X_WB) {
  const auto geometry_A = MakeFclGeometry(a);
  const auto geometry_B = MakeFclGeometry(b);
  const FclAnswer answer = Query(geometry_A, X_WA, geometry_B, X_WB);
  ContactPoint c;
  c.phi = answer.phi;
  c.p_A = answer.p_A;
  c.p_B = answer.p_B;
  const Eigen::Vector3d gap = answer.p_A - answer.p_B;
  if (gap.norm() >= kFclNormalFromWitnessMin && answer.phi != 0.0) {
    // p_A − p_B = φ n (contact_point.h), for either sign of φ.
    c.normal = (gap / answer.phi).normalized();
    return c;
  }
  // Touching: probe with A moved away from B along the line of the frame origins.
  Eigen::Vector3d away = X_WA.translation() - X_WB.translation();
  away = away.norm() > 0.0 ? Eigen::Vector3d(away.normalized()) : Eigen::Vector3d::UnitZ();
  Eigen::Isometry3d X_WA_probe = X_WA;
  X_WA_probe.translation() += kFclProbeShift * away;
  const FclAnswer probe = Query(geometry_A, X_WA_probe, geometry_B, X_WB);
  const Eigen::Vector3d probe_gap = probe.p_A - probe.p_B;
  if (probe_gap.norm() >= kFclNormalFromWitnessMin && probe.phi != 0.0) {
    c.normal = (probe_gap / probe.phi).normalized();
  } else {
    c.normal = away;
  }
  // Keep p_A − p_B = φ n exact for the reported pair.
  c.p_B = c.p_A - c.phi * c.normal;
  return c;
}

}  // namespace quasidyn
