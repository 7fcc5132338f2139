#include "quasidyn/gradients/configuration_map.h"

#include <cmath>
#include <stdexcept>

#include "quasidyn/math/quaternion.h"

namespace quasidyn {
namespace {

void CheckSizes(const char* caller, const Scene& scene, const Eigen::VectorXd& q,
                const Eigen::VectorXd* v) {
  if (q.size() != scene.nq)
    throw std::invalid_argument(std::string(caller) + ": q has size " + std::to_string(q.size()) +
                                ", the scene has n_q = " + std::to_string(scene.nq));
  if (v != nullptr && v->size() != scene.nv)
    throw std::invalid_argument(std::string(caller) + ": v has size " + std::to_string(v->size()) +
                                ", the scene has n_v = " + std::to_string(scene.nv));
}

// L(a) with a ⊗ b = L(a) b, built column by column from the Hamilton product.
Eigen::Matrix4d LeftProductMatrix(const Eigen::Vector4d& a) {
  Eigen::Matrix4d L;
  for (int k = 0; k < 4; ++k) L.col(k) = QuaternionProduct(a, Eigen::Vector4d::Unit(k));
  return L;
}

// R(b) with a ⊗ b = R(b) a.
Eigen::Matrix4d RightProductMatrix(const Eigen::Vector4d& b) {
  Eigen::Matrix4d R;
  for (int k = 0; k < 4; ++k) R.col(k) = QuaternionProduct(Eigen::Vector4d::Unit(k), b);
  return R;
}

}  // namespace

Eigen::Matrix<double, 4, 3> RotationVectorQuaternionJacobian(const Eigen::Vector3d& theta) {
  const double a = theta.norm();
  // e = (cos(a/2), s(a) θ) with s(a) = sin(a/2)/a; ∂a/∂θ = θᵀ/a.
  //   ∂w/∂θ = −½ sin(a/2) θᵀ/a = −½ s(a) θᵀ,
  //   ∂(s θ)/∂θ = s I + θ (s'(a)/a) θᵀ,  s'(a)/a = (½ a cos(a/2) − sin(a/2)) / a³.
  double s, ds_over_a;
  if (a < 1e-4) {
    s = 0.5 - a * a / 48.0;                   // sin(a/2)/a = ½ − a²/48 + O(a⁴)
    ds_over_a = -1.0 / 24.0 + a * a / 960.0;  // derivative of the series, divided by a
  } else {
    s = std::sin(0.5 * a) / a;
    ds_over_a = (0.5 * a * std::cos(0.5 * a) - std::sin(0.5 * a)) / (a * a * a);
  }
  Eigen::Matrix<double, 4, 3> D;
  D.row(0) = -0.5 * s * theta.transpose();
  D.bottomRows<3>() = s * Eigen::Matrix3d::Identity() + ds_over_a * theta * theta.transpose();
  return D;
}

Eigen::MatrixXd IntegrationJacobianWrtConfiguration(const Scene& scene, const Eigen::VectorXd& q,
                                                    const Eigen::VectorXd& v, double dt) {
  CheckSizes("IntegrationJacobianWrtConfiguration", scene, q, &v);
  Eigen::MatrixXd D = Eigen::MatrixXd::Identity(scene.nq, scene.nq);
  for (const Joint& joint : scene.joints) {
    if (joint.type != JointType::kFloating) continue;
    const int iq = joint.q_start + 3;
    const Eigen::Vector4d Q = q.segment<4>(iq);
    const Eigen::Vector4d Q_unit = NormalizeQuaternion(Q);
    const Eigen::Vector4d e = QuaternionFromRotationVector(v.segment<3>(joint.v_start + 3) * dt);
    const Eigen::Matrix4d L = LeftProductMatrix(e);
    // Q⁺ = normalize(L(e) normalize(Q)): chain rule.
    D.block<4, 4>(iq, iq) = NormalizationJacobian(L * Q_unit) * L * NormalizationJacobian(Q);
  }
  return D;
}

Eigen::MatrixXd IntegrationJacobianWrtVelocity(const Scene& scene, const Eigen::VectorXd& q,
                                               const Eigen::VectorXd& v, double dt) {
  CheckSizes("IntegrationJacobianWrtVelocity", scene, q, &v);
  Eigen::MatrixXd D = Eigen::MatrixXd::Zero(scene.nq, scene.nv);
  for (const Joint& joint : scene.joints) {
    if (joint.type == JointType::kFloating) {
      D.block<3, 3>(joint.q_start, joint.v_start) = dt * Eigen::Matrix3d::Identity();
      const Eigen::Vector4d Q_unit = NormalizeQuaternion(q.segment<4>(joint.q_start + 3));
      const Eigen::Vector3d theta = v.segment<3>(joint.v_start + 3) * dt;
      const Eigen::Vector4d e = QuaternionFromRotationVector(theta);
      D.block<4, 3>(joint.q_start + 3, joint.v_start + 3) =
          dt * NormalizationJacobian(QuaternionProduct(e, Q_unit)) * RightProductMatrix(Q_unit) *
          RotationVectorQuaternionJacobian(theta);
    } else {
      const int n = JointNv(joint.type);
      D.block(joint.q_start, joint.v_start, n, n) = dt * Eigen::MatrixXd::Identity(n, n);
    }
  }
  return D;
}

Eigen::MatrixXd TangentFromConfiguration(const Scene& scene, const Eigen::VectorXd& q) {
  CheckSizes("TangentFromConfiguration", scene, q, nullptr);
  Eigen::MatrixXd T = Eigen::MatrixXd::Zero(scene.nv, scene.nq);
  for (const Joint& joint : scene.joints) {
    if (joint.type == JointType::kFloating) {
      T.block<3, 3>(joint.v_start, joint.q_start).setIdentity();
      const Eigen::Vector4d Q = q.segment<4>(joint.q_start + 3);
      T.block<3, 4>(joint.v_start + 3, joint.q_start + 3) =
          4.0 * QuaternionRateMap(NormalizeQuaternion(Q)).transpose() * NormalizationJacobian(Q);
    } else {
      const int n = JointNv(joint.type);
      T.block(joint.v_start, joint.q_start, n, n).setIdentity();
    }
  }
  return T;
}

}  // namespace quasidyn
