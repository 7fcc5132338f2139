#include "quasidyn/math/quaternion.h"

#include <Eigen/Geometry>
#include <cmath>
#include <stdexcept>
#include <string>

#include "quasidyn/math/rotation.h"

namespace quasidyn {

Eigen::Vector4d QuaternionProduct(const Eigen::Vector4d& a, const Eigen::Vector4d& b) {
  // Solà 2017, eq. 12: (a_w b_w − a_v·b_v, a_w b_v + b_w a_v + a_v × b_v).
  const Eigen::Vector3d a_v = a.tail<3>();
  const Eigen::Vector3d b_v = b.tail<3>();
  Eigen::Vector4d product;
  product[0] = a[0] * b[0] - a_v.dot(b_v);
  product.tail<3>() = a[0] * b_v + b[0] * a_v + a_v.cross(b_v);
  return product;
}

Eigen::Vector4d IdentityQuaternion() { return Eigen::Vector4d(1.0, 0.0, 0.0, 0.0); }

Eigen::Matrix<double, 4, 3> QuaternionRateMap(const Eigen::Vector4d& Q) {
  const double w = Q[0];
  const Eigen::Vector3d u = Q.tail<3>();
  Eigen::Matrix<double, 4, 3> E;
  E.row(0) = -0.5 * u.transpose();
  E.bottomRows<3>() = 0.5 * (w * Eigen::Matrix3d::Identity() - Skew(u));
  return E;
}

namespace {
double CheckedNorm(const Eigen::Vector4d& Q, const char* caller) {
  const double norm = Q.norm();
  if (!std::isfinite(norm) || norm == 0.0) {
    throw std::invalid_argument(std::string(caller) + ": quaternion must be finite and non-zero");
  }
  return norm;
}
}  // namespace

Eigen::Vector4d NormalizeQuaternion(const Eigen::Vector4d& Q) {
  return Q / CheckedNorm(Q, "NormalizeQuaternion");
}

Eigen::Matrix4d NormalizationJacobian(const Eigen::Vector4d& Q) {
  const double norm = CheckedNorm(Q, "NormalizationJacobian");
  const Eigen::Vector4d unit = Q / norm;
  return (Eigen::Matrix4d::Identity() - unit * unit.transpose()) / norm;
}

Eigen::Vector4d QuaternionFromRotationVector(const Eigen::Vector3d& rotation_vector) {
  const double angle = rotation_vector.norm();
  const double half = 0.5 * angle;
  double cos_half, sin_half_over_angle;
  if (angle < 1e-4) {
    // Taylor series: cos(θ/2) = 1 − θ²/8 + θ⁴/384, sin(θ/2)/θ = ½ − θ²/48 + θ⁴/3840;
    // the first omitted terms, θ⁶/46080 and θ⁶/645120, are below 1e-28 for θ < 1e-4.
    const double angle2 = angle * angle;
    cos_half = 1.0 - angle2 / 8.0 + angle2 * angle2 / 384.0;
    sin_half_over_angle = 0.5 - angle2 / 48.0 + angle2 * angle2 / 3840.0;
  } else {
    cos_half = std::cos(half);
    sin_half_over_angle = std::sin(half) / angle;
  }
  Eigen::Vector4d Q;
  Q[0] = cos_half;
  Q.tail<3>() = sin_half_over_angle * rotation_vector;
  return Q;
}

Eigen::Vector4d IntegrateQuaternion(const Eigen::Vector4d& Q, const Eigen::Vector3d& omega,
                                    double dt) {
  const Eigen::Vector4d unit = Q / CheckedNorm(Q, "IntegrateQuaternion");
  const Eigen::Vector4d next = QuaternionProduct(QuaternionFromRotationVector(omega * dt), unit);
  return next / CheckedNorm(next, "IntegrateQuaternion");
}

Eigen::Vector4d FirstOrderQuaternionUpdate(const Eigen::Vector4d& Q, const Eigen::Vector3d& omega,
                                           double dt) {
  const Eigen::Vector4d unit = Q / CheckedNorm(Q, "FirstOrderQuaternionUpdate");
  const Eigen::Vector4d next = unit + dt * (QuaternionRateMap(unit) * omega);
  return next / CheckedNorm(next, "FirstOrderQuaternionUpdate");
}

Eigen::Matrix3d RotationMatrixFromQuaternion(const Eigen::Vector4d& Q) {
  const Eigen::Vector4d q = Q / CheckedNorm(Q, "RotationMatrixFromQuaternion");
  const double w = q[0], x = q[1], y = q[2], z = q[3];
  Eigen::Matrix3d R;
  R << 1.0 - 2.0 * (y * y + z * z), 2.0 * (x * y - w * z), 2.0 * (x * z + w * y),  //
      2.0 * (x * y + w * z), 1.0 - 2.0 * (x * x + z * z), 2.0 * (y * z - w * x),   //
      2.0 * (x * z - w * y), 2.0 * (y * z + w * x), 1.0 - 2.0 * (x * x + y * y);
  return R;
}

Eigen::Vector4d QuaternionFromRotationMatrix(const Eigen::Matrix3d& R) {
  const Eigen::Quaterniond q(R);
  Eigen::Vector4d Q(q.w(), q.x(), q.y(), q.z());
  if (Q[0] < 0.0) Q = -Q;
  return Q.normalized();
}

}  // namespace quasidyn
