#pragma once
// The scene-level geometry query: every contact candidate between the collision
// geometries of a Scene at given body poses (broad phase, then narrow phase).

#include <Eigen/Geometry>
#include <vector>

#include "quasidyn/geometry/contact_point.h"
#include "quasidyn/geometry/planar_shape_2d.h"
#include "quasidyn/model/scene.h"

namespace quasidyn {

// One contact point between geometries geometry_a (A) and geometry_b (B), indices into
// Scene::geometries; point.normal points from B to A.
struct ContactCandidate {
  int geometry_a = -1;
  int geometry_b = -1;
  ContactPoint point;
};

class GeometryQuery {
 public:
  // Keeps a reference: scene must outlive this. Validates every geometry (body index in
  // range; in planar scenes builds each planar section once, so a cylinder or a bad size
  // throws std::invalid_argument here) and tabulates the body-pair collision filter.
  explicit GeometryQuery(const Scene& scene);

  // Every contact point with φ <= tolerance [m] (>= 0) between geometries of different
  // bodies that the scene does not filter (Scene::IsFiltered; never world–world), given
  // the body poses X_WB (size = number of bodies, index = body, as from
  // Kinematics::BodyPoses()). The shape frame in world is X_WB[body] * X_BS. Pairs whose
  // boxes are farther apart than tolerance are skipped (broad_phase.h); the others go to
  // ContactManifold2d (planar scenes) or ContactManifold3d. B is the geometry whose body
  // index is lower (so the world's shapes are always B and normals point from the
  // environment into the moving body). Order: by (lower geometry index, higher geometry
  // index), then manifold order. Throws std::invalid_argument for a wrong size of X_WB or
  // a negative or NaN tolerance.
  std::vector<ContactCandidate> Query(const std::vector<Eigen::Isometry3d>& X_WB,
                                      double tolerance) const;

  // The closest (or deepest) pair of geometries geometry_a (A) and geometry_b (B)
  // regardless of tolerance and filtering; normal from B to A. Throws
  // std::invalid_argument for an index out of range, the same geometry twice, two
  // half-spaces, or a wrong size of X_WB.
  ContactPoint Distance(int geometry_a, int geometry_b,
                        const std::vector<Eigen::Isometry3d>& X_WB) const;

  // The contact manifold of one pair, geometry_a (A) and geometry_b (B), with φ <= tolerance
  // [m] (>= 0): the points Query returns for that pair when its broad phase keeps it (normal
  // from B to A; pass B as the geometry of the lower body index, as Query does). Used to
  // re-evaluate a few pairs at nearby configurations (gradients/contact_data_derivative.h).
  // Throws std::invalid_argument as Distance, and for a negative or NaN tolerance.
  std::vector<ContactPoint> PairManifold(int geometry_a, int geometry_b,
                                         const std::vector<Eigen::Isometry3d>& X_WB,
                                         double tolerance) const;

 private:
  void CheckPoses(const std::vector<Eigen::Isometry3d>& X_WB) const;
  Eigen::Isometry3d ShapePose(int geometry, const std::vector<Eigen::Isometry3d>& X_WB) const;
  std::vector<ContactPoint> Manifold(int geometry_a, int geometry_b,
                                     const std::vector<Eigen::Isometry3d>& X_WB,
                                     double tolerance) const;

  const Scene& scene_;
  std::vector<PlanarShape2d> planar_shapes_;           // in S, per geometry (planar scenes only)
  std::vector<std::vector<bool>> body_pair_filtered_;  // [body][body]
};

}  // namespace quasidyn
