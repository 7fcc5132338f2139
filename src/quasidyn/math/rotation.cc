#include "quasidyn/math/rotation.h"

#include <Eigen/Geometry>
#include <cmath>
#include <stdexcept>

namespace quasidyn {

Eigen::Matrix3d Skew(const Eigen::Vector3d& a) {
  Eigen::Matrix3d S;
  S << 0.0, -a.z(), a.y(),  //
      a.z(), 0.0, -a.x(),   //
      -a.y(), a.x(), 0.0;
  return S;
}

Eigen::Matrix3d RotationMatrixFromRotationVector(const Eigen::Vector3d& theta) {
  const double a2 = theta.squaredNorm();
  const Eigen::Matrix3d K = Skew(theta);
  if (a2 < 1e-12) return Eigen::Matrix3d::Identity() + K + 0.5 * K * K;
  const double a = std::sqrt(a2);
  return Eigen::Matrix3d::Identity() + (std::sin(a) / a) * K + ((1.0 - std::cos(a)) / a2) * K * K;
}

Eigen::Matrix3d RotationLeftJacobian(const Eigen::Vector3d& theta) {
  const double a2 = theta.squaredNorm();
  const Eigen::Matrix3d K = Skew(theta);
  double c1, c2;  // (1 − cos a)/a², (a − sin a)/a³
  if (a2 < 1e-8) {
    c1 = 0.5 - a2 / 24.0;
    c2 = 1.0 / 6.0 - a2 / 120.0;
  } else {
    const double a = std::sqrt(a2);
    c1 = (1.0 - std::cos(a)) / a2;
    c2 = (a - std::sin(a)) / (a2 * a);
  }
  return Eigen::Matrix3d::Identity() + c1 * K + c2 * K * K;
}

Eigen::Vector3d RotationVectorFromMatrix(const Eigen::Matrix3d& R) {
  if (!R.allFinite()) {
    throw std::invalid_argument("RotationVectorFromMatrix: R has a non-finite entry");
  }
  // Eigen's angle-axis conversion goes through a unit quaternion (Shepperd's method),
  // which stays accurate near θ = 0 and θ = π, unlike acos((trace R − 1) / 2).
  const Eigen::AngleAxisd angle_axis(R);
  return angle_axis.angle() * angle_axis.axis();
}

}  // namespace quasidyn
