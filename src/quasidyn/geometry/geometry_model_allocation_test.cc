// Heap allocations of the scene query once its data has grown (MallocCounter): none for the
// example scenes' pairs outside FCL, and for the pairs that go through FCL exactly the
// allocations FCL/libccd make for those pairs on their own.
#include <gtest/gtest.h>

#include <Eigen/Geometry>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "quasidyn/geometry/broad_phase.h"
#include "quasidyn/geometry/fcl_distance.h"
#include "quasidyn/geometry/geometry_model.h"
#include "quasidyn/geometry/narrow_phase_3d.h"
#include "quasidyn/io/scene_loader.h"
#include "quasidyn/kinematics/kinematics.h"
#include "quasidyn/testing/malloc_counter.h"

namespace quasidyn {
namespace {

std::shared_ptr<const Scene> LoadExample(const std::string& name) {
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

// What the pairs of one query that go through FCL allocate on their own: the query's pairs
// are found again here (world boxes, broad phase, filter, B the lower body), and each FCL
// pair's distance is counted on its second evaluation with FCL geometries built beforehand.
struct FclCost {
  int pairs = 0;
  long allocations = 0;
};
FclCost FclAllocations(const Scene& scene, const std::vector<Eigen::Isometry3d>& X_WB,
                       double tolerance) {
  FclCost cost;
  if (scene.planar) return cost;
  std::vector<Eigen::Isometry3d> X_WS;
  std::vector<Aabb> boxes;
  for (const CollisionGeometry& g : scene.geometries) {
    X_WS.push_back(X_WB[g.body] * g.X_BS);
    boxes.push_back(ComputeWorldAabb(g.shape, X_WS.back(), false));
  }
  for (const auto& [first, second] : OverlappingPairs(boxes, tolerance)) {
    const int body_first = scene.geometries[first].body;
    const int body_second = scene.geometries[second].body;
    if (scene.IsFiltered(body_first, body_second)) continue;
    const int a = body_first > body_second ? first : second;
    const int b = body_first > body_second ? second : first;
    const Shape& shape_a = scene.geometries[a].shape;
    const Shape& shape_b = scene.geometries[b].shape;
    if (!PairUsesFcl3d(shape_a.type, shape_b.type)) continue;
    const auto geometry_a = MakeFclGeometry(shape_a);
    const auto geometry_b = MakeFclGeometry(shape_b);
    ContactPoint point;
    EXPECT_TRUE(FclSignedDistance3d(*geometry_a, X_WS[a], *geometry_b, X_WS[b], &point));
    long count = 0;
    {
      testing::MallocCounter counter;
      FclSignedDistance3d(*geometry_a, X_WS[a], *geometry_b, X_WS[b], &point);
      count = counter.count();
    }
    ++cost.pairs;
    cost.allocations += count;
  }
  return cost;
}

class GeometryModelAllocation : public ::testing::TestWithParam<const char*> {};

TEST_P(GeometryModelAllocation, SecondQueryAllocatesOnlyInsideFcl) {
  if (!testing::MallocCountingAvailable()) GTEST_SKIP() << "no allocation counting here";
  const std::shared_ptr<const Scene> scene = LoadExample(GetParam());
  const GeometryModel model(scene);
  const double tolerance = scene->contact_tolerance;
  int fcl_pairs = 0;
  long fcl_allocations = 0;
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
    const FclCost fcl = FclAllocations(*scene, X_WB, tolerance);
    EXPECT_EQ(count, fcl.allocations) << fcl.pairs << " FCL pairs";
    if (fcl.pairs == 0) {
      EXPECT_EQ(count, 0);
    }
    fcl_pairs += fcl.pairs;
    fcl_allocations += fcl.allocations;
    candidates += static_cast<int>(data.candidates().size());

    // PairManifold and Distance of the candidates' pairs that avoid FCL allocate nothing.
    ManifoldPoints points;
    ContactPoint closest;
    for (const ContactCandidate& c : data.candidates()) {
      if (!scene->planar && PairUsesFcl3d(scene->geometries[c.geometry_a].shape.type,
                                          scene->geometries[c.geometry_b].shape.type)) {
        continue;
      }
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
  // Every pair of the examples (boxes, capsules, spheres, half-spaces) has a closed form.
  EXPECT_EQ(fcl_pairs, 0);
  std::printf("%s: %d candidates, %d FCL pairs making %ld allocations in all\n", GetParam(),
              candidates, fcl_pairs, fcl_allocations);
}

TEST_P(GeometryModelAllocation, DataWarmedAtOnePoseServesNearbyPosesWithoutFcl) {
  // Scenes whose pairs all have closed forms (no FCL): after one query at q0, queries at the
  // perturbed poses allocate nothing (CreateData sizes the buffers for the scene).
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
                                           "arm_cubes"));

}  // namespace
}  // namespace quasidyn
