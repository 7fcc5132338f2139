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
  for (int j = 0; j < joint_count; ++j)
    for (int i = 0; i < JointNv(scene.joints[j].type); ++i)
      joint_of_velocity_[scene.joints[j].v_start + i] = j;
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
  q_base_ = IntegrateConfiguration(*scene_, q, Eigen::VectorXd::Zero(scene_->nv), 0.0);
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

Eigen::Vector3d ChainKinematics::ContractContactJacobian(int body_a, const Eigen::Vector3d& p_A,
                                                         int body_b, const Eigen::Vector3d& p_B,
                                                         const Eigen::VectorXd& v, double weight,
                                                         const Eigen::Vector3d& f,
                                                         Eigen::Ref<Eigen::VectorXd> out) const {
  const std::vector<int>& chain_a = chain_[body_a];
  const std::vector<int>& chain_b = chain_[body_b];
  const std::vector<int>& starts_a = chain_starts_[body_a];
  const std::vector<int>& starts_b = chain_starts_[body_b];
  const size_t count_a = chain_a.size(), count_b = chain_b.size();
  Eigen::Vector3d product = Eigen::Vector3d::Zero();
  // Column J(:, index): J v summed in increasing index, out += (weight J)ᵀ f.
  const auto accumulate = [&](const Eigen::Vector3d& J, int index) {
    product += J * v[index];
    out[index] += ((weight * J[0]) * f[0] + (weight * J[1]) * f[1]) + (weight * J[2]) * f[2];
  };
  Eigen::Vector3d a[6], b[6];
  size_t i = 0, k = 0;
  // Merge the two chains by velocity index (a joint's coordinates are contiguous, so by
  // v_start): a column of A only, of B only (negated) or of both (A − B).
  while (i < count_a || k < count_b) {
    const int start_a = i < count_a ? starts_a[i] : scene_->nv;
    const int start_b = k < count_b ? starts_b[k] : scene_->nv;
    if (start_a < start_b) {
      const int count = JointColumns(chain_a[i++], p_A, a);
      for (int c = 0; c < count; ++c) accumulate(a[c], start_a + c);
    } else if (start_b < start_a) {
      const int count = JointColumns(chain_b[k++], p_B, b);
      for (int c = 0; c < count; ++c) accumulate(-b[c], start_b + c);
    } else {
      const int count = JointColumns(chain_a[i++], p_A, a);
      JointColumns(chain_b[k++], p_B, b);
      for (int c = 0; c < count; ++c) accumulate(a[c] - b[c], start_a + c);
    }
  }
  return product;
}

void ChainKinematics::RotationalJacobian(int body, SparseJacobian3* J) const {
  J->index = chain_columns_[body];
  J->column.resize(J->index.size());
  Eigen::Vector3d* column = J->column.data();
  for (int j : chain_[body]) {
    const Joint& joint = scene_->joints[j];
    const auto R_WJ = X_WJ_[j].linear();
    switch (joint.type) {
      case JointType::kFixed:
        break;
      case JointType::kRevolute:
        *column++ = R_WJ * joint.axis;
        break;
      case JointType::kPrismatic:
        (column++)->setZero();
        break;
      case JointType::kPlanar:
        (column++)->setZero();
        (column++)->setZero();
        *column++ = R_WJ.col(2);
        break;
      case JointType::kFloating:
        for (int c = 0; c < 3; ++c) (column++)->setZero();
        for (int c = 0; c < 3; ++c) *column++ = R_WJ.col(c);
        break;
    }
  }
}

}  // namespace quasidyn
