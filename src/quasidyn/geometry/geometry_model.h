#pragma once
// The scene-level geometry query as an immutable model and a data object (the shape of
// every model of quasidyn, docs/architecture.md): every contact candidate between the
// collision geometries of a Scene at given body poses (broad phase, then narrow phase).
//
//   GeometryModel model(scene);               // validates and compiles once (may allocate)
//   GeometryData data = model.CreateData();   // buffers for one thread
//   if (!model.Query(X_WB, tolerance, &data)) ...  // data.failure_message() names the pair
//   for (const ContactCandidate& c : data.candidates()) ...
//
// The model compiles each geometry once: it validates it, builds its convex core for GJK/EPA
// (convex_core_3d.h) or its planar section in planar scenes (planar_shape_2d.h), and
// tabulates the body-pair filter. It is read-only afterwards: any
// number of threads may query it at once, each with its own GeometryData. Copies of a model
// share the compiled geometry (and accept each other's data).
//
// Heap allocation: a Query writes only into its GeometryData, whose buffers keep their
// capacity. Once they have held a query's sizes (pairs, candidates, support features), a
// query of the same or similar poses allocates nothing, the pairs that go through GJK/EPA
// (box–cylinder, cylinder–cylinder, cylinder–capsule, convex–bounded; narrow_phase_3d.h)
// included: their simplex and polytope live on the stack (convex_distance_3d.h).
// geometry_model_allocation_test.cc checks it on the examples and on a scene with cylinders
// and convex shapes.

#include <Eigen/Geometry>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "quasidyn/common/outcome.h"
#include "quasidyn/geometry/broad_phase.h"
#include "quasidyn/geometry/contact_point.h"
#include "quasidyn/geometry/manifold_points.h"
#include "quasidyn/geometry/planar_shape_2d.h"
#include "quasidyn/model/scene.h"

namespace quasidyn {

struct Manifold3dScratch;  // manifold_3d_scratch.h

// One contact point between geometries geometry_a (A) and geometry_b (B), indices into
// Scene::geometries; point.normal points from B to A.
struct ContactCandidate {
  int geometry_a = -1;
  int geometry_b = -1;
  ContactPoint point;
};

class GeometryModel;

// The buffers of one query at a time (one thread). Made by GeometryModel::CreateData; only
// that model (or a copy of it) may write into it. Movable, not copyable.
class GeometryData {
 public:
  GeometryData(GeometryData&&) noexcept;
  GeometryData& operator=(GeometryData&&) noexcept;
  ~GeometryData();

  // The candidates of the last successful Query (empty after a failed one).
  const std::vector<ContactCandidate>& candidates() const { return candidates_; }
  // Why the last Query returned false (empty after a successful one).
  const std::string& failure_message() const { return failure_message_; }

 private:
  friend class GeometryModel;
  GeometryData();

  const void* owner_ = nullptr;             // the compiled geometry that made this data
  std::vector<Eigen::Isometry3d> X_WS_;     // shape frame in world, per geometry
  std::vector<Aabb> boxes_;                 // world box, per geometry
  std::vector<int> sweep_order_;            // broad phase buffer
  std::vector<std::pair<int, int>> pairs_;  // broad phase output
  // Planar scenes: per geometry, its core in world and the view of its shape in world.
  std::vector<std::vector<Eigen::Vector2d>> planar_cores_;
  std::vector<PlanarShape2dView> planar_world_;
  std::unique_ptr<Manifold3dScratch> scratch_;
  ManifoldPoints manifold_;  // one pair's points
  std::vector<ContactCandidate> candidates_;
  std::string failure_message_;
};

class GeometryModel {
 public:
  // Validates every geometry once: body index in range, X_BS finite; in 3D scenes every
  // size finite and > 0 and a convex shape with >= 4 vertices that are not coplanar
  // (shape_validation.h); in planar scenes the planar section (>= 3 polygon vertices not on
  // one line; a cylinder has none); no two half-spaces on bodies that may collide. Throws
  // std::invalid_argument naming the geometry, e.g.
  //   "GeometryModel: geometry 'cube': box size x must be finite and > 0, got -1",
  // and for a null scene.
  explicit GeometryModel(std::shared_ptr<const Scene> scene);

  const Scene& scene() const { return *scene_; }
  const std::shared_ptr<const Scene>& scene_ptr() const { return scene_; }

  // Buffers sized for this scene (allocates).
  GeometryData CreateData() const;

  // Every contact point with φ <= tolerance [m] between geometries of different bodies that
  // the scene does not filter (Scene::IsFiltered; never world–world), given the body poses
  // X_WB (size = number of bodies, index = body, as from Kinematics::BodyPoses()), into
  // data->candidates() (cleared first). The shape frame in world is X_WB[body] * X_BS.
  // Pairs whose boxes are farther apart than tolerance are skipped (broad_phase.h); the
  // others go to the planar narrow phase (narrow_phase_2d.h) or the 3D one
  // (narrow_phase_3d.h). B is the geometry whose body index is lower (so the world's shapes
  // are always B and normals point from the environment into the moving body). Order: by
  // (lower geometry index, higher geometry index), then manifold order.
  // Returns false on a numerical failure of the narrow phase (a GJK/EPA answer that is not
  // usable, convex_distance_3d.h): data->failure_message() is then
  //   "geometry pair 'finger' / 'cube': GJK/EPA signed distance not usable: ..."
  // and data->candidates() is empty. Throws std::invalid_argument (caller bugs only) when
  // X_WB.size() is not the number of bodies or a pose is not finite, when tolerance is
  // negative or NaN (or infinite, in 3D scenes), or when data was made by another model.
  bool Query(const std::vector<Eigen::Isometry3d>& X_WB, double tolerance,
             GeometryData* data) const;

  // The closest (or deepest) pair of geometries geometry_a (A) and geometry_b (B)
  // regardless of tolerance and filtering, into *out; normal from B to A. A failure
  // (common/outcome.h) on a numerical failure, its message as Query's.
  // Throws std::invalid_argument for an index out of range, the same geometry twice, two
  // half-spaces, a wrong size of X_WB or a pose that is not finite.
  Outcome Distance(int geometry_a, int geometry_b, const std::vector<Eigen::Isometry3d>& X_WB,
                   ContactPoint* out) const;

  // The contact manifold of one pair, geometry_a (A) and geometry_b (B), with φ <= tolerance
  // [m] into *out (cleared first): the points Query returns for that pair when its broad
  // phase keeps it (normal from B to A; pass B as the geometry of the lower body index, as
  // Query does). Used to re-evaluate a few pairs at nearby configurations
  // (gradients/contact_data_derivative.h). A failure on a numerical failure, as Distance.
  // Throws std::invalid_argument as Distance, and for a negative or NaN tolerance (or an
  // infinite one in 3D scenes). No heap allocation, except for the intermediate lists of
  // large polygons and convex faces (more than 16 planar vertices or 18 support points;
  // Query keeps such lists in its data instead).
  Outcome PairManifold(int geometry_a, int geometry_b, const std::vector<Eigen::Isometry3d>& X_WB,
                       double tolerance, ManifoldPoints* out) const;

 private:
  struct Compiled;  // geometry_model.cc

  void CheckPoses(const char* where, const std::vector<Eigen::Isometry3d>& X_WB) const;
  void CheckPair(const char* where, int geometry_a, int geometry_b) const;
  Outcome PairManifoldInto(int geometry_a, int geometry_b, const Eigen::Isometry3d& X_WSa,
                           const Eigen::Isometry3d& X_WSb, double tolerance,
                           const PlanarShape2dView* planar_a, const PlanarShape2dView* planar_b,
                           Manifold3dScratch* scratch, ManifoldPoints* out) const;

  std::shared_ptr<const Scene> scene_;
  std::shared_ptr<const Compiled> compiled_;
};

}  // namespace quasidyn
