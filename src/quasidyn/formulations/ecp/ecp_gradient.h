#pragma once
// The linearisation of one ECP time step (stepping/ecp_model.h) by implicit differentiation of
// its mixed NCP at the solution: with Φ(z, p) = 0 the Fischer–Burmeister system the solver
// zeroed (solvers/mixed_ncp_newton.h) and p the step's parameters per body (start com c, start
// rotation θ, com velocity, angular velocity, applied impulse and angular impulse about the com;
// dynamics/ecp/ecp_step_function.h, ParameterJacobian),
//
//   dz/dp = −H⁻¹ ∂Φ/∂p,   H ∈ ∂Φ/∂z at the solution,
//
// then the chain to the model's raw coordinates:
//
//   x = (q, v): per body the origin position and quaternion (7), the origin velocity and ω (6);
//   u: per body (p [N·s], angular impulse about the origin [N·m·s]);
//   A = ∂(q⁺, v⁺)/∂(q, v)  ((n_q + n_v) × (n_q + n_v)),  B = ∂(q⁺, v⁺)/∂u  ((n_q + n_v) × n_v,u).
//
// Quaternion columns act on raw coordinate perturbations and include the derivative of the
// normalisation (gradients/configuration_map.h), so A·(radial Q) = 0. At a point where the NCP
// is not differentiable (a contact exactly at the switch of a complementarity pair) H is one
// element of the generalized Jacobian and A, B one element of the step's.

#include <Eigen/Core>
#include <string>

#include "quasidyn/formulations/ecp/ecp_step_function.h"
#include "quasidyn/model/scene.h"
#include "quasidyn/solvers/mixed_ncp_newton.h"

namespace quasidyn {

struct EcpGradient {
  bool ok = false;
  std::string failure;  // why not, when !ok
  Eigen::MatrixXd A;    // when asked
  Eigen::MatrixXd B;
};

// The derivatives of the step whose NCP `solver` solved last with `function` (its inputs still
// those of that solve), from the state (q, v) the step started at. The solver evaluates the
// Jacobian at its solution if its last evaluation there was without it (EnsureJacobian).
EcpGradient DifferentiateEcpStep(const Scene& scene, EcpStepFunction& function,
                                 MixedNcpSolver& solver, const Eigen::VectorXd& q,
                                 const Eigen::VectorXd& v, bool with_A);

}  // namespace quasidyn
