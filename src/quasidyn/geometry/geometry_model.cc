#include "quasidyn/geometry/geometry_model.h"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <stdexcept>
#include <string>

#include "quasidyn/common/argument_check.h"
#include "quasidyn/geometry/manifold_3d_scratch.h"
#include "quasidyn/geometry/narrow_phase_2d.h"
#include "quasidyn/geometry/narrow_phase_3d.h"
#include "quasidyn/geometry/scene_shapes.h"
#include "quasidyn/geometry/shape_validation.h"
#include "quasidyn/geometry/small_vector.h"
#include "quasidyn/model/welded_bodies.h"

namespace quasidyn {
namespace {

constexpr const char* kModel = "GeometryModel";

// Room for the world core of a planar shape in Distance and PairManifold without the heap.
constexpr std::size_t kInlineCorePoints = 16;

std::string GeometryLabel(const Scene& scene, int geometry) {
  return "geometry '" + scene.geometries[geometry].name + "'";
}

}  // namespace

// What the constructor builds once; shared by copies of the model, never written afterwards.
struct GeometryModel::Compiled {
  bool planar = false;
  int body_count = 0;
  std::vector<char> filtered;  // [body_a * body_count + body_b]: Scene::IsFiltered
  // 3D scenes, per geometry: the shape and its convex core (narrow_phase_3d.h).
  std::vector<CompiledShape3d> shapes_3d;
  // Planar scenes, per geometry: the planar section in the shape frame.
  std::vector<PlanarShape2d> planar_shapes;

  bool Filtered(int body_a, int body_b) const {
    return filtered[static_cast<std::size_t>(body_a) * body_count + body_b] != 0;
  }
};

GeometryData::GeometryData() = default;
GeometryData::GeometryData(GeometryData&&) noexcept = default;
GeometryData& GeometryData::operator=(GeometryData&&) noexcept = default;
GeometryData::~GeometryData() = default;

GeometryModel::GeometryModel(std::shared_ptr<const Scene> scene) : scene_(std::move(scene)) {
  QUASIDYN_CHECK_ARGUMENT(scene_ != nullptr, kModel, "scene is null");
  const Scene& s = *scene_;
  auto compiled = std::make_shared<Compiled>();
  compiled->planar = s.planar;
  compiled->body_count = static_cast<int>(s.bodies.size());
  const int body_count = compiled->body_count;
  const int geometry_count = static_cast<int>(s.geometries.size());
  for (int g = 0; g < geometry_count; ++g) {
    const CollisionGeometry& geometry = s.geometries[g];
    const std::string label = GeometryLabel(s, g);
    QUASIDYN_CHECK_ARGUMENT(geometry.body >= 0 && geometry.body < body_count, kModel,
                            label + " has body index " + std::to_string(geometry.body) +
                                ", outside [0, " + std::to_string(body_count) + ")");
    QUASIDYN_CHECK_ARGUMENT(geometry.X_BS.matrix().allFinite(), kModel,
                            label + ": X_BS is not finite");
    // A refused shape is reported where it was declared (scene_shapes.h).
    if (s.planar) {
      try {
        compiled->planar_shapes.push_back(MakePlanarShape2d(geometry.shape));
      } catch (const std::invalid_argument& error) {
        FailGeometry(s, g, kModel, error.what());
      }
    } else {
      const std::string problem = ShapeProblem3d(geometry.shape);
      if (!problem.empty()) FailGeometry(s, g, kModel, problem);
      compiled->shapes_3d.push_back(CompileShape3d(geometry.shape));
    }
  }
  // Scene::IsFiltered for every pair: bodies of one weld root (the same body included), then the
  // scene's filter list.
  compiled->filtered.assign(static_cast<std::size_t>(body_count) * body_count, 0);
  const std::vector<int> weld_root = WeldRoots(s);
  for (int i = 0; i < body_count; ++i) {
    for (int j = 0; j < body_count; ++j) {
      compiled->filtered[static_cast<std::size_t>(i) * body_count + j] =
          weld_root[i] == weld_root[j];
    }
  }
  for (const auto& [a, b] : s.collision_filter) {
    if (a < 0 || b < 0 || a >= body_count || b >= body_count) continue;
    compiled->filtered[static_cast<std::size_t>(a) * body_count + b] = 1;
    compiled->filtered[static_cast<std::size_t>(b) * body_count + a] = 1;
  }
  // Two half-spaces have no signed distance: a query would meet them whenever their bodies
  // may collide (an unbounded box pairs with everything).
  for (int g = 0; g < geometry_count; ++g) {
    for (int h = g + 1; h < geometry_count; ++h) {
      const CollisionGeometry& a = s.geometries[g];
      const CollisionGeometry& b = s.geometries[h];
      QUASIDYN_CHECK_ARGUMENT(
          !(a.shape.type == ShapeType::kHalfSpace && b.shape.type == ShapeType::kHalfSpace &&
            !compiled->Filtered(a.body, b.body)),
          kModel,
          GeometryLabel(s, g) + " and " + GeometryLabel(s, h) +
              " are half-spaces on bodies that may collide (two half-spaces have no signed "
              "distance)");
    }
  }
  compiled_ = std::move(compiled);
}

GeometryData GeometryModel::CreateData() const {
  const std::size_t n = scene_->geometries.size();
  GeometryData data;
  data.owner_ = compiled_.get();
  data.X_WS_.resize(n);
  data.boxes_.resize(n);
  data.sweep_order_.reserve(n);
  const std::size_t pair_room =
      std::min<std::size_t>(n * (n - std::min<std::size_t>(n, 1)) / 2, 4096);
  data.pairs_.reserve(pair_room);
  // Room for a full manifold on up to two pairs per geometry (a shape resting on one and
  // pushed by another), so small scenes whose pairs outnumber their geometries do not grow
  // the list at a new pose.
  data.candidates_.reserve(
      std::min<std::size_t>(kMaxManifoldPoints * std::max(n, std::min(pair_room, 2 * n)), 4096));
  if (compiled_->planar) {
    data.planar_cores_.resize(n);
    data.planar_world_.resize(n);
    for (std::size_t g = 0; g < n; ++g) {
      data.planar_cores_[g].resize(compiled_->planar_shapes[g].core.size());
    }
  }
  data.scratch_ = std::make_unique<Manifold3dScratch>();
  return data;
}

void GeometryModel::CheckPoses(const char* where,
                               const std::vector<Eigen::Isometry3d>& X_WB) const {
  CheckSize(where, "X_WB", static_cast<Eigen::Index>(X_WB.size()),
            static_cast<Eigen::Index>(scene_->bodies.size()), "the number of bodies");
}

void GeometryModel::CheckPair(const char* where, int geometry_a, int geometry_b) const {
  const int geometry_count = static_cast<int>(scene_->geometries.size());
  for (int g : {geometry_a, geometry_b}) {
    QUASIDYN_CHECK_ARGUMENT(g >= 0 && g < geometry_count, where,
                            "geometry index " + std::to_string(g) + " outside [0, " +
                                std::to_string(geometry_count) + ")");
  }
  QUASIDYN_CHECK_ARGUMENT(geometry_a != geometry_b, where, "geometry_a == geometry_b");
  QUASIDYN_CHECK_ARGUMENT(!(scene_->geometries[geometry_a].shape.type == ShapeType::kHalfSpace &&
                            scene_->geometries[geometry_b].shape.type == ShapeType::kHalfSpace),
                          where, "two half-spaces have no signed distance");
}

namespace {

void CheckTolerance(const char* where, double tolerance, bool planar) {
  QUASIDYN_CHECK_ARGUMENT(tolerance >= 0.0 && (planar || std::isfinite(tolerance)), where,
                          std::string("tolerance must be >= 0 [m]") +
                              (planar ? "" : " and finite") + " (got " + NumberText(tolerance) +
                              ")");
}

// X_WB[body] * X_BS, the shape frame in world, checked finite.
Eigen::Isometry3d ShapePose(const char* where, const Scene& scene, int geometry,
                            const std::vector<Eigen::Isometry3d>& X_WB) {
  const CollisionGeometry& g = scene.geometries[geometry];
  const Eigen::Isometry3d X_WS = X_WB[g.body] * g.X_BS;
  if (!X_WS.matrix().allFinite()) {
    ThrowInvalidArgument(where, "X_WB[" + std::to_string(g.body) + "] (the body of " +
                                    GeometryLabel(scene, geometry) + ") is not finite");
  }
  return X_WS;
}

// "geometry pair 'a' / 'b': <message>".
std::string PairFailure(const Scene& scene, int geometry_a, int geometry_b,
                        const std::string& message) {
  return "geometry pair '" + scene.geometries[geometry_a].name + "' / '" +
         scene.geometries[geometry_b].name + "': " + message;
}

}  // namespace

Outcome GeometryModel::PairManifoldInto(int geometry_a, int geometry_b,
                                        const Eigen::Isometry3d& X_WSa,
                                        const Eigen::Isometry3d& X_WSb, double tolerance,
                                        const PlanarShape2dView* planar_a,
                                        const PlanarShape2dView* planar_b,
                                        Manifold3dScratch* scratch, ManifoldPoints* out) const {
  if (compiled_->planar) {
    ContactManifold2d(*planar_a, *planar_b, tolerance, out);
    return Outcome::Ok();
  }
  Outcome outcome =
      ContactManifold3d(compiled_->shapes_3d[geometry_a], X_WSa, compiled_->shapes_3d[geometry_b],
                        X_WSb, tolerance, scratch, out);
  if (!outcome)
    return Outcome::Failure(PairFailure(*scene_, geometry_a, geometry_b, outcome.message()));
  return outcome;
}

bool GeometryModel::Query(const std::vector<Eigen::Isometry3d>& X_WB, double tolerance,
                          GeometryData* data) const {
  constexpr const char* kWhere = "GeometryModel::Query";
  QUASIDYN_CHECK_ARGUMENT(data != nullptr, kWhere, "data is null");
  QUASIDYN_CHECK_ARGUMENT(data->owner_ == compiled_.get(), kWhere,
                          "data was made by another model");
  CheckPoses(kWhere, X_WB);
  CheckTolerance(kWhere, tolerance, compiled_->planar);
  data->candidates_.clear();
  data->failure_message_.clear();
  const Scene& scene = *scene_;
  const int geometry_count = static_cast<int>(scene.geometries.size());
  for (int g = 0; g < geometry_count; ++g) {
    data->X_WS_[g] = ShapePose(kWhere, scene, g, X_WB);
    data->boxes_[g] =
        WorldAabbOfValidShape(scene.geometries[g].shape, data->X_WS_[g], compiled_->planar);
    if (compiled_->planar) {
      data->planar_world_[g] = TransformPlanarShape2d(compiled_->planar_shapes[g], data->X_WS_[g],
                                                      data->planar_cores_[g].data());
    }
  }
  OverlappingPairs(data->boxes_, tolerance, &data->sweep_order_, &data->pairs_);
  for (const auto& [first, second] : data->pairs_) {
    const int body_first = scene.geometries[first].body;
    const int body_second = scene.geometries[second].body;
    if (compiled_->Filtered(body_first, body_second)) continue;  // also the same body
    // B is the geometry of the lower body index.
    const int geometry_a = body_first > body_second ? first : second;
    const int geometry_b = body_first > body_second ? second : first;
    const bool planar = compiled_->planar;
    Outcome outcome =
        PairManifoldInto(geometry_a, geometry_b, data->X_WS_[geometry_a], data->X_WS_[geometry_b],
                         tolerance, planar ? &data->planar_world_[geometry_a] : nullptr,
                         planar ? &data->planar_world_[geometry_b] : nullptr, data->scratch_.get(),
                         &data->manifold_);
    if (!outcome) {
      data->failure_message_ = outcome.TakeMessage();
      data->candidates_.clear();
      return false;
    }
    for (const ContactPoint& point : data->manifold_) {
      data->candidates_.push_back(ContactCandidate{geometry_a, geometry_b, point});
    }
  }
  return true;
}

Outcome GeometryModel::Distance(int geometry_a, int geometry_b,
                                const std::vector<Eigen::Isometry3d>& X_WB,
                                ContactPoint* out) const {
  constexpr const char* kWhere = "GeometryModel::Distance";
  QUASIDYN_CHECK_ARGUMENT(out != nullptr, kWhere, "out is null");
  CheckPoses(kWhere, X_WB);
  CheckPair(kWhere, geometry_a, geometry_b);
  const Scene& scene = *scene_;
  const Eigen::Isometry3d X_WSa = ShapePose(kWhere, scene, geometry_a, X_WB);
  const Eigen::Isometry3d X_WSb = ShapePose(kWhere, scene, geometry_b, X_WB);
  if (compiled_->planar) {
    const PlanarShape2d& a = compiled_->planar_shapes[geometry_a];
    const PlanarShape2d& b = compiled_->planar_shapes[geometry_b];
    SmallVector<Eigen::Vector2d, kInlineCorePoints> core_a, core_b;
    core_a.resize(a.core.size());
    core_b.resize(b.core.size());
    *out = SignedDistance2d(TransformPlanarShape2d(a, X_WSa, core_a.data()),
                            TransformPlanarShape2d(b, X_WSb, core_b.data()));
    return Outcome::Ok();
  }
  Outcome outcome = SignedDistance3d(compiled_->shapes_3d[geometry_a], X_WSa,
                                     compiled_->shapes_3d[geometry_b], X_WSb, out);
  if (!outcome)
    return Outcome::Failure(PairFailure(scene, geometry_a, geometry_b, outcome.message()));
  return outcome;
}

Outcome GeometryModel::PairManifold(int geometry_a, int geometry_b,
                                    const std::vector<Eigen::Isometry3d>& X_WB, double tolerance,
                                    ManifoldPoints* out) const {
  constexpr const char* kWhere = "GeometryModel::PairManifold";
  QUASIDYN_CHECK_ARGUMENT(out != nullptr, kWhere, "out is null");
  CheckPoses(kWhere, X_WB);
  CheckPair(kWhere, geometry_a, geometry_b);
  CheckTolerance(kWhere, tolerance, compiled_->planar);
  const Scene& scene = *scene_;
  const Eigen::Isometry3d X_WSa = ShapePose(kWhere, scene, geometry_a, X_WB);
  const Eigen::Isometry3d X_WSb = ShapePose(kWhere, scene, geometry_b, X_WB);
  if (compiled_->planar) {
    const PlanarShape2d& a = compiled_->planar_shapes[geometry_a];
    const PlanarShape2d& b = compiled_->planar_shapes[geometry_b];
    SmallVector<Eigen::Vector2d, kInlineCorePoints> core_a, core_b;
    core_a.resize(a.core.size());
    core_b.resize(b.core.size());
    const PlanarShape2dView view_a = TransformPlanarShape2d(a, X_WSa, core_a.data());
    const PlanarShape2dView view_b = TransformPlanarShape2d(b, X_WSb, core_b.data());
    return PairManifoldInto(geometry_a, geometry_b, X_WSa, X_WSb, tolerance, &view_a, &view_b,
                            nullptr, out);
  }
  Manifold3dScratch scratch;
  return PairManifoldInto(geometry_a, geometry_b, X_WSa, X_WSb, tolerance, nullptr, nullptr,
                          &scratch, out);
}

}  // namespace quasidyn
