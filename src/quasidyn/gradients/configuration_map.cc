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

// The quaternion blocks of a floating joint (its coordinates q_start + 3 … + 6, velocities
// v_start + 3 … + 5) of the three maps of the header.
Eigen::Matrix4d QuaternionConfigurationBlock(QuaternionUpdate update, const Joint& joint,
                                             const Eigen::VectorXd& q, const Eigen::VectorXd& v,
                                             double dt);
Eigen::Matrix<double, 4, 3> QuaternionVelocityBlock(QuaternionUpdate update, const Joint& joint,
                                                    const Eigen::VectorXd& q,
                                                    const Eigen::VectorXd& v, double dt);
Eigen::Matrix<double, 3, 4> QuaternionTangentBlock(const Joint& joint, const Eigen::VectorXd& q);

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

namespace {

Eigen::Matrix4d QuaternionConfigurationBlock(QuaternionUpdate update, const Joint& joint,
                                             const Eigen::VectorXd& q, const Eigen::VectorXd& v,
                                             double dt) {
  const Eigen::Vector4d Q = q.segment<4>(joint.q_start + 3);
  const Eigen::Vector4d Q_unit = NormalizeQuaternion(Q);
  if (update == QuaternionUpdate::kFirstOrder) {
    // Q⁺ = normalize(P), P = Q̂ + dt E(Q̂) ω = (I + ½ dt L([0; ω])) Q̂ (E(Q) ω = ½ [0; ω] ⊗ Q).
    const Eigen::Vector3d omega = v.segment<3>(joint.v_start + 3);
    const Eigen::Matrix4d M =
        Eigen::Matrix4d::Identity() +
        0.5 * dt * LeftProductMatrix(Eigen::Vector4d(0.0, omega.x(), omega.y(), omega.z()));
    return NormalizationJacobian(M * Q_unit) * M * NormalizationJacobian(Q);
  }
  const Eigen::Vector4d e = QuaternionFromRotationVector(v.segment<3>(joint.v_start + 3) * dt);
  const Eigen::Matrix4d L = LeftProductMatrix(e);
  // Q⁺ = normalize(L(e) normalize(Q)): chain rule.
  return NormalizationJacobian(L * Q_unit) * L * NormalizationJacobian(Q);
}

Eigen::Matrix<double, 4, 3> QuaternionVelocityBlock(QuaternionUpdate update, const Joint& joint,
                                                    const Eigen::VectorXd& q,
                                                    const Eigen::VectorXd& v, double dt) {
  const Eigen::Vector4d Q_unit = NormalizeQuaternion(q.segment<4>(joint.q_start + 3));
  if (update == QuaternionUpdate::kFirstOrder) {
    // Q⁺ = normalize(Q̂ + dt E(Q̂) ω): ∂Q⁺/∂ω = dt NJ(P) E(Q̂).
    const Eigen::Matrix<double, 4, 3> E = QuaternionRateMap(Q_unit);
    const Eigen::Vector4d P = Q_unit + dt * (E * v.segment<3>(joint.v_start + 3));
    return dt * NormalizationJacobian(P) * E;
  }
  const Eigen::Vector3d theta = v.segment<3>(joint.v_start + 3) * dt;
  const Eigen::Vector4d e = QuaternionFromRotationVector(theta);
  return dt * NormalizationJacobian(QuaternionProduct(e, Q_unit)) * RightProductMatrix(Q_unit) *
         RotationVectorQuaternionJacobian(theta);
}

Eigen::Matrix<double, 3, 4> QuaternionTangentBlock(const Joint& joint, const Eigen::VectorXd& q) {
  const Eigen::Vector4d Q = q.segment<4>(joint.q_start + 3);
  return 4.0 * QuaternionRateMap(NormalizeQuaternion(Q)).transpose() * NormalizationJacobian(Q);
}

}  // namespace

Eigen::MatrixXd IntegrationJacobianWrtConfiguration(const Scene& scene, const Eigen::VectorXd& q,
                                                    const Eigen::VectorXd& v, double dt) {
  CheckSizes("IntegrationJacobianWrtConfiguration", scene, q, &v);
  Eigen::MatrixXd D = Eigen::MatrixXd::Identity(scene.nq, scene.nq);
  for (const Joint& joint : scene.joints)
    if (joint.type == JointType::kFloating)
      D.block<4, 4>(joint.q_start + 3, joint.q_start + 3) =
          QuaternionConfigurationBlock(scene.conventions.quaternion_update, joint, q, v, dt);
  return D;
}

Eigen::MatrixXd IntegrationJacobianWrtVelocity(const Scene& scene, const Eigen::VectorXd& q,
                                               const Eigen::VectorXd& v, double dt) {
  CheckSizes("IntegrationJacobianWrtVelocity", scene, q, &v);
  Eigen::MatrixXd D = Eigen::MatrixXd::Zero(scene.nq, scene.nv);
  for (const Joint& joint : scene.joints) {
    if (joint.type == JointType::kFloating) {
      D.block<3, 3>(joint.q_start, joint.v_start) = dt * Eigen::Matrix3d::Identity();
      D.block<4, 3>(joint.q_start + 3, joint.v_start + 3) =
          QuaternionVelocityBlock(scene.conventions.quaternion_update, joint, q, v, dt);
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
      T.block<3, 4>(joint.v_start + 3, joint.q_start + 3) = QuaternionTangentBlock(joint, q);
    } else {
      const int n = JointNv(joint.type);
      T.block(joint.v_start, joint.q_start, n, n).setIdentity();
    }
  }
  return T;
}

void ChainToConfiguration(const Scene& scene, const Eigen::VectorXd& q, const Eigen::VectorXd& v,
                          double dt, const Eigen::MatrixXd& dv_dq, const Eigen::MatrixXd& dv_du,
                          Eigen::MatrixXd* A, Eigen::MatrixXd* B) {
  CheckSizes("ChainToConfiguration", scene, q, &v);
  const int nq = scene.nq, nv = scene.nv;
  const bool want_a = dv_dq.size() > 0;
  if (dv_du.rows() != nv || (want_a && (dv_dq.rows() != nv || dv_dq.cols() != nv)))
    throw std::invalid_argument("ChainToConfiguration: dv_dq must be n_v × n_v (" +
                                std::to_string(nv) + ") or empty, dv_du must have n_v rows");
  // Without floating joints and with every joint's coordinates at its velocities' indices
  // (q_start = v_start: planar scenes, arms), ∂(q ⊕ dt·v)/∂v = dt·I, T(q) = I and
  // ∂(q ⊕ dt·v)/∂q = I, so A = I + dt·dv_dq and B = dt·dv_du: the general path's arithmetic
  // without its row-by-row maps (the same numbers).
  bool identity_layout = nq == nv;
  for (const Joint& joint : scene.joints)
    identity_layout =
        identity_layout && joint.type != JointType::kFloating && joint.q_start == joint.v_start;
  if (identity_layout) {
    B->noalias() = dt * dv_du;
    if (!want_a) {
      A->resize(0, 0);
      return;
    }
    A->noalias() = dt * dv_dq;
    A->diagonal().array() += 1.0;
    return;
  }
  // Y = dv_dq · T(q) into the top n_v rows of A (skipped when A is not wanted). A floating
  // joint's quaternion columns of Y are 4 sums of 3 columns of dv_dq (T's 3 × 4 block), made
  // column by column.
  B->resize(nq, dv_du.cols());
  if (want_a) {
    A->resize(nq, nq);
    for (const Joint& joint : scene.joints) {
      if (joint.type == JointType::kFloating) {
        A->block(0, joint.q_start, nv, 3) = dv_dq.middleCols(joint.v_start, 3);
        const Eigen::Matrix<double, 3, 4> T = QuaternionTangentBlock(joint, q);
        const double* w0 = dv_dq.col(joint.v_start + 3).data();
        const double* w1 = dv_dq.col(joint.v_start + 4).data();
        const double* w2 = dv_dq.col(joint.v_start + 5).data();
        for (int m = 0; m < 4; ++m) {
          double* y = A->col(joint.q_start + 3 + m).data();
          const double t0 = T(0, m), t1 = T(1, m), t2 = T(2, m);
          for (int r = 0; r < nv; ++r) y[r] = w0[r] * t0 + w1[r] * t1 + w2[r] * t2;
        }
      } else {
        const int n = JointNv(joint.type);
        A->block(0, joint.q_start, nv, n) = dv_dq.middleCols(joint.v_start, n);
      }
    }
  } else {
    A->resize(0, 0);
  }
  // B = ∂(q ⊕ dt·v)/∂v · dv_du and A = ∂(q ⊕ dt·v)/∂v · Y (in place), joint by joint: a
  // floating joint's 4 × 3 quaternion block D is formed once for both. out (column-major, n_q
  // rows) from in (n_v rows, column stride in_stride): `in` may be the top n_v rows of out
  // itself, since the joints are taken last to first and a joint's rows of out start at or
  // after its rows of in (q_start >= v_start), so no row is read after it was written.
  const auto apply_joint = [&](const Joint& joint, const Eigen::Matrix<double, 4, 3>& D,
                               const double* in, Eigen::Index in_stride, int columns,
                               Eigen::MatrixXd* out) {
    double* const out_data = out->data();
    const Eigen::Index out_stride = out->rows();
    if (joint.type == JointType::kFloating) {
      for (int c = 0; c < columns; ++c) {
        const double* x = in + c * in_stride + joint.v_start;
        double* y = out_data + c * out_stride + joint.q_start;
        const double x0 = x[0], x1 = x[1], x2 = x[2], w0 = x[3], w1 = x[4], w2 = x[5];
        for (int r = 0; r < 4; ++r) y[3 + r] = D(r, 0) * w0 + D(r, 1) * w1 + D(r, 2) * w2;
        y[0] = dt * x0;
        y[1] = dt * x1;
        y[2] = dt * x2;
      }
    } else {
      for (int k = JointNv(joint.type) - 1; k >= 0; --k)
        for (int c = 0; c < columns; ++c)
          out_data[c * out_stride + joint.q_start + k] = dt * in[c * in_stride + joint.v_start + k];
    }
  };
  const QuaternionUpdate update = scene.conventions.quaternion_update;
  for (int j = static_cast<int>(scene.joints.size()) - 1; j >= 0; --j) {
    const Joint& joint = scene.joints[j];
    const Eigen::Matrix<double, 4, 3> D = joint.type == JointType::kFloating
                                              ? QuaternionVelocityBlock(update, joint, q, v, dt)
                                              : Eigen::Matrix<double, 4, 3>::Zero();
    apply_joint(joint, D, dv_du.data(), dv_du.rows(), static_cast<int>(dv_du.cols()), B);
    if (want_a) apply_joint(joint, D, A->data(), A->rows(), nq, A);
  }
  if (!want_a) return;
  for (const Joint& joint : scene.joints) {
    if (joint.type == JointType::kFloating) {
      A->diagonal().segment<3>(joint.q_start).array() += 1.0;
      A->block<4, 4>(joint.q_start + 3, joint.q_start + 3) +=
          QuaternionConfigurationBlock(scene.conventions.quaternion_update, joint, q, v, dt);
    } else {
      A->diagonal().segment(joint.q_start, JointNq(joint.type)).array() += 1.0;
    }
  }
}

}  // namespace quasidyn
