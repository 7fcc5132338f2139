#include "quasidyn/gradients/pair_motion_derivative.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "quasidyn/contact/contact_model.h"
#include "quasidyn/kinematics/kinematics.h"
#include "quasidyn/testing/example_states.h"
#include "quasidyn/testing/moved_pair.h"
#include "quasidyn/testing/outcome_checks.h"
#include "quasidyn/testing/program_settings.h"
#include "quasidyn/testing/random_twist.h"

namespace quasidyn {
namespace {

using testing::ExampleState;
using testing::LoadExample;
using testing::StateAfter;

constexpr double kStep = 6.0555e-6;  // ε [m or rad], as DifferentiateStepData's default
// Both sides are central differences with kStep of the same smooth geometry along the same
// motion, one of the bodies' two motions, the other of the relative motion plus the analytic
// common motion: round-off ε_machine·|x|/ε ≈ 4e-11 and O(ε²) truncation, far below 1e-8, while
// a wrong sign or a missing common-motion term is an O(1) error.
constexpr double kPairMotionDerivativeTolerance = 1e-8;

using testing::PairOf;
using testing::PairOfContact;
using testing::RandomTwist;

struct PairMotionDerivativeCase {
  std::string example;
  int steps;
  bool world_pairs_only = false;  // only the pairs against the world (the ground)
};

class PairMotionAgainstBothBodiesMoved : public ::testing::TestWithParam<PairMotionDerivativeCase> {
};

// Both bodies moved by random twists, differenced directly, against the relative-motion
// derivative given the relative twist alone (a one-dimensional span: one basis direction) and
// given it among others that span every relative motion (the basis is then the axes).
TEST_P(PairMotionAgainstBothBodiesMoved, DerivativeMatches) {
  const ScenePtr scene_ptr = LoadExample(GetParam().example);
  const Scene& scene = *scene_ptr;
  const ExampleState s =
      StateAfter(scene_ptr, testing::SceneProgramSettings(scene), GetParam().steps);
  const ContactModel model(scene_ptr);
  ContactData data = model.CreateData();
  ASSERT_TRUE(model.Compute(s.q, &data));
  const ContactSet& contacts = data.contacts();
  ASSERT_GT(contacts.size(), 0);
  const Kinematics& kinematics = data.kinematics();
  const std::vector<Eigen::Isometry3d>& X_WB = kinematics.BodyPoses();
  std::mt19937 random(11);
  std::vector<bool> done(contacts.size(), false);
  int pairs = 0, analytic_pairs = 0;
  for (int first = 0; first < contacts.size(); ++first) {
    if (done[first]) continue;
    const PairOf pair = PairOfContact(contacts, first);
    for (int i : pair.members) done[i] = true;
    const Contact& c0 = contacts[first];
    if (GetParam().world_pairs_only && c0.body_b != 0) continue;
    const Twist xi_A = RandomTwist(&random, scene.planar);
    const Twist xi_B = RandomTwist(&random, scene.planar);
    const Twist relative{xi_A.angular - xi_B.angular, xi_A.linear - xi_B.linear};
    // The relative twist alone (a one-dimensional span), and with five more (the whole span
    // of relative motions: three planar, six in 3D, where the basis is the axes themselves).
    std::vector<Twist> spanning{relative};
    for (int k = 0; k < 5; ++k) spanning.push_back(RandomTwist(&random, scene.planar));
    std::vector<ContactPointDerivative> derivatives[2];
    // The whole span's derivative along δ sums r central differences, Σ_j (u_j·δ) D u_j, each
    // with the error of one, and Σ_j |u_j·δ| <= √r |δ|: its bound is √r times the single one's.
    double error_factor[2] = {1.0, 1.0};
    for (int span = 0; span < 2; ++span) {
      PairMotionDerivative motion;
      ASSERT_TRUE(testing::IsOk(motion.Compute(
          model.geometry(), contacts, pair.members, X_WB, scene.contact_tolerance, pair.reference,
          span == 0 ? std::vector<Twist>{relative} : spanning, kStep)));
      EXPECT_EQ(motion.BasisSize(), span == 0 ? 1 : scene.planar ? 3 : 6);
      if (span == 0 && motion.analytic()) ++analytic_pairs;
      error_factor[span] = std::sqrt(static_cast<double>(motion.BasisSize()));
      motion.Derivatives(xi_A, xi_B, &derivatives[span]);
      ASSERT_EQ(derivatives[span].size(), pair.members.size());
    }

    ManifoldPoints points[2];
    for (int side = 0; side < 2; ++side) {
      const double step = side == 0 ? kStep : -kStep;
      std::vector<Eigen::Isometry3d> moved = X_WB;
      moved[c0.body_a] = testing::MovedAbout(X_WB[c0.body_a], xi_A, step, pair.reference);
      moved[c0.body_b] = testing::MovedAbout(X_WB[c0.body_b], xi_B, step, pair.reference);
      ASSERT_TRUE(model.geometry().PairManifold(c0.geometry_a, c0.geometry_b, moved,
                                                scene.contact_tolerance, &points[side]));
    }
    for (size_t m = 0; m < pair.members.size(); ++m) {
      const Contact& c = contacts[pair.members[m]];
      ContactPoint nearest[2];
      for (int side = 0; side < 2; ++side) {
        double best = 1e300;
        for (const ContactPoint& p : points[side]) {
          const double distance = (p.p_A - c.p_A).norm() + (p.p_B - c.p_B).norm();
          if (distance < best) {
            best = distance;
            nearest[side] = p;
          }
        }
        ASSERT_LT(best, 1000.0 * kStep);
      }
      const double scale = 1.0 + std::max(c.p_A.norm(), c.p_B.norm());
      for (int span = 0; span < 2; ++span) {
        const ContactPointDerivative& d = derivatives[span][m];
        const double tolerance = kPairMotionDerivativeTolerance * scale * error_factor[span];
        EXPECT_NEAR(d.phi, (nearest[0].phi - nearest[1].phi) / (2.0 * kStep), tolerance)
            << "span " << span;
        EXPECT_LT((d.p_A - (nearest[0].p_A - nearest[1].p_A) / (2.0 * kStep)).norm(), tolerance)
            << "span " << span;
        EXPECT_LT((d.p_B - (nearest[0].p_B - nearest[1].p_B) / (2.0 * kStep)).norm(), tolerance)
            << "span " << span;
        EXPECT_LT((d.normal - (nearest[0].normal - nearest[1].normal) / (2.0 * kStep)).norm(),
                  tolerance)
            << "span " << span;
      }
    }
    ++pairs;
  }
  EXPECT_GT(pairs, 0);
  // The cubes on the ground are boxes on a half-space: the analytic case, checked here against
  // the manifold queries; the planar examples have none.
  if (scene.planar)
    EXPECT_EQ(analytic_pairs, 0);
  else
    EXPECT_EQ(analytic_pairs, pairs);
}

// Smooth pairs (contact_data_derivative_test.cc finds which): fingers on the object in the
// planar examples (both bodies move) and, in 3D, the cubes on the ground (the ground moved
// too); the cubes stacked face on face are kinks and left out.
INSTANTIATE_TEST_SUITE_P(Examples, PairMotionAgainstBothBodiesMoved,
                         ::testing::Values(PairMotionDerivativeCase{"planar_gripper", 6},
                                           PairMotionDerivativeCase{"planar_gripper", 15},
                                           PairMotionDerivativeCase{"planar_pushing", 50},
                                           PairMotionDerivativeCase{"planar_hand", 60},
                                           PairMotionDerivativeCase{"arm_cubes", 87, true}),
                         [](const ::testing::TestParamInfo<PairMotionDerivativeCase>& param_info) {
                           return param_info.param.example + "_" +
                                  std::to_string(param_info.param.steps);
                         });

// The number of manifold directions is the dimension of the span of the relative twists.
TEST(PairMotionDerivative, BasisIsTheSpanOfTheRelativeTwists) {
  const ScenePtr scene = LoadExample("planar_gripper");
  const ExampleState s = StateAfter(scene, testing::SceneProgramSettings(*scene), 6);
  const ContactModel model(scene);
  ContactData data = model.CreateData();
  ASSERT_TRUE(model.Compute(s.q, &data));
  const ContactSet& contacts = data.contacts();
  ASSERT_GT(contacts.size(), 0);
  const PairOf pair = PairOfContact(contacts, 0);
  std::mt19937 random(3);
  auto basis_size = [&](const std::vector<Twist>& twists) {
    PairMotionDerivative motion;
    EXPECT_TRUE(testing::IsOk(
        motion.Compute(model.geometry(), contacts, pair.members, data.kinematics().BodyPoses(),
                       scene->contact_tolerance, pair.reference, twists, kStep)));
    return motion.BasisSize();
  };
  EXPECT_EQ(basis_size({}), 0);
  EXPECT_EQ(basis_size({Twist{}}), 0);
  const Twist a = RandomTwist(&random, true), b = RandomTwist(&random, true);
  const Twist sum{a.angular + 2.0 * b.angular, a.linear + 2.0 * b.linear};
  EXPECT_EQ(basis_size({a, b, sum}), 2);
  std::vector<Twist> planar;
  for (int i = 0; i < 5; ++i) planar.push_back(RandomTwist(&random, true));
  EXPECT_EQ(basis_size(planar), 3);  // ω_z, v_x, v_y
}

TEST(PairMotionDerivative, RejectsBadInputAndNamesADisappearingContact) {
  const ScenePtr scene = LoadExample("planar_gripper");
  const ExampleState s = StateAfter(scene, testing::SceneProgramSettings(*scene), 6);
  const ContactModel model(scene);
  ContactData data = model.CreateData();
  ASSERT_TRUE(model.Compute(s.q, &data));
  const ContactSet& contacts = data.contacts();
  ASSERT_GT(contacts.size(), 0);
  const PairOf pair = PairOfContact(contacts, 0);
  std::mt19937 random(5);
  const std::vector<Twist> twists{RandomTwist(&random, true)};
  const auto& X_WB = data.kinematics().BodyPoses();
  const double tol = scene->contact_tolerance;
  const GeometryModel& geometry = model.geometry();
  PairMotionDerivative motion;
  EXPECT_THROW(static_cast<void>(motion.Compute(geometry, contacts, pair.members, X_WB, tol,
                                                pair.reference, twists, 0.0)),
               std::invalid_argument);
  EXPECT_THROW(static_cast<void>(motion.Compute(geometry, contacts, {}, X_WB, tol, pair.reference,
                                                twists, kStep)),
               std::invalid_argument);
  EXPECT_THROW(static_cast<void>(motion.Compute(geometry, contacts, {contacts.size()}, X_WB, tol,
                                                pair.reference, twists, kStep)),
               std::invalid_argument);
  // A contact 5 cm away from any manifold point of its pair has no match.
  std::vector<ContactCandidate> moved = data.geometry().candidates();
  moved[pair.members[0]].point.p_A += Eigen::Vector3d(0.05, 0.0, 0.0);
  moved[pair.members[0]].point.p_B += Eigen::Vector3d(0.05, 0.0, 0.0);
  ContactSet moved_contacts;
  UpdateContactSet(*scene, data.kinematics(), moved, &moved_contacts);
  const Outcome outcome = motion.Compute(geometry, moved_contacts, pair.members, X_WB, tol,
                                         pair.reference, twists, kStep);
  EXPECT_FALSE(outcome.ok());
  EXPECT_NE(outcome.message().find("contact " + std::to_string(pair.members[0])), std::string::npos)
      << outcome.message();
  EXPECT_NE(outcome.message().find("disappears"), std::string::npos) << outcome.message();
}

// A box on the ground whose contact is not at a vertex of the box (moved 5 cm along the
// ground) is not the analytic case: the manifold queries find no point near it, and the
// contact is reported as disappearing.
TEST(PairMotionDerivative, BoxOnGroundOffAVertexIsDifferencedAndReported) {
  const ScenePtr scene = LoadExample("arm_cubes");
  const ExampleState s = StateAfter(scene, testing::SceneProgramSettings(*scene), 87);
  const ContactModel model(scene);
  ContactData data = model.CreateData();
  ASSERT_TRUE(model.Compute(s.q, &data));
  const ContactSet& contacts = data.contacts();
  int ground = -1;
  for (int i = 0; i < contacts.size() && ground < 0; ++i)
    if (contacts[i].body_b == 0) ground = i;
  ASSERT_GE(ground, 0);
  const PairOf pair = PairOfContact(contacts, ground);
  std::mt19937 random(7);
  const std::vector<Twist> twists{RandomTwist(&random, false)};
  const auto& X_WB = data.kinematics().BodyPoses();
  PairMotionDerivative motion;
  ASSERT_TRUE(
      testing::IsOk(motion.Compute(model.geometry(), contacts, pair.members, X_WB,
                                   scene->contact_tolerance, pair.reference, twists, kStep)));
  EXPECT_TRUE(motion.analytic());
  std::vector<ContactCandidate> moved = data.geometry().candidates();
  moved[pair.members[0]].point.p_A += Eigen::Vector3d(0.05, 0.0, 0.0);
  moved[pair.members[0]].point.p_B += Eigen::Vector3d(0.05, 0.0, 0.0);
  ContactSet moved_contacts;
  UpdateContactSet(*scene, data.kinematics(), moved, &moved_contacts);
  const Outcome outcome = motion.Compute(model.geometry(), moved_contacts, pair.members, X_WB,
                                         scene->contact_tolerance, pair.reference, twists, kStep);
  EXPECT_FALSE(outcome.ok());
  EXPECT_FALSE(motion.analytic());
  EXPECT_NE(outcome.message().find("disappears"), std::string::npos) << outcome.message();
}

}  // namespace
}  // namespace quasidyn
