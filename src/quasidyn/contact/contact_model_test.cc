// ContactModel::ShareKinematics (contact_model.h): a spare Kinematics at the query's q is taken
// in place of computing the poses again, and one at any other q is not, so that a query after
// it always has the contacts of its own q, bit for bit those of a fresh query.
#include "quasidyn/contact/contact_model.h"

#include <gtest/gtest.h>

#include <limits>
#include <memory>
#include <stdexcept>
#include <string>

#include "quasidyn/scenes/scene_loading.h"
#include "quasidyn/testing/fresh_contact_query.h"

namespace quasidyn {
namespace {

ScenePtr PlanarHand() {
  return std::make_shared<const Scene>(
      LoadScene(std::string(QUASIDYN_SOURCE_DIR) + "/examples/planar_hand/scene.yaml"));
}

using testing::ExpectFreshQueryAt;

TEST(ContactModelShareKinematics, TakesASpareOnlyAtTheQueryConfiguration) {
  const ScenePtr scene = PlanarHand();
  const ContactModel model(scene);
  ContactData data = model.CreateData();
  Kinematics spare(model.kinematics());
  const Eigen::VectorXd q0 = scene->q0;
  Eigen::VectorXd q1 = q0;
  q1[0] += 1e-3;  // another configuration, its contacts nearly q0's

  ASSERT_TRUE(model.Compute(q0, &data));
  // A spare never updated, or updated elsewhere: not taken, and the query computes q1's poses.
  EXPECT_FALSE(model.ShareKinematics(q1, &spare, &data));
  spare.Update(q0);
  EXPECT_FALSE(model.ShareKinematics(q1, &spare, &data));
  ASSERT_TRUE(model.Compute(q1, &data));
  ExpectFreshQueryAt(model, q1, data, "spare elsewhere");
  EXPECT_TRUE(spare.IsAt(q0));  // untouched

  // A spare at the query's q: taken (the data's former kinematics, at q1, go to the spare), and
  // the query keeps its poses.
  Eigen::VectorXd q2 = q0;
  q2[1] -= 2e-3;
  spare.Update(q2);
  const Eigen::Isometry3d* spare_poses = spare.BodyPoses().data();
  EXPECT_TRUE(model.ShareKinematics(q2, &spare, &data));
  EXPECT_EQ(data.kinematics().BodyPoses().data(), spare_poses);  // the very storage, exchanged
  EXPECT_TRUE(spare.IsAt(q1));
  ASSERT_TRUE(model.Compute(q2, &data));
  EXPECT_EQ(data.kinematics().BodyPoses().data(), spare_poses);  // not computed again
  ExpectFreshQueryAt(model, q2, data, "spare taken");
  // Already at q: nothing to take.
  spare.Update(q2);
  EXPECT_FALSE(model.ShareKinematics(q2, &spare, &data));

  // A spare of another kinematic model, or data of another contact model: refused.
  const ContactModel other(scene);
  Kinematics foreign(other.kinematics());
  foreign.Update(q0);
  EXPECT_THROW(model.ShareKinematics(q0, &foreign, &data), std::invalid_argument);
  EXPECT_THROW(model.ShareKinematics(q0, nullptr, &data), std::invalid_argument);
  ContactData other_data = other.CreateData();
  EXPECT_THROW(model.ShareKinematics(q0, &spare, &other_data), std::invalid_argument);
}

// Compute keeps the poses it holds only at its own q, bit for bit: a q one ulp away, or with a
// zero of the other sign, is computed again.
TEST(ContactModelShareKinematics, ComputeKeepsPosesOnlyAtTheSameBits) {
  const ScenePtr scene = PlanarHand();
  const ContactModel model(scene);
  ContactData data = model.CreateData();
  Eigen::VectorXd q = scene->q0;
  ASSERT_TRUE(model.Compute(q, &data));
  for (int i = 0; i < scene->nq; ++i) {
    Eigen::VectorXd next = q;
    next[i] = std::nextafter(q[i], std::numeric_limits<double>::infinity());
    ASSERT_TRUE(model.Compute(next, &data));
    ExpectFreshQueryAt(model, next, data, "entry " + std::to_string(i) + " one ulp up");
    ASSERT_TRUE(model.Compute(q, &data));
    ExpectFreshQueryAt(model, q, data, "back at q0");
  }
}

}  // namespace
}  // namespace quasidyn
