#pragma once
// What the tests of the pair derivatives (gradients/pair_motion_derivative_test.cc,
// polytope_pair_derivative_test.cc, manifold_change_derivative_test.cc) share: a body pose moved
// by a twist about a point, written independently of pair_motion_derivative.h, and the contacts
// of one geometry pair with their mean witness point. Header only, for tests.

#include <Eigen/Geometry>
#include <vector>

#include "quasidyn/contact/contact_set.h"
#include "quasidyn/gradients/pair_motion_derivative.h"

namespace quasidyn::testing {

// The pose moved as pair_motion_derivative.h moves it: p ↦ c + s v + R(s ω)(p − c), s in the
// twist's units (s = ε: a step of ε rad or m).
inline Eigen::Isometry3d MovedAbout(const Eigen::Isometry3d& X, const Twist& xi, double s,
                                    const Eigen::Vector3d& c) {
  const double angle = s * xi.angular.norm();
  Eigen::Isometry3d motion = Eigen::Isometry3d::Identity();
  if (angle != 0.0) motion.rotate(Eigen::AngleAxisd(angle, xi.angular.normalized()));
  motion.pretranslate(c + s * xi.linear - motion.linear() * c);
  return motion * X;
}

struct PairOf {
  std::vector<int> members;  // indices into the contact set, in its order
  Eigen::Vector3d reference = Eigen::Vector3d::Zero();  // the mean witness point [m]
};

// The contacts of the geometry pair of contact `first`, and their mean witness point.
inline PairOf PairOfContact(const ContactSet& contacts, int first) {
  PairOf pair;
  const Contact& c0 = contacts[first];
  for (int i = 0; i < contacts.size(); ++i) {
    const Contact& c = contacts[i];
    if (c.geometry_a != c0.geometry_a || c.geometry_b != c0.geometry_b) continue;
    pair.members.push_back(i);
    pair.reference += 0.5 * (c.p_A + c.p_B);
  }
  pair.reference /= static_cast<double>(pair.members.size());
  return pair;
}

}  // namespace quasidyn::testing
