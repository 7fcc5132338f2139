#include "quasidyn/gradients/rounded_pair_derivative.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "quasidyn/contact/contact_model.h"
#include "quasidyn/gradients/pair_motion_derivative.h"
#include "quasidyn/scenes/scene_loading.h"
#include "quasidyn/testing/outcome_checks.h"
#include "quasidyn/testing/random_twist.h"

namespace quasidyn {
namespace {

constexpr double kStep = 6.0555e-6;  // ε [m or rad], as DifferentiateStepData's default

// Closed form against central differences of the manifold with the same step: the
// differences' truncation error is ≈ ε²/6 times the third derivative, of relative size
// (ε/ρ)² ≈ 1e-8 for the radii and distances ρ >= 0.05 m of these scenes, plus round-off
// ε_machine/ε ≈ 4e-11; a dropped term (the slide along a segment, the normal's turn, the
// radius' share of a witness point) is an O(1) error.
constexpr double kRoundedTolerance = 1e-7;

// Spheres and capsules floating near each other and on a table (3D, every pair type of
// rounded_pair_derivative.h): ball and knob on the table (sphere–half-space), rod lying on the
// table (capsule–half-space, both ends), peg (tilted) on one end (capsule–half-space, one
// end), ball and bead against the rod's middle (B is the geometry of the lower body index,
// geometry_model.cc: the rod's interior is A against the ball, B against the bead), knob
// against the rod's end (sphere–capsule end), and two crossing capsules (two interiors: left
// to the differences).
constexpr const char* kRoundedScene = R"(
name: rounded_pairs
dimension: 3
time_step: 0.01
contact_tolerance: 0.03
formulation: {type: qp}
environment:
  - {name: table, type: half_space, friction: 0.5}
objects:
  - name: ball
    joint: floating
    body: {mass: 0.5, inertia: from_shapes, shapes: [{type: sphere, radius: 0.06, friction: 0.5}]}
    initial: [0.12, 0.17, 0.07, 1, 0, 0, 0]
  - name: rod
    joint: floating
    body: {mass: 0.5, inertia: from_shapes,
           shapes: [{type: capsule, radius: 0.05, length: 0.3, friction: 0.5}]}
    initial: [0.01, 0.17, 0.055, 0.7071067811865476, 0.7071067811865476, 0, 0]
  - name: knob
    joint: floating
    body: {mass: 0.2, inertia: from_shapes, shapes: [{type: sphere, radius: 0.05, friction: 0.5}]}
    initial: [0.02, 0.43, 0.07, 1, 0, 0, 0]
  - name: peg
    joint: floating
    body: {mass: 0.2, inertia: from_shapes,
           shapes: [{type: capsule, radius: 0.05, length: 0.2, friction: 0.5}]}
    initial: [-0.2, -0.05, 0.13, 0.9659258262890683, 0.0, 0.25881904510252074, 0.0]
  - name: cross_a
    joint: floating
    body: {mass: 0.2, inertia: from_shapes,
           shapes: [{type: capsule, radius: 0.05, length: 0.3, friction: 0.5}]}
    initial: [1.0, 0.0, 0.3, 0.7071067811865476, 0.7071067811865476, 0, 0]
  - name: cross_b
    joint: floating
    body: {mass: 0.2, inertia: from_shapes,
           shapes: [{type: capsule, radius: 0.05, length: 0.3, friction: 0.5}]}
    initial: [1.0, 0.0, 0.41, 0.7071067811865476, 0.0, 0.7071067811865476, 0]
  - name: bead
    joint: floating
    body: {mass: 0.2, inertia: from_shapes, shapes: [{type: sphere, radius: 0.06, friction: 0.5}]}
    initial: [-0.1, 0.22, 0.07, 1, 0, 0, 0]
)";

// A disk between two stadiums in a planar scene (circle–stadium: the stadium's interior and its
// end) and on the ground (circle–half-plane); the tilted stadium on the ground on both ends.
constexpr const char* kPlanarScene = R"(
name: rounded_planar
dimension: 2
time_step: 0.01
contact_tolerance: 0.03
formulation: {type: qp}
environment:
  - {name: ground, type: half_space, friction: 0.5}
objects:
  - name: disk
    joint: planar
    body: {mass: 0.5, inertia: from_shapes, shapes: [{type: sphere, radius: 0.08, friction: 0.5}]}
    initial: [0.0, 0.09, 0.3]
  - name: side
    joint: planar
    body: {mass: 0.2, inertia: from_shapes,
           shapes: [{type: capsule, radius: 0.05, length: 0.2, friction: 0.5}]}
    initial: [0.0, 0.24, 0.2]
  - name: tip
    joint: planar
    body: {mass: 0.2, inertia: from_shapes,
           shapes: [{type: capsule, radius: 0.05, length: 0.2, friction: 0.5}]}
    initial: [0.24, 0.06, 0.1]
)";

using testing::RandomTwist;

struct PairCount {
  int pairs = 0, rounded = 0;
};

// Every pair of the scene at its initial configuration: the derivative with the closed forms
// against the one from manifold differences (set_closed_forms(false)), for random motions of
// both bodies over the whole span of relative motions.
PairCount CompareEveryPair(const std::string& yaml) {
  const ScenePtr scene_ptr =
      std::make_shared<const Scene>(LoadSceneFromString(yaml, "rounded.yaml", "."));
  const Scene& scene = *scene_ptr;
  const ContactModel model(scene_ptr);
  ContactData data = model.CreateData();
  EXPECT_TRUE(model.Compute(scene.q0, &data));
  const ContactSet& contacts = data.contacts();
  const std::vector<Eigen::Isometry3d>& X_WB = data.kinematics().BodyPoses();
  std::mt19937 random(17);
  std::vector<bool> done(contacts.size(), false);
  PairCount count;
  for (int first = 0; first < contacts.size(); ++first) {
    if (done[first]) continue;
    std::vector<int> members;
    Eigen::Vector3d reference = Eigen::Vector3d::Zero();
    for (int i = first; i < contacts.size(); ++i) {
      if (contacts[i].geometry_a != contacts[first].geometry_a ||
          contacts[i].geometry_b != contacts[first].geometry_b)
        continue;
      members.push_back(i);
      done[i] = true;
      reference += 0.5 * (contacts[i].p_A + contacts[i].p_B);
    }
    reference /= static_cast<double>(members.size());
    std::vector<Twist> spanning;
    for (int k = 0; k < 6; ++k) spanning.push_back(RandomTwist(&random, scene.planar));
    const Twist xi_A = RandomTwist(&random, scene.planar);
    const Twist xi_B = RandomTwist(&random, scene.planar);
    std::vector<ContactPointDerivative> derivative[2];
    bool rounded = false;
    for (int closed = 0; closed < 2; ++closed) {
      PairMotionDerivative motion;
      motion.set_closed_forms(closed == 1);
      EXPECT_TRUE(
          testing::IsOk(motion.Compute(model.geometry(), contacts, members, X_WB,
                                       scene.contact_tolerance, reference, spanning, kStep)));
      if (closed == 1) rounded = motion.rounded();
      EXPECT_FALSE(closed == 0 && motion.rounded());
      motion.Derivatives(xi_A, xi_B, &derivative[closed]);
    }
    const std::string where = "pair of contact " + std::to_string(first) + " (geometries " +
                              std::to_string(contacts[first].geometry_a) + ", " +
                              std::to_string(contacts[first].geometry_b) + ")";
    for (size_t m = 0; m < members.size(); ++m) {
      const ContactPointDerivative &closed = derivative[1][m], &differenced = derivative[0][m];
      const double scale = 1.0 + differenced.p_A.norm() + differenced.p_B.norm();
      const double tolerance = kRoundedTolerance * scale;
      EXPECT_NEAR(closed.phi, differenced.phi, tolerance) << where;
      EXPECT_LT((closed.p_A - differenced.p_A).norm(), tolerance) << where;
      EXPECT_LT((closed.p_B - differenced.p_B).norm(), tolerance) << where;
      EXPECT_LT((closed.normal - differenced.normal).norm(), tolerance) << where;
      // Not a test that passes on zeros: the motions move every point and turn the normal of
      // a pair of two cores.
      EXPECT_GT(differenced.p_A.norm(), 1e3 * tolerance) << where;
      if (contacts[first].body_b != 0) {
        EXPECT_GT(differenced.normal.norm(), 1e3 * tolerance) << where;
      }
    }
    ++count.pairs;
    if (rounded) ++count.rounded;
  }
  return count;
}

TEST(RoundedPairDerivative, MatchesManifoldDifferencesIn3d) {
  const PairCount count = CompareEveryPair(kRoundedScene);
  // ball–, knob–, rod–, peg– and bead–table, ball–rod, bead–rod, knob–rod in closed form; the
  // crossing capsules (two segment interiors) differenced.
  EXPECT_EQ(count.pairs, 9);
  EXPECT_EQ(count.rounded, 8);
}

TEST(RoundedPairDerivative, MatchesManifoldDifferencesInAPlanarScene) {
  const PairCount count = CompareEveryPair(kPlanarScene);
  // disk–ground, tip–ground, disk–side (the stadium's interior), disk–tip (the stadium's end).
  EXPECT_EQ(count.pairs, 4);
  EXPECT_EQ(count.rounded, 4);
}

// The closed form is the limit of the manifold's central differences: their difference shrinks
// as the step squared (the differences' truncation error), for every pair in closed form of
// both scenes. Steps 4e-4, 2e-4 and 1e-4 keep that error (≈ (step/ρ)², ρ >= 0.05 m) far above
// round-off (ε_machine/step ≈ 1e-12), so each halving divides it by 4 (3 to 5 allowed: the
// next term is O(step⁴)); a closed form off by anything of O(1) would not converge at all.
TEST(RoundedPairDerivative, DifferencesConvergeToItAsTheStepSquared) {
  for (const char* yaml : {kRoundedScene, kPlanarScene}) {
    const ScenePtr scene_ptr =
        std::make_shared<const Scene>(LoadSceneFromString(yaml, "rounded.yaml", "."));
    const Scene& scene = *scene_ptr;
    const ContactModel model(scene_ptr);
    ContactData data = model.CreateData();
    ASSERT_TRUE(model.Compute(scene.q0, &data));
    const ContactSet& contacts = data.contacts();
    const std::vector<Eigen::Isometry3d>& X_WB = data.kinematics().BodyPoses();
    std::mt19937 random(23);
    int checked = 0;
    for (int i = 0; i < contacts.size(); ++i) {
      if (contacts[i].body_b == 0) continue;  // the pairs of two cores: curved in both bodies
      const std::vector<int> members{i};
      const Eigen::Vector3d reference = 0.5 * (contacts[i].p_A + contacts[i].p_B);
      std::vector<Twist> spanning;
      for (int k = 0; k < 6; ++k) spanning.push_back(RandomTwist(&random, scene.planar));
      const Twist xi_A = RandomTwist(&random, scene.planar), xi_B;
      PairMotionDerivative closed;
      ASSERT_TRUE(
          testing::IsOk(closed.Compute(model.geometry(), contacts, members, X_WB,
                                       scene.contact_tolerance, reference, spanning, kStep)));
      if (!closed.rounded()) continue;
      std::vector<ContactPointDerivative> exact, differenced;
      closed.Derivatives(xi_A, xi_B, &exact);
      double error[3];
      for (int h = 0; h < 3; ++h) {
        PairMotionDerivative motion;
        motion.set_closed_forms(false);
        ASSERT_TRUE(testing::IsOk(motion.Compute(model.geometry(), contacts, members, X_WB,
                                                 scene.contact_tolerance, reference, spanning,
                                                 4e-4 / static_cast<double>(1 << h))));
        motion.Derivatives(xi_A, xi_B, &differenced);
        error[h] = std::abs(exact[0].phi - differenced[0].phi) +
                   (exact[0].p_A - differenced[0].p_A).norm() +
                   (exact[0].p_B - differenced[0].p_B).norm() +
                   (exact[0].normal - differenced[0].normal).norm();
      }
      for (int h = 0; h < 2; ++h) {
        EXPECT_GT(error[h] / error[h + 1], 3.0) << "contact " << i << ", step " << h;
        EXPECT_LT(error[h] / error[h + 1], 5.0) << "contact " << i << ", step " << h;
      }
      ++checked;
    }
    EXPECT_GE(checked, 2);  // ball–rod and knob–rod; disk–side and disk–tip
  }
}

}  // namespace
}  // namespace quasidyn
