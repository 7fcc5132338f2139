#include "quasidyn/kinematics/kinematics.h"

#include <cmath>
#include <stdexcept>
#include <string>

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

void CheckVector(const char* caller, const char* what, const Eigen::VectorXd& x, int size) {
  if (x.size() != size) {
    throw std::invalid_argument(std::string(caller) + ": " + what + " has size " +
                                std::to_string(x.size()) + ", expected " + std::to_string(size));
  }
  for (int i = 0; i < size; ++i) {
    if (!std::isfinite(x[i])) {
      throw std::invalid_argument(std::string(caller) + ": " + what + "[" + std::to_string(i) +
                                  "] is not finite");
    }
  }
}

void CheckQuaternions(const char* caller, const Scene& scene, const Eigen::VectorXd& q) {
  for (const Joint& joint : scene.joints) {
    if (joint.type == JointType::kFloating && q.segment<4>(joint.q_start + 3).norm() == 0.0) {
      throw std::invalid_argument(std::string(caller) + ": the quaternion of floating joint '" +
                                  joint.name + "' (q[" + std::to_string(joint.q_start + 3) +
                                  "..]) is zero");
    }
  }
}

// X_JC: the child frame in the joint frame for the joint's coordinates (model/scene.h).
Eigen::Isometry3d JointMotion(const Joint& joint, const Eigen::VectorXd& q) {
  Eigen::Isometry3d X_JC = Eigen::Isometry3d::Identity();
  const int i = joint.q_start;
  switch (joint.type) {
    case JointType::kFixed:
      break;
    case JointType::kRevolute:
      X_JC.linear() = Eigen::AngleAxisd(q[i], joint.axis).toRotationMatrix();
      break;
    case JointType::kPrismatic:
      X_JC.translation() = q[i] * joint.axis;
      break;
    case JointType::kPlanar:
      X_JC.translation() = Eigen::Vector3d(q[i], q[i + 1], 0.0);
      X_JC.linear() = Eigen::AngleAxisd(q[i + 2], Eigen::Vector3d::UnitZ()).toRotationMatrix();
      break;
    case JointType::kFloating:
      X_JC.translation() = q.segment<3>(i);
      X_JC.linear() = RotationMatrixFromQuaternion(q.segment<4>(i + 3));
      break;
  }
  return X_JC;
}

}  // namespace

Kinematics::Kinematics(const Scene& scene)
    : scene_(scene),
      X_WB_(scene.bodies.size(), Eigen::Isometry3d::Identity()),
      X_WJ_(scene.joints.size(), Eigen::Isometry3d::Identity()) {
  ValidateScene(scene);
}

void Kinematics::Update(const Eigen::VectorXd& q) {
  CheckVector("Kinematics::Update", "q", q, scene_.nq);
  CheckQuaternions("Kinematics::Update", scene_, q);
  q_ = q;
  // Joints are ordered parents first, so X_WP is ready when joint j is reached.
  for (size_t j = 0; j < scene_.joints.size(); ++j) {
    const Joint& joint = scene_.joints[j];
    X_WJ_[j] = X_WB_[joint.parent_body] * joint.X_PJ;
    X_WB_[joint.child_body] = X_WJ_[j] * JointMotion(joint, q);
  }
}

// Each joint's columns are the velocity of the point p_W per unit joint velocity
// (Murray, Li & Sastry 1994, §3.4, the spatial Jacobian: a revolute twist moves p by
// a × (p − o), a prismatic one by a; planar and floating joints are their translation
// and rotation columns, the rotation pivoting about the child origin o_C).
void Kinematics::PointJacobian(int body, const Eigen::Vector3d& p_W, Eigen::MatrixXd* J) const {
  if (J == nullptr) throw std::invalid_argument("Kinematics::PointJacobian: J is null");
  if (body < 0 || body >= static_cast<int>(scene_.bodies.size())) {
    throw std::invalid_argument("Kinematics::PointJacobian: body index " + std::to_string(body) +
                                " out of range");
  }
  if (J->rows() != 3 || J->cols() != scene_.nv) J->resize(3, scene_.nv);
  J->setZero();
  for (int j = ParentJointOf(scene_, body); j >= 0;
       j = ParentJointOf(scene_, scene_.joints[j].parent_body)) {
    const Joint& joint = scene_.joints[j];
    const auto R_WJ = X_WJ_[j].linear();
    const int v = joint.v_start;
    switch (joint.type) {
      case JointType::kFixed:
        break;
      case JointType::kRevolute:
        J->col(v) = (R_WJ * joint.axis).cross(p_W - X_WJ_[j].translation());
        break;
      case JointType::kPrismatic:
        J->col(v) = R_WJ * joint.axis;
        break;
      case JointType::kPlanar: {
        const Eigen::Vector3d r = p_W - X_WB_[joint.child_body].translation();
        J->col(v) = R_WJ.col(0);
        J->col(v + 1) = R_WJ.col(1);
        J->col(v + 2) = R_WJ.col(2).cross(r);
        break;
      }
      case JointType::kFloating: {
        const Eigen::Vector3d r = p_W - X_WB_[joint.child_body].translation();
        J->block<3, 3>(0, v) = R_WJ;
        for (int k = 0; k < 3; ++k) J->col(v + 3 + k) = R_WJ.col(k).cross(r);
        break;
      }
    }
  }
}

void Kinematics::RotationalJacobian(int body, Eigen::MatrixXd* J) const {
  if (J == nullptr) throw std::invalid_argument("Kinematics::RotationalJacobian: J is null");
  if (body < 0 || body >= static_cast<int>(scene_.bodies.size())) {
    throw std::invalid_argument("Kinematics::RotationalJacobian: body index " +
                                std::to_string(body) + " out of range");
  }
  if (J->rows() != 3 || J->cols() != scene_.nv) J->resize(3, scene_.nv);
  J->setZero();
  for (int j = ParentJointOf(scene_, body); j >= 0;
       j = ParentJointOf(scene_, scene_.joints[j].parent_body)) {
    const Joint& joint = scene_.joints[j];
    const auto R_WJ = X_WJ_[j].linear();
    const int v = joint.v_start;
    switch (joint.type) {
      case JointType::kFixed:
      case JointType::kPrismatic:
        break;
      case JointType::kRevolute:
        J->col(v) = R_WJ * joint.axis;
        break;
      case JointType::kPlanar:
        J->col(v + 2) = R_WJ.col(2);
        break;
      case JointType::kFloating:
        J->block<3, 3>(0, v + 3) = R_WJ;
        break;
    }
  }
}

// M = Σ_b m_b J_com,bᵀ J_com,b + J_ω,bᵀ (R_WB I_b R_WBᵀ) J_ω,b: the kinetic energy of
// rigid bodies, ½ Σ (m |v_com|² + ω·I_W ω) (Featherstone, "Rigid Body Dynamics
// Algorithms", 2008, eq. 6.2 written with body Jacobians). Only each body's ancestor
// columns are non-zero, so the products use those columns alone.
Eigen::MatrixXd Kinematics::MassMatrix() const {
  const int nv = scene_.nv;
  Eigen::MatrixXd M = Eigen::MatrixXd::Zero(nv, nv);
  Eigen::MatrixXd J_com, J_rot;
  std::vector<int> columns;
  columns.reserve(nv);
  Eigen::Matrix<double, 3, Eigen::Dynamic> J_com_columns, J_rot_columns;
  for (int b = 1; b < static_cast<int>(scene_.bodies.size()); ++b) {
    const Body& body = scene_.bodies[b];
    columns.clear();
    for (int j = body.parent_joint; j >= 0;
         j = ParentJointOf(scene_, scene_.joints[j].parent_body)) {
      const Joint& joint = scene_.joints[j];
      for (int k = 0; k < JointNv(joint.type); ++k) columns.push_back(joint.v_start + k);
    }
    if (columns.empty()) continue;
    const Eigen::Isometry3d& X_WB = X_WB_[b];
    PointJacobian(b, X_WB * body.com, &J_com);
    RotationalJacobian(b, &J_rot);
    const int n = static_cast<int>(columns.size());
    J_com_columns.resize(3, n);
    J_rot_columns.resize(3, n);
    for (int c = 0; c < n; ++c) {
      J_com_columns.col(c) = J_com.col(columns[c]);
      J_rot_columns.col(c) = J_rot.col(columns[c]);
    }
    const Eigen::Matrix3d inertia_W = X_WB.linear() * body.inertia * X_WB.linear().transpose();
    const Eigen::MatrixXd block = body.mass * J_com_columns.transpose() * J_com_columns +
                                  J_rot_columns.transpose() * inertia_W * J_rot_columns;
    for (int r = 0; r < n; ++r) {
      for (int c = 0; c < n; ++c) M(columns[r], columns[c]) += block(r, c);
    }
  }
  // Rounding can leave the two triangles a few ulps apart; make M exactly symmetric.
  return 0.5 * (M + M.transpose());
}

Eigen::MatrixXd Kinematics::VelocityToQdot() const {
  if (q_.size() != scene_.nq) {
    throw std::logic_error("Kinematics::VelocityToQdot: call Update(q) first");
  }
  Eigen::MatrixXd N = Eigen::MatrixXd::Zero(scene_.nq, scene_.nv);
  for (const Joint& joint : scene_.joints) {
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
  CheckVector("IntegrateConfiguration", "q", q, scene.nq);
  CheckVector("IntegrateConfiguration", "v", v, scene.nv);
  if (!std::isfinite(dt)) throw std::invalid_argument("IntegrateConfiguration: dt is not finite");
  CheckQuaternions("IntegrateConfiguration", scene, q);
  Eigen::VectorXd next = q;
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
  return next;
}

void NormalizeQuaternions(const Scene& scene, Eigen::VectorXd* q) {
  if (q == nullptr) throw std::invalid_argument("NormalizeQuaternions: q is null");
  if (q->size() != scene.nq) {
    throw std::invalid_argument("NormalizeQuaternions: q has size " + std::to_string(q->size()) +
                                ", expected " + std::to_string(scene.nq));
  }
  for (const Joint& joint : scene.joints) {
    if (joint.type != JointType::kFloating) continue;
    q->segment<4>(joint.q_start + 3) = NormalizeQuaternion(q->segment<4>(joint.q_start + 3));
  }
}

}  // namespace quasidyn
