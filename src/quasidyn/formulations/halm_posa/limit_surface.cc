#include "quasidyn/formulations/halm_posa/limit_surface.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

#include "quasidyn/common/argument_check.h"
#include "quasidyn/formulations/halm_posa/halm_posa_keys.h"
#include "quasidyn/geometry/planar_shape_2d.h"
#include "quasidyn/kinematics/kinematics.h"

namespace quasidyn {
namespace {

constexpr const char* kWhere = "limit surface";
// Midpoints per side of the quadrature grid (limit_surface.h).
constexpr int kQuadraturePoints = 512;
// The scale a of the default Ã [m/(N·s)] (limit_surface.h).
constexpr double kDefaultScale = 1.0;

double Cross(const Eigen::Vector2d& a, const Eigen::Vector2d& b) {
  return a.x() * b.y() - a.y() * b.x();
}

double SegmentDistance(const Eigen::Vector2d& p, const Eigen::Vector2d& a,
                       const Eigen::Vector2d& b) {
  const Eigen::Vector2d ab = b - a;
  const double t = std::clamp((p - a).dot(ab) / ab.squaredNorm(), 0.0, 1.0);
  return (p - a - t * ab).norm();
}

// p within `radius` of the convex core (counter-clockwise when it has >= 3 vertices).
bool Inside(const PlanarShape2d& shape, const Eigen::Vector2d& p) {
  const std::vector<Eigen::Vector2d>& core = shape.core;
  const size_t n = core.size();
  if (n == 1) return (p - core[0]).norm() <= shape.radius;
  if (n == 2) return SegmentDistance(p, core[0], core[1]) <= shape.radius;
  bool inside = true;
  double distance = std::numeric_limits<double>::infinity();
  for (size_t i = 0; i < n; ++i) {
    const Eigen::Vector2d& a = core[i];
    const Eigen::Vector2d& b = core[(i + 1) % n];
    if (Cross(b - a, p - a) < 0.0) inside = false;
    distance = std::min(distance, SegmentDistance(p, a, b));
  }
  return inside || distance <= shape.radius;
}

// ρ of a rectangle with half sides a, b about its centre (limit_surface.h).
double RectangleMeanDistance(double a, double b) {
  const double d = std::hypot(a, b);
  return (2 * a * b * d + a * a * a * std::log((b + d) / a) + b * b * b * std::log((a + d) / b)) /
         (6 * a * b);
}

UniformPressureFootprint ByQuadrature(const std::vector<PlanarShape2d>& shapes) {
  Eigen::Vector2d lo = Eigen::Vector2d::Constant(std::numeric_limits<double>::infinity());
  Eigen::Vector2d hi = -lo;
  for (const PlanarShape2d& shape : shapes) {
    for (const Eigen::Vector2d& v : shape.core) {
      lo = lo.cwiseMin(v - Eigen::Vector2d::Constant(shape.radius));
      hi = hi.cwiseMax(v + Eigen::Vector2d::Constant(shape.radius));
    }
  }
  const Eigen::Vector2d cell = (hi - lo) / kQuadraturePoints;
  std::vector<Eigen::Vector2d> points;
  points.reserve(static_cast<size_t>(kQuadraturePoints) * kQuadraturePoints);
  for (int i = 0; i < kQuadraturePoints; ++i) {
    for (int j = 0; j < kQuadraturePoints; ++j) {
      const Eigen::Vector2d p = lo + Eigen::Vector2d((i + 0.5) * cell.x(), (j + 0.5) * cell.y());
      if (std::any_of(shapes.begin(), shapes.end(),
                      [&](const PlanarShape2d& s) { return Inside(s, p); }))
        points.push_back(p);
    }
  }
  UniformPressureFootprint out;
  if (points.empty()) return out;
  for (const Eigen::Vector2d& p : points) out.centroid += p;
  out.centroid /= static_cast<double>(points.size());
  for (const Eigen::Vector2d& p : points) out.mean_distance += (p - out.centroid).norm();
  out.mean_distance /= static_cast<double>(points.size());
  out.area = static_cast<double>(points.size()) * cell.x() * cell.y();
  return out;
}

Eigen::Matrix3d Rotation(double theta) {
  Eigen::Matrix3d R = Eigen::Matrix3d::Identity();
  R.topLeftCorner<2, 2>() = Eigen::Rotation2Dd(theta).toRotationMatrix();
  return R;
}

}  // namespace

UniformPressureFootprint FootprintOf(const Scene& scene, int instance) {
  QUASIDYN_CHECK_ARGUMENT(scene.planar, kWhere, "the scene is not planar");
  QUASIDYN_CHECK_ARGUMENT(instance >= 0 && instance < static_cast<int>(scene.instances.size()) &&
                              !scene.instances[instance].actuated,
                          kWhere, "instance " + std::to_string(instance) + " is not an object");
  const ModelInstance& object = scene.instances[instance];
  // The bodies' poses in the object's frame: the object's own coordinates at 0.
  Kinematics kinematics(BorrowScene(scene));
  Eigen::VectorXd q = scene.q0;
  q.segment(object.q_start, object.nq).setZero();
  kinematics.Update(q);
  std::vector<PlanarShape2d> shapes;
  for (const CollisionGeometry& geometry : scene.geometries) {
    if (std::find(object.bodies.begin(), object.bodies.end(), geometry.body) == object.bodies.end())
      continue;
    shapes.push_back(TransformPlanarShape2d(MakePlanarShape2d(geometry.shape),
                                            kinematics.BodyPose(geometry.body) * geometry.X_BS));
  }
  QUASIDYN_CHECK_ARGUMENT(
      !shapes.empty(), kWhere,
      "object '" + object.name + "' has no shape, so no footprint: give its limit_surface");
  if (shapes.size() == 1 && shapes[0].core.size() == 1) {  // a circle
    const double r = shapes[0].radius;
    return {M_PI * r * r, shapes[0].core[0], 2 * r / 3};
  }
  const auto& core = shapes[0].core;
  if (shapes.size() == 1 && core.size() == 4 && shapes[0].radius == 0.0 &&
      std::abs((core[1] - core[0]).dot(core[2] - core[1])) <=
          1e-12 * (core[1] - core[0]).squaredNorm() &&
      (core[0] - core[1] + core[2] - core[3]).norm() <= 1e-12 * (core[2] - core[0]).norm()) {
    // A rectangle (a box, in any orientation).
    const double a = 0.5 * (core[1] - core[0]).norm(), b = 0.5 * (core[2] - core[1]).norm();
    return {4 * a * b, 0.25 * (core[0] + core[1] + core[2] + core[3]), RectangleMeanDistance(a, b)};
  }
  return ByQuadrature(shapes);
}

Eigen::Matrix3d UniformPressureLimitSurface(const UniformPressureFootprint& footprint) {
  const double rho = footprint.mean_distance;
  QUASIDYN_CHECK_ARGUMENT(rho > 0 && std::isfinite(rho), kWhere,
                          "the footprint's mean distance must be finite and > 0");
  const Eigen::Vector3d diagonal(1.0, 1.0, 1.0 / (rho * rho));
  const Eigen::Matrix3d about_centroid = kDefaultScale * diagonal.asDiagonal().toDenseMatrix();
  Eigen::Matrix3d T = Eigen::Matrix3d::Identity();
  T(2, 0) = footprint.centroid.y();
  T(2, 1) = -footprint.centroid.x();
  return T.transpose() * about_centroid * T;
}

std::vector<ObjectLimitSurface> ObjectLimitSurfaces(const Scene& scene) {
  const HalmPosaSceneKeys* given = scene.ExtensionOf<HalmPosaSceneKeys>(kHalmPosaName);
  std::vector<ObjectLimitSurface> out;
  for (int i = 0; i < static_cast<int>(scene.instances.size()); ++i) {
    const ModelInstance& instance = scene.instances[i];
    if (instance.actuated || instance.nv == 0) continue;
    QUASIDYN_CHECK_ARGUMENT(scene.planar && instance.nv == 3 && instance.nq == 3, kWhere,
                            "object '" + instance.name +
                                "' does not slide on the plane (a planar joint in a planar "
                                "scene is needed)");
    ObjectLimitSurface surface;
    surface.instance = i;
    surface.v_start = instance.v_start;
    surface.body = given != nullptr && given->limit_surfaces.at(i)
                       ? *given->limit_surfaces.at(i)
                       : UniformPressureLimitSurface(FootprintOf(scene, i));
    out.push_back(surface);
  }
  return out;
}

Eigen::Matrix3d WorldLimitSurface(const Eigen::Matrix3d& body, double theta) {
  const Eigen::Matrix3d R = Rotation(theta);
  return R * body * R.transpose();
}

Eigen::Matrix3d WorldLimitSurfaceDerivative(const Eigen::Matrix3d& body, double theta) {
  const Eigen::Matrix3d R = Rotation(theta);
  Eigen::Matrix3d dR = Eigen::Matrix3d::Zero();  // ∂R̃/∂θ
  dR.topLeftCorner<2, 2>() = Eigen::Rotation2Dd(theta + M_PI / 2).toRotationMatrix();
  return dR * body * R.transpose() + R * body * dR.transpose();
}

}  // namespace quasidyn
