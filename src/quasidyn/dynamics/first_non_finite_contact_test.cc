// FirstNonFiniteContact (step_problem.h) checks every contact's Jacobians in one pass over the
// contact set's storage (ContactSet::JacobiansFinite) and contact by contact only when that pass
// finds a value that is not finite: a Jacobian that overflowed while the contact's point, normal
// and φ stayed finite must still be found and named by its index.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "quasidyn/contact/contact_set.h"
#include "quasidyn/dynamics/step_problem.h"
#include "quasidyn/geometry/geometry_model.h"
#include "quasidyn/kinematics/kinematics.h"
#include "quasidyn/testing/example_states.h"

namespace quasidyn {
namespace {

TEST(FirstNonFiniteContactTest, FindsTheContactWhoseJacobianOverflowed) {
  const ScenePtr scene = testing::LoadExample("arm_cubes");
  Kinematics kinematics(scene);
  kinematics.Update(scene->q0);
  const GeometryModel geometry(scene);
  GeometryData data = geometry.CreateData();
  ASSERT_TRUE(geometry.Query(kinematics.BodyPoses(), scene->contact_tolerance, &data));
  std::vector<ContactCandidate> candidates = data.candidates();
  ASSERT_GE(candidates.size(), 3u);
  ContactSet contacts;
  UpdateContactSet(*scene, kinematics, candidates, &contacts);
  EXPECT_TRUE(contacts.JacobiansFinite());
  EXPECT_EQ(FirstNonFiniteContact(contacts), -1);

  // Contact 2 at a finite point 1.7e308 m away, with a finite unit normal: the rotational
  // columns of J_n = nᵀ J_i sum two terms near −1.2e308 each, which overflows.
  ContactPoint& far = candidates[2].point;
  far.p_A = Eigen::Vector3d(1.7e308, 0.0, -1.7e308);
  far.p_B = far.p_A;
  far.normal = Eigen::Vector3d(1.0, 0.0, 1.0).normalized();
  UpdateContactSet(*scene, kinematics, candidates, &contacts);
  const Contact& c = contacts[2];
  ASSERT_TRUE(std::isfinite(c.phi) && c.p_A.allFinite() && c.p_B.allFinite() &&
              c.normal.allFinite());
  ASSERT_FALSE(contacts.NormalJacobian(2).allFinite() && contacts.TangentJacobian(2).allFinite() &&
               contacts.RayJacobian(2).allFinite());
  EXPECT_FALSE(contacts.JacobiansFinite());
  EXPECT_EQ(FirstNonFiniteContact(contacts), 2);
}

}  // namespace
}  // namespace quasidyn
