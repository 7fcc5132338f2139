#pragma once
// Small rotation helpers on 3×3 rotation matrices: the skew-symmetric (cross-product)
// matrix, the exponential and logarithm maps between rotation vectors and SO(3), and the left
// Jacobian of the exponential.
// Source: Murray, Li & Sastry, "A Mathematical Introduction to Robotic Manipulation"
// (1994), §2.2 (eq. 2.4 for the skew matrix, eq. 2.14 (Rodrigues) for the exponential,
// Prop. 2.5 for the logarithm); Solà, Deray & Atchuthan, "A micro Lie theory for state
// estimation in robotics" (2018), eqs. (143)–(145) for the left Jacobian.

#include <Eigen/Core>

namespace quasidyn {

// [a]×, the 3×3 matrix with [a]× b = a × b for every b.
Eigen::Matrix3d Skew(const Eigen::Vector3d& a);

// exp([θ]×) of a rotation vector θ [rad] (Rodrigues' formula); second-order Taylor series
// below |θ| = 1e-6.
Eigen::Matrix3d RotationMatrixFromRotationVector(const Eigen::Vector3d& theta);

// J_l(θ) = I + (1 − cos a)/a² [θ]× + (a − sin a)/a³ [θ]×², a = |θ| (Solà et al. 2018,
// eq. (145)): exp([θ + δθ]×) = exp([J_l(θ) δθ]×) exp([θ]×) to first order in δθ, so a world
// (left) perturbation of the rotation exp([θ]×)R by δφ is δφ = J_l(θ) δθ. Taylor series below
// |θ| = 1e-4.
Eigen::Matrix3d RotationLeftJacobian(const Eigen::Vector3d& theta);

// The rotation vector θ·k (θ [rad] in [0, π], k unit) of a rotation matrix R, so that
// R = exp([θ k]×). R must be orthonormal with det +1 (to about 1e-9); for θ = π the sign
// of k is one of the two valid choices. Throws std::invalid_argument if R has a
// non-finite entry.
Eigen::Vector3d RotationVectorFromMatrix(const Eigen::Matrix3d& R);

}  // namespace quasidyn
