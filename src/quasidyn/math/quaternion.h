#pragma once
// Unit quaternions stored as Eigen::Vector4d in the order (w, x, y, z), w the scalar
// part. A unit quaternion Q represents the rotation of a child frame C in a parent
// frame P (R_PC = RotationMatrixFromQuaternion(Q)), as in the floating joints of
// model/scene.h.
//
// Angular velocity ω [rad/s] is expressed in the PARENT frame P throughout. The
// quaternion kinematics are then (Solà, "Quaternion kinematics for the error-state
// Kalman filter", 2017, eq. 110 with global ω):
//   Q̇ = ½ [0; ω] ⊗ Q = E(Q) ω,
// and the exact integration over a step dt for constant ω is (Solà 2017, eq. 227,
// global form):
//   Q(t + dt) = exp(½ ω dt) ⊗ Q(t).

#include <Eigen/Core>

namespace quasidyn {

// The Hamilton product a ⊗ b (Solà 2017, eq. 12).
Eigen::Vector4d QuaternionProduct(const Eigen::Vector4d& a, const Eigen::Vector4d& b);

// The identity rotation (1, 0, 0, 0).
Eigen::Vector4d IdentityQuaternion();

// E(Q), the 4×3 map with Q̇ = E(Q) ω for ω [rad/s] in the parent frame. Writing
// Q = (w, u) with u = (x, y, z), ½ [0; ω] ⊗ Q = ½ (−uᵀω, w ω + ω × u), so
//   E(Q) = ½ [ −uᵀ ; w I₃ − [u]× ]      ([u]× of math/rotation.h).
// Linear in Q; for a unit Q, E(Q)ᵀ E(Q) = ¼ I₃ and Qᵀ E(Q) = 0.
Eigen::Matrix<double, 4, 3> QuaternionRateMap(const Eigen::Vector4d& Q);

// Q / |Q|. Throws std::invalid_argument if |Q| is zero or not finite.
Eigen::Vector4d NormalizeQuaternion(const Eigen::Vector4d& Q);

// The derivative of Q ↦ Q / |Q| (4×4): (I₄ − Q̂ Q̂ᵀ) / |Q| with Q̂ = Q / |Q|
// (quotient rule; Solà 2017 has the same projector). Throws like NormalizeQuaternion.
Eigen::Matrix4d NormalizationJacobian(const Eigen::Vector4d& Q);

// exp(½ θ) for a rotation vector θ [rad] (angle |θ| about θ/|θ|):
//   (cos(|θ|/2), sin(|θ|/2) θ/|θ|)                    (Solà 2017, eq. 101).
// For |θ| below 1e-4 the Taylor series to fourth order is used, accurate to machine
// precision there.
Eigen::Vector4d QuaternionFromRotationVector(const Eigen::Vector3d& rotation_vector);

// Q⁺ = exp(½ ω dt) ⊗ Q, normalised: the exact rotation for a constant parent-frame
// angular velocity ω [rad/s] over dt [s] (any sign). Q need not be exactly unit; it is
// normalised first. Throws std::invalid_argument on a zero or non-finite Q.
Eigen::Vector4d IntegrateQuaternion(const Eigen::Vector4d& Q, const Eigen::Vector3d& omega,
                                    double dt);

// Q⁺ = normalize(Q̂ + dt E(Q̂) ω), Q̂ = Q/|Q|: the first-order update followed by normalisation
// of the reference quasistatic simulator (its UpdateQdictFromV, with CalcNW2Qdot = E),
// ω [rad/s] in the parent frame, dt [s] any sign. Agrees with IntegrateQuaternion to
// O((|ω| dt)³). Throws std::invalid_argument on a zero or non-finite Q.
Eigen::Vector4d FirstOrderQuaternionUpdate(const Eigen::Vector4d& Q, const Eigen::Vector3d& omega,
                                           double dt);

// R(Q), the rotation matrix of a unit quaternion (Solà 2017, eq. 115). Q is normalised
// first, so any non-zero finite Q is accepted.
Eigen::Matrix3d RotationMatrixFromQuaternion(const Eigen::Vector4d& Q);

// The unit quaternion with w >= 0 of a rotation matrix R (orthonormal, det +1).
Eigen::Vector4d QuaternionFromRotationMatrix(const Eigen::Matrix3d& R);

}  // namespace quasidyn
