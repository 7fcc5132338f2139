// The scene query: candidate order, body order, filtering, the broad phase against the narrow
// phase alone (2D and 3D, bit for bit), Distance and PairManifold, the argument checks, and
// the validation of every geometry when the model is built.
#include "quasidyn/geometry/geometry_model.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <memory>
#include <numbers>
#include <random>
#include <stdexcept>
#include <string>
#include <utility>

#include "quasidyn/geometry/convex_distance_fault_for_testing.h"
#include "quasidyn/geometry/narrow_phase_2d.h"
#include "quasidyn/geometry/narrow_phase_3d.h"
#include "quasidyn/testing/outcome_checks.h"
#include "quasidyn/testing/shared_scene.h"

namespace quasidyn {
namespace {

using Eigen::Vector3d;

constexpr double kTol = 1e-12;  // round-off bound for O(1) m coordinates (≈ 4500 ε)
constexpr double kPi = std::numbers::pi;

Eigen::Isometry3d GeometryModelPose(double x, double y, double theta = 0.0) {
  Eigen::Isometry3d X = Eigen::Isometry3d::Identity();
  X.translation() = Vector3d(x, y, 0.0);
  X.linear() = Eigen::AngleAxisd(theta, Vector3d::UnitZ()).toRotationMatrix();
  return X;
}

CollisionGeometry Geometry(const std::string& name, int body, ShapeType type,
                           const Eigen::Isometry3d& X_BS = Eigen::Isometry3d::Identity()) {
  CollisionGeometry g;
  g.name = name;
  g.body = body;
  g.X_BS = X_BS;
  g.shape.type = type;
  return g;
}

// A planar scene: the world (body 0) with a ground (y <= 0) and a wall (x >= 1), a disk
// (body 1, circle r = 0.1 mounted 0.05 along the body's x) and a block (body 2, square of
// side 0.2). The geometries are listed so that the block's comes first, to check that B is
// chosen by body index and not by geometry index.
Scene MakePlanarScene() {
  Scene scene;
  scene.planar = true;
  scene.bodies.resize(3);
  scene.bodies[0].name = "world";
  scene.bodies[1].name = "disk";
  scene.bodies[2].name = "block";
  CollisionGeometry block = Geometry("block", 2, ShapeType::kBox);
  block.shape.size = Vector3d(0.2, 0.2, 0.2);
  CollisionGeometry disk = Geometry("disk", 1, ShapeType::kSphere, GeometryModelPose(0.05, 0));
  disk.shape.radius = 0.1;
  scene.geometries = {block, disk, Geometry("ground", 0, ShapeType::kHalfSpace),
                      Geometry("wall", 0, ShapeType::kHalfSpace, GeometryModelPose(1, 0, kPi / 2))};
  return scene;
}

// Disk body at (0, 0.05) turned 90°, so its circle's centre is at (0, 0.1 + disk_lift);
// block centred at (0.25, 0.1): 0.05 right of the disk, resting on the ground.
std::vector<Eigen::Isometry3d> Poses(double disk_lift = 0.0) {
  return {Eigen::Isometry3d::Identity(), GeometryModelPose(0, 0.05 + disk_lift, kPi / 2),
          GeometryModelPose(0.25, 0.1)};
}

// A 3D scene with every shape type: the world's ground (z <= 0), and on bodies 1 to 6 a
// sphere, a box, a capsule, a cylinder, a convex tetrahedron and a second box.
Scene MakeSpatialScene() {
  Scene scene;
  scene.planar = false;
  scene.bodies.resize(7);
  CollisionGeometry sphere = Geometry("sphere", 1, ShapeType::kSphere);
  sphere.shape.radius = 0.05;
  CollisionGeometry box = Geometry("box", 2, ShapeType::kBox);
  box.shape.size = Vector3d(0.1, 0.06, 0.04);
  CollisionGeometry capsule = Geometry("capsule", 3, ShapeType::kCapsule);
  capsule.shape.radius = 0.03;
  capsule.shape.length = 0.1;
  CollisionGeometry cylinder = Geometry("cylinder", 4, ShapeType::kCylinder);
  cylinder.shape.radius = 0.04;
  cylinder.shape.length = 0.08;
  CollisionGeometry convex = Geometry("convex", 5, ShapeType::kConvex);
  convex.shape.vertices = {
      {0.05, 0, -0.03}, {-0.04, 0.04, -0.03}, {-0.04, -0.04, -0.03}, {0, 0, 0.06}};
  CollisionGeometry cube = Geometry("cube", 6, ShapeType::kBox);
  cube.shape.size = Vector3d(0.05, 0.05, 0.05);
  scene.geometries = {
      Geometry("ground", 0, ShapeType::kHalfSpace), sphere, box, capsule, cylinder, convex, cube};
  return scene;
}

// Random body poses of MakeSpatialScene, close enough together that most pairs are near.
std::vector<Eigen::Isometry3d> RandomSpatialPoses(std::mt19937* random) {
  std::uniform_real_distribution<double> coordinate(-0.08, 0.08);
  std::normal_distribution<double> normal;
  std::vector<Eigen::Isometry3d> X_WB(7, Eigen::Isometry3d::Identity());
  for (int b = 1; b < 7; ++b) {
    Eigen::Quaterniond q(normal(*random), normal(*random), normal(*random), normal(*random));
    X_WB[b].linear() = q.normalized().toRotationMatrix();
    X_WB[b].translation() =
        Vector3d(coordinate(*random), coordinate(*random), 0.05 + 0.6 * coordinate(*random));
  }
  return X_WB;
}

// The candidates of one successful query with fresh data.
std::vector<ContactCandidate> Candidates(const GeometryModel& model,
                                         const std::vector<Eigen::Isometry3d>& X_WB,
                                         double tolerance) {
  GeometryData data = model.CreateData();
  EXPECT_TRUE(model.Query(X_WB, tolerance, &data)) << data.failure_message();
  return data.candidates();
}

ContactPoint DistanceOf(const GeometryModel& model, int a, int b,
                        const std::vector<Eigen::Isometry3d>& X_WB) {
  ContactPoint point;
  EXPECT_TRUE(testing::IsOk(model.Distance(a, b, X_WB, &point)));
  return point;
}

void ExpectVectorNear(const Vector3d& actual, const Vector3d& expected) {
  EXPECT_LT((actual - expected).norm(), kTol)
      << "actual " << actual.transpose() << ", expected " << expected.transpose();
}

void ExpectSamePoint(const ContactPoint& actual, const ContactPoint& expected) {
  EXPECT_EQ(actual.phi, expected.phi);
  EXPECT_EQ(actual.p_A, expected.p_A);
  EXPECT_EQ(actual.p_B, expected.p_B);
  EXPECT_EQ(actual.normal, expected.normal);
}

TEST(GeometryModel, CandidatesOrderAndLowerBodyIsB) {
  const GeometryModel model(testing::Shared(MakePlanarScene()));
  const auto candidates = Candidates(model, Poses(), 0.01);
  // Pairs in order: (block 0, ground 2) with the block's 2 bottom corners, then
  // (disk 1, ground 2). Block–disk (0.05 apart) is beyond the tolerance; the wall is far.
  ASSERT_EQ(candidates.size(), 3u);
  for (int i = 0; i < 2; ++i) {
    EXPECT_EQ(candidates[i].geometry_a, 0);
    EXPECT_EQ(candidates[i].geometry_b, 2);
    EXPECT_NEAR(candidates[i].point.phi, 0.0, kTol);
    ExpectVectorNear(candidates[i].point.normal, Vector3d(0, 1, 0));
  }
  const double x0 = candidates[0].point.p_A.x(), x1 = candidates[1].point.p_A.x();
  EXPECT_NEAR(std::min(x0, x1), 0.15, kTol);
  EXPECT_NEAR(std::max(x0, x1), 0.35, kTol);
  EXPECT_EQ(candidates[2].geometry_a, 1);
  EXPECT_EQ(candidates[2].geometry_b, 2);
  EXPECT_NEAR(candidates[2].point.phi, 0.0, kTol);
  // The circle's centre is X_WB · X_BS · 0 = (0, 0.05) + R(90°)(0.05, 0) = (0, 0.1).
  ExpectVectorNear(candidates[2].point.p_A, Vector3d(0, 0, 0));
}

TEST(GeometryModel, ToleranceCutOffAndBodyOrderBetweenMovingBodies) {
  const GeometryModel model(testing::Shared(MakePlanarScene()));
  // Lift the disk by 0.02: it leaves the 0.01 tolerance but not 0.03.
  EXPECT_EQ(Candidates(model, Poses(0.02), 0.01).size(), 2u);
  const auto wide = Candidates(model, Poses(0.02), 0.03);
  ASSERT_EQ(wide.size(), 3u);
  EXPECT_EQ(wide[2].geometry_a, 1);
  EXPECT_NEAR(wide[2].point.phi, 0.02, kTol);
  // At tolerance 0.06 the disk–block pair (0.05 apart) joins, first in order (pair (0, 1)).
  // The block (body 2) is A, the disk (body 1) is B: the normal points from disk to block.
  const auto all = Candidates(model, Poses(), 0.06);
  ASSERT_EQ(all.size(), 4u);
  EXPECT_EQ(all[0].geometry_a, 0);
  EXPECT_EQ(all[0].geometry_b, 1);
  EXPECT_NEAR(all[0].point.phi, 0.05, kTol);
  ExpectVectorNear(all[0].point.normal, Vector3d(1, 0, 0));
  ExpectVectorNear(all[0].point.p_A, Vector3d(0.15, 0.1, 0));
  ExpectVectorNear(all[0].point.p_B, Vector3d(0.1, 0.1, 0));
}

TEST(GeometryModel, OneDataServesSuccessiveQueries) {
  // The data's buffers are reused: a wide query, then a narrow one, then the wide one again.
  const GeometryModel model(testing::Shared(MakePlanarScene()));
  GeometryData data = model.CreateData();
  ASSERT_TRUE(model.Query(Poses(), 0.06, &data));
  const std::vector<ContactCandidate> wide = data.candidates();
  ASSERT_TRUE(model.Query(Poses(0.02), 0.01, &data));
  EXPECT_EQ(data.candidates().size(), 2u);
  ASSERT_TRUE(model.Query(Poses(), 0.06, &data));
  ASSERT_EQ(data.candidates().size(), wide.size());
  for (size_t k = 0; k < wide.size(); ++k)
    ExpectSamePoint(data.candidates()[k].point, wide[k].point);
  EXPECT_TRUE(data.failure_message().empty());
}

TEST(GeometryModel, FilteredBodiesAndWorldPairsAreSkipped) {
  Scene scene = MakePlanarScene();
  scene.collision_filter = {{0, 2}};  // the block never touches the world
  const GeometryModel model(testing::Shared(scene));
  // Ground and wall (both world) are never paired, even with a huge tolerance.
  const auto candidates = Candidates(model, Poses(), 10.0);
  for (const ContactCandidate& c : candidates) {
    EXPECT_NE(scene.geometries[c.geometry_a].body, scene.geometries[c.geometry_b].body);
    EXPECT_FALSE(c.geometry_a == 0 && scene.geometries[c.geometry_b].body == 0);
  }
  // Left: block–disk (1 point), disk–ground (1), disk–wall (1).
  ASSERT_EQ(candidates.size(), 3u);
  EXPECT_EQ(candidates[0].geometry_b, 1);
  EXPECT_EQ(candidates[1].geometry_b, 2);
  EXPECT_EQ(candidates[2].geometry_b, 3);
  // The wall x >= 1 is 0.9 from the disk's rightmost point, its normal is −x.
  EXPECT_NEAR(candidates[2].point.phi, 0.9, kTol);
  ExpectVectorNear(candidates[2].point.normal, Vector3d(-1, 0, 0));
}

TEST(GeometryModel, PlanarBroadPhaseLosesNoPairWithinTolerance) {
  // Against the narrow phase alone over every unfiltered pair, at random poses: the same
  // points, bit for bit, in the same order.
  const Scene scene = MakePlanarScene();
  const GeometryModel model(testing::Shared(scene));
  GeometryData data = model.CreateData();
  std::mt19937 random(11);
  std::uniform_real_distribution<double> coordinate(-0.1, 0.5);
  std::uniform_real_distribution<double> angle(-kPi, kPi);
  int found = 0;
  for (int trial = 0; trial < 50; ++trial) {
    const std::vector<Eigen::Isometry3d> X_WB = {
        Eigen::Isometry3d::Identity(),
        GeometryModelPose(coordinate(random), coordinate(random), angle(random)),
        GeometryModelPose(coordinate(random), coordinate(random), angle(random))};
    const double tolerance = 0.05;
    std::vector<ContactCandidate> expected;
    for (int i = 0; i < 4; ++i) {
      for (int j = i + 1; j < 4; ++j) {
        const CollisionGeometry& gi = scene.geometries[i];
        const CollisionGeometry& gj = scene.geometries[j];
        if (scene.IsFiltered(gi.body, gj.body)) continue;
        const int a = gi.body > gj.body ? i : j;
        const int b = gi.body > gj.body ? j : i;
        const CollisionGeometry& ga = scene.geometries[a];
        const CollisionGeometry& gb = scene.geometries[b];
        for (const ContactPoint& p : ContactManifold2d(ga.shape, X_WB[ga.body] * ga.X_BS, gb.shape,
                                                       X_WB[gb.body] * gb.X_BS, tolerance)) {
          expected.push_back({a, b, p});
        }
      }
    }
    ASSERT_TRUE(model.Query(X_WB, tolerance, &data));
    const auto& actual = data.candidates();
    ASSERT_EQ(actual.size(), expected.size()) << "trial " << trial;
    for (size_t k = 0; k < actual.size(); ++k) {
      EXPECT_EQ(actual[k].geometry_a, expected[k].geometry_a);
      EXPECT_EQ(actual[k].geometry_b, expected[k].geometry_b);
      ExpectSamePoint(actual[k].point, expected[k].point);
    }
    found += static_cast<int>(actual.size());
  }
  EXPECT_GT(found, 20);  // the poses do produce contacts
}

TEST(GeometryModel, SpatialQueryMatchesTheValidatingNarrowPhaseBitForBit) {
  // Every pair type, GJK/EPA pairs included (their cores compiled once by the model here, per
  // call by ContactManifold3d): the same points in the same order.
  const Scene scene = MakeSpatialScene();
  const GeometryModel model(testing::Shared(scene));
  GeometryData data = model.CreateData();
  std::mt19937 random(5);
  const int count = static_cast<int>(scene.geometries.size());
  int found = 0;
  for (int trial = 0; trial < 60; ++trial) {
    const std::vector<Eigen::Isometry3d> X_WB = RandomSpatialPoses(&random);
    const double tolerance = 0.02;
    std::vector<ContactCandidate> expected;
    for (int i = 0; i < count; ++i) {
      for (int j = i + 1; j < count; ++j) {
        const CollisionGeometry& gi = scene.geometries[i];
        const CollisionGeometry& gj = scene.geometries[j];
        const int a = gi.body > gj.body ? i : j;
        const int b = gi.body > gj.body ? j : i;
        const CollisionGeometry& ga = scene.geometries[a];
        const CollisionGeometry& gb = scene.geometries[b];
        for (const ContactPoint& p : ContactManifold3d(ga.shape, X_WB[ga.body] * ga.X_BS, gb.shape,
                                                       X_WB[gb.body] * gb.X_BS, tolerance)) {
          expected.push_back({a, b, p});
        }
      }
    }
    ASSERT_TRUE(model.Query(X_WB, tolerance, &data)) << data.failure_message();
    const auto& actual = data.candidates();
    ASSERT_EQ(actual.size(), expected.size()) << "trial " << trial;
    for (size_t k = 0; k < actual.size(); ++k) {
      EXPECT_EQ(actual[k].geometry_a, expected[k].geometry_a);
      EXPECT_EQ(actual[k].geometry_b, expected[k].geometry_b);
      ExpectSamePoint(actual[k].point, expected[k].point);
    }
    // PairManifold and Distance of every pair agree with the free functions too.
    for (int a = 0; a < count; ++a) {
      for (int b = 0; b < count; ++b) {
        if (a == b || (a == 0 && b == 0)) continue;
        const CollisionGeometry& ga = scene.geometries[a];
        const CollisionGeometry& gb = scene.geometries[b];
        const Eigen::Isometry3d X_WSa = X_WB[ga.body] * ga.X_BS;
        const Eigen::Isometry3d X_WSb = X_WB[gb.body] * gb.X_BS;
        ExpectSamePoint(DistanceOf(model, a, b, X_WB),
                        SignedDistance3d(ga.shape, X_WSa, gb.shape, X_WSb));
        ManifoldPoints points;
        ASSERT_TRUE(model.PairManifold(a, b, X_WB, tolerance, &points));
        const std::vector<ContactPoint> free =
            ContactManifold3d(ga.shape, X_WSa, gb.shape, X_WSb, tolerance);
        ASSERT_EQ(points.size(), free.size());
        for (size_t k = 0; k < free.size(); ++k) ExpectSamePoint(points[k], free[k]);
      }
    }
    found += static_cast<int>(actual.size());
  }
  EXPECT_GT(found, 100);  // the poses do produce contacts
}

TEST(GeometryModel, GjkFailureIsAFalseReturnNamingThePair) {
  // A finger (cylinder, body 2) pressing into a cube (box, body 1) on the ground: the pair
  // goes through GJK/EPA, whose every answer is unusable while the fault is set
  // (convex_distance_fault_for_testing.h).
  Scene scene;
  scene.planar = false;
  scene.bodies.resize(3);
  CollisionGeometry cube = Geometry("cube", 1, ShapeType::kBox);
  cube.shape.size = Vector3d(0.08, 0.08, 0.08);
  CollisionGeometry finger = Geometry("finger", 2, ShapeType::kCylinder);
  finger.shape.radius = 0.01;
  finger.shape.length = 0.06;
  scene.geometries = {Geometry("ground", 0, ShapeType::kHalfSpace), cube, finger};
  const GeometryModel model(testing::Shared(scene));
  std::vector<Eigen::Isometry3d> X_WB(3, Eigen::Isometry3d::Identity());
  X_WB[1].translation() = Vector3d(0, 0, 0.04);
  X_WB[2].translation() = Vector3d(0.049, 0, 0.05);  // 1 mm into the cube's +x face
  GeometryData data = model.CreateData();
  ASSERT_TRUE(model.Query(X_WB, 0.01, &data)) << data.failure_message();
  const std::vector<ContactCandidate> healthy = data.candidates();
  ASSERT_FALSE(healthy.empty());
  ManifoldPoints points;
  ContactPoint closest;
  {
    ScopedConvexDistanceFaultForTesting fault;
    EXPECT_FALSE(model.Query(X_WB, 0.01, &data));
    EXPECT_TRUE(data.candidates().empty());
    const std::string expected =
        "geometry pair 'finger' / 'cube': GJK/EPA signed distance not usable: stopped by round-off "
        "after ";
    EXPECT_EQ(data.failure_message().rfind(expected, 0), 0u) << data.failure_message();
    EXPECT_NE(data.failure_message().find("(error bound inf m for a pair of size"),
              std::string::npos)
        << data.failure_message();
    const Outcome manifold = model.PairManifold(2, 1, X_WB, 0.01, &points);
    EXPECT_FALSE(manifold.ok());
    EXPECT_EQ(manifold.message().rfind(expected, 0), 0u) << manifold.message();
    const Outcome distance = model.Distance(2, 1, X_WB, &closest);
    EXPECT_FALSE(distance.ok());
    EXPECT_NE(distance.message().find("'finger' / 'cube'"), std::string::npos)
        << distance.message();
    EXPECT_FALSE(model.Distance(2, 1, X_WB, &closest));  // the message left unread
    // The validating Shape form of the narrow phase throws instead.
    EXPECT_THROW(SignedDistance3d(finger.shape, X_WB[2], cube.shape, X_WB[1]), std::runtime_error);
    // Pairs with a closed form still work: the cube on the ground.
    EXPECT_TRUE(model.PairManifold(1, 0, X_WB, 0.01, &points));
    EXPECT_EQ(points.size(), 4u);
  }
  // The same data serves the next query once GJK/EPA works again.
  ASSERT_TRUE(model.Query(X_WB, 0.01, &data));
  EXPECT_TRUE(data.failure_message().empty());
  ASSERT_EQ(data.candidates().size(), healthy.size());
  for (size_t k = 0; k < healthy.size(); ++k) {
    ExpectSamePoint(data.candidates()[k].point, healthy[k].point);
  }
}

TEST(GeometryModel, DistanceKeepsTheGivenOrder) {
  const GeometryModel model(testing::Shared(MakePlanarScene()));
  const ContactPoint disk_ground = DistanceOf(model, 1, 2, Poses(0.3));
  EXPECT_NEAR(disk_ground.phi, 0.3, kTol);
  ExpectVectorNear(disk_ground.normal, Vector3d(0, 1, 0));
  const ContactPoint ground_disk = DistanceOf(model, 2, 1, Poses(0.3));
  EXPECT_NEAR(ground_disk.phi, 0.3, kTol);
  ExpectVectorNear(ground_disk.normal, Vector3d(0, -1, 0));
  ContactPoint point;
  EXPECT_THROW(model.Distance(2, 3, Poses(), &point), std::invalid_argument);  // two half-planes
  EXPECT_THROW(model.Distance(1, 1, Poses(), &point), std::invalid_argument);
  EXPECT_THROW(model.Distance(0, 4, Poses(), &point), std::invalid_argument);
}

TEST(GeometryModel, PairManifoldIsTheQuerysPointsOfThatPair) {
  const GeometryModel model(testing::Shared(MakePlanarScene()));
  const auto candidates = Candidates(model, Poses(), 0.01);
  ManifoldPoints points;
  ASSERT_TRUE(model.PairManifold(0, 2, Poses(), 0.01, &points));  // block on the ground
  ASSERT_EQ(points.size(), 2u);
  ExpectSamePoint(points[0], candidates[0].point);
  ExpectSamePoint(points[1], candidates[1].point);
  ASSERT_TRUE(model.PairManifold(0, 1, Poses(), 0.01, &points));  // 0.05 apart: nothing
  EXPECT_TRUE(points.empty());
  EXPECT_THROW(model.PairManifold(0, 2, Poses(), -1.0, &points), std::invalid_argument);
  EXPECT_THROW(model.PairManifold(2, 3, Poses(), 0.01, &points), std::invalid_argument);
}

TEST(GeometryModel, RejectsBadQueryArguments) {
  const GeometryModel model(testing::Shared(MakePlanarScene()));
  GeometryData data = model.CreateData();
  std::vector<Eigen::Isometry3d> too_few = Poses();
  too_few.pop_back();
  EXPECT_THROW(model.Query(too_few, 0.01, &data), std::invalid_argument);
  EXPECT_THROW(model.Query(Poses(), -0.01, &data), std::invalid_argument);
  EXPECT_THROW(model.Query(Poses(), std::numeric_limits<double>::quiet_NaN(), &data),
               std::invalid_argument);
  EXPECT_THROW(model.Query(Poses(), 0.01, nullptr), std::invalid_argument);
  std::vector<Eigen::Isometry3d> not_finite = Poses();
  not_finite[1].translation().x() = std::numeric_limits<double>::quiet_NaN();
  EXPECT_THROW(model.Query(not_finite, 0.01, &data), std::invalid_argument);
  ContactPoint point;
  EXPECT_THROW(model.Distance(0, 1, too_few, &point), std::invalid_argument);
  // An infinite tolerance is allowed in planar scenes (every pair is then a candidate), not
  // in 3D ones (the 3D manifold needs a finite band).
  EXPECT_TRUE(model.Query(Poses(), std::numeric_limits<double>::infinity(), &data));
  const GeometryModel spatial(testing::Shared(MakeSpatialScene()));
  GeometryData spatial_data = spatial.CreateData();
  EXPECT_THROW(spatial.Query(std::vector<Eigen::Isometry3d>(7, Eigen::Isometry3d::Identity()),
                             std::numeric_limits<double>::infinity(), &spatial_data),
               std::invalid_argument);
}

TEST(GeometryModel, DataOfAnotherModelIsRejectedButCopiesShareIt) {
  const auto scene = testing::Shared(MakePlanarScene());
  const GeometryModel model(scene);
  const GeometryModel other(scene);
  GeometryData data = other.CreateData();
  try {
    model.Query(Poses(), 0.01, &data);
    ADD_FAILURE() << "no exception";
  } catch (const std::invalid_argument& error) {
    EXPECT_NE(std::string(error.what()).find("another model"), std::string::npos) << error.what();
  }
  const GeometryModel copy = other;  // shares the compiled geometry
  EXPECT_TRUE(copy.Query(Poses(), 0.01, &data));
  GeometryData moved = std::move(data);
  EXPECT_TRUE(other.Query(Poses(), 0.01, &moved));
  EXPECT_EQ(moved.candidates().size(), 3u);
  EXPECT_EQ(&copy.scene(), scene.get());
  EXPECT_EQ(copy.scene_ptr(), scene);
}

// Expects GeometryModel(scene) to throw std::invalid_argument whose message holds each of
// `parts`.
void ExpectRejected(const Scene& scene, std::initializer_list<std::string> parts) {
  try {
    GeometryModel model(testing::Shared(scene));
    ADD_FAILURE() << "accepted; expected a message with '" << *parts.begin() << "'";
  } catch (const std::invalid_argument& error) {
    for (const std::string& part : parts) {
      EXPECT_NE(std::string(error.what()).find(part), std::string::npos)
          << "'" << error.what() << "' lacks '" << part << "'";
    }
  }
}

TEST(GeometryModel, RejectsEachBadSpatialShapeNamingTheGeometry) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const double inf = std::numeric_limits<double>::infinity();
  auto with = [](auto change) {
    Scene scene = MakeSpatialScene();
    change(&scene);
    return scene;
  };
  ExpectRejected(with([](Scene* s) { s->geometries[2].shape.size.x() = -1; }),
                 {"geometry 'box': box size x must be finite and > 0, got -1"});
  ExpectRejected(with([&](Scene* s) { s->geometries[2].shape.size.z() = nan; }),
                 {"geometry 'box'", "size z"});
  ExpectRejected(with([](Scene* s) { s->geometries[1].shape.radius = 0; }),
                 {"geometry 'sphere'", "radius"});
  ExpectRejected(with([](Scene* s) { s->geometries[3].shape.length = 0; }),
                 {"geometry 'capsule'", "length"});
  ExpectRejected(with([&](Scene* s) { s->geometries[4].shape.radius = inf; }),
                 {"geometry 'cylinder'", "radius"});
  ExpectRejected(with([](Scene* s) { s->geometries[5].shape.vertices.pop_back(); }),
                 {"geometry 'convex'", "at least 4 vertices"});
  ExpectRejected(with([](Scene* s) { s->geometries[5].shape.vertices[3].z() = -0.03; }),
                 {"geometry 'convex'", "coplanar"});
  ExpectRejected(with([&](Scene* s) { s->geometries[5].shape.vertices[0].x() = nan; }),
                 {"geometry 'convex'", "not finite"});
  ExpectRejected(with([](Scene* s) { s->geometries[6].body = 7; }),
                 {"geometry 'cube'", "body index 7"});
  ExpectRejected(with([&](Scene* s) { s->geometries[6].X_BS.translation().y() = inf; }),
                 {"geometry 'cube'", "X_BS"});
  ExpectRejected(
      with([](Scene* s) { s->geometries.push_back(Geometry("lid", 1, ShapeType::kHalfSpace)); }),
      {"geometry 'ground'", "geometry 'lid'", "half-spaces"});
  // Two half-spaces of the world are fine (its own shapes never meet).
  EXPECT_NO_THROW(GeometryModel(testing::Shared(with(
      [](Scene* s) { s->geometries.push_back(Geometry("wall", 0, ShapeType::kHalfSpace)); }))));
  EXPECT_THROW(GeometryModel(std::shared_ptr<const Scene>()), std::invalid_argument);
}

TEST(GeometryModel, RejectsEachBadPlanarShapeNamingTheGeometry) {
  auto with = [](auto change) {
    Scene scene = MakePlanarScene();
    change(&scene);
    return scene;
  };
  ExpectRejected(with([](Scene* s) { s->geometries[0].shape.type = ShapeType::kCylinder; }),
                 {"geometry 'block'", "cylinder"});
  ExpectRejected(with([](Scene* s) { s->geometries[1].shape.radius = -0.1; }),
                 {"geometry 'disk'", "circle radius"});
  ExpectRejected(with([](Scene* s) { s->geometries[0].shape.size.y() = 0; }),
                 {"geometry 'block'", "rectangle size y"});
  ExpectRejected(with([](Scene* s) {
                   s->geometries[0].shape.type = ShapeType::kConvex;
                   s->geometries[0].shape.vertices = {{0, 0, 0}, {1, 1, 0}, {2, 2, 0}};
                 }),
                 {"geometry 'block'", "polygon"});
  ExpectRejected(with([](Scene* s) { s->geometries[1].body = 3; }),
                 {"geometry 'disk'", "body index 3"});
}

TEST(GeometryModel, SpatialSceneSkipsFarPairsInTheBroadPhase) {
  // Two spheres 10 m apart: their boxes are farther apart than the tolerance, so the
  // narrow phase is not called and nothing comes back.
  Scene scene;
  scene.planar = false;
  scene.bodies.resize(3);
  CollisionGeometry a = Geometry("a", 1, ShapeType::kSphere);
  a.shape.radius = 0.5;
  CollisionGeometry b = Geometry("b", 2, ShapeType::kSphere);
  b.shape.radius = 0.5;
  scene.geometries = {a, b};
  const GeometryModel model(testing::Shared(scene));
  Eigen::Isometry3d far = Eigen::Isometry3d::Identity();
  far.translation() = Vector3d(10, 0, 0);
  EXPECT_TRUE(
      Candidates(model, {Eigen::Isometry3d::Identity(), Eigen::Isometry3d::Identity(), far}, 0.1)
          .empty());
}

TEST(GeometryModel, SpatialSphereOnGroundUsesThe3dNarrowPhase) {
  // A sphere r = 0.5 with its centre 0.502 above the ground z <= 0 (world, body 0), and a
  // second sphere 10 m away. Only sphere–ground is a candidate: φ = 0.002, normal +z
  // (from the world into the moving body), the world's shape is B.
  Scene scene;
  scene.planar = false;
  scene.bodies.resize(3);
  CollisionGeometry ball = Geometry("ball", 1, ShapeType::kSphere);
  ball.shape.radius = 0.5;
  CollisionGeometry other = Geometry("other", 2, ShapeType::kSphere);
  other.shape.radius = 0.5;
  scene.geometries = {Geometry("ground", 0, ShapeType::kHalfSpace), ball, other};
  const GeometryModel model(testing::Shared(scene));
  Eigen::Isometry3d X_W1 = Eigen::Isometry3d::Identity();
  X_W1.translation() = Vector3d(0.3, -0.2, 0.502);
  Eigen::Isometry3d X_W2 = Eigen::Isometry3d::Identity();
  X_W2.translation() = Vector3d(10.3, -0.2, 5);
  const auto candidates = Candidates(model, {Eigen::Isometry3d::Identity(), X_W1, X_W2}, 0.01);
  ASSERT_EQ(candidates.size(), 1u);
  EXPECT_EQ(candidates[0].geometry_a, 1);
  EXPECT_EQ(candidates[0].geometry_b, 0);
  EXPECT_NEAR(candidates[0].point.phi, 0.002, kTol);
  ExpectVectorNear(candidates[0].point.normal, Vector3d(0, 0, 1));
  ExpectVectorNear(candidates[0].point.p_A, Vector3d(0.3, -0.2, 0.002));
  ExpectVectorNear(candidates[0].point.p_B, Vector3d(0.3, -0.2, 0));
}

}  // namespace
}  // namespace quasidyn
