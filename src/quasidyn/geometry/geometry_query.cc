#include "quasidyn/geometry/geometry_query.h"

#include <algorithm>
#include <stdexcept>
#include <string>

#include "quasidyn/geometry/broad_phase.h"
#include "quasidyn/geometry/narrow_phase_2d.h"
#include "quasidyn/geometry/narrow_phase_3d.h"

namespace quasidyn {

GeometryQuery::GeometryQuery(const Scene& scene) : scene_(scene) {
  const int body_count = static_cast<int>(scene.bodies.size());
  for (const CollisionGeometry& geometry : scene.geometries) {
    if (geometry.body < 0 || geometry.body >= body_count) {
      throw std::invalid_argument("GeometryQuery: geometry '" + geometry.name +
                                  "' has body index " + std::to_string(geometry.body) +
                                  ", outside [0, " + std::to_string(body_count) + ")");
    }
    if (scene.planar) {
      try {
        planar_shapes_.push_back(MakePlanarShape2d(geometry.shape));
      } catch (const std::invalid_argument& error) {
        throw std::invalid_argument("GeometryQuery: geometry '" + geometry.name +
                                    "': " + error.what());
      }
    }
  }
  body_pair_filtered_.assign(body_count, std::vector<bool>(body_count, false));
  for (int i = 0; i < body_count; ++i) {
    for (int j = 0; j < body_count; ++j) body_pair_filtered_[i][j] = scene.IsFiltered(i, j);
  }
}

void GeometryQuery::CheckPoses(const std::vector<Eigen::Isometry3d>& X_WB) const {
  if (X_WB.size() != scene_.bodies.size()) {
    throw std::invalid_argument("GeometryQuery: X_WB has " + std::to_string(X_WB.size()) +
                                " poses, the scene has " + std::to_string(scene_.bodies.size()) +
                                " bodies");
  }
}

Eigen::Isometry3d GeometryQuery::ShapePose(int geometry,
                                           const std::vector<Eigen::Isometry3d>& X_WB) const {
  const CollisionGeometry& g = scene_.geometries[geometry];
  return X_WB[g.body] * g.X_BS;
}

std::vector<ContactPoint> GeometryQuery::Manifold(int geometry_a, int geometry_b,
                                                  const std::vector<Eigen::Isometry3d>& X_WB,
                                                  double tolerance) const {
  const Eigen::Isometry3d X_WSa = ShapePose(geometry_a, X_WB);
  const Eigen::Isometry3d X_WSb = ShapePose(geometry_b, X_WB);
  if (scene_.planar) {
    return ContactManifold2d(TransformPlanarShape2d(planar_shapes_[geometry_a], X_WSa),
                             TransformPlanarShape2d(planar_shapes_[geometry_b], X_WSb), tolerance);
  }
  return ContactManifold3d(scene_.geometries[geometry_a].shape, X_WSa,
                           scene_.geometries[geometry_b].shape, X_WSb, tolerance);
}

std::vector<ContactCandidate> GeometryQuery::Query(const std::vector<Eigen::Isometry3d>& X_WB,
                                                   double tolerance) const {
  CheckPoses(X_WB);
  if (!(tolerance >= 0.0)) {
    throw std::invalid_argument("GeometryQuery::Query: tolerance must be >= 0 [m] (got " +
                                std::to_string(tolerance) + ")");
  }
  const int geometry_count = static_cast<int>(scene_.geometries.size());
  std::vector<Aabb> boxes(geometry_count);
  for (int g = 0; g < geometry_count; ++g) {
    boxes[g] = ComputeWorldAabb(scene_.geometries[g].shape, ShapePose(g, X_WB), scene_.planar);
  }
  std::vector<ContactCandidate> candidates;
  for (const auto& [first, second] : OverlappingPairs(boxes, tolerance)) {
    const int body_first = scene_.geometries[first].body;
    const int body_second = scene_.geometries[second].body;
    if (body_pair_filtered_[body_first][body_second]) continue;  // also the same body
    // B is the geometry of the lower body index.
    const int geometry_a = body_first > body_second ? first : second;
    const int geometry_b = body_first > body_second ? second : first;
    for (const ContactPoint& point : Manifold(geometry_a, geometry_b, X_WB, tolerance)) {
      candidates.push_back(ContactCandidate{geometry_a, geometry_b, point});
    }
  }
  return candidates;
}

ContactPoint GeometryQuery::Distance(int geometry_a, int geometry_b,
                                     const std::vector<Eigen::Isometry3d>& X_WB) const {
  CheckPoses(X_WB);
  const int geometry_count = static_cast<int>(scene_.geometries.size());
  for (int g : {geometry_a, geometry_b}) {
    if (g < 0 || g >= geometry_count) {
      throw std::invalid_argument("GeometryQuery::Distance: geometry index " + std::to_string(g) +
                                  " outside [0, " + std::to_string(geometry_count) + ")");
    }
  }
  if (geometry_a == geometry_b) {
    throw std::invalid_argument("GeometryQuery::Distance: geometry_a == geometry_b");
  }
  const Eigen::Isometry3d X_WSa = ShapePose(geometry_a, X_WB);
  const Eigen::Isometry3d X_WSb = ShapePose(geometry_b, X_WB);
  if (scene_.planar) {
    return SignedDistance2d(TransformPlanarShape2d(planar_shapes_[geometry_a], X_WSa),
                            TransformPlanarShape2d(planar_shapes_[geometry_b], X_WSb));
  }
  return SignedDistance3d(scene_.geometries[geometry_a].shape, X_WSa,
                          scene_.geometries[geometry_b].shape, X_WSb);
}

std::vector<ContactPoint> GeometryQuery::PairManifold(int geometry_a, int geometry_b,
                                                      const std::vector<Eigen::Isometry3d>& X_WB,
                                                      double tolerance) const {
  CheckPoses(X_WB);
  const int geometry_count = static_cast<int>(scene_.geometries.size());
  for (int g : {geometry_a, geometry_b}) {
    if (g < 0 || g >= geometry_count) {
      throw std::invalid_argument("GeometryQuery::PairManifold: geometry index " +
                                  std::to_string(g) + " outside [0, " +
                                  std::to_string(geometry_count) + ")");
    }
  }
  if (geometry_a == geometry_b) {
    throw std::invalid_argument("GeometryQuery::PairManifold: geometry_a == geometry_b");
  }
  if (!(tolerance >= 0.0)) {
    throw std::invalid_argument("GeometryQuery::PairManifold: tolerance must be >= 0 [m] (got " +
                                std::to_string(tolerance) + ")");
  }
  return Manifold(geometry_a, geometry_b, X_WB, tolerance);
}

}  // namespace quasidyn
