#pragma once
// Derivatives of the configuration maps used by the time step (kinematics/kinematics.h):
//   q⁺ = q ⊕ dt·v   (StepConfiguration: translations and planar/revolute/prismatic
//                    coordinates add dt·v; a floating joint's quaternion is, as the scene's
//                    conventions.quaternion_update says, exponential_map
//                    Q⁺ = normalize(exp(½ ω dt) ⊗ normalize(Q)), Solà 2017, eq. 227, or
//                    first_order Q⁺ = normalize(Q̂ + dt E(Q̂) ω), Q̂ = normalize(Q)),
// and the tangent map that turns a perturbation δq of the coordinates (size n_q) into the
// velocity-space perturbation δv (size n_v) with q̂ ⊕ δv = normalize(q + δq) to first order.
//
// Convention for quaternion blocks (used for the A matrix of StepModel::CalcDiff,
// stepping/step_model.h): every map here acts on the raw coordinates q ∈ R^{n_q} and includes the
// derivative of the quaternion normalisation, NormalizationJacobian of math/quaternion.h. A
// perturbation along a quaternion Q itself (radial) therefore has no effect, exactly as for the
// step, which normalises its input.

#include <Eigen/Core>

#include "quasidyn/model/scene.h"

namespace quasidyn {

// ∂(q ⊕ dt·v)/∂q (n_q × n_q) at (q, v); dt [s], any finite value.
Eigen::MatrixXd IntegrationJacobianWrtConfiguration(const Scene& scene, const Eigen::VectorXd& q,
                                                    const Eigen::VectorXd& v, double dt);

// ∂(q ⊕ dt·v)/∂v (n_q × n_v) at (q, v); dt [s]. For a quaternion block,
//   exponential_map:  ∂Q⁺/∂ω = dt · NJ(e ⊗ Q̂) · R(Q̂) · ∂e/∂θ,   e = exp(½θ), θ = ω dt,
// with R(Q̂) the right-multiplication matrix (a ⊗ Q̂ = R(Q̂) a, Solà 2017, eq. 18) and ∂e/∂θ
// the derivative of Solà 2017, eq. 101;
//   first_order:      ∂Q⁺/∂ω = dt · NJ(P) · E(Q̂),  P = Q̂ + dt E(Q̂) ω,
// and ∂Q⁺/∂Q = NJ(P) (I + ½ dt L([0; ω])) NJ(Q) (L(a): a ⊗ b = L(a) b).
Eigen::MatrixXd IntegrationJacobianWrtVelocity(const Scene& scene, const Eigen::VectorXd& q,
                                               const Eigen::VectorXd& v, double dt);

// T(q) (n_v × n_q): δv = T δq. Identity outside floating joints; for a quaternion block
// T = 4 E(Q̂)ᵀ NJ(Q), since q̂ ⊕ ω ≈ Q̂ + E(Q̂) ω and E(Q̂)ᵀ E(Q̂) = ¼ I₃ (math/quaternion.h).
Eigen::MatrixXd TangentFromConfiguration(const Scene& scene, const Eigen::VectorXd& q);

// The chain rule of the step (docs/gradients.md "Chain") from ∂v*/∂q_tangent (n_v × n_v) and
// ∂v*/∂u (n_v × c):
//   B = ∂(q ⊕ dt·v)/∂v · dv_du                                  (n_q × c),
//   A = ∂(q ⊕ dt·v)/∂q + ∂(q ⊕ dt·v)/∂v · dv_dq · T(q)          (n_q × n_q),
// applied joint by joint (the three maps are block diagonal by joint: dt·I, I outside the
// floating joints), so it costs O(n_q²) where the dense products cost O(n_q³). A is not
// computed (resized to 0 × 0) when dv_dq is empty. Writes into *A and *B, reusing their
// storage. Throws std::invalid_argument for sizes that do not match the scene.
void ChainToConfiguration(const Scene& scene, const Eigen::VectorXd& q, const Eigen::VectorXd& v,
                          double dt, const Eigen::MatrixXd& dv_dq, const Eigen::MatrixXd& dv_du,
                          Eigen::MatrixXd* A, Eigen::MatrixXd* B);

// ∂e/∂θ (4 × 3) of e(θ) = exp(½θ) = (cos(a/2), sin(a/2) θ/a), a = |θ| [rad]; Taylor series
// below a = 1e-4 (accurate to machine precision there).
Eigen::Matrix<double, 4, 3> RotationVectorQuaternionJacobian(const Eigen::Vector3d& theta);

}  // namespace quasidyn
