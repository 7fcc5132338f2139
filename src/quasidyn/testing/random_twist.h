#pragma once
// A random rigid-body twist for the tests of pair motions (gradients/pair_motion_derivative.h):
// angular components uniform in [−1, 1] rad/s, linear in [−0.2, 0.2] m/s; in planar scenes only
// the in-plane motions (rotation about z, translation in x and y). Header only, for tests where
// the gradients layer is linked.

#include <random>

#include "quasidyn/gradients/pair_motion_derivative.h"

namespace quasidyn::testing {

inline Twist RandomTwist(std::mt19937* random, bool planar) {
  std::uniform_real_distribution<double> uniform(-1.0, 1.0);
  Twist xi;
  for (int i = 0; i < 3; ++i) {
    xi.angular[i] = uniform(*random);
    xi.linear[i] = 0.2 * uniform(*random);
  }
  if (planar) {
    xi.angular.head<2>().setZero();
    xi.linear.z() = 0.0;
  }
  return xi;
}

}  // namespace quasidyn::testing
