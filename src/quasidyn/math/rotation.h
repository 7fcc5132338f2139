#pragma once
// Small rotation helpers on 3×3 rotation matrices: the skew-symmetric (cross-product)
// matrix and the logarithm map SO(3) → rotation vector.
// Source: Murray, Li & Sastry, "A Mathematical Introduction to Robotic Manipulation"
// (1994), §2.2 (eq. 2.4 for the skew matrix, Prop. 2.5 for the logarithm).

#include <Eigen/Core>

namespace quasidyn {

// [a]×, the 3×3 matrix with [a]× b = a × b for every b.
Eigen::Matrix3d Skew(const Eigen::Vector3d& a);

// The rotation vector θ·k (θ [rad] in [0, π], k unit) of a rotation matrix R, so that
// R = exp([θ k]×). R must be orthonormal with det +1 (to about 1e-9); for θ = π the sign
// of k is one of the two valid choices. Throws std::invalid_argument if R has a
// non-finite entry.
Eigen::Vector3d RotationVectorFromMatrix(const Eigen::Matrix3d& R);

}  // namespace quasidyn
