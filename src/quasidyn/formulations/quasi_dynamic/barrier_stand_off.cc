#include "quasidyn/formulations/quasi_dynamic/barrier_stand_off.h"

#include <algorithm>
#include <cmath>
#include <sstream>
#include <stdexcept>

#include "quasidyn/geometry/manifold_points.h"

namespace quasidyn {
namespace {

// Ten times its own size: beyond that the barrier's stand-off is no longer a smoothing of the
// contact but an object floating in the air.
constexpr double kMaxGapPerSize = 10.0;

// The largest side of the shape's bounding box in its own frame [m]: a sphere's diameter, a
// box's longest side, max(2r, l) for a cylinder, 2r + l for a capsule, and for a convex shape
// the largest extent of its vertices along S's axes (between its diameter / √3 and its
// diameter), in one pass over the vertices; 0 for a half-space.
double ShapeSize(const Shape& shape) {
  switch (shape.type) {
    case ShapeType::kSphere:
      return 2.0 * shape.radius;
    case ShapeType::kBox:
      return shape.size.maxCoeff();
    case ShapeType::kCylinder:
      return std::max(2.0 * shape.radius, shape.length);
    case ShapeType::kCapsule:
      return 2.0 * shape.radius + shape.length;
    case ShapeType::kConvex: {
      if (shape.vertices.empty()) return 0.0;
      Eigen::Vector3d lower = shape.vertices.front(), upper = lower;
      for (const Eigen::Vector3d& p : shape.vertices) {
        lower = lower.cwiseMin(p);
        upper = upper.cwiseMax(p);
      }
      return (upper - lower).maxCoeff();
    }
    case ShapeType::kHalfSpace:
      return 0.0;
  }
  return 0.0;
}

double InstanceMass(const Scene& scene, int instance) {
  double mass = 0.0;
  for (int b : scene.instances[instance].bodies) mass += scene.bodies[b].mass;
  return mass;
}

// R = d · P of the header for the pyramid barrier, the larger of the two barriers' degrees.
int RestingRows(const Scene& scene) {
  const int degree = scene.planar ? 2 : scene.friction_rays;
  return degree * (scene.planar ? kMaxPlanarManifoldPoints : kMaxManifoldPoints);
}

}  // namespace

std::vector<double> InstanceSizes(const Scene& scene) {
  std::vector<int> instance_of_body(scene.bodies.size(), -1);
  for (int o = 0; o < static_cast<int>(scene.instances.size()); ++o)
    for (int b : scene.instances[o].bodies) instance_of_body.at(b) = o;
  std::vector<double> sizes(scene.instances.size(), 0.0);
  for (const CollisionGeometry& g : scene.geometries) {
    const int o = g.body >= 0 && g.body < static_cast<int>(instance_of_body.size())
                      ? instance_of_body[g.body]
                      : -1;
    if (o >= 0) sizes[o] = std::max(sizes[o], ShapeSize(g.shape));
  }
  return sizes;
}

double DefaultKappa(const Scene& scene) {
  const double gravity = scene.planar ? scene.gravity.head<2>().norm() : scene.gravity.norm();
  const std::vector<double> sizes = InstanceSizes(scene);
  double kappa = 0.0;
  for (int o = 0; o < static_cast<int>(scene.instances.size()); ++o) {
    if (scene.instances[o].actuated) continue;
    const double weight = InstanceMass(scene, o) * gravity;
    const double size = sizes[o];
    if (weight > 0.0 && size > 0.0)
      kappa = std::max(kappa, RestingRows(scene) / (kDefaultStandOffPerSize * size * weight));
  }
  return kappa > 0.0 ? kappa : 100.0;
}

double BarrierRestingGap(const Scene& scene, BarrierKind barrier, double kappa, int instance) {
  const double gravity = scene.planar ? scene.gravity.head<2>().norm() : scene.gravity.norm();
  const double weight = InstanceMass(scene, instance) * gravity;  // [N]
  if (!(weight > 0.0)) return 0.0;
  const int degree = barrier == BarrierKind::kCone ? 2 : scene.planar ? 2 : scene.friction_rays;
  const int points = scene.planar ? kMaxPlanarManifoldPoints : kMaxManifoldPoints;
  return degree * points / (kappa * weight);
}

double BarrierCandidateDistance(const Scene& scene, BarrierKind barrier, double kappa,
                                const std::string& formulation) {
  const std::vector<double> sizes = InstanceSizes(scene);
  double distance = scene.contact_tolerance;
  for (int o = 0; o < static_cast<int>(scene.instances.size()); ++o) {
    const ModelInstance& instance = scene.instances[o];
    if (instance.actuated) continue;
    const double gap = BarrierRestingGap(scene, barrier, kappa, o);
    const double size = sizes[o];
    if (size > 0.0 && gap > kMaxGapPerSize * size) {
      std::ostringstream message;
      message << formulation << ": kappa = " << kappa << " 1/(N·m) would hold object '"
              << instance.name << "' (" << InstanceMass(scene, o) << " kg) up to " << gap
              << " m off its support, more than " << kMaxGapPerSize << " times its size " << size
              << " m; use kappa >= " << kappa * gap / (kMaxGapPerSize * size)
              << " (the barrier's stand-off, formulations/quasi_dynamic/barrier_stand_off.h)";
      throw std::invalid_argument(message.str());
    }
    distance = std::max(distance, 2.0 * gap);
  }
  return distance;
}

}  // namespace quasidyn
