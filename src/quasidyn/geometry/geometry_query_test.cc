#include "quasidyn/geometry/geometry_query.h"

#include <gtest/gtest.h>

#include <cmath>
#include <numbers>
#include <random>
#include <stdexcept>

#include "quasidyn/geometry/narrow_phase_2d.h"

namespace quasidyn {
namespace {

using Eigen::Vector3d;

constexpr double kTol = 1e-12;  // round-off bound for O(1) m coordinates (≈ 4500 ε)
constexpr double kPi = std::numbers::pi;

Eigen::Isometry3d Pose(double x, double y, double theta = 0.0) {
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
Scene MakeScene() {
  Scene scene;
  scene.planar = true;
  scene.bodies.resize(3);
  scene.bodies[0].name = "world";
  scene.bodies[1].name = "disk";
  scene.bodies[2].name = "block";
  CollisionGeometry block = Geometry("block", 2, ShapeType::kBox);
  block.shape.size = Vector3d(0.2, 0.2, 0.2);
  CollisionGeometry disk = Geometry("disk", 1, ShapeType::kSphere, Pose(0.05, 0));
  disk.shape.radius = 0.1;
  scene.geometries = {block, disk, Geometry("ground", 0, ShapeType::kHalfSpace),
                      Geometry("wall", 0, ShapeType::kHalfSpace, Pose(1, 0, kPi / 2))};
  return scene;
}

// Disk body at (0, 0.05) turned 90°, so its circle's centre is at (0, 0.1 + disk_lift);
// block centred at (0.25, 0.1): 0.05 right of the disk, resting on the ground.
std::vector<Eigen::Isometry3d> Poses(double disk_lift = 0.0) {
  return {Eigen::Isometry3d::Identity(), Pose(0, 0.05 + disk_lift, kPi / 2), Pose(0.25, 0.1)};
}

void ExpectVectorNear(const Vector3d& actual, const Vector3d& expected) {
  EXPECT_LT((actual - expected).norm(), kTol)
      << "actual " << actual.transpose() << ", expected " << expected.transpose();
}

TEST(GeometryQuery, CandidatesOrderAndLowerBodyIsB) {
  const Scene scene = MakeScene();
  const GeometryQuery query(scene);
  const auto candidates = query.Query(Poses(), 0.01);
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

TEST(GeometryQuery, ToleranceCutOffAndBodyOrderBetweenMovingBodies) {
  const Scene scene = MakeScene();
  const GeometryQuery query(scene);
  // Lift the disk by 0.02: it leaves the 0.01 tolerance but not 0.03.
  EXPECT_EQ(query.Query(Poses(0.02), 0.01).size(), 2u);
  const auto wide = query.Query(Poses(0.02), 0.03);
  ASSERT_EQ(wide.size(), 3u);
  EXPECT_EQ(wide[2].geometry_a, 1);
  EXPECT_NEAR(wide[2].point.phi, 0.02, kTol);
  // At tolerance 0.06 the disk–block pair (0.05 apart) joins, first in order (pair (0, 1)).
  // The block (body 2) is A, the disk (body 1) is B: the normal points from disk to block.
  const auto all = query.Query(Poses(), 0.06);
  ASSERT_EQ(all.size(), 4u);
  EXPECT_EQ(all[0].geometry_a, 0);
  EXPECT_EQ(all[0].geometry_b, 1);
  EXPECT_NEAR(all[0].point.phi, 0.05, kTol);
  ExpectVectorNear(all[0].point.normal, Vector3d(1, 0, 0));
  ExpectVectorNear(all[0].point.p_A, Vector3d(0.15, 0.1, 0));
  ExpectVectorNear(all[0].point.p_B, Vector3d(0.1, 0.1, 0));
}

TEST(GeometryQuery, FilteredBodiesAndWorldPairsAreSkipped) {
  Scene scene = MakeScene();
  scene.collision_filter = {{0, 2}};  // the block never touches the world
  const GeometryQuery query(scene);
  // Ground and wall (both world) are never paired, even with a huge tolerance.
  const auto candidates = query.Query(Poses(), 10.0);
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

TEST(GeometryQuery, BroadPhaseLosesNoPairWithinTolerance) {
  // Against the narrow phase alone over every unfiltered pair, at random poses.
  const Scene scene = MakeScene();
  const GeometryQuery query(scene);
  std::mt19937 random(11);
  std::uniform_real_distribution<double> coordinate(-0.1, 0.5);
  std::uniform_real_distribution<double> angle(-kPi, kPi);
  int found = 0;
  for (int trial = 0; trial < 50; ++trial) {
    const std::vector<Eigen::Isometry3d> X_WB = {
        Eigen::Isometry3d::Identity(), Pose(coordinate(random), coordinate(random), angle(random)),
        Pose(coordinate(random), coordinate(random), angle(random))};
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
    const auto actual = query.Query(X_WB, tolerance);
    ASSERT_EQ(actual.size(), expected.size()) << "trial " << trial;
    for (size_t k = 0; k < actual.size(); ++k) {
      EXPECT_EQ(actual[k].geometry_a, expected[k].geometry_a);
      EXPECT_EQ(actual[k].geometry_b, expected[k].geometry_b);
      EXPECT_EQ(actual[k].point.phi, expected[k].point.phi);
    }
    found += static_cast<int>(actual.size());
  }
  EXPECT_GT(found, 20);  // the poses do produce contacts
}

TEST(GeometryQuery, DistanceKeepsTheGivenOrder) {
  const Scene scene = MakeScene();
  const GeometryQuery query(scene);
  const ContactPoint disk_ground = query.Distance(1, 2, Poses(0.3));
  EXPECT_NEAR(disk_ground.phi, 0.3, kTol);
  ExpectVectorNear(disk_ground.normal, Vector3d(0, 1, 0));
  const ContactPoint ground_disk = query.Distance(2, 1, Poses(0.3));
  EXPECT_NEAR(ground_disk.phi, 0.3, kTol);
  ExpectVectorNear(ground_disk.normal, Vector3d(0, -1, 0));
  EXPECT_THROW(query.Distance(2, 3, Poses()), std::invalid_argument);  // two half-planes
  EXPECT_THROW(query.Distance(1, 1, Poses()), std::invalid_argument);
  EXPECT_THROW(query.Distance(0, 4, Poses()), std::invalid_argument);
}

TEST(GeometryQuery, RejectsBadInput) {
  const Scene scene = MakeScene();
  const GeometryQuery query(scene);
  std::vector<Eigen::Isometry3d> too_few = Poses();
  too_few.pop_back();
  EXPECT_THROW(query.Query(too_few, 0.01), std::invalid_argument);
  EXPECT_THROW(query.Query(Poses(), -0.01), std::invalid_argument);
  EXPECT_THROW(query.Distance(0, 1, too_few), std::invalid_argument);

  Scene with_cylinder = MakeScene();
  with_cylinder.geometries[0].shape.type = ShapeType::kCylinder;
  EXPECT_THROW(GeometryQuery{with_cylinder}, std::invalid_argument);
  Scene bad_body = MakeScene();
  bad_body.geometries[1].body = 3;
  EXPECT_THROW(GeometryQuery{bad_body}, std::invalid_argument);
}

TEST(GeometryQuery, SpatialSceneSkipsFarPairsInTheBroadPhase) {
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
  const GeometryQuery query(scene);
  Eigen::Isometry3d far = Eigen::Isometry3d::Identity();
  far.translation() = Vector3d(10, 0, 0);
  EXPECT_TRUE(query.Query({Eigen::Isometry3d::Identity(), Eigen::Isometry3d::Identity(), far}, 0.1)
                  .empty());
}

TEST(GeometryQuery, SpatialSphereOnGroundUsesThe3dNarrowPhase) {
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
  const GeometryQuery query(scene);
  Eigen::Isometry3d X_W1 = Eigen::Isometry3d::Identity();
  X_W1.translation() = Vector3d(0.3, -0.2, 0.502);
  Eigen::Isometry3d X_W2 = Eigen::Isometry3d::Identity();
  X_W2.translation() = Vector3d(10.3, -0.2, 5);
  const auto candidates = query.Query({Eigen::Isometry3d::Identity(), X_W1, X_W2}, 0.01);
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
