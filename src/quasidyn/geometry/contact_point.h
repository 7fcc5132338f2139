#pragma once
// One point of contact between two shapes A and B, all in world coordinates.
//
// Convention (docs/architecture.md): φ > 0 separated, φ = 0 touching, φ < 0
// penetrating; the unit normal points from B to A. The witness points satisfy
// p_A − p_B = φ·normal (up to the shapes' discretisation): p_A is the point of A
// deepest toward B, p_B the point of B's surface closest to it.

#include <Eigen/Core>
#include <vector>

namespace quasidyn {

struct ContactPoint {
  double phi = 0.0;                                   // signed distance [m]
  Eigen::Vector3d p_A = Eigen::Vector3d::Zero();      // witness point on A [m]
  Eigen::Vector3d p_B = Eigen::Vector3d::Zero();      // witness point on B [m]
  Eigen::Vector3d normal = Eigen::Vector3d::UnitZ();  // unit, from B to A
};

}  // namespace quasidyn
