#include "quasidyn/math/rotation.h"

#include <Eigen/Geometry>
#include <stdexcept>

namespace quasidyn {

Eigen::Matrix3d Skew(const Eigen::Vector3d& a) {
  Eigen::Matrix3d S;
  S << 0.0, -a.z(), a.y(),  //
      a.z(), 0.0, -a.x(),   //
      -a.y(), a.x(), 0.0;
  return S;
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
