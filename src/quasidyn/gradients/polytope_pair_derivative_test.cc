#include "quasidyn/gradients/polytope_pair_derivative.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "quasidyn/contact/contact_model.h"
#include "quasidyn/geometry/manifold_3d.h"
#include "quasidyn/geometry/manifold_3d_scratch.h"
#include "quasidyn/geometry/narrow_phase_3d.h"
#include "quasidyn/gradients/pair_motion_derivative.h"
#include "quasidyn/scenes/scene_loading.h"
#include "quasidyn/testing/moved_pair.h"
#include "quasidyn/testing/outcome_checks.h"
#include "quasidyn/testing/random_twist.h"

namespace quasidyn {
namespace {

constexpr double kBoxStep = 6.0555e-6;  // ε [m or rad], as DifferentiateStepData's default

// Closed form against central differences of the manifold with the same step where the
// manifold is smooth: the differences' truncation error is ≈ ε²/6 times the third derivative,
// (ε/ρ)² ≈ 1e-8 for the box sizes ρ >= 0.02 m of these scenes, plus round-off ε_machine/ε ≈
// 4e-11; a dropped term (an edge cut's slide, the normal's turn with A, the reference witness'
// move along n) is an O(1) error.
constexpr double kPolytopeTolerance = 1e-7;

// Boxes near each other, none of them with parallel faces (every pair smooth):
//  * a tilted plate half over a pedestal's top face (the three kinds of clipped points: corners
//    of the incident face, its edges cut by the reference's side planes, a reference corner
//    inside the incident face);
//  * a tilted cube over a slab's corner (the same kinds, the other box as the reference);
//  * a small tilted cube sunk into the slab (penetrating: the axis of least overlap);
//  * a plate tilted the other way over a second pedestal, closest to it edge on edge: the
//    normal is the two edges' cross product, no face axis, and turns with both;
// and the pedestal and the slab on the table (the analytic box–half-space case).
constexpr const char* kBoxScene = R"(
name: box_pairs
dimension: 3
time_step: 0.01
contact_tolerance: 0.02
formulation: {type: qp}
environment:
  - {name: table, type: half_space, friction: 0.5}
objects:
  - name: pedestal
    joint: floating
    body: {mass: 0.5, inertia: from_shapes,
           shapes: [{type: box, size: [0.1, 0.1, 0.1], friction: 0.5}]}
    initial: [0.0, 0.0, 0.05, 1, 0, 0, 0]
  - name: plate
    joint: floating
    body: {mass: 0.2, inertia: from_shapes,
           shapes: [{type: box, size: [0.12, 0.12, 0.02], friction: 0.5}]}
    initial: [0.07, 0.03, 0.1185, 0.9960268542714882, 0.00586710651750058, -0.01700559971769716,
              0.08721749944476435]
  - name: slab
    joint: floating
    body: {mass: 1.0, inertia: from_shapes,
           shapes: [{type: box, size: [0.3, 0.3, 0.05], friction: 0.5}]}
    initial: [0.6, 0.0, 0.025, 1, 0, 0, 0]
  - name: corner_cube
    joint: floating
    body: {mass: 0.2, inertia: from_shapes,
           shapes: [{type: box, size: [0.1, 0.1, 0.1], friction: 0.5}]}
    initial: [0.75, 0.15, 0.1035, 0.9846660516146345, 0.014405461525943025, -0.006320325681269318,
              0.17373918084057216]
  - name: ridge_pedestal
    joint: floating
    body: {mass: 0.5, inertia: from_shapes,
           shapes: [{type: box, size: [0.1, 0.1, 0.1], friction: 0.5}]}
    initial: [0.0, 0.5, 0.05, 1, 0, 0, 0]
  - name: ridge_plate
    joint: floating
    body: {mass: 0.2, inertia: from_shapes,
           shapes: [{type: box, size: [0.12, 0.12, 0.02], friction: 0.5}]}
    initial: [0.07, 0.53, 0.1185, 0.9960183202860168, 0.016624880911524646, 0.010213023887974862,
              0.08698743088724505]
  - name: sunk_cube
    joint: floating
    body: {mass: 0.1, inertia: from_shapes,
           shapes: [{type: box, size: [0.06, 0.06, 0.06], friction: 0.5}]}
    initial: [0.55, -0.05, 0.0795, 0.9960183202860168, 0.016624880911524646, 0.010213023887974862,
              0.08698743088724505]
)";

// A cube resting parallel on a slab, 1 mm above it, overhanging the slab's edge x = 0.15 m
// (the cube spans x = 0.09 … 0.19 m): the kink of the header.
constexpr const char* kParallelScene = R"(
name: parallel_boxes
dimension: 3
time_step: 0.01
contact_tolerance: 0.01
formulation: {type: qp}
environment:
  - {name: table, type: half_space, friction: 0.5}
objects:
  - name: slab
    joint: floating
    body: {mass: 1.0, inertia: from_shapes,
           shapes: [{type: box, size: [0.3, 0.3, 0.05], friction: 0.5}]}
    initial: [0.0, 0.0, 0.025, 1, 0, 0, 0]
  - name: cube
    joint: floating
    body: {mass: 0.2, inertia: from_shapes,
           shapes: [{type: box, size: [0.1, 0.1, 0.1], friction: 0.5}]}
    initial: [0.14, 0.02, 0.101, 1, 0, 0, 0]
)";

using testing::RandomTwist;

ScenePtr SceneFrom(const char* yaml) {
  return std::make_shared<const Scene>(LoadSceneFromString(yaml, "boxes.yaml", "."));
}

// What CompareEveryBoxPair saw: box pairs (not on the table), those in closed form, and the
// kinds of their points (manifold_3d.h ClippedPointFeatures3d).
struct BoxPairCount {
  int box_pairs = 0, closed_pairs = 0;
  int kinds[3] = {0, 0, 0};
};

// Adds the kinds of the points of `members` to *count, from the pair's manifold built in a
// scratch of our own (whose record names the features).
void CountKinds(const ContactModel& model, const ContactSet& contacts,
                const std::vector<int>& members, const std::vector<Eigen::Isometry3d>& X_WB,
                BoxPairCount* count) {
  const Scene& scene = model.scene();
  const Contact& c0 = contacts[members[0]];
  const CollisionGeometry& a = scene.geometries[c0.geometry_a];
  const CollisionGeometry& b = scene.geometries[c0.geometry_b];
  const Eigen::Isometry3d X_WSa = X_WB[a.body] * a.X_BS, X_WSb = X_WB[b.body] * b.X_BS;
  Manifold3dScratch scratch;
  ManifoldPoints points;
  ContactManifoldFromClosest3d(a.shape, X_WSa, b.shape, X_WSb,
                               SignedDistance3d(a.shape, X_WSa, b.shape, X_WSb),
                               scene.contact_tolerance, &scratch, &points);
  for (int i : members) {
    for (const ContactPoint& p : points) {
      if ((p.p_A - contacts[i].p_A).norm() > kManifoldSlack) continue;
      ClippedPointFeatures3d features;
      EXPECT_TRUE(FeaturesOfClippedPoint3d(scratch, p, &features)) << "contact " << i;
      ++count->kinds[features.kind];
    }
  }
}

// Every box pair of the scene at its initial configuration: the derivative with the closed
// form against the one from manifold differences (set_closed_forms(false)), for random motions
// of both bodies over the whole span of relative motions.
BoxPairCount CompareEveryBoxPair(const char* yaml) {
  const ScenePtr scene_ptr = SceneFrom(yaml);
  const Scene& scene = *scene_ptr;
  const ContactModel model(scene_ptr);
  ContactData data = model.CreateData();
  EXPECT_TRUE(model.Compute(scene.q0, &data));
  const ContactSet& contacts = data.contacts();
  const std::vector<Eigen::Isometry3d>& X_WB = data.kinematics().BodyPoses();
  std::mt19937 random(29);
  std::vector<bool> done(contacts.size(), false);
  BoxPairCount count;
  for (int first = 0; first < contacts.size(); ++first) {
    if (done[first]) continue;
    const testing::PairOf pair = testing::PairOfContact(contacts, first);
    for (int i : pair.members) done[i] = true;
    if (contacts[first].body_b == 0) continue;  // on the table: the analytic case
    ++count.box_pairs;
    std::vector<Twist> spanning;
    for (int k = 0; k < 6; ++k) spanning.push_back(RandomTwist(&random, false));
    const Twist xi_A = RandomTwist(&random, false), xi_B = RandomTwist(&random, false);
    std::vector<ContactPointDerivative> derivative[2];
    for (int closed = 0; closed < 2; ++closed) {
      PairMotionDerivative motion;
      motion.set_closed_forms(closed == 1);
      EXPECT_TRUE(testing::IsOk(motion.Compute(model.geometry(), contacts, pair.members, X_WB,
                                               scene.contact_tolerance, pair.reference, spanning,
                                               kBoxStep)));
      if (closed == 1 && motion.polytope()) {
        ++count.closed_pairs;
        CountKinds(model, contacts, pair.members, X_WB, &count);
      }
      EXPECT_FALSE(closed == 0 && motion.polytope());
      motion.Derivatives(xi_A, xi_B, &derivative[closed]);
    }
    const std::string where = "pair of contact " + std::to_string(first);
    for (size_t m = 0; m < pair.members.size(); ++m) {
      const ContactPointDerivative &closed = derivative[1][m], &differenced = derivative[0][m];
      const double scale = 1.0 + differenced.p_A.norm() + differenced.p_B.norm();
      const double tolerance = kPolytopeTolerance * scale;
      EXPECT_NEAR(closed.phi, differenced.phi, tolerance) << where << ", point " << m;
      EXPECT_LT((closed.p_A - differenced.p_A).norm(), tolerance) << where << ", point " << m;
      EXPECT_LT((closed.p_B - differenced.p_B).norm(), tolerance) << where << ", point " << m;
      EXPECT_LT((closed.normal - differenced.normal).norm(), tolerance) << where;
      // Not a test that passes on zeros: the motions move every point and turn the normal.
      EXPECT_GT(differenced.p_A.norm(), 1e3 * tolerance) << where;
      EXPECT_GT(differenced.normal.norm(), 1e3 * tolerance) << where;
    }
  }
  return count;
}

TEST(PolytopePairDerivative, MatchesManifoldDifferencesWhereSmooth) {
  const BoxPairCount count = CompareEveryBoxPair(kBoxScene);
  // plate–pedestal, ridge plate–pedestal, corner cube–slab, sunk cube–slab.
  EXPECT_EQ(count.box_pairs, 4);
  EXPECT_EQ(count.closed_pairs, 4);
  // Every kind of clipped point is among them, so each formula is checked.
  EXPECT_GT(count.kinds[ClippedPointFeatures3d::kIncidentVertex], 0);
  EXPECT_GT(count.kinds[ClippedPointFeatures3d::kReferenceVertex], 0);
  EXPECT_GT(count.kinds[ClippedPointFeatures3d::kIncidentEdgeCut], 0);
}

// The largest difference of a derivative and a one-sided difference, field by field.
double LargestGap(const ContactPointDerivative& d, const ContactPoint& moved,
                  const ContactPoint& at, double s) {
  return std::max({std::abs(d.phi - (moved.phi - at.phi) / s),
                   (d.p_A - (moved.p_A - at.p_A) / s).norm(),
                   (d.p_B - (moved.p_B - at.p_B) / s).norm(),
                   (d.normal - (moved.normal - at.normal) / s).norm()});
}

// At a kink (the cube's face parallel to the slab's, the cube over the slab's edge), the
// closed form is the derivative of the branch q's manifold took: the normal fixed to the slab
// (box_box_3d.h prefers B's face on a tie), the cube's corners and its edges cut by the slab's
// side plane. Tilting the cube about y by −s lowers its corners over the slab: those features
// persist, and the one-sided difference on that side converges to the closed form (its error
// O(s) with s = 1e-7 rad: ≈ 1e-7 times the second derivatives, ≈ 1 here, plus round-off
// ε_machine/s ≈ 2e-9, so 1e-5 leaves a margin of 100). Tilting by +s lowers the overhanging
// side: the slab's edge becomes the closest feature, the normal turns with the cube (slope
// |ω × n| = 1 rad⁻¹ against 0), so that side's difference is off by O(1): the test fails if the
// closed form took that branch or averaged the two, as the central differences do.
TEST(PolytopePairDerivative, AtParallelFacesItIsTheOneSidedDerivativeWhereFeaturesPersist) {
  const ScenePtr scene_ptr = SceneFrom(kParallelScene);
  const Scene& scene = *scene_ptr;
  const ContactModel model(scene_ptr);
  ContactData data = model.CreateData();
  ASSERT_TRUE(model.Compute(scene.q0, &data));
  const ContactSet& contacts = data.contacts();
  const std::vector<Eigen::Isometry3d>& X_WB = data.kinematics().BodyPoses();
  int first = -1;
  for (int i = 0; i < contacts.size() && first < 0; ++i)
    if (contacts[i].body_b != 0) first = i;
  ASSERT_GE(first, 0);
  const testing::PairOf pair = testing::PairOfContact(contacts, first);
  ASSERT_EQ(pair.members.size(), 4u);  // two corners, two edge cuts
  const Twist tilt{Eigen::Vector3d::UnitY(), Eigen::Vector3d::Zero()};
  PairMotionDerivative motion;
  ASSERT_TRUE(
      testing::IsOk(motion.Compute(model.geometry(), contacts, pair.members, X_WB,
                                   scene.contact_tolerance, pair.reference, {tilt}, kBoxStep)));
  ASSERT_TRUE(motion.polytope());
  std::vector<ContactPointDerivative> closed;
  motion.Derivatives(tilt, Twist{}, &closed);
  const Contact& c0 = contacts[first];
  constexpr double kOneSidedStep = 1e-7;  // [rad]
  double largest_gap[2] = {0.0, 0.0};     // −s, +s
  for (int side = 0; side < 2; ++side) {
    const double s = side == 0 ? -kOneSidedStep : kOneSidedStep;
    std::vector<Eigen::Isometry3d> moved = X_WB;
    moved[c0.body_a] = testing::MovedAbout(X_WB[c0.body_a], tilt, s, pair.reference);
    ManifoldPoints points;
    ASSERT_TRUE(model.geometry().PairManifold(c0.geometry_a, c0.geometry_b, moved,
                                              scene.contact_tolerance, &points));
    for (size_t m = 0; m < pair.members.size(); ++m) {
      const Contact& c = contacts[pair.members[m]];
      const ContactPoint at{c.phi, c.p_A, c.p_B, c.normal};
      const ContactPoint* nearest = nullptr;
      for (const ContactPoint& p : points)
        if (nearest == nullptr || (p.p_A - c.p_A).norm() < (nearest->p_A - c.p_A).norm())
          nearest = &p;
      ASSERT_NE(nearest, nullptr);
      ASSERT_LT((nearest->p_A - c.p_A).norm(), 1e3 * kOneSidedStep);
      largest_gap[side] = std::max(largest_gap[side], LargestGap(closed[m], *nearest, at, s));
    }
  }
  EXPECT_LT(largest_gap[0], 1e-5);
  EXPECT_GT(largest_gap[1], 0.1);
  // The central differences (set_closed_forms(false)) are neither side's slope.
  PairMotionDerivative differenced;
  differenced.set_closed_forms(false);
  ASSERT_TRUE(testing::IsOk(differenced.Compute(model.geometry(), contacts, pair.members, X_WB,
                                                scene.contact_tolerance, pair.reference, {tilt},
                                                kBoxStep)));
  std::vector<ContactPointDerivative> central;
  differenced.Derivatives(tilt, Twist{}, &central);
  double normal_gap = 0.0;
  for (size_t m = 0; m < central.size(); ++m)
    normal_gap = std::max(normal_gap, (central[m].normal - closed[m].normal).norm());
  EXPECT_GT(normal_gap, 0.1);
}

}  // namespace
}  // namespace quasidyn
