#include "quasidyn/gradients/chain_kinematics.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

#include "quasidyn/kinematics/kinematics.h"
#include "quasidyn/math/quaternion.h"

namespace quasidyn {

Eigen::Vector3d SparseJacobian3::Times(const Eigen::VectorXd& v) const {
  Eigen::Vector3d product = Eigen::Vector3d::Zero();
  for (size_t c = 0; c < index.size(); ++c) product += column[c] * v[index[c]];
  return product;
}

namespace {

// X_JC, the child frame in the joint frame for the joint's coordinates q_joint (its own
// segment of q): the joint motions of model/scene.h, written as kinematics.cc writes them so
// that the poses agree bit for bit.
Eigen::Isometry3d JointMotion(const Joint& joint, const double* q_joint) {
  Eigen::Isometry3d X_JC = Eigen::Isometry3d::Identity();
  switch (joint.type) {
    case JointType::kFixed:
      break;
    case JointType::kRevolute:
      X_JC.linear() = Eigen::AngleAxisd(q_joint[0], joint.axis).toRotationMatrix();
      break;
    case JointType::kPrismatic:
      X_JC.translation() = q_joint[0] * joint.axis;
      break;
    case JointType::kPlanar:
      X_JC.translation() = Eigen::Vector3d(q_joint[0], q_joint[1], 0.0);
      X_JC.linear() = Eigen::AngleAxisd(q_joint[2], Eigen::Vector3d::UnitZ()).toRotationMatrix();
      break;
    case JointType::kFloating:
      X_JC.translation() = Eigen::Map<const Eigen::Vector3d>(q_joint);
      X_JC.linear() = RotationMatrixFromQuaternion(Eigen::Map<const Eigen::Vector4d>(q_joint + 3));
      break;
  }
  return X_JC;
}

}  // namespace

ChainKinematics::ChainKinematics(ScenePtr scene_ptr) : scene_(std::move(scene_ptr)) {
  const Kinematics validation(scene_);  // throws for a malformed scene (and a null one)
  const Scene& scene = *scene_;
  const int joint_count = static_cast<int>(scene.joints.size());
  const int body_count = static_cast<int>(scene.bodies.size());
  joint_of_velocity_.assign(scene.nv, -1);
  translation_column_.assign(scene.nv, 0);
  child_body_.resize(joint_count);
  for (int j = 0; j < joint_count; ++j) {
    const JointType type = scene.joints[j].type;
    child_body_[j] = scene.joints[j].child_body;
    // The columns that translate the child (JointColumns below): a prismatic joint's, a
    // planar joint's x and y, a floating joint's first three.
    const int translations = type == JointType::kPrismatic  ? 1
                             : type == JointType::kPlanar   ? 2
                             : type == JointType::kFloating ? 3
                                                            : 0;
    for (int i = 0; i < JointNv(type); ++i) {
      joint_of_velocity_[scene.joints[j].v_start + i] = j;
      translation_column_[scene.joints[j].v_start + i] = i < translations ? 1 : 0;
    }
  }
  ancestor_.assign(static_cast<size_t>(body_count) * joint_count, 0);
  for (int b = 1; b < body_count; ++b)
    for (int j = scene.bodies[b].parent_joint; j >= 0;
         j = scene.bodies[scene.joints[j].parent_body].parent_joint)
      ancestor_[b * joint_count + j] = 1;
  chain_.assign(body_count, {});
  chain_columns_.assign(body_count, {});
  chain_starts_.assign(body_count, {});
  for (int b = 1; b < body_count; ++b) {
    for (int j = 0; j < joint_count; ++j)
      if (ancestor_[b * joint_count + j] && JointNv(scene.joints[j].type) > 0)
        chain_[b].push_back(j);
    std::sort(chain_[b].begin(), chain_[b].end(),
              [&scene](int x, int y) { return scene.joints[x].v_start < scene.joints[y].v_start; });
    for (int j : chain_[b]) {
      chain_starts_[b].push_back(scene.joints[j].v_start);
      for (int c = 0; c < JointNv(scene.joints[j].type); ++c)
        chain_columns_[b].push_back(scene.joints[j].v_start + c);
    }
  }
  // Joints are ordered parents first (kinematics.cc), so the subtree lists are too.
  subtree_.assign(joint_count, {});
  for (int j = 0; j < joint_count; ++j)
    for (int d = j; d < joint_count; ++d)
      if (ancestor_[scene.joints[d].child_body * joint_count + j]) subtree_[j].push_back(d);
  X_JC_base_.assign(joint_count, Eigen::Isometry3d::Identity());
  X_WJ_base_.assign(joint_count, Eigen::Isometry3d::Identity());
  X_WB_base_.assign(body_count, Eigen::Isometry3d::Identity());
  X_WJ_ = X_WJ_base_;
  X_WB_ = X_WB_base_;
  axis_W_base_.assign(joint_count, Eigen::Vector3d::Zero());
  axis_W_ = axis_W_base_;
}

bool ChainKinematics::MovedBy(int body, int joint) const {
  return body > 0 && ancestor_[body * scene_->joints.size() + joint] != 0;
}

void ChainKinematics::SetConfiguration(const Eigen::VectorXd& q) {
  zero_velocity_.setZero(scene_->nv);
  IntegrateConfiguration(*scene_, q, zero_velocity_, 0.0, &q_base_);
  q_ = q;
  // Kinematics::Update at q ⊕ 0: parents first, so X_WP is ready when joint j is reached.
  for (size_t j = 0; j < scene_->joints.size(); ++j) {
    const Joint& joint = scene_->joints[j];
    X_JC_base_[j] = JointMotion(joint, q_base_.data() + joint.q_start);
    X_WJ_base_[j] = X_WB_base_[joint.parent_body] * joint.X_PJ;
    X_WB_base_[joint.child_body] = X_WJ_base_[j] * X_JC_base_[j];
    axis_W_base_[j] = X_WJ_base_[j].linear() * joint.axis;
  }
  X_WJ_ = X_WJ_base_;
  X_WB_ = X_WB_base_;
  axis_W_ = axis_W_base_;
  perturbed_joint_ = -1;
}

void ChainKinematics::Perturb(int k, double step) {
  if (q_base_.size() != scene_->nq)
    throw std::logic_error("ChainKinematics::Perturb: call SetConfiguration first");
  if (k < 0 || k >= scene_->nv)
    throw std::invalid_argument("ChainKinematics::Perturb: direction " + std::to_string(k) +
                                " outside [0, " + std::to_string(scene_->nv) + ")");
  if (!std::isfinite(step))
    throw std::invalid_argument("ChainKinematics::Perturb: step is not finite");
  if (perturbed_joint_ >= 0) Restore();
  const int j = joint_of_velocity_[k];
  const Joint& joint = scene_->joints[j];
  // The joint's coordinates of IntegrateConfiguration(q, e_k, step) (kinematics.cc): the
  // same operations on the joint's own segment.
  const int i = k - joint.v_start;
  double q_joint[7];
  if (joint.type == JointType::kFloating) {
    Eigen::Matrix<double, 6, 1> unit = Eigen::Matrix<double, 6, 1>::Zero();
    unit[i] = 1.0;
    Eigen::Map<Eigen::Vector3d> translation(q_joint);
    Eigen::Map<Eigen::Vector4d> quaternion(q_joint + 3);
    translation = q_.segment<3>(joint.q_start) + step * unit.head<3>();
    quaternion = IntegrateQuaternion(q_.segment<4>(joint.q_start + 3), unit.tail<3>(), step);
  } else {
    for (int c = 0; c < JointNq(joint.type); ++c)
      q_joint[c] = q_[joint.q_start + c] + step * (c == i ? 1.0 : 0.0);
  }
  X_WB_[joint.child_body] = X_WJ_[j] * JointMotion(joint, q_joint);
  // The rest of the subtree (subtree_[j][0] is j itself) keeps its joint motions.
  for (size_t s = 1; s < subtree_[j].size(); ++s) {
    const int d = subtree_[j][s];
    const Joint& below = scene_->joints[d];
    X_WJ_[d] = X_WB_[below.parent_body] * below.X_PJ;
    X_WB_[below.child_body] = X_WJ_[d] * X_JC_base_[d];
    axis_W_[d] = X_WJ_[d].linear() * below.axis;
  }
  perturbed_joint_ = j;
}

void ChainKinematics::Restore() {
  if (perturbed_joint_ < 0) return;
  for (int d : subtree_[perturbed_joint_]) {
    X_WJ_[d] = X_WJ_base_[d];
    axis_W_[d] = axis_W_base_[d];
    const int child = scene_->joints[d].child_body;
    X_WB_[child] = X_WB_base_[child];
  }
  perturbed_joint_ = -1;
}

// Each joint's columns as Kinematics::PointJacobian writes them (Murray, Li & Sastry 1994,
// §3.4: a revolute twist moves p by a × (p − o), a prismatic one by a; planar and floating
// joints rotate about the child origin).
int ChainKinematics::JointColumns(int j, const Eigen::Vector3d& p_W,
                                  Eigen::Vector3d* columns) const {
  const Joint& joint = scene_->joints[j];
  const auto R_WJ = X_WJ_[j].linear();
  switch (joint.type) {
    case JointType::kFixed:
      return 0;
    case JointType::kRevolute:  // axis_W_[j] = R_WJ * joint.axis
      columns[0] = axis_W_[j].cross(p_W - X_WJ_[j].translation());
      return 1;
    case JointType::kPrismatic:
      columns[0] = axis_W_[j];
      return 1;
    case JointType::kPlanar: {
      const Eigen::Vector3d r = p_W - X_WB_[joint.child_body].translation();
      columns[0] = R_WJ.col(0);
      columns[1] = R_WJ.col(1);
      columns[2] = R_WJ.col(2).cross(r);
      return 3;
    }
    case JointType::kFloating: {
      const Eigen::Vector3d r = p_W - X_WB_[joint.child_body].translation();
      for (int c = 0; c < 3; ++c) columns[c] = R_WJ.col(c);
      for (int c = 0; c < 3; ++c) columns[3 + c] = R_WJ.col(c).cross(r);
      return 6;
    }
  }
  return 0;
}

void ChainKinematics::PointJacobian(int body, const Eigen::Vector3d& p_W,
                                    SparseJacobian3* J) const {
  J->index = chain_columns_[body];
  J->column.resize(J->index.size());
  Eigen::Vector3d* column = J->column.data();
  for (int j : chain_[body]) column += JointColumns(j, p_W, column);
}

void ChainKinematics::JointRotationColumns(int j, Eigen::Vector3d* column) const {
  const Joint& joint = scene_->joints[j];
  const auto R_WJ = X_WJ_[j].linear();
  switch (joint.type) {
    case JointType::kFixed:
      break;
    case JointType::kRevolute:
      *column = R_WJ * joint.axis;
      break;
    case JointType::kPrismatic:
      column->setZero();
      break;
    case JointType::kPlanar:
      column[0].setZero();
      column[1].setZero();
      column[2] = R_WJ.col(2);
      break;
    case JointType::kFloating:
      for (int c = 0; c < 3; ++c) column[c].setZero();
      for (int c = 0; c < 3; ++c) column[3 + c] = R_WJ.col(c);
      break;
  }
}

void ChainKinematics::RotationalJacobian(int body, SparseJacobian3* J) const {
  J->index = chain_columns_[body];
  J->column.resize(J->index.size());
  Eigen::Vector3d* column = J->column.data();
  for (int j : chain_[body]) {
    JointRotationColumns(j, column);
    column += JointNv(scene_->joints[j].type);
  }
}

void ChainKinematics::ColumnTwists(std::vector<SpatialTwist>* twists) const {
  twists->resize(scene_->nv);
  for (size_t j = 0; j < scene_->joints.size(); ++j) {
    const Joint& joint = scene_->joints[j];
    SpatialTwist* S = twists->data() + joint.v_start;
    const auto R_WJ = X_WJ_[j].linear();
    const Eigen::Vector3d child_origin = X_WB_[joint.child_body].translation();
    // A rotation about the unit axis a through the point c: p moves with a × (p − c), i.e.
    // (a, c × a); a translation along a: (0, a).
    switch (joint.type) {
      case JointType::kFixed:
        break;
      case JointType::kRevolute:
        S[0].angular = axis_W_[j];
        S[0].linear = X_WJ_[j].translation().cross(axis_W_[j]);
        break;
      case JointType::kPrismatic:
        S[0].angular.setZero();
        S[0].linear = axis_W_[j];
        break;
      case JointType::kPlanar:
        for (int c = 0; c < 2; ++c) {
          S[c].angular.setZero();
          S[c].linear = R_WJ.col(c);
        }
        S[2].angular = R_WJ.col(2);
        S[2].linear = child_origin.cross(S[2].angular);
        break;
      case JointType::kFloating:
        for (int c = 0; c < 3; ++c) {
          S[c].angular.setZero();
          S[c].linear = R_WJ.col(c);
          S[3 + c].angular = R_WJ.col(c);
          S[3 + c].linear = child_origin.cross(S[3 + c].angular);
        }
        break;
    }
  }
}

void ChainKinematics::BodyTwistAndWrench(int body, const Eigen::VectorXd& v,
                                         const Eigen::Vector3d& force,
                                         const Eigen::Vector3d& torque, Eigen::Vector3d* omega,
                                         Eigen::Vector3d* origin_velocity,
                                         Eigen::Ref<Eigen::VectorXd> out) const {
  omega->setZero();
  origin_velocity->setZero();
  const Eigen::Vector3d origin = X_WB_[body].translation();
  const std::vector<int>& chain = chain_[body];
  const std::vector<int>& starts = chain_starts_[body];
  // Per joint, the columns of JointColumns at o and of JointRotationColumns: a rotation about
  // the unit axis a through the point c has the linear column a × (o − c) and the angular
  // column a, whose generalised force is (a × (o − c))·F + a·T = a·(T + (o − c) × F), the
  // torque about c; a translation along a has a·F.
  for (size_t i = 0; i < chain.size(); ++i) {
    const int j = chain[i], start = starts[i];
    const Joint& joint = scene_->joints[j];
    const auto R_WJ = X_WJ_[j].linear();
    switch (joint.type) {
      case JointType::kFixed:
        break;
      case JointType::kRevolute: {
        const Eigen::Vector3d& a = axis_W_[j];
        const Eigen::Vector3d r = origin - X_WJ_[j].translation();
        *origin_velocity += a.cross(r) * v[start];
        *omega += a * v[start];
        out[start] += a.dot(torque + r.cross(force));
        break;
      }
      case JointType::kPrismatic:
        *origin_velocity += axis_W_[j] * v[start];
        out[start] += axis_W_[j].dot(force);
        break;
      case JointType::kPlanar: {
        const Eigen::Vector3d r = origin - X_WB_[joint.child_body].translation();
        for (int c = 0; c < 2; ++c) {
          *origin_velocity += R_WJ.col(c) * v[start + c];
          out[start + c] += R_WJ.col(c).dot(force);
        }
        const Eigen::Vector3d a = R_WJ.col(2);
        *origin_velocity += a.cross(r) * v[start + 2];
        *omega += a * v[start + 2];
        out[start + 2] += a.dot(torque + r.cross(force));
        break;
      }
      case JointType::kFloating: {
        const Eigen::Vector3d r = origin - X_WB_[joint.child_body].translation();
        const Eigen::Vector3d torque_at_child = torque + r.cross(force);
        for (int c = 0; c < 3; ++c) {
          const Eigen::Vector3d a = R_WJ.col(c);
          *origin_velocity += a * v[start + c] + a.cross(r) * v[start + 3 + c];
          *omega += a * v[start + 3 + c];
          out[start + c] += a.dot(force);
          out[start + 3 + c] += a.dot(torque_at_child);
        }
        break;
      }
    }
  }
}

}  // namespace quasidyn
