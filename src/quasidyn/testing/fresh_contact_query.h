#pragma once
// What the tests of the shared end-of-step poses (contact/contact_model_test.cc,
// formulations/quasi_dynamic/end_kinematics_sharing_test.cc) check: contact data that is, bit
// for bit, a fresh query's at q. Header only, for tests.

#include <gtest/gtest.h>

#include <Eigen/Core>
#include <string>

#include "quasidyn/contact/contact_model.h"

namespace quasidyn::testing {

// The poses, φ and normal Jacobians of `data` are bit for bit those of a fresh query at q.
inline void ExpectFreshQueryAt(const ContactModel& model, const Eigen::VectorXd& q,
                               const ContactData& data, const std::string& label) {
  ContactData fresh = model.CreateData();
  ASSERT_TRUE(model.Compute(q, &fresh)) << label;
  ASSERT_EQ(data.kinematics().q(), q) << label;
  for (size_t b = 0; b < fresh.kinematics().BodyPoses().size(); ++b)
    EXPECT_EQ(data.kinematics().BodyPoses()[b].matrix(), fresh.kinematics().BodyPoses()[b].matrix())
        << label << ", body " << b;
  ASSERT_EQ(data.contacts().size(), fresh.contacts().size()) << label;
  for (int i = 0; i < fresh.contacts().size(); ++i) {
    EXPECT_EQ(data.contacts()[i].phi, fresh.contacts()[i].phi) << label << ", contact " << i;
    EXPECT_EQ(data.contacts().NormalJacobian(i), fresh.contacts().NormalJacobian(i))
        << label << ", contact " << i;
  }
}

}  // namespace quasidyn::testing
