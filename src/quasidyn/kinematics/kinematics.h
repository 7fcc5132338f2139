#pragma once
// Forward kinematics, point and frame Jacobians and the mass matrix of a Scene's
// kinematic forest, evaluated at one configuration q.
//
// Velocity conventions (see model/scene.h for the joints): v is the generalized
// velocity (size nv). For a floating joint v = (ṗ, ω) with both expressed in the
// joint frame J (= world for objects). The configuration moves with q̇ = N(q) v,
// where N is the identity except for floating joints, whose quaternion block is
// the map E(Q) of math/quaternion.h.

#include <vector>

#include <Eigen/Core>
#include <Eigen/Geometry>

#include "quasidyn/model/scene.h"

namespace quasidyn {

class Kinematics {
 public:
  explicit Kinematics(const Scene& scene);  // keeps a reference: scene must outlive this

  // Computes every body pose at q (size nq). Throws std::invalid_argument on a wrong
  // size or a non-finite entry. Quaternions are normalised before use.
  void Update(const Eigen::VectorXd& q);

  const Scene& scene() const { return scene_; }
  const Eigen::VectorXd& q() const { return q_; }
  // X_WB of body `body` (the world's is the identity).
  const Eigen::Isometry3d& BodyPose(int body) const { return X_WB_[body]; }
  const std::vector<Eigen::Isometry3d>& BodyPoses() const { return X_WB_; }

  // Translational Jacobian (3 × nv) of the point of body `body` that is at p_W
  // (world coordinates) now: d(p_W)/dt = J v. Writes into J (resized, zeros outside
  // the body's ancestor joints). The world body gives zeros.
  void PointJacobian(int body, const Eigen::Vector3d& p_W, Eigen::MatrixXd* J) const;
  // Rotational Jacobian (3 × nv): ω_WB (world frame) = J v.
  void RotationalJacobian(int body, Eigen::MatrixXd* J) const;

  // Mass matrix M(q) (nv × nv), symmetric positive definite when every moving body
  // has positive mass and inertia: kinetic energy = ½ vᵀ M v.
  Eigen::MatrixXd MassMatrix() const;

  // N(q) (nq × nv): q̇ = N(q) v.
  Eigen::MatrixXd VelocityToQdot() const;

 private:
  const Scene& scene_;
  Eigen::VectorXd q_;
  std::vector<Eigen::Isometry3d> X_WB_;   // per body
  std::vector<Eigen::Isometry3d> X_WJ_;   // per joint: the joint frame in world
};

// q ⊕ v·dt: moves q along v for dt [s]; floating joints integrate the rotation exactly
// (exponential map of ω·dt) and renormalise the quaternion. Sizes nq, nv.
Eigen::VectorXd IntegrateConfiguration(const Scene& scene, const Eigen::VectorXd& q,
                                       const Eigen::VectorXd& v, double dt);

// Scales every floating joint's quaternion of q to unit length (in place).
void NormalizeQuaternions(const Scene& scene, Eigen::VectorXd* q);

}  // namespace quasidyn
