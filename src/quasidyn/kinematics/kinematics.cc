#include "quasidyn/kinematics/kinematics.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <stdexcept>
#include <string>

#include "quasidyn/common/argument_check.h"
#include "quasidyn/math/quaternion.h"

namespace quasidyn {
namespace {

// Joint `j` is the next joint up the tree from body `body`, or -1 at the world.
int ParentJointOf(const Scene& scene, int body) { return scene.bodies[body].parent_joint; }

std::string JointLabel(const Scene& scene, int j) {
  return "joint " + std::to_string(j) + " ('" + scene.joints[j].name + "')";
}

// Checks the structure every function here relies on; throws std::invalid_argument.
void ValidateScene(const Scene& scene) {
  const int num_bodies = static_cast<int>(scene.bodies.size());
  const int num_joints = static_cast<int>(scene.joints.size());
  if (num_bodies == 0 || scene.bodies[0].parent_joint != -1) {
    throw std::invalid_argument("Kinematics: bodies[0] must be the world, with parent_joint -1");
  }
  for (int j = 0; j < num_joints; ++j) {
    const Joint& joint = scene.joints[j];
    if (joint.parent_body < 0 || joint.parent_body >= num_bodies || joint.child_body <= 0 ||
        joint.child_body >= num_bodies) {
      throw std::invalid_argument("Kinematics: " + JointLabel(scene, j) +
                                  " has a parent or child body index out of range");
    }
    if (scene.bodies[joint.child_body].parent_joint != j) {
      throw std::invalid_argument("Kinematics: " + JointLabel(scene, j) + " has child body " +
                                  std::to_string(joint.child_body) +
                                  " whose parent_joint is not this joint");
    }
    if (ParentJointOf(scene, joint.parent_body) >= j) {
      throw std::invalid_argument("Kinematics: " + JointLabel(scene, j) +
                                  " comes before the joint of its parent body (joints must be "
                                  "ordered parents first)");
    }
    if (joint.q_start < 0 || joint.q_start + JointNq(joint.type) > scene.nq || joint.v_start < 0 ||
        joint.v_start + JointNv(joint.type) > scene.nv) {
      throw std::invalid_argument(
          "Kinematics: " + JointLabel(scene, j) + " has q_start/v_start outside q (size nq = " +
          std::to_string(scene.nq) + ") or v (size nv = " + std::to_string(scene.nv) + ")");
    }
    const bool has_axis = joint.type == JointType::kRevolute || joint.type == JointType::kPrismatic;
    if (has_axis && !(std::abs(joint.axis.norm() - 1.0) <= 1e-9)) {
      throw std::invalid_argument(
          "Kinematics: " + JointLabel(scene, j) +
          " needs a unit axis (|axis| = " + std::to_string(joint.axis.norm()) + ")");
    }
  }
  for (int b = 1; b < num_bodies; ++b) {
    const int j = scene.bodies[b].parent_joint;
    if (j < 0 || j >= num_joints || scene.joints[j].child_body != b) {
      throw std::invalid_argument("Kinematics: body " + std::to_string(b) + " ('" +
                                  scene.bodies[b].name +
                                  "') has no valid parent_joint whose child it is");
    }
  }
}

void CheckQuaternions(const char* caller, const Scene& scene, const Eigen::VectorXd& q) {
  for (const Joint& joint : scene.joints) {
    if (joint.type == JointType::kFloating && q.segment<4>(joint.q_start + 3).norm() == 0.0) {
      ThrowInvalidArgument(caller, "the quaternion of floating joint '" + joint.name + "' (q[" +
                                       std::to_string(joint.q_start + 3) + "..]) is zero");
    }
  }
}

// The velocity columns of the joints from `body` up to the world, in that order (the body's
// own joint first), each joint's columns increasing.
std::vector<int> ChainWalk(const Scene& scene, int body) {
  std::vector<int> columns;
  for (int j = scene.bodies[body].parent_joint; j >= 0;
       j = ParentJointOf(scene, scene.joints[j].parent_body)) {
    const Joint& joint = scene.joints[j];
    for (int k = 0; k < JointNv(joint.type); ++k) columns.push_back(joint.v_start + k);
  }
  return columns;
}

// R(θ, a) = c I + s [a]× + (1 − c) a aᵀ, the rotation by θ [rad] about the unit axis a
// (Rodrigues' formula; Murray, Li & Sastry 1994, §2.2), entry for entry as Eigen's
// AngleAxis::toRotationMatrix forms it, with sin and cos taken once.
Eigen::Matrix3d AxisRotation(double angle, const Eigen::Vector3d& axis) {
  const double s = std::sin(angle), c = std::cos(angle);
  const Eigen::Vector3d sin_axis = s * axis;
  const Eigen::Vector3d cos1_axis = (1.0 - c) * axis;
  Eigen::Matrix3d R;
  double t = cos1_axis.x() * axis.y();
  R(0, 1) = t - sin_axis.z();
  R(1, 0) = t + sin_axis.z();
  t = cos1_axis.x() * axis.z();
  R(0, 2) = t + sin_axis.y();
  R(2, 0) = t - sin_axis.y();
  t = cos1_axis.y() * axis.z();
  R(1, 2) = t - sin_axis.x();
  R(2, 1) = t + sin_axis.x();
  R.diagonal() = cos1_axis.cwiseProduct(axis).array() + c;
  return R;
}

// X_WC = X_WJ X_JC for the child frame C in the joint frame J at the joint's coordinates
// (model/scene.h), written into the rotation and translation of *X_WC (its last row stays
// (0 0 0 1)) without forming X_JC: a revolute joint's X_JC = (R(q, a), 0), a prismatic one's
// (I, q a), a planar one's (R(θ, z), (x, y, 0)), a floating one's (R(Q), p).
void ComposeJointMotion(const Joint& joint, const Eigen::VectorXd& q, const Eigen::Isometry3d& X_WJ,
                        Eigen::Isometry3d* X_WC) {
  const int i = joint.q_start;
  const auto R_WJ = X_WJ.linear();
  switch (joint.type) {
    case JointType::kFixed:
      X_WC->linear() = R_WJ;
      X_WC->translation() = X_WJ.translation();
      break;
    case JointType::kRevolute:
      X_WC->linear().noalias() = R_WJ * AxisRotation(q[i], joint.axis);
      X_WC->translation() = X_WJ.translation();
      break;
    case JointType::kPrismatic:
      X_WC->linear() = R_WJ;
      X_WC->translation().noalias() = R_WJ * (q[i] * joint.axis);
      X_WC->translation() += X_WJ.translation();
      break;
    case JointType::kPlanar:
      X_WC->linear().noalias() = R_WJ * AxisRotation(q[i + 2], Eigen::Vector3d::UnitZ());
      X_WC->translation().noalias() = R_WJ * Eigen::Vector3d(q[i], q[i + 1], 0.0);
      X_WC->translation() += X_WJ.translation();
      break;
    case JointType::kFloating:
      X_WC->linear().noalias() = R_WJ * RotationMatrixFromQuaternion(q.segment<4>(i + 3));
      X_WC->translation().noalias() = R_WJ * q.segment<3>(i);
      X_WC->translation() += X_WJ.translation();
      break;
  }
}

}  // namespace

KinematicsModel::KinematicsModel(ScenePtr scene) : scene_(std::move(scene)) {
  QUASIDYN_CHECK_ARGUMENT(scene_ != nullptr, "Kinematics", "the scene is null");
  ValidateScene(*scene_);
  chain_columns_.resize(scene_->bodies.size());
  chain_walks_.resize(scene_->bodies.size());
  walk_to_sorted_.resize(scene_->bodies.size());
  for (int b = 1; b < static_cast<int>(scene_->bodies.size()); ++b) {
    chain_walks_[b] = ChainWalk(*scene_, b);
    chain_columns_[b] = chain_walks_[b];
    std::sort(chain_columns_[b].begin(), chain_columns_[b].end());
    for (const int v : chain_walks_[b]) {
      const auto sorted = std::lower_bound(chain_columns_[b].begin(), chain_columns_[b].end(), v);
      walk_to_sorted_[b].push_back(static_cast<int>(sorted - chain_columns_[b].begin()));
    }
    max_chain_size_ = std::max(max_chain_size_, static_cast<int>(chain_columns_[b].size()));
  }
  // The bodies whose chain reaches an instance's velocities: its own, and those of a robot that
  // hangs from it (a gripper on an arm).
  instance_bodies_.resize(scene_->instances.size());
  for (int i = 0; i < static_cast<int>(scene_->instances.size()); ++i) {
    const ModelInstance& instance = scene_->instances[i];
    for (int b = 1; b < static_cast<int>(scene_->bodies.size()); ++b) {
      const std::vector<int>& columns = chain_columns_[b];
      const auto first = std::lower_bound(columns.begin(), columns.end(), instance.v_start);
      if (scene_->bodies[b].instance == i ||
          (first != columns.end() && *first < instance.v_start + instance.nv))
        instance_bodies_[i].push_back(b);
    }
  }
}

Kinematics::Kinematics(ScenePtr scene)
    : Kinematics(std::make_shared<const KinematicsModel>(std::move(scene))) {}

Kinematics::Kinematics(std::shared_ptr<const KinematicsModel> model) : model_(std::move(model)) {
  QUASIDYN_CHECK_ARGUMENT(model_ != nullptr, "Kinematics", "the model is null");
  scene_ = model_->scene_ptr();
  X_WB_.assign(scene_->bodies.size(), Eigen::Isometry3d::Identity());
  X_WJ_.assign(scene_->joints.size(), Eigen::Isometry3d::Identity());
  // A joint on the world has X_WJ = X_PJ whatever q: set here, not in Update.
  for (size_t j = 0; j < scene_->joints.size(); ++j) {
    if (scene_->joints[j].parent_body == 0) X_WJ_[j] = scene_->joints[j].X_PJ;
  }
  mass_scratch_.resize(scene_->bodies.size());
  for (size_t b = 1; b < scene_->bodies.size(); ++b) {
    const int n = static_cast<int>(model_->chain_walks_[b].size());
    mass_scratch_[b].J_com_columns.resize(3, n);
    mass_scratch_[b].J_rot_columns.resize(3, n);
    mass_scratch_[b].rotated_inertia_rows.resize(n, 3);
    mass_scratch_[b].block.resize(n, n);
  }
}

bool Kinematics::IsAt(const Eigen::VectorXd& q) const {
  // Update stores q only after its checks, and then computes every pose from it: q_ always
  // names the poses held.
  return q.size() == q_.size() && q_.size() > 0 &&
         std::memcmp(q.data(), q_.data(), sizeof(double) * static_cast<size_t>(q.size())) == 0;
}

void Kinematics::Update(const Eigen::VectorXd& q) {
  const Scene& scene = *scene_;
  CheckVector("Kinematics::Update", "q", q, scene.nq, "n_q");
  CheckQuaternions("Kinematics::Update", scene, q);
  q_ = q;
  // Joints are ordered parents first, so X_WP is ready when joint j is reached. X_WJ = X_WP X_PJ
  // (a joint on the world's is X_PJ, set by the constructor), then X_WB = X_WJ X_JC.
  for (size_t j = 0; j < scene.joints.size(); ++j) {
    const Joint& joint = scene.joints[j];
    Eigen::Isometry3d& X_WJ = X_WJ_[j];
    if (joint.parent_body != 0) {
      const Eigen::Isometry3d& X_WP = X_WB_[joint.parent_body];
      X_WJ.linear().noalias() = X_WP.linear() * joint.X_PJ.linear();
      X_WJ.translation().noalias() = X_WP.linear() * joint.X_PJ.translation();
      X_WJ.translation() += X_WP.translation();
    }
    ComposeJointMotion(joint, q, X_WJ, &X_WB_[joint.child_body]);
  }
}

// Each joint's columns are the velocity of the point p_W per unit joint velocity
// (Murray, Li & Sastry 1994, §3.4, the spatial Jacobian: a revolute twist moves p by
// a × (p − o), a prismatic one by a; planar and floating joints are their translation
// and rotation columns, the rotation pivoting about the child origin o_C). column(v) is
// where velocity coordinate v's column goes; only the body's ancestor joints are visited,
// and column() is called once per coordinate of the body's ChainWalk, in that order.
template <typename Column>
void Kinematics::FillPointJacobian(int body, const Eigen::Vector3d& p_W, Column column) const {
  for (int j = ParentJointOf(*scene_, body); j >= 0;
       j = ParentJointOf(*scene_, scene_->joints[j].parent_body)) {
    const Joint& joint = scene_->joints[j];
    const auto R_WJ = X_WJ_[j].linear();
    const int v = joint.v_start;
    switch (joint.type) {
      case JointType::kFixed:
        break;
      case JointType::kRevolute:
        column(v) = (R_WJ * joint.axis).cross(p_W - X_WJ_[j].translation());
        break;
      case JointType::kPrismatic:
        column(v) = R_WJ * joint.axis;
        break;
      case JointType::kPlanar: {
        const Eigen::Vector3d r = p_W - X_WB_[joint.child_body].translation();
        column(v) = R_WJ.col(0);
        column(v + 1) = R_WJ.col(1);
        column(v + 2) = R_WJ.col(2).cross(r);
        break;
      }
      case JointType::kFloating: {
        const Eigen::Vector3d r = p_W - X_WB_[joint.child_body].translation();
        for (int k = 0; k < 3; ++k) column(v + k) = R_WJ.col(k);
        for (int k = 0; k < 3; ++k) column(v + 3 + k) = R_WJ.col(k).cross(r);
        break;
      }
    }
  }
}

template <typename Column>
void Kinematics::FillRotationalJacobian(int body, Column column) const {
  for (int j = ParentJointOf(*scene_, body); j >= 0;
       j = ParentJointOf(*scene_, scene_->joints[j].parent_body)) {
    const Joint& joint = scene_->joints[j];
    const auto R_WJ = X_WJ_[j].linear();
    const int v = joint.v_start;
    switch (joint.type) {
      case JointType::kFixed:
        break;
      case JointType::kPrismatic:
        column(v).setZero();
        break;
      case JointType::kRevolute:
        column(v) = R_WJ * joint.axis;
        break;
      case JointType::kPlanar:
        column(v).setZero();
        column(v + 1).setZero();
        column(v + 2) = R_WJ.col(2);
        break;
      case JointType::kFloating:
        for (int k = 0; k < 3; ++k) column(v + k).setZero();
        for (int k = 0; k < 3; ++k) column(v + 3 + k) = R_WJ.col(k);
        break;
    }
  }
}

void Kinematics::CheckBody(int body, const char* where) const {
  QUASIDYN_CHECK_ARGUMENT(body >= 0 && body < static_cast<int>(scene_->bodies.size()), where,
                          "body index " + std::to_string(body) + " out of range");
}

void Kinematics::PointJacobian(int body, const Eigen::Vector3d& p_W, Eigen::MatrixXd* J) const {
  QUASIDYN_CHECK_ARGUMENT(J != nullptr, "Kinematics::PointJacobian", "J is null");
  CheckBody(body, "Kinematics::PointJacobian");
  if (J->rows() != 3 || J->cols() != scene_->nv) J->resize(3, scene_->nv);
  J->setZero();
  FillPointJacobian(body, p_W, [J](int v) { return J->col(v); });
}

void Kinematics::RotationalJacobian(int body, Eigen::MatrixXd* J) const {
  QUASIDYN_CHECK_ARGUMENT(J != nullptr, "Kinematics::RotationalJacobian", "J is null");
  CheckBody(body, "Kinematics::RotationalJacobian");
  if (J->rows() != 3 || J->cols() != scene_->nv) J->resize(3, scene_->nv);
  J->setZero();
  FillRotationalJacobian(body, [J](int v) { return J->col(v); });
}

void Kinematics::ChainPointJacobian(int body, const Eigen::Vector3d& p_W,
                                    Eigen::Ref<Eigen::Matrix3Xd> J) const {
  CheckBody(body, "Kinematics::ChainPointJacobian");
  CheckSize("Kinematics::ChainPointJacobian", "J's columns", J.cols(),
            static_cast<Eigen::Index>(model_->chain_columns_[body].size()), "the chain's length");
  const std::vector<int>& position = model_->walk_to_sorted_[body];
  int walk = 0;
  FillPointJacobian(body, p_W, [&J, &position, &walk](int) { return J.col(position[walk++]); });
}

void Kinematics::ChainRotationalJacobian(int body, Eigen::Ref<Eigen::Matrix3Xd> J) const {
  CheckBody(body, "Kinematics::ChainRotationalJacobian");
  CheckSize("Kinematics::ChainRotationalJacobian", "J's columns", J.cols(),
            static_cast<Eigen::Index>(model_->chain_columns_[body].size()), "the chain's length");
  const std::vector<int>& position = model_->walk_to_sorted_[body];
  int walk = 0;
  FillRotationalJacobian(body, [&J, &position, &walk](int) { return J.col(position[walk++]); });
}

// M = Σ_b m_b J_com,bᵀ J_com,b + J_ω,bᵀ (R_WB I_b R_WBᵀ) J_ω,b: the kinetic energy of
// rigid bodies, ½ Σ (m |v_com|² + ω·I_W ω) (Featherstone, "Rigid Body Dynamics
// Algorithms", 2008, eq. 6.2 written with body Jacobians). Only each body's ancestor
// columns are non-zero, so the products use those columns alone.
void Kinematics::AddBodyMass(int b, int offset, Eigen::Ref<Eigen::MatrixXd> M) const {
  const Body& body = scene_->bodies[b];
  const std::vector<int>& columns = model_->chain_walks_[b];
  if (columns.empty()) return;
  const Eigen::Isometry3d& X_WB = X_WB_[b];
  const int n = static_cast<int>(columns.size());
  BodyMassScratch& s = mass_scratch_[b];  // sized n at construction
  // The columns in the order of `columns` (the body's joint first, up to the world): the
  // order in which the Fill functions visit them.
  int walk = 0;
  FillPointJacobian(b, X_WB * body.com, [&s, &walk](int) { return s.J_com_columns.col(walk++); });
  walk = 0;
  FillRotationalJacobian(b, [&s, &walk](int) { return s.J_rot_columns.col(walk++); });
  const Eigen::Matrix3d inertia_W = X_WB.linear() * body.inertia * X_WB.linear().transpose();
  s.rotated_inertia_rows.noalias() = s.J_rot_columns.transpose() * inertia_W;
  s.block.noalias() = body.mass * s.J_com_columns.transpose() * s.J_com_columns +
                      s.rotated_inertia_rows * s.J_rot_columns;
  // Only the columns of M's block, [offset, offset + M.rows()): an instance's diagonal block
  // leaves out the columns of a robot it hangs from (a gripper's arm).
  for (int r = 0; r < n; ++r) {
    const int row = columns[r] - offset;
    if (row < 0 || row >= M.rows()) continue;
    for (int c = 0; c < n; ++c) {
      const int col = columns[c] - offset;
      if (col >= 0 && col < M.cols()) M(row, col) += s.block(r, c);
    }
  }
}

Eigen::MatrixXd Kinematics::MassMatrix() const {
  Eigen::MatrixXd M;
  MassMatrix(&M);
  return M;
}

void Kinematics::MassMatrix(Eigen::MatrixXd* M_out) const {
  QUASIDYN_CHECK_ARGUMENT(M_out != nullptr, "Kinematics::MassMatrix", "M is null");
  Eigen::MatrixXd& M = *M_out;
  M.setZero(scene_->nv, scene_->nv);
  for (int b = 1; b < static_cast<int>(scene_->bodies.size()); ++b) AddBodyMass(b, 0, M);
  // Rounding can leave the two triangles a few ulps apart; make M exactly symmetric (each pair
  // averaged as 0.5 · (M + Mᵀ) would).
  for (int c = 0; c < M.cols(); ++c) {
    for (int r = c + 1; r < M.rows(); ++r) {
      const double mean = 0.5 * (M(r, c) + M(c, r));
      M(r, c) = mean;
      M(c, r) = mean;
    }
  }
}

void Kinematics::InstanceMassMatrix(int instance, Eigen::MatrixXd* block) const {
  QUASIDYN_CHECK_ARGUMENT(instance >= 0 && instance < static_cast<int>(scene_->instances.size()),
                          "Kinematics::InstanceMassMatrix",
                          "instance index " + std::to_string(instance) + " out of range");
  const ModelInstance& model = scene_->instances[instance];
  // The buffer keeps the largest size asked for, so that instances of several sizes in turn do
  // not reallocate it.
  if (instance_sum_.rows() < model.nv) instance_sum_.resize(model.nv, model.nv);
  instance_sum_.topLeftCorner(model.nv, model.nv).setZero();
  for (const int b : model_->instance_bodies_[instance])
    AddBodyMass(b, model.v_start, instance_sum_.topLeftCorner(model.nv, model.nv));
  block->resize(model.nv, model.nv);
  // As MassMatrix: the two triangles averaged, entry by entry.
  for (int c = 0; c < model.nv; ++c)
    for (int r = 0; r < model.nv; ++r)
      (*block)(r, c) = 0.5 * (instance_sum_(r, c) + instance_sum_(c, r));
}

Eigen::MatrixXd Kinematics::VelocityToQdot() const {
  QUASIDYN_CHECK_ARGUMENT(q_.size() == scene_->nq, "Kinematics::VelocityToQdot",
                          "call Update(q) first");
  Eigen::MatrixXd N = Eigen::MatrixXd::Zero(scene_->nq, scene_->nv);
  for (const Joint& joint : scene_->joints) {
    if (joint.type == JointType::kFloating) {
      N.block<3, 3>(joint.q_start, joint.v_start).setIdentity();
      // The rotation used for the poses is that of the normalised quaternion.
      N.block<4, 3>(joint.q_start + 3, joint.v_start + 3) =
          QuaternionRateMap(NormalizeQuaternion(q_.segment<4>(joint.q_start + 3)));
    } else {
      const int n = JointNv(joint.type);
      N.block(joint.q_start, joint.v_start, n, n).setIdentity();
    }
  }
  return N;
}

Eigen::VectorXd IntegrateConfiguration(const Scene& scene, const Eigen::VectorXd& q,
                                       const Eigen::VectorXd& v, double dt) {
  Eigen::VectorXd next;
  IntegrateConfiguration(scene, q, v, dt, &next);
  return next;
}

void IntegrateConfiguration(const Scene& scene, const Eigen::VectorXd& q, const Eigen::VectorXd& v,
                            double dt, Eigen::VectorXd* next_out) {
  CheckVector("IntegrateConfiguration", "q", q, scene.nq, "n_q");
  CheckVector("IntegrateConfiguration", "v", v, scene.nv, "n_v");
  QUASIDYN_CHECK_ARGUMENT(std::isfinite(dt), "IntegrateConfiguration", "dt is not finite");
  QUASIDYN_CHECK_ARGUMENT(next_out != nullptr && next_out != &q, "IntegrateConfiguration",
                          "the output must be a vector other than q");
  CheckQuaternions("IntegrateConfiguration", scene, q);
  Eigen::VectorXd& next = *next_out;
  next = q;
  for (const Joint& joint : scene.joints) {
    if (joint.type == JointType::kFloating) {
      next.segment<3>(joint.q_start) += dt * v.segment<3>(joint.v_start);
      next.segment<4>(joint.q_start + 3) =
          IntegrateQuaternion(q.segment<4>(joint.q_start + 3), v.segment<3>(joint.v_start + 3), dt);
    } else {
      const int n = JointNv(joint.type);
      next.segment(joint.q_start, n) += dt * v.segment(joint.v_start, n);
    }
  }
}

void StepConfiguration(const Scene& scene, const Eigen::VectorXd& q, const Eigen::VectorXd& v,
                       double dt, Eigen::VectorXd* next) {
  IntegrateConfiguration(scene, q, v, dt, next);
  if (scene.conventions.quaternion_update != QuaternionUpdate::kFirstOrder) return;
  for (const Joint& joint : scene.joints)
    if (joint.type == JointType::kFloating)
      next->segment<4>(joint.q_start + 3) = FirstOrderQuaternionUpdate(
          q.segment<4>(joint.q_start + 3), v.segment<3>(joint.v_start + 3), dt);
}

Eigen::VectorXd StepConfiguration(const Scene& scene, const Eigen::VectorXd& q,
                                  const Eigen::VectorXd& v, double dt) {
  Eigen::VectorXd next;
  StepConfiguration(scene, q, v, dt, &next);
  return next;
}

void NormalizeQuaternions(const Scene& scene, Eigen::VectorXd* q) {
  QUASIDYN_CHECK_ARGUMENT(q != nullptr, "NormalizeQuaternions", "q is null");
  CheckSize("NormalizeQuaternions", "q", q->size(), scene.nq, "n_q");
  for (const Joint& joint : scene.joints) {
    if (joint.type != JointType::kFloating) continue;
    q->segment<4>(joint.q_start + 3) = NormalizeQuaternion(q->segment<4>(joint.q_start + 3));
  }
}

}  // namespace quasidyn
