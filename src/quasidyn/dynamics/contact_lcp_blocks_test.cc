// ContactImpulseMap (contact_lcp_blocks.h) writes into a matrix its caller sized (a view on
// storage kept across sizes, quasistatic_lcp.h): a matrix of another size is a caller's mistake,
// named in the error.
#include "quasidyn/dynamics/contact_lcp_blocks.h"

#include <gtest/gtest.h>

#include <stdexcept>

#include "quasidyn/testing/contains_text.h"

namespace quasidyn {
namespace {

TEST(ContactImpulseMapTest, AMatrixOfAnotherSizeIsNamed) {
  const ContactSet no_contacts;  // n_v = 0, n_z = 0
  const JointLimitRows no_limits;
  Eigen::MatrixXd rows_wrong(2, 0), columns_wrong(0, 3), right(0, 0);
  try {
    ContactImpulseMap(no_contacts, no_limits, rows_wrong);
    ADD_FAILURE() << "no error for 2 rows";
  } catch (const std::invalid_argument& e) {
    EXPECT_TRUE(
        testing::Contains(e.what(), "ContactImpulseMap: JT's rows has size 2, expected n_v = 0"));
  }
  try {
    ContactImpulseMap(no_contacts, no_limits, columns_wrong);
    ADD_FAILURE() << "no error for 3 columns";
  } catch (const std::invalid_argument& e) {
    EXPECT_TRUE(testing::Contains(e.what(), "JT's columns has size 3, expected n_z = 0"));
  }
  EXPECT_NO_THROW(ContactImpulseMap(no_contacts, no_limits, right));
}

}  // namespace
}  // namespace quasidyn
