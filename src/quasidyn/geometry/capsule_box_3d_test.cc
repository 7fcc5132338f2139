// The exact capsule–box signed distance: hand-computed contacts (lying on a face, standing on
// it, across an edge, through the box), its properties at random poses, and agreement with
// FCL.
#include "quasidyn/geometry/capsule_box_3d.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <numbers>
#include <random>
#include <vector>

#include "quasidyn/geometry/segment_distance_3d.h"
#include "quasidyn/testing/fcl_distance.h"
#include "quasidyn/testing/malloc_counter.h"

namespace quasidyn {
namespace {

using testing::FclSignedDistance3d;

using Eigen::Vector3d;

constexpr double kCapsuleBox3dTol = 1e-12;  // round-off of O(0.1) m coordinates, with margin

Eigen::Isometry3d CapsuleBox3dPose(const Vector3d& p, double angle = 0.0,
                                   const Vector3d& axis = Vector3d::UnitZ()) {
  Eigen::Isometry3d X = Eigen::Isometry3d::Identity();
  X.translation() = p;
  X.linear() = Eigen::AngleAxisd(angle, axis.normalized()).toRotationMatrix();
  return X;
}

// Checks the conventions: unit normal, p_A − p_B = φ n, p_A on the capsule (at distance r
// from its core), p_B on the box's surface.
void ExpectConsistent(const ContactPoint& c, double radius, double length,
                      const Eigen::Isometry3d& X_A, const Vector3d& size,
                      const Eigen::Isometry3d& X_B) {
  EXPECT_NEAR(c.normal.norm(), 1.0, 1e-15);
  EXPECT_LT((c.p_A - c.p_B - c.phi * c.normal).norm(), kCapsuleBox3dTol);
  const Vector3d axis = X_A.linear().col(2);
  const Vector3d s0 = X_A.translation() - 0.5 * length * axis;
  const Vector3d s1 = X_A.translation() + 0.5 * length * axis;
  const SegmentClosestPoints core = ClosestPointsOfSegments(c.p_A, c.p_A, s0, s1);
  EXPECT_NEAR((c.p_A - core.on_q).norm(), radius, kCapsuleBox3dTol);
  EXPECT_NEAR(((X_B.inverse() * c.p_B).cwiseAbs() - 0.5 * size).maxCoeff(), 0.0, kCapsuleBox3dTol);
}

TEST(CapsuleBoxDistance3d, LyingStandingAcrossAnEdgeAndThrough) {
  const double r = 0.02, l = 0.1;
  const Vector3d size(0.2, 0.2, 0.1);  // top face at z = 0.05
  const Eigen::Isometry3d X_B = Eigen::Isometry3d::Identity();
  for (double gap : {0.01, 0.0, -0.005}) {
    // Lying along x over the top face, its core from x = −0.02 to 0.08 (parallel to the face:
    // the closest pair is the first of the tied ones, the core's end at x = −0.02).
    const Eigen::Isometry3d lying = CapsuleBox3dPose(Vector3d(0.03, 0.01, 0.05 + r + gap),
                                                     std::numbers::pi / 2, Vector3d::UnitY());
    ContactPoint c = CapsuleBoxDistance3d(r, l, lying, size, X_B);
    EXPECT_NEAR(c.phi, gap, kCapsuleBox3dTol);
    EXPECT_LT((c.normal - Vector3d::UnitZ()).norm(), kCapsuleBox3dTol);
    EXPECT_LT((c.p_B - Vector3d(-0.02, 0.01, 0.05)).norm(), kCapsuleBox3dTol);
    ExpectConsistent(c, r, l, lying, size, X_B);
    // Standing on its lower end.
    const Eigen::Isometry3d standing =
        CapsuleBox3dPose(Vector3d(-0.04, 0.05, 0.05 + 0.5 * l + r + gap));
    c = CapsuleBoxDistance3d(r, l, standing, size, X_B);
    EXPECT_NEAR(c.phi, gap, kCapsuleBox3dTol);
    EXPECT_LT((c.p_B - Vector3d(-0.04, 0.05, 0.05)).norm(), kCapsuleBox3dTol);
    ExpectConsistent(c, r, l, standing, size, X_B);
    // Along y (core from y = 0.05 to −0.05), beside the box's edge x = 0.1, z = 0.05 along
    // (1, 0, 1)/√2: the closest point of the box is on that edge (at the core's first end,
    // y = 0.05, of the tied pairs), the normal along (1, 0, 1)/√2.
    const Vector3d n = Vector3d(1, 0, 1).normalized();
    const Eigen::Isometry3d across = CapsuleBox3dPose(Vector3d(0.1, 0.0, 0.05) + (r + gap) * n,
                                                      std::numbers::pi / 2, Vector3d::UnitX());
    c = CapsuleBoxDistance3d(r, l, across, size, X_B);
    EXPECT_NEAR(c.phi, gap, kCapsuleBox3dTol);
    EXPECT_LT((c.normal - n).norm(), 1e-9);
    EXPECT_LT((c.p_B - Vector3d(0.1, 0.05, 0.05)).norm(), 1e-9);
    ExpectConsistent(c, r, l, across, size, X_B);
  }
  // Through the box along x, 0.03 below its top face: the least overlap is the top face,
  // φ = −(0.03 + r).
  const Eigen::Isometry3d through =
      CapsuleBox3dPose(Vector3d(0.0, 0.0, 0.02), std::numbers::pi / 2, Vector3d::UnitY());
  const ContactPoint c = CapsuleBoxDistance3d(r, 0.4, through, size, X_B);
  EXPECT_NEAR(c.phi, -0.03 - r, kCapsuleBox3dTol);
  EXPECT_LT((c.normal - Vector3d::UnitZ()).norm(), kCapsuleBox3dTol);
  ExpectConsistent(c, r, 0.4, through, size, X_B);
}

struct CapsuleBox3dRandomPair {
  double radius, length;
  Vector3d size;
  Eigen::Isometry3d X_A, X_B;
};
CapsuleBox3dRandomPair CapsuleBox3dDraw(std::mt19937* random) {
  std::uniform_real_distribution<double> side(0.02, 0.2), offset(-0.12, 0.12);
  std::normal_distribution<double> normal;
  auto pose = [&] {
    Eigen::Isometry3d X = Eigen::Isometry3d::Identity();
    X.linear() =
        Eigen::Quaterniond(normal(*random), normal(*random), normal(*random), normal(*random))
            .normalized()
            .toRotationMatrix();
    X.translation() = Vector3d(offset(*random), offset(*random), offset(*random));
    return X;
  };
  CapsuleBox3dRandomPair pair;
  pair.radius = 0.25 * side(*random);
  pair.length = side(*random);
  pair.size = Vector3d(side(*random), side(*random), side(*random));
  pair.X_A = pose();
  pair.X_B = pose();
  return pair;
}

struct CapsuleBox3dSpread {
  double max = 0.0, p99 = 0.0;
};
CapsuleBox3dSpread CapsuleBox3dSpreadOf(std::vector<double> errors) {
  std::sort(errors.begin(), errors.end());
  return {errors.back(), errors[errors.size() * 99 / 100]};
}

TEST(CapsuleBoxDistance3d, AgreesWithFclAtRandomPoses) {
  // As for boxes (box_box_3d_test.cc), FCL's φ is never below the exact one; FCL's accuracy
  // for curved shapes is testing::kFclCurvedPhiAccuracy in φ and testing::kFclCurvedNormalAccuracy
  // in the normal (testing/fcl_distance.h).
  std::mt19937 random(23);
  Shape capsule, box;
  capsule.type = ShapeType::kCapsule;
  box.type = ShapeType::kBox;
  int separated = 0, penetrating = 0;
  std::vector<double> phi_errors, normal_errors, witness_errors;
  for (int trial = 0; trial < 3000; ++trial) {
    const CapsuleBox3dRandomPair pair = CapsuleBox3dDraw(&random);
    capsule.radius = pair.radius;
    capsule.length = pair.length;
    box.size = pair.size;
    const ContactPoint exact =
        CapsuleBoxDistance3d(pair.radius, pair.length, pair.X_A, pair.size, pair.X_B);
    const ContactPoint fcl = FclSignedDistance3d(capsule, pair.X_A, box, pair.X_B);
    ExpectConsistent(exact, pair.radius, pair.length, pair.X_A, pair.size, pair.X_B);
    EXPECT_LE(exact.phi, fcl.phi + 1e-12) << "trial " << trial;
    (exact.phi > 0.0 ? separated : penetrating)++;
    phi_errors.push_back(std::abs(exact.phi - fcl.phi));
    normal_errors.push_back((exact.normal - fcl.normal).norm());
    witness_errors.push_back(std::max((exact.p_A - fcl.p_A).norm(), (exact.p_B - fcl.p_B).norm()));
  }
  const CapsuleBox3dSpread phi = CapsuleBox3dSpreadOf(phi_errors),
                           normal = CapsuleBox3dSpreadOf(normal_errors),
                           witness = CapsuleBox3dSpreadOf(witness_errors);
  std::printf(
      "capsule-box vs FCL, %d separated and %d penetrating pairs: |dphi| max %.2e m (99%% "
      "below %.2e), |dn| max %.2e (99%% below %.2e), |dp| max %.2e m (99%% below %.2e)\n",
      separated, penetrating, phi.max, phi.p99, normal.max, normal.p99, witness.max, witness.p99);
  EXPECT_GT(separated, 500);
  EXPECT_GT(penetrating, 500);
  // FCL's curved-shape accuracy (testing/fcl_distance.h) is stated for metre-sized shapes; for
  // these 2–20 cm shapes its normals spread about twice as wide.
  EXPECT_LT(phi.p99, testing::kFclCurvedPhiAccuracy);
  EXPECT_LT(normal.p99, 4 * testing::kFclCurvedNormalAccuracy);
}

TEST(CapsuleBoxDistance3d, AllocatesNothing) {
  if (!testing::MallocCountingAvailable()) GTEST_SKIP() << "no allocation counting here";
  std::mt19937 random(4);
  double sum = 0.0;
  testing::MallocCounter counter;
  for (int trial = 0; trial < 100; ++trial) {
    const CapsuleBox3dRandomPair pair = CapsuleBox3dDraw(&random);
    sum += CapsuleBoxDistance3d(pair.radius, pair.length, pair.X_A, pair.size, pair.X_B).phi;
  }
  EXPECT_EQ(counter.count(), 0);
  EXPECT_TRUE(std::isfinite(sum));
}

}  // namespace
}  // namespace quasidyn
