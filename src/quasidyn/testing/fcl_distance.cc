#include "quasidyn/testing/fcl_distance.h"

#include <fcl/fcl.h>

#include <cmath>
#include <exception>
#include <memory>
#include <stdexcept>
#include <string>

namespace quasidyn::testing {
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

struct FclAnswer {
  double phi = 0.0;
  Eigen::Vector3d p_A = Eigen::Vector3d::Zero();
  Eigen::Vector3d p_B = Eigen::Vector3d::Zero();
};

// One fcl::distance call; a failure with the exception's message when it throws.
Outcome TryDistance(const fcl::CollisionGeometryd& geometry_A, const Eigen::Isometry3d& X_WA,
                    const fcl::CollisionGeometryd& geometry_B, const Eigen::Isometry3d& X_WB,
                    const fcl::DistanceRequestd& request, fcl::DistanceResultd* result) {
  try {
    fcl::distance(&geometry_A, X_WA, &geometry_B, X_WB, request, *result);
    return Outcome::Ok();
  } catch (const std::exception& error) {
    return Outcome::Failure(error.what());
  } catch (...) {
    return Outcome::Failure("unknown exception");
  }
}

Outcome Query(const fcl::CollisionGeometryd& geometry_A, const Eigen::Isometry3d& X_WA,
              const fcl::CollisionGeometryd& geometry_B, const Eigen::Isometry3d& X_WB,
              FclAnswer* answer) {
  // fcl::distance on two CollisionObjects only forwards their geometries and transforms to
  // this overload (FCL 0.7, narrowphase/distance-inl.h); calling it directly skips building
  // the objects and their world bounding boxes, which a shape–shape query never reads.
  fcl::DistanceRequestd request(/*enable_nearest_points=*/true,
                                /*enable_signed_distance=*/true, kFclDistanceTolerance,
                                fcl::GST_LIBCCD);
  fcl::DistanceResultd result;
  if (Outcome first = TryDistance(geometry_A, X_WA, geometry_B, X_WB, request, &result); !first) {
    // libccd's GJK/EPA can lose the origin on exactly touching faces ("The origin is
    // outside of the polytope"). Retry once with A shifted by kFclRetryShift along the line
    // of the frame origins: φ moves by at most that much. A second failure is reported.
    Eigen::Vector3d away = X_WA.translation() - X_WB.translation();
    away = away.norm() > 0.0 ? Eigen::Vector3d(away.normalized()) : Eigen::Vector3d::UnitZ();
    Eigen::Isometry3d X_WA_retry = X_WA;
    X_WA_retry.translation() += kFclRetryShift * away;
    result.clear();
    if (Outcome second = TryDistance(geometry_A, X_WA_retry, geometry_B, X_WB, request, &result);
        !second) {
      return Outcome::Failure("FCL signed distance failed twice: " + first.message() + " / " +
                              second.message());
    }
  }
  // FCL 0.7 reports both nearest points in world coordinates.
  answer->phi = result.min_distance;
  answer->p_A = result.nearest_points[0];
  answer->p_B = result.nearest_points[1];
  return Outcome::Ok();
}

}  // namespace

std::shared_ptr<const fcl::CollisionGeometry<double>> MakeFclGeometry(const Shape& shape) {
  std::shared_ptr<fcl::CollisionGeometryd> geometry = MakeFclShape(shape);
  geometry->computeLocalAABB();
  return geometry;
}

Outcome FclSignedDistance3d(const fcl::CollisionGeometry<double>& a, const Eigen::Isometry3d& X_WA,
                            const fcl::CollisionGeometry<double>& b, const Eigen::Isometry3d& X_WB,
                            ContactPoint* out) {
  FclAnswer answer;
  if (Outcome query = Query(a, X_WA, b, X_WB, &answer); !query) return query;
  ContactPoint& c = *out;
  c.phi = answer.phi;
  c.p_A = answer.p_A;
  c.p_B = answer.p_B;
  const Eigen::Vector3d gap = answer.p_A - answer.p_B;
  if (gap.norm() >= kFclNormalFromWitnessMin && answer.phi != 0.0) {
    // p_A − p_B = φ n (contact_point.h), for either sign of φ.
    c.normal = (gap / answer.phi).normalized();
  } else {
    // Touching: probe with A moved away from B along the line of the frame origins.
    Eigen::Vector3d away = X_WA.translation() - X_WB.translation();
    away = away.norm() > 0.0 ? Eigen::Vector3d(away.normalized()) : Eigen::Vector3d::UnitZ();
    Eigen::Isometry3d X_WA_probe = X_WA;
    X_WA_probe.translation() += kFclProbeShift * away;
    FclAnswer probe;
    if (Outcome query = Query(a, X_WA_probe, b, X_WB, &probe); !query) return query;
    const Eigen::Vector3d probe_gap = probe.p_A - probe.p_B;
    if (probe_gap.norm() >= kFclNormalFromWitnessMin && probe.phi != 0.0) {
      c.normal = (probe_gap / probe.phi).normalized();
    } else {
      c.normal = away;
    }
    // Keep p_A − p_B = φ n exact for the reported pair.
    c.p_B = c.p_A - c.phi * c.normal;
  }
  if (!std::isfinite(c.phi) || !c.p_A.allFinite() || !c.p_B.allFinite() || !c.normal.allFinite()) {
    return Outcome::Failure("FCL signed distance is not finite (phi = " + std::to_string(c.phi) +
                            ")");
  }
  return Outcome::Ok();
}

ContactPoint FclSignedDistance3d(const Shape& a, const Eigen::Isometry3d& X_WA, const Shape& b,
                                 const Eigen::Isometry3d& X_WB) {
  const auto geometry_A = MakeFclGeometry(a);
  const auto geometry_B = MakeFclGeometry(b);
  ContactPoint c;
  if (Outcome outcome = FclSignedDistance3d(*geometry_A, X_WA, *geometry_B, X_WB, &c); !outcome)
    throw std::runtime_error(outcome.TakeMessage());
  return c;
}

}  // namespace quasidyn::testing
