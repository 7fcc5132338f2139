#pragma once
// Kinematics of one configuration for the contraction of contact_data_derivative.cc: point
// and rotational Jacobians evaluated on the columns of a body's ancestor joints only (the
// others are zero), the columns as spatial twists with their closed-form derivatives
// (ColumnTwists, TwistMovedBy), and the body poses at q ⊕ ε e_k recomputed for the bodies
// below the direction's joint only (Perturb: the finite-difference reference of those
// derivatives in the tests).
//
// Poses, Jacobians and SparseJacobian3::Times use the same arithmetic as the dense path,
// Kinematics::Update(IntegrateConfiguration(q, e_k, ε)) then Kinematics::PointJacobian /
// RotationalJacobian (kinematics.cc) and Eigen's dense products: the same floating-point
// operations in the same order, only the exact zeros are skipped, so with the compiler
// settings of this project (no fused multiply-add) they are bit for bit the dense path's.
// BodyTwistAndWrench sums the same columns per body rather than per point: equal to round-off.

#include <Eigen/Core>
#include <Eigen/Geometry>
#include <vector>

#include "quasidyn/model/scene.h"

namespace quasidyn {

// A 3 × n_v Jacobian stored by its possibly non-zero columns, in increasing velocity index.
struct SparseJacobian3 {
  std::vector<int> index;               // velocity indices, strictly increasing
  std::vector<Eigen::Vector3d> column;  // column[c] = J(:, index[c])

  // J v (v of size n_v), summed column by column in increasing index from zero, as Eigen's
  // dense matrix-vector product sums them.
  Eigen::Vector3d Times(const Eigen::VectorXd& v) const;
};

// A rigid motion per unit of a coordinate (or a velocity) as a spatial twist (Murray, Li &
// Sastry 1994, §2.3): every point p [m, world] of the moved bodies moves with
// linear + angular × p, so `linear` is the velocity of the point at the world origin.
struct SpatialTwist {
  Eigen::Vector3d angular = Eigen::Vector3d::Zero();  // ω [rad per unit]
  Eigen::Vector3d linear = Eigen::Vector3d::Zero();   // [m per unit]

  // The velocity of the point p [m, world]: linear + angular × p.
  Eigen::Vector3d PointVelocity(const Eigen::Vector3d& p) const {
    return linear + angular.cross(p);
  }
  // The power of the wrench (torque about the world origin, force): angular·torque +
  // linear·force (for a force f at p: (linear + angular × p)·f).
  double Power(const Eigen::Vector3d& torque, const Eigen::Vector3d& force) const {
    return angular.dot(torque) + linear.dot(force);
  }
};

// The Lie bracket [x, y] = ad_x y = (ω_x × ω_y, ω_x × v_y + v_x × ω_y) (Murray, Li & Sastry
// 1994, §2.4: d/dε Ad(e^{ε x̂}) y at ε = 0): the rate of change of the twist y when the bodies
// it belongs to are moved rigidly along x.
inline SpatialTwist Bracket(const SpatialTwist& x, const SpatialTwist& y) {
  SpatialTwist z;
  z.angular = x.angular.cross(y.angular);
  z.linear = x.angular.cross(y.linear) + x.linear.cross(y.angular);
  return z;
}

class ChainKinematics {
 public:
  // Shares the scene. Throws std::invalid_argument for a scene the Kinematics class rejects
  // (kinematics.h).
  explicit ChainKinematics(ScenePtr scene);

  // The base configuration q ⊕ 0 = IntegrateConfiguration(q, 0, 0) (size n_q; the floating
  // joints' quaternions renormalised, every other coordinate q itself), which every
  // q ⊕ ε e_k equals outside the direction's joint. Computes its poses. Throws
  // std::invalid_argument as IntegrateConfiguration does (wrong size, non-finite entry, zero
  // quaternion).
  void SetConfiguration(const Eigen::VectorXd& q);

  // The poses at q ⊕ step e_k (k in [0, n_v), step [m or rad] finite): only the bodies below
  // the joint of k change. Undo with Restore() before the next Perturb. SetConfiguration first.
  void Perturb(int k, double step);
  void Restore();

  // X_WB of every body at the current (base or perturbed) configuration, indexed by body, as
  // Kinematics::BodyPoses() (GeometryModel::Query takes this vector).
  const std::vector<Eigen::Isometry3d>& BodyPoses() const { return X_WB_; }

  // The joint whose velocity coordinates include k (k in [0, n_v)).
  int JointOfVelocity(int k) const { return joint_of_velocity_[k]; }
  // True when the pose of `body` depends on the coordinates of `joint` (joint is on the path
  // from the body up to the world; the world depends on nothing).
  bool MovedBy(int body, int joint) const;

  // The columns of Kinematics::PointJacobian(body, p_W) (p_W [m], world frame) at the current
  // configuration: one per velocity coordinate of each ancestor joint of `body` (none for the
  // world). body in [0, number of bodies).
  void PointJacobian(int body, const Eigen::Vector3d& p_W, SparseJacobian3* J) const;
  // Kinematics::RotationalJacobian(body) on the same columns as PointJacobian (zero columns
  // for prismatic joints and translations).
  void RotationalJacobian(int body, SparseJacobian3* J) const;

  // In one pass over the chain of `body` at the current configuration: its twist for joint
  // velocities v (size n_v), the angular velocity ω = J_ω v [rad/s] and the velocity
  // v_o = J_o v of its origin o (the body frame's origin), so that a point p of the body moves
  // with J_p v = v_o + ω × (p − o); and out += J_oᵀ force + J_ωᵀ torque (out of size n_v), the
  // generalised force of a wrench with `force` at o and `torque` about o (any consistent
  // units; for forces f_i at points p_i, force = Σ f_i and torque = Σ (p_i − o) × f_i give
  // Σ J_p_iᵀ f_i). The columns of PointJacobian and RotationalJacobian summed in another
  // order: equal to those products up to round-off, not bit for bit. The world (body 0): zero
  // twist, nothing added.
  void BodyTwistAndWrench(int body, const Eigen::VectorXd& v, const Eigen::Vector3d& force,
                          const Eigen::Vector3d& torque, Eigen::Vector3d* omega,
                          Eigen::Vector3d* origin_velocity, Eigen::Ref<Eigen::VectorXd> out) const;

  // Closed-form second-order kinematics (contact_data_derivative.cc): the spatial twist S_c of
  // every velocity column c at the current configuration, resized to n_v: the columns of
  // PointJacobian and RotationalJacobian are S_c.PointVelocity(p) and S_c.angular.
  void ColumnTwists(std::vector<SpatialTwist>* twists) const;
  // The velocity columns of the ancestor joints of `body`, increasing (those PointJacobian
  // stores).
  const std::vector<int>& ChainColumns(int body) const { return chain_columns_[body]; }
  // True when the twist of column c turns with coordinate k: then
  // ∂S_c/∂ε_k = Bracket(S_k, S_c), otherwise ∂S_c/∂ε_k = 0 (c, k in [0, n_v)). Moving along
  // k moves the subtree below k's joint rigidly by e^{ε Ŝ_k} (the joint motions of
  // model/scene.h and the floating joint's rotation applied on the left, math/quaternion.h
  // IntegrateQuaternion), so every column of a joint below it is carried along (Murray, Li &
  // Sastry 1994, §3.3: the spatial Jacobian's columns Ad(e^{ξ̂_1θ_1}⋯) ξ_i); within one joint
  // only the rotation about the child origin moves with that origin: a planar joint's
  // rotation column with its x and y, a floating joint's rotation columns with its
  // translations.
  bool TwistMovedBy(int c, int k) const {
    const int joint_c = joint_of_velocity_[c], joint_k = joint_of_velocity_[k];
    if (joint_c == joint_k) return !translation_column_[c] && translation_column_[k];
    return ancestor_[child_body_[joint_c] * child_body_.size() + joint_k] != 0;
  }

 private:
  // The PointJacobian columns of joint j for the point p_W (1 to 6 of them); returns their
  // count.
  int JointColumns(int j, const Eigen::Vector3d& p_W, Eigen::Vector3d* columns) const;
  // The RotationalJacobian columns of joint j (as many as JointColumns).
  void JointRotationColumns(int j, Eigen::Vector3d* columns) const;

  ScenePtr scene_;
  std::vector<int> joint_of_velocity_;     // per velocity coordinate
  std::vector<char> translation_column_;   // per velocity coordinate: a pure translation
  std::vector<int> child_body_;            // per joint
  std::vector<std::vector<int>> subtree_;  // per joint: the joints below it, parents first
  std::vector<char> ancestor_;  // [body · n_joints + joint]: joint is an ancestor of body
  // Per body: its ancestor joints with velocity coordinates, by increasing v_start, their
  // v_start, and their velocity indices (the stored columns of its Jacobians), increasing.
  std::vector<std::vector<int>> chain_, chain_starts_, chain_columns_;
  Eigen::VectorXd q_, q_base_;                            // q and q ⊕ 0
  Eigen::VectorXd zero_velocity_;                         // SetConfiguration's 0 (n_v)
  std::vector<Eigen::Isometry3d> X_JC_base_;              // per joint, its motion at q ⊕ 0
  std::vector<Eigen::Isometry3d> X_WB_base_, X_WJ_base_;  // poses at q ⊕ 0
  std::vector<Eigen::Isometry3d> X_WB_, X_WJ_;            // current poses
  // Per joint: R_WJ axis (revolute, prismatic), at q ⊕ 0 and now.
  std::vector<Eigen::Vector3d> axis_W_base_, axis_W_;
  int perturbed_joint_ = -1;
};

}  // namespace quasidyn
