// Heap allocations of the scene query once its data has grown (MallocCounter): none, on the
// examples (closed-form pairs only) and on a scene whose pairs go through GJK/EPA
// (testing/gjk_scene.h: cylinders against a convex prism).
#include <gtest/gtest.h>

#include <Eigen/Geometry>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "quasidyn/geometry/broad_phase.h"
#include "quasidyn/geometry/geometry_model.h"
#include "quasidyn/geometry/narrow_phase_3d.h"
#include "quasidyn/kinematics/kinematics.h"
#include "quasidyn/scenes/scene_loading.h"
#include "quasidyn/testing/gjk_scene.h"
#include "quasidyn/testing/malloc_counter.h"

namespace quasidyn {
namespace {

// An example, or "gjk_scene" for testing/gjk_scene.h.
std::shared_ptr<const Scene> LoadExample(const std::string& name) {
  if (name == "gjk_scene") return testing::GjkScene();
  return std::make_shared<const Scene>(
      LoadScene(std::string(QUASIDYN_SOURCE_DIR) + "/examples/" + name + "/scene.yaml"));
}

// q with every coordinate moved by a normal sample of deviation sigma (quaternion entries
// three times as much, then normalised; planar angles five times as much).
Eigen::VectorXd Perturbed(const Scene& scene, Eigen::VectorXd q, double sigma,
                          std::mt19937* random) {
  std::normal_distribution<double> noise(0.0, sigma);
  for (const Joint& joint : scene.joints) {
    switch (joint.type) {
      case JointType::kFloating:
        for (int i = 0; i < 3; ++i) q[joint.q_start + i] += noise(*random);
        for (int i = 3; i < 7; ++i) q[joint.q_start + i] += 3.0 * noise(*random);
        q.segment<4>(joint.q_start + 3).normalize();
        break;
      case JointType::kPlanar:
        q[joint.q_start] += noise(*random);
        q[joint.q_start + 1] += noise(*random);
        q[joint.q_start + 2] += 5.0 * noise(*random);
        break;
      case JointType::kRevolute:
      case JointType::kPrismatic:
        q[joint.q_start] += noise(*random);
        break;
      case JointType::kFixed:
        break;
    }
  }
  return q;
}

// The body poses at q0, at the robots' first commanded positions, and at perturbations of
// both (deviations from 0.1 mm to 1 cm).
std::vector<std::vector<Eigen::Isometry3d>> ExamplePoses(
    const std::shared_ptr<const Scene>& scene) {
  Kinematics kinematics(scene);
  std::vector<Eigen::VectorXd> bases = {scene->q0};
  if (scene->nq_a > 0 && !scene->schedules.empty()) {
    for (double t : {1.0, 2.0}) {
      Eigen::VectorXd q = scene->q0;
      q.tail(scene->nq_a) = scene->CommandAt(t);
      bases.push_back(q);
    }
  }
  std::mt19937 random(3);
  std::vector<std::vector<Eigen::Isometry3d>> poses;
  for (const Eigen::VectorXd& base : bases) {
    for (double sigma : {0.0, 1e-4, 1e-3, 1e-2}) {
      kinematics.Update(sigma == 0.0 ? base : Perturbed(*scene, base, sigma, &random));
      poses.push_back(kinematics.BodyPoses());
    }
  }
  return poses;
}

// The number of 3D pairs of the query at X_WB that go through GJK/EPA (found again here:
// world boxes, broad phase, filter).
int GjkPairs(const Scene& scene, const std::vector<Eigen::Isometry3d>& X_WB, double tolerance) {
  if (scene.planar) return 0;
  std::vector<Aabb> boxes;
  for (const CollisionGeometry& g : scene.geometries) {
    boxes.push_back(ComputeWorldAabb(g.shape, X_WB[g.body] * g.X_BS, false));
  }
  int pairs = 0;
  for (const auto& [first, second] : OverlappingPairs(boxes, tolerance)) {
    const CollisionGeometry& a = scene.geometries[first];
    const CollisionGeometry& b = scene.geometries[second];
    if (!scene.IsFiltered(a.body, b.body) && PairUsesGjk3d(a.shape.type, b.shape.type)) ++pairs;
  }
  return pairs;
}

class GeometryModelAllocation : public ::testing::TestWithParam<const char*> {};

TEST_P(GeometryModelAllocation, SecondQueryAllocatesNothing) {
  if (!testing::MallocCountingAvailable()) GTEST_SKIP() << "no allocation counting here";
  const std::shared_ptr<const Scene> scene = LoadExample(GetParam());
  const GeometryModel model(scene);
  const double tolerance = scene->contact_tolerance;
  int gjk_pairs = 0;
  int candidates = 0;
  for (const std::vector<Eigen::Isometry3d>& X_WB : ExamplePoses(scene)) {
    GeometryData data = model.CreateData();
    ASSERT_TRUE(model.Query(X_WB, tolerance, &data)) << data.failure_message();
    bool ok = false;
    long count = 0;
    {
      testing::MallocCounter counter;
      ok = model.Query(X_WB, tolerance, &data);
      count = counter.count();
    }
    ASSERT_TRUE(ok) << data.failure_message();
    EXPECT_EQ(count, 0);
    gjk_pairs += GjkPairs(*scene, X_WB, tolerance);
    candidates += static_cast<int>(data.candidates().size());

    // PairManifold and Distance of the candidates' pairs allocate nothing either.
    ManifoldPoints points;
    ContactPoint closest;
    for (const ContactCandidate& c : data.candidates()) {
      long pair_count = 0;
      {
        testing::MallocCounter counter;
        ok = model.PairManifold(c.geometry_a, c.geometry_b, X_WB, tolerance, &points) &&
             model.Distance(c.geometry_a, c.geometry_b, X_WB, &closest);
        pair_count = counter.count();
      }
      EXPECT_TRUE(ok);
      EXPECT_EQ(pair_count, 0) << "pair " << c.geometry_a << ", " << c.geometry_b;
    }
  }
  EXPECT_GT(candidates, 0);
  // Every pair of the examples (boxes, capsules, spheres, half-spaces) has a closed form; the
  // GJK scene's cylinders and prism meet at every pose.
  if (std::string(GetParam()) == "gjk_scene") {
    EXPECT_GT(gjk_pairs, 0);
  } else {
    EXPECT_EQ(gjk_pairs, 0);
  }
  std::printf("%s: %d candidates, %d GJK/EPA pairs\n", GetParam(), candidates, gjk_pairs);
}

TEST_P(GeometryModelAllocation, DataWarmedAtOnePoseServesNearbyPoses) {
  // After one query at q0, queries at the perturbed poses allocate nothing (CreateData sizes
  // the buffers for the scene; GJK/EPA keep their simplex and polytope on the stack).
  if (!testing::MallocCountingAvailable()) GTEST_SKIP() << "no allocation counting here";
  const std::shared_ptr<const Scene> scene = LoadExample(GetParam());
  const GeometryModel model(scene);
  const std::vector<std::vector<Eigen::Isometry3d>> poses = ExamplePoses(scene);
  GeometryData data = model.CreateData();
  ASSERT_TRUE(model.Query(poses[0], scene->contact_tolerance, &data));
  for (const std::vector<Eigen::Isometry3d>& X_WB : poses) {
    long count = 0;
    bool ok = false;
    {
      testing::MallocCounter counter;
      ok = model.Query(X_WB, scene->contact_tolerance, &data);
      count = counter.count();
    }
    EXPECT_TRUE(ok);
    EXPECT_EQ(count, 0);
  }
}

INSTANTIATE_TEST_SUITE_P(Examples, GeometryModelAllocation,
                         ::testing::Values("planar_gripper", "planar_hand", "planar_pushing",
                                           "arm_cubes", "gjk_scene"));

}  // namespace
}  // namespace quasidyn
