#pragma once
// Forward kinematics, point and frame Jacobians and the mass matrix of a Scene's
// kinematic forest, evaluated at one configuration q, with the model/data split of the rest of
// the library (docs/architecture.md; Pinocchio's Model and Data): KinematicsModel is the
// immutable part (the joint structure checked once, each body's chain of velocity columns),
// shared by threads; Kinematics is one thread's evaluation at the q of its last Update (the
// poses and the mass matrix's buffers), made from a model.
//
// Velocity conventions (see model/scene.h for the joints): v is the generalized
// velocity (size nv). For a floating joint v = (ṗ, ω) with both expressed in the
// joint frame J (= world for objects). The configuration moves with q̇ = N(q) v,
// where N is the identity except for floating joints, whose quaternion block is
// the map E(Q) of math/quaternion.h.

#include <Eigen/Core>
#include <Eigen/Geometry>
#include <memory>
#include <vector>

#include "quasidyn/model/scene.h"

namespace quasidyn {

class KinematicsModel {
 public:
  // Shares the scene (model/scene.h, ScenePtr). Checks the scene's joint structure once and
  // throws std::invalid_argument naming the first bad joint or body (or a null scene).
  explicit KinematicsModel(ScenePtr scene);

  const Scene& scene() const { return *scene_; }
  const ScenePtr& scene_ptr() const { return scene_; }
  // The velocity coordinates whose motion moves body `body` (those of the joints from it up
  // to the world), increasing: the only non-zero columns of its Jacobians.
  const std::vector<int>& ChainColumns(int body) const { return chain_columns_[body]; }
  // The longest chain of the scene (max over bodies of |ChainColumns(body)|).
  int MaxChainSize() const { return max_chain_size_; }

 private:
  friend class Kinematics;

  ScenePtr scene_;
  std::vector<std::vector<int>> chain_columns_;  // per body, increasing
  std::vector<std::vector<int>> chain_walks_;    // per body, from its joint up (ChainWalk)
  // Per body, per entry of its walk: that column's place in ChainColumns.
  std::vector<std::vector<int>> walk_to_sorted_;
  int max_chain_size_ = 0;
  // Per instance, increasing: the bodies whose chain reaches its velocities.
  std::vector<std::vector<int>> instance_bodies_;
};

class Kinematics {
 public:
  // With a model of its own: KinematicsModel(scene), whose checks it makes.
  explicit Kinematics(ScenePtr scene);
  // Shares `model` (non-null: std::invalid_argument otherwise), e.g. ContactModel's, so that
  // making one per thread checks and builds nothing again.
  explicit Kinematics(std::shared_ptr<const KinematicsModel> model);

  const KinematicsModel& model() const { return *model_; }
  const std::shared_ptr<const KinematicsModel>& model_ptr() const { return model_; }

  // Computes every body pose at q (size nq). Throws std::invalid_argument on a wrong
  // size, a non-finite entry or a zero quaternion. Quaternions are normalised before use.
  // No heap allocation after the first call.
  void Update(const Eigen::VectorXd& q);

  const Scene& scene() const { return *scene_; }
  const ScenePtr& scene_ptr() const { return scene_; }
  const Eigen::VectorXd& q() const { return q_; }
  // True when the last Update was at q itself, bit for bit (every entry's representation,
  // so −0 is not +0): the poses are then those Update(q) would compute, the same bits. False
  // before the first Update. A caller holding poses at q (a step's end-of-step poses, which
  // the next step's contact query needs again) asks this before computing them again.
  bool IsAt(const Eigen::VectorXd& q) const;
  // X_WB of body `body` (the world's is the identity).
  const Eigen::Isometry3d& BodyPose(int body) const { return X_WB_[body]; }
  const std::vector<Eigen::Isometry3d>& BodyPoses() const { return X_WB_; }

  // Translational Jacobian (3 × nv) of the point of body `body` that is at p_W
  // (world coordinates) now: d(p_W)/dt = J v. Writes into J (resized, zeros outside
  // the body's ancestor joints). The world body gives zeros.
  void PointJacobian(int body, const Eigen::Vector3d& p_W, Eigen::MatrixXd* J) const;
  // Rotational Jacobian (3 × nv): ω_WB (world frame) = J v.
  void RotationalJacobian(int body, Eigen::MatrixXd* J) const;

  // The same Jacobians on the body's chain columns only (ChainColumns(body), in that order),
  // into J of exactly 3 × |ChainColumns(body)| (e.g. the leading columns of a buffer of
  // MaxChainSize() columns, so that callers never reallocate). Entry for entry the non-zero
  // columns of PointJacobian / RotationalJacobian.
  void ChainPointJacobian(int body, const Eigen::Vector3d& p_W,
                          Eigen::Ref<Eigen::Matrix3Xd> J) const;
  void ChainRotationalJacobian(int body, Eigen::Ref<Eigen::Matrix3Xd> J) const;
  // The longest chain of the scene (KinematicsModel::MaxChainSize).
  int MaxChainSize() const { return model_->max_chain_size_; }

  // Mass matrix M(q) (nv × nv), symmetric positive definite when every moving body
  // has positive mass and inertia: kinetic energy = ½ vᵀ M v.
  Eigen::MatrixXd MassMatrix() const;
  // The same into *M (resized to n_v × n_v): no heap allocation once it has that size.
  void MassMatrix(Eigen::MatrixXd* M) const;

  // The diagonal block of M(q) of instance `instance` (an object or a robot), nv_i × nv_i, into
  // *block (resized). Equal, entry for entry, to the same block of MassMatrix() (an arm's
  // includes the gripper that hangs from it). An object is its own tree, coupled to no other
  // instance's velocities; a robot that hangs from another robot (a gripper on an arm) is
  // coupled to it by M's off-diagonal blocks, which this leaves out (the formulations that use
  // the robots' mass matrix refuse such scenes, formulations/registry.h). No heap allocation once
  // *block has its size (the internal buffer has the largest instance's).
  void InstanceMassMatrix(int instance, Eigen::MatrixXd* block) const;

  // KinematicsModel::ChainColumns.
  const std::vector<int>& ChainColumns(int body) const { return model_->chain_columns_[body]; }

  // N(q) (nq × nv): q̇ = N(q) v.
  Eigen::MatrixXd VelocityToQdot() const;

 private:
  // Adds body b's m J_comᵀ J_com + J_ωᵀ I_W J_ω on its chain columns into M (indexed from
  // column `offset`; columns outside M's block skipped), Featherstone 2008, eq. 6.2.
  void AddBodyMass(int b, int offset, Eigen::Ref<Eigen::MatrixXd> M) const;
  template <typename Column>
  void FillPointJacobian(int body, const Eigen::Vector3d& p_W, Column column) const;
  template <typename Column>
  void FillRotationalJacobian(int body, Column column) const;
  void CheckBody(int body, const char* where) const;

  std::shared_ptr<const KinematicsModel> model_;
  ScenePtr scene_;  // the model's
  Eigen::VectorXd q_;
  std::vector<Eigen::Isometry3d> X_WB_;  // per body
  std::vector<Eigen::Isometry3d> X_WJ_;  // per joint: the joint frame in world
  // Scratch of the mass matrix, per body sized to its chain once, so that InstanceMassMatrix
  // does not allocate.
  struct BodyMassScratch {
    Eigen::Matrix<double, 3, Eigen::Dynamic> J_com_columns, J_rot_columns;
    Eigen::Matrix<double, Eigen::Dynamic, 3> rotated_inertia_rows;
    Eigen::MatrixXd block;
  };
  mutable std::vector<BodyMassScratch> mass_scratch_;
  mutable Eigen::MatrixXd instance_sum_;
};

// q ⊕ v·dt: moves q along v for dt [s]; floating joints integrate the rotation exactly
// (exponential map of ω·dt) and renormalise the quaternion. Sizes nq, nv.
Eigen::VectorXd IntegrateConfiguration(const Scene& scene, const Eigen::VectorXd& q,
                                       const Eigen::VectorXd& v, double dt);
// The same into *next (resized to n_q; it must not be q): no heap allocation once sized.
void IntegrateConfiguration(const Scene& scene, const Eigen::VectorXd& q, const Eigen::VectorXd& v,
                            double dt, Eigen::VectorXd* next);

// q⁺ of a time step, q ⊕ dt·v as the scene's conventions.quaternion_update says
// (model/simulator_conventions.h): exponential_map is IntegrateConfiguration; first_order moves
// a floating joint's quaternion by FirstOrderQuaternionUpdate (math/quaternion.h), the
// reference quasistatic simulator's Q⁺ = normalize(Q + dt E(Q) ω), and every other coordinate
// as IntegrateConfiguration does. IntegrateConfiguration stays the exponential map whatever
// the scene says: it is the chart the derivatives' tangent directions q ⊕ ε e_k are taken in.
// Sizes nq, nv; *next resized to n_q (not q), no heap allocation once sized.
void StepConfiguration(const Scene& scene, const Eigen::VectorXd& q, const Eigen::VectorXd& v,
                       double dt, Eigen::VectorXd* next);
Eigen::VectorXd StepConfiguration(const Scene& scene, const Eigen::VectorXd& q,
                                  const Eigen::VectorXd& v, double dt);

// Scales every floating joint's quaternion of q to unit length (in place).
void NormalizeQuaternions(const Scene& scene, Eigen::VectorXd* q);

}  // namespace quasidyn
