#include "quasidyn/planning/contact_sampler.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

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
  ASSERT_EQ(sampler.anchors().size(), 2u);
  EXPECT_EQ(hand->bodies[sampler.anchors()[0].body].name, "hand/left_distal");
  EXPECT_EQ(hand->bodies[sampler.anchors()[1].body].name, "hand/right_distal");
}

// The anchor names of a sampler on the bimanual scene with `settings`.
std::vector<std::string> BimanualAnchorNames(const PlanningSettings& settings) {
  const ScenePtr scene = testing::LoadExample("bimanual_box");
  const ObjectSpace space(*scene);
  const ContactSampler sampler(*MakeStepModel(scene, PlanningFormulation(*scene, settings)), space,
                               settings, 1);
  std::vector<std::string> names;
  for (const ContactSampler::Anchor& anchor : sampler.anchors())
    names.push_back(scene->bodies[anchor.body].name);
  return names;
}

// fingers: the gripper fingers only; all_links: every shaped link a joint moves (link0, the
// base on its fixed joint, is not one); a list: those links, in body order.
TEST(ContactSampler, SelectsTheAnchorLinksTheSettingsName) {
  PlanningSettings settings = *testing::LoadExample("bimanual_box")->planning;
  settings.grasp_anchors = GraspAnchors::kFingers;
  EXPECT_EQ(BimanualAnchorNames(settings),
            (std::vector<std::string>{"left_arm/left_finger", "left_arm/right_finger",
                                      "right_arm/left_finger", "right_arm/right_finger"}));
  settings.grasp_anchors = GraspAnchors::kAllLinks;
  std::vector<std::string> all;
  for (const char* arm : {"left_arm/", "right_arm/"})
    for (const char* link : {"link1", "link2", "link3", "link4", "link5", "link6", "hand",
                             "left_finger", "right_finger"})
      all.push_back(std::string(arm) + link);
  EXPECT_EQ(BimanualAnchorNames(settings), all);
  settings.grasp_anchors = GraspAnchors::kListed;
  settings.grasp_anchor_links = {"right_arm/link5", "left_arm/link4"};
  EXPECT_EQ(BimanualAnchorNames(settings),
            (std::vector<std::string>{"left_arm/link4", "right_arm/link5"}));
}

// A listed name that is no moving robot link with collision geometry is refused, named.
TEST(ContactSampler, RefusesListedAnchorsThatCannotTouch) {
  PlanningSettings settings = *testing::LoadExample("bimanual_box")->planning;
  settings.grasp_anchors = GraspAnchors::kListed;
  for (const char* name : {"left_arm/link0", "left_arm/link7", "box/box", "left_arm/nothing"}) {
    settings.grasp_anchor_links = {name};
    try {
      BimanualAnchorNames(settings);
      ADD_FAILURE() << "no error for " << name;
    } catch (const std::invalid_argument& e) {
      EXPECT_NE(std::string(e.what()).find(name), std::string::npos) << e.what();
    }
  }
}

// The smallest signed distance [m] between a shape of `body` and an object shape at q.
double LinkObjectDistance(const ScenePtr& scene, int body, const Eigen::VectorXd& q) {
  Kinematics kinematics(scene);
  kinematics.Update(q);
  const GeometryModel geometry(scene);
  double least = std::numeric_limits<double>::infinity();
  for (int a = 0; a < static_cast<int>(scene->geometries.size()); ++a) {
    if (scene->geometries[a].body != body) continue;
    for (int b = 0; b < static_cast<int>(scene->geometries.size()); ++b) {
      const int other = scene->geometries[b].body;
      if (other == 0 || scene->instances[scene->bodies[other].instance].actuated) continue;
      ContactPoint point;
      EXPECT_TRUE(geometry.Distance(a, b, kinematics.BodyPoses(), &point));
      least = std::min(least, point.phi);
    }
  }
  return least;
}

// A listed forearm, away from the box (the left arm raised straight up), is what the candidates
// put against it: within the contact tolerance ε, and no robot shape deeper in anything than
// the settled bound.
TEST(ContactSampler, WholeArmCandidatesPutTheListedLinkOnTheObject) {
  const ScenePtr scene = testing::LoadExample("bimanual_box");
  const ObjectSpace space(*scene);
  PlanningSettings settings = *scene->planning;
  settings.grasp_anchors = GraspAnchors::kListed;
  settings.grasp_anchor_links = {"left_arm/link4"};
  const int link = scene->BodyIndex("left_arm/link4");
  Eigen::VectorXd raised = scene->q0;
  raised[scene->nq_u + 1] = 0.0;  // left_arm/joint2
  raised[scene->nq_u + 3] = 0.0;  // left_arm/joint4
  ASSERT_GT(LinkObjectDistance(scene, link, raised), scene->contact_tolerance);
  ContactSampler sampler(*MakeStepModel(scene, PlanningFormulation(*scene, settings)), space,
                         settings, 1);
  Xoshiro256StarStar generator(2);
  int candidates = 0, touching = 0;
  for (int round = 0; round < 5; ++round) {
    for (const Eigen::VectorXd& q : sampler.Sample(raised, &generator)) {
      ++candidates;
      EXPECT_TRUE(testing::MatricesEqual(q.head(scene->nq_u), scene->q0.head(scene->nq_u)));
      const double phi = LinkObjectDistance(scene, link, q);
      EXPECT_GE(phi, -kSettledPenetration);
      touching += phi <= scene->contact_tolerance;
    }
  }
  EXPECT_GT(candidates, 0);
  EXPECT_GE(touching, candidates * 3 / 4) << touching << " of " << candidates;
}

}  // namespace
}  // namespace quasidyn
