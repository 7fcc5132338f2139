#include "quasidyn/planning/contact_sampler.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <limits>

#include "quasidyn/formulations/registry.h"
#include "quasidyn/geometry/geometry_model.h"
#include "quasidyn/planning/rrt.h"
#include "quasidyn/testing/example_states.h"
#include "quasidyn/testing/matrix_compare.h"
#include "quasidyn/testing/program_settings.h"

namespace quasidyn {
namespace {

// The smallest signed distance [m] between a robot shape and an object shape at q.
double RobotObjectDistance(const ScenePtr& scene, const Eigen::VectorXd& q) {
  Kinematics kinematics(scene);
  kinematics.Update(q);
  const GeometryModel geometry(scene);
  double least = std::numeric_limits<double>::infinity();
  for (int a = 0; a < static_cast<int>(scene->geometries.size()); ++a) {
    for (int b = 0; b < static_cast<int>(scene->geometries.size()); ++b) {
      const int body_a = scene->geometries[a].body, body_b = scene->geometries[b].body;
      if (body_a == 0 || body_b == 0) continue;
      if (!scene->instances[scene->bodies[body_a].instance].actuated) continue;
      if (scene->instances[scene->bodies[body_b].instance].actuated) continue;
      ContactPoint point;
      EXPECT_TRUE(geometry.Distance(a, b, kinematics.BodyPoses(), &point));
      least = std::min(least, point.phi);
    }
  }
  return least;
}

class SamplesContacts : public ::testing::TestWithParam<const char*> {};

// Candidates keep the objects exactly, and put a robot in contact with an object: within the
// contact tolerance, and not deeper in it than the tolerance either (settling pushes the IK's
// penetration out).
TEST_P(SamplesContacts, CandidatesTouchTheHeldObjects) {
  const ScenePtr scene = testing::LoadExample(GetParam());
  const ObjectSpace space(*scene);
  const PlanningSettings settings = *scene->planning;
  ContactSampler sampler(*MakeStepModel(scene, PlanningFormulation(*scene, settings)), space,
                         settings, 1);
  Xoshiro256StarStar generator(1);
  int candidates = 0, touching = 0;
  for (int round = 0; round < 5; ++round) {
    for (const Eigen::VectorXd& q : sampler.Sample(scene->q0, &generator)) {
      ++candidates;
      EXPECT_TRUE(testing::MatricesEqual(q.head(scene->nq_u), scene->q0.head(scene->nq_u)));
      const double phi = RobotObjectDistance(scene, q);
      EXPECT_GT(phi, -scene->contact_tolerance);
      touching += phi <= scene->contact_tolerance;
    }
  }
  EXPECT_GE(candidates, 5 * settings.grasp_candidates / 2);
  EXPECT_GE(touching, candidates * 3 / 4) << touching << " of " << candidates;
}

INSTANTIATE_TEST_SUITE_P(Examples, SamplesContacts,
                         ::testing::Values("planar_hand", "planar_pushing_top_down",
                                           "box_turning"));

TEST(ContactSampler, FindsTheFingersOfTheScene) {
  const ScenePtr hand = testing::LoadExample("planar_hand");
  const ObjectSpace space(*hand);
  const PlanningSettings settings = *hand->planning;
  const ContactSampler sampler(*MakeStepModel(hand, PlanningFormulation(*hand, settings)), space,
                               settings, 1);
  ASSERT_EQ(sampler.fingers().size(), 2u);
  EXPECT_EQ(hand->bodies[sampler.fingers()[0].body].name, "hand/left_distal");
  EXPECT_EQ(hand->bodies[sampler.fingers()[1].body].name, "hand/right_distal");
}

// Bitwise the same candidates from the same generator state, for every thread count.
TEST(ContactSampler, CandidatesDoNotDependOnTheThreadCount) {
  const ScenePtr scene = testing::LoadExample("planar_hand");
  const ObjectSpace space(*scene);
  const PlanningSettings settings = *scene->planning;
  const auto model = MakeStepModel(scene, PlanningFormulation(*scene, settings));
  ContactSampler one(*model, space, settings, 1), two(*model, space, settings, 2);
  Xoshiro256StarStar g1(4), g2(4);
  const std::vector<Eigen::VectorXd> a = one.Sample(scene->q0, &g1);
  const std::vector<Eigen::VectorXd> b = two.Sample(scene->q0, &g2);
  ASSERT_EQ(a.size(), b.size());
  for (size_t k = 0; k < a.size(); ++k) EXPECT_TRUE(testing::MatricesEqual(a[k], b[k]));
}

}  // namespace
}  // namespace quasidyn
