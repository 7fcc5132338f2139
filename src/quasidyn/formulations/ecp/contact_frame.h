#pragma once
// The contact frame (n, t, o) at an equivalent contact point (Xie & Chakraborty, §III: n normal
// to the patch, t and o spanning it) as a smooth function of an unnormalised normal m:
//
//   n = m/|m|,   t = u/|u| with u = e − (e·n) n,   o = n × t,
//
// e a fixed unit "seed" direction chosen once per step away from n (SeedDirection), so that the
// frame is smooth in m within the step, and the derivatives ∂n/∂m, ∂t/∂m, ∂o/∂m (3 × 3):
//
//   ∂n = (I − n nᵀ)/|m| ∂m,   ∂u = −((e·n) I + n eᵀ) ∂n,   ∂t = (I − t tᵀ)/|u| ∂u,
//   ∂o = −[t]× ∂n + [n]× ∂t.

#include <Eigen/Core>

namespace quasidyn {

struct ContactFrame {
  Eigen::Vector3d n = Eigen::Vector3d::UnitZ();
  Eigen::Vector3d t = Eigen::Vector3d::UnitX();
  Eigen::Vector3d o = Eigen::Vector3d::UnitY();
  Eigen::Matrix3d dn_dm = Eigen::Matrix3d::Zero();  // ∂n/∂m
  Eigen::Matrix3d dt_dm = Eigen::Matrix3d::Zero();  // ∂t/∂m
  Eigen::Matrix3d do_dm = Eigen::Matrix3d::Zero();  // ∂o/∂m
};

// The frame of m (non-zero) with seed e (unit, not parallel to m). False when |m| or |u| is
// below 1e-9·|m| (the frame is not defined there). Without `derivatives`, the ∂/∂m are left
// as they were (for F without its Jacobian).
bool MakeContactFrame(const Eigen::Vector3d& m, const Eigen::Vector3d& seed, ContactFrame* frame,
                      bool derivatives = true);

// The world axis least aligned with the unit vector n: a seed at least 54.7° from n.
Eigen::Vector3d SeedDirection(const Eigen::Vector3d& n);

}  // namespace quasidyn
