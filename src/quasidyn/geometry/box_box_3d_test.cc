// The exact box–box signed distance: hand-computed contacts (touching, parallel faces,
// edge–edge, vertex–face), its properties at random poses, and agreement with FCL.
#include "quasidyn/geometry/box_box_3d.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
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

constexpr double kTol = 1e-12;  // round-off of O(0.1) m coordinates, with margin

Eigen::Isometry3d Pose(const Vector3d& p, double angle = 0.0,
                       const Vector3d& axis = Vector3d::UnitZ()) {
  Eigen::Isometry3d X = Eigen::Isometry3d::Identity();
  X.translation() = p;
  X.linear() = Eigen::AngleAxisd(angle, axis.normalized()).toRotationMatrix();
  return X;
}

// max_i (|x_i| − h_i) of p in the box's frame: 0 on the surface, < 0 inside.
double SurfaceExcess(const Vector3d& size, const Eigen::Isometry3d& X, const Vector3d& p) {
  return ((X.inverse() * p).cwiseAbs() - 0.5 * size).maxCoeff();
}

void ExpectConsistent(const ContactPoint& c, const Vector3d& size_A, const Eigen::Isometry3d& X_A,
                      const Vector3d& size_B, const Eigen::Isometry3d& X_B) {
  EXPECT_NEAR(c.normal.norm(), 1.0, 1e-15);
  EXPECT_LT((c.p_A - c.p_B - c.phi * c.normal).norm(), kTol);
  EXPECT_NEAR(SurfaceExcess(size_A, X_A, c.p_A), 0.0, kTol);
  EXPECT_NEAR(SurfaceExcess(size_B, X_B, c.p_B), 0.0, kTol);
}

TEST(BoxBoxDistance3d, ParallelFacesSeparatedTouchingAndPenetrating) {
  // A (0.1 × 0.06 × 0.04) turned 30° about z above B (0.2 × 0.2 × 0.1, top face at z = 0.05),
  // A's bottom face at z = 0.05 + gap.
  const Vector3d size_A(0.1, 0.06, 0.04), size_B(0.2, 0.2, 0.1);
  const Eigen::Isometry3d X_B = Eigen::Isometry3d::Identity();
  for (double gap : {0.01, 0.0, -0.003}) {
    const Eigen::Isometry3d X_A = Pose(Vector3d(0.02, -0.01, 0.07 + gap), std::numbers::pi / 6);
    const ContactPoint c = BoxBoxDistance3d(size_A, X_A, size_B, X_B);
    EXPECT_NEAR(c.phi, gap, kTol) << gap;
    EXPECT_LT((c.normal - Vector3d::UnitZ()).norm(), kTol) << gap;
    ExpectConsistent(c, size_A, X_A, size_B, X_B);
    // The witness points lie in the overlap of the two faces.
    EXPECT_LE(std::abs(c.p_B.x()), 0.1 + kTol);
    EXPECT_NEAR(c.p_B.z(), 0.05, kTol);
    EXPECT_NEAR(c.p_A.z(), 0.05 + gap, kTol);
  }
}

TEST(BoxBoxDistance3d, LargerBoxOnSmallerFacePenetratingUsesTheOverlapMiddle) {
  // A (0.3 wide) rests 2 mm into B's top face (0.1 wide), offset by 0.1 in x: no corner of A
  // lies over B's face; the overlap of the faces is B's face itself, centred at (0, 0).
  const Vector3d size_A(0.3, 0.3, 0.02), size_B(0.1, 0.1, 0.1);
  const Eigen::Isometry3d X_A = Pose(Vector3d(0.1, 0.0, 0.058));
  const Eigen::Isometry3d X_B = Eigen::Isometry3d::Identity();
  const ContactPoint c = BoxBoxDistance3d(size_A, X_A, size_B, X_B);
  EXPECT_NEAR(c.phi, -0.002, kTol);
  EXPECT_LT((c.normal - Vector3d::UnitZ()).norm(), kTol);
  EXPECT_LT((c.p_B - Vector3d(0, 0, 0.05)).norm(), kTol);
  ExpectConsistent(c, size_A, X_A, size_B, X_B);
}

TEST(BoxBoxDistance3d, CrossedEdgesAndCornerOnFace) {
  const double s = std::sqrt(2.0);
  const Vector3d cube(0.1, 0.1, 0.1);
  // Two cubes turned 45° about x (A) and y (B): A's lowest edge (along x) crosses B's highest
  // edge (along y); their heights are z_A − 0.05√2 and 0.05√2.
  for (double gap : {0.02, -0.004}) {
    const double z = 0.1 * s + gap;
    const Eigen::Isometry3d X_A = Pose(Vector3d(0, 0, z), std::numbers::pi / 4, Vector3d::UnitX());
    const Eigen::Isometry3d X_B = Pose(Vector3d::Zero(), std::numbers::pi / 4, Vector3d::UnitY());
    const ContactPoint c = BoxBoxDistance3d(cube, X_A, cube, X_B);
    EXPECT_NEAR(c.phi, gap, kTol);
    EXPECT_LT((c.normal - Vector3d::UnitZ()).norm(), kTol);
    EXPECT_LT((c.p_A - Vector3d(0, 0, 0.05 * s + gap)).norm(), kTol);
    ExpectConsistent(c, cube, X_A, cube, X_B);
  }
  // A cube standing on a corner (its diagonal (1, 1, 1) turned onto −z) above B's top face.
  const Eigen::Quaterniond turn =
      Eigen::Quaterniond::FromTwoVectors(Vector3d(1, 1, 1).normalized(), -Vector3d::UnitZ());
  for (double gap : {0.01, -0.002}) {
    Eigen::Isometry3d X_A = Eigen::Isometry3d::Identity();
    X_A.linear() = turn.toRotationMatrix();
    X_A.translation() = Vector3d(0.01, 0.02, 0.05 + 0.05 * std::sqrt(3.0) + gap);
    const ContactPoint c = BoxBoxDistance3d(cube, X_A, cube, Eigen::Isometry3d::Identity());
    EXPECT_NEAR(c.phi, gap, kTol);
    EXPECT_LT((c.normal - Vector3d::UnitZ()).norm(), kTol);
    EXPECT_LT((c.p_A - Vector3d(0.01, 0.02, 0.05 + gap)).norm(), kTol);
    ExpectConsistent(c, cube, X_A, cube, Eigen::Isometry3d::Identity());
  }
}

// Random sizes and poses of two boxes, both near the origin.
struct RandomPair {
  Vector3d size_A, size_B;
  Eigen::Isometry3d X_A, X_B;
};
RandomPair Draw(std::mt19937* random) {
  std::uniform_real_distribution<double> side(0.02, 0.2), offset(-0.15, 0.15);
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
  RandomPair pair;
  pair.size_A = Vector3d(side(*random), side(*random), side(*random));
  pair.size_B = Vector3d(side(*random), side(*random), side(*random));
  pair.X_A = pose();
  pair.X_B = pose();
  return pair;
}

// The largest and the 99th-percentile value of `errors`.
struct Spread {
  double max = 0.0, p99 = 0.0;
};
Spread SpreadOf(std::vector<double> errors) {
  std::sort(errors.begin(), errors.end());
  return {errors.back(), errors[errors.size() * 99 / 100]};
}

TEST(BoxBoxDistance3d, AgreesWithFclAtRandomPoses) {
  // FCL's GJK (separated) and EPA (penetrating) stop on libccd's own tolerance, and both
  // approach the answer from one side: GJK's distance from above, EPA's depth from below. So
  // FCL's φ is never below the exact one (up to round-off), and the exact one is checked
  // against FCL at that bound, plus the spread of the differences.
  std::mt19937 random(17);
  Shape box_A, box_B;
  box_A.type = box_B.type = ShapeType::kBox;
  int separated = 0, penetrating = 0;
  std::vector<double> phi_errors, normal_errors, witness_errors;
  for (int trial = 0; trial < 3000; ++trial) {
    const RandomPair pair = Draw(&random);
    box_A.size = pair.size_A;
    box_B.size = pair.size_B;
    const ContactPoint exact = BoxBoxDistance3d(pair.size_A, pair.X_A, pair.size_B, pair.X_B);
    const ContactPoint fcl = FclSignedDistance3d(box_A, pair.X_A, box_B, pair.X_B);
    ExpectConsistent(exact, pair.size_A, pair.X_A, pair.size_B, pair.X_B);
    EXPECT_LE(exact.phi, fcl.phi + 1e-12) << "trial " << trial;
    (exact.phi > 0.0 ? separated : penetrating)++;
    phi_errors.push_back(std::abs(exact.phi - fcl.phi));
    normal_errors.push_back((exact.normal - fcl.normal).norm());
    witness_errors.push_back(std::max((exact.p_A - fcl.p_A).norm(), (exact.p_B - fcl.p_B).norm()));
  }
  const Spread phi = SpreadOf(phi_errors), normal = SpreadOf(normal_errors),
               witness = SpreadOf(witness_errors);
  std::printf(
      "box-box vs FCL, %d separated and %d penetrating pairs: |dphi| max %.2e m (99%% below "
      "%.2e), |dn| max %.2e (99%% below %.2e), |dp| max %.2e m (99%% below %.2e)\n",
      separated, penetrating, phi.max, phi.p99, normal.max, normal.p99, witness.max, witness.p99);
  EXPECT_GT(separated, 500);
  EXPECT_GT(penetrating, 500);
  // FCL: ~1e-9 m for polytopes (testing/fcl_distance.h), with rare early stops (up to 5e-3 m seen).
  EXPECT_LT(phi.p99, 1e-8);
  EXPECT_LT(normal.p99, 1e-6);
  EXPECT_LT(witness.p99, 1e-6);
}

// The exhaustive distance of two separated boxes, written independently of the closed form:
// the least over the 16 corner–box and the 144 edge–edge pairs (corners and edges from the
// poses, the corner's closest box point by clamping in the box frame).
double ExhaustiveSeparatedDistance(const RandomPair& pair) {
  const Eigen::Isometry3d X[2] = {pair.X_A, pair.X_B};
  const Vector3d half[2] = {0.5 * pair.size_A, 0.5 * pair.size_B};
  auto corner = [&](int box, int i) {
    return Vector3d(X[box] * Vector3d((i & 1 ? 1 : -1) * half[box].x(),
                                      (i & 2 ? 1 : -1) * half[box].y(),
                                      (i & 4 ? 1 : -1) * half[box].z()));
  };
  double best = std::numeric_limits<double>::infinity();
  for (int box = 0; box < 2; ++box) {
    for (int i = 0; i < 8; ++i) {
      const Vector3d p = X[1 - box].inverse() * corner(box, i);
      best = std::min(best, (p - p.cwiseMax(-half[1 - box]).cwiseMin(half[1 - box])).norm());
    }
  }
  // The 12 edges of a box: corner pairs that differ in one bit.
  std::vector<std::pair<Vector3d, Vector3d>> edges[2];
  for (int box = 0; box < 2; ++box)
    for (int i = 0; i < 8; ++i)
      for (int bit : {1, 2, 4})
        if (!(i & bit)) edges[box].emplace_back(corner(box, i), corner(box, i | bit));
  for (const auto& [a0, a1] : edges[0])
    for (const auto& [b0, b1] : edges[1]) {
      const SegmentClosestPoints c = ClosestPointsOfSegments(a0, a1, b0, b1);
      best = std::min(best, (c.on_p - c.on_q).norm());
    }
  return best;
}

// The edge pairs the closed form prunes by the separating axis never hold the closest pair:
// random separated poses, and boxes nearly face on face (where the pruning keeps 16 of 144).
TEST(BoxBoxDistance3d, SeparatedDistanceEqualsTheExhaustiveSearch) {
  std::mt19937 random(3);
  std::normal_distribution<double> small(0.0, 1e-3);
  int checked = 0;
  for (int trial = 0; trial < 4000; ++trial) {
    RandomPair pair = Draw(&random);
    if (trial % 2 == 1) {  // A resting on B's top face, slightly tilted and lifted
      pair.X_A.linear() =
          pair.X_B.linear() *
          Eigen::AngleAxisd(small(random), Vector3d(small(random), 1, 0).normalized())
              .toRotationMatrix();
      pair.X_A.translation() =
          pair.X_B * Vector3d(0.3 * small(random) / 1e-3 * 0.01, 0.01,
                              0.5 * (pair.size_A.z() + pair.size_B.z()) + std::abs(small(random)));
    }
    const ContactPoint exact = BoxBoxDistance3d(pair.size_A, pair.X_A, pair.size_B, pair.X_B);
    if (exact.phi <= 0.0) continue;
    ++checked;
    const double reference = ExhaustiveSeparatedDistance(pair);
    EXPECT_NEAR(exact.phi, reference, 1e-14) << "trial " << trial;
  }
  EXPECT_GT(checked, 1500);
}

TEST(BoxBoxDistance3d, AllocatesNothing) {
  if (!testing::MallocCountingAvailable()) GTEST_SKIP() << "no allocation counting here";
  std::mt19937 random(4);
  double sum = 0.0;
  testing::MallocCounter counter;
  for (int trial = 0; trial < 100; ++trial) {
    const RandomPair pair = Draw(&random);
    sum += BoxBoxDistance3d(pair.size_A, pair.X_A, pair.size_B, pair.X_B).phi;
  }
  EXPECT_EQ(counter.count(), 0);
  EXPECT_TRUE(std::isfinite(sum));
}

// Boxes micrometres apart far from the origin: the normal is the face normal (or the edges'
// cross product) to round-off, not (p_A − p_B)/φ, whose error ε_machine·|p|/φ is 1e-10 here
// (and made the contact derivatives noisy, docs/gradients.md "Known gaps").
TEST(BoxBoxDistance3d, NormalOfNearlyTouchingBoxesIsExactFarFromTheOrigin) {
  // A few roundings of the rotation products that make the poses.
  const double kRotationRoundOff = 16 * std::numeric_limits<double>::epsilon();
  const Vector3d size(0.08, 0.06, 0.05);
  const Vector3d far(1.3, -0.7, 0.9);
  const Eigen::Isometry3d X_B = Pose(far, 0.3, Vector3d(1, 2, 3));
  for (double gap : {1e-6, 1e-5, 1e-4}) {
    // Parallel faces: A is B shifted along B's z axis by the height plus the gap, and slid.
    Eigen::Isometry3d X_A = X_B;
    X_A.translation() += X_B.linear() * Vector3d(0.011, -0.007, 0.05 + gap);
    const ContactPoint faces = BoxBoxDistance3d(size, X_A, size, X_B);
    EXPECT_NEAR(faces.phi, gap, 1e-15);
    EXPECT_LT((faces.normal - X_B.linear().col(2)).norm(), kRotationRoundOff) << gap;
    // Crossing edges: B turned 45° about x (its top is an edge along x), A turned 45° about
    // y (its bottom is an edge along y), A above B.
    const Eigen::Matrix3d R = X_B.linear();
    const Eigen::Isometry3d X_Bedge =
        Pose(far) *
        Eigen::Isometry3d(R * Eigen::AngleAxisd(std::numbers::pi / 4, Vector3d::UnitX()));
    Eigen::Isometry3d X_E =
        Pose(far) *
        Eigen::Isometry3d(R * Eigen::AngleAxisd(std::numbers::pi / 4, Vector3d::UnitY()));
    const double reach = (0.03 + 0.025) / std::sqrt(2.0) + (0.04 + 0.025) / std::sqrt(2.0);
    X_E.translation() = far + R * Vector3d(0.0, 0.0, reach + gap);
    const ContactPoint edges = BoxBoxDistance3d(size, X_E, size, X_Bedge);
    EXPECT_NEAR(edges.phi, gap, 1e-15);
    EXPECT_LT((edges.normal - R.col(2)).norm(), kRotationRoundOff) << gap;
  }
}

}  // namespace
}  // namespace quasidyn
