#include "quasidyn/formulations/ecp/ecp_gradient.h"

#include <Eigen/LU>

#include "quasidyn/gradients/configuration_map.h"
#include "quasidyn/math/quaternion.h"
#include "quasidyn/math/rotation.h"

namespace quasidyn {

namespace {

using Eigen::Matrix3d;
using Eigen::MatrixXd;
using Eigen::Vector3d;

EcpGradient Failure(std::string why) {
  EcpGradient g;
  g.failure = std::move(why);
  return g;
}

}  // namespace

EcpGradient DifferentiateEcpStep(const Scene& scene, EcpStepFunction& function,
                                 MixedNcpSolver& solver, const Eigen::VectorXd& q,
                                 const Eigen::VectorXd& v, bool with_A) {
  const EcpSystem& system = function.system();
  const int n = system.size(), nb = static_cast<int>(system.bodies().size()), np = 18 * nb;
  const int nq = scene.nq, nx = scene.nq + scene.nv, nu = scene.nv_u;
  const double h = system.time_step();
  const Eigen::VectorXd& z = solver.result().z;
  MatrixXd dF_dp(n, np), dPhi_dp(n, np);
  if (!solver.EnsureJacobian(function) || !function.ParameterJacobian(z, &dF_dp)) {
    return Failure("the NCP cannot be evaluated at its solution");
  }
  solver.PhiParameterJacobian(dF_dp, &dPhi_dp);
  const Eigen::PartialPivLU<MatrixXd> lu(solver.phi_jacobian());
  const Eigen::VectorXd pivots = lu.matrixLU().diagonal().cwiseAbs();
  if (n > 0 && !(pivots.minCoeff() > 1e-13 * pivots.maxCoeff())) {
    return Failure(
        "the NCP's Jacobian is singular at the solution (a contact without a unique ECP or "
        "impulse, e.g. a pair that touches with zero impulse): no derivative");
  }
  const MatrixXd dz_dp = n > 0 ? MatrixXd(-lu.solve(dPhi_dp)) : MatrixXd::Zero(0, np);
  // The parameters p from the raw state and command.
  MatrixXd Px = MatrixXd::Zero(np, nx), Pu = MatrixXd::Zero(np, nu);
  const MatrixXd T = TangentFromConfiguration(scene, q);
  Eigen::VectorXd v_next = v;
  for (int b = 0; b < nb; ++b) {
    const EcpBody& body = system.bodies()[b];
    v_next.segment<3>(body.v_start + 3) = z.segment<3>(6 * b + 3);
    const Matrix3d R = RotationMatrixFromQuaternion(q.segment<4>(body.q_start + 3));
    const Vector3d com = R * body.com;
    const Vector3d w = v.segment<3>(body.v_start + 3);
    const Vector3d force = function.bodies()[b].impulse;
    const MatrixXd Tb = T.block(body.v_start + 3, body.q_start + 3, 3, 4);  // δθ = T δQ
    const int p = 18 * b, qp = body.q_start, qQ = body.q_start + 3;
    const int vp = nq + body.v_start, vw = nq + body.v_start + 3;
    const int uf = body.v_start, um = body.v_start + 3;
    Px.block<3, 3>(p, qp).setIdentity();  // c = p_o + R com
    Px.block(p, qQ, 3, 4) = -Skew(com) * Tb;
    Px.block(p + 3, qQ, 3, 4) = Tb;           // θ
    Px.block<3, 3>(p + 6, vp).setIdentity();  // v_c = ṗ_o + ω × R com
    Px.block<3, 3>(p + 6, vw) = -Skew(com);
    Px.block(p + 6, qQ, 3, 4) = -Skew(w) * Skew(com) * Tb;
    Px.block<3, 3>(p + 9, vw).setIdentity();   // ω
    Pu.block<3, 3>(p + 12, uf).setIdentity();  // the force impulse
    Pu.block<3, 3>(p + 15, um).setIdentity();  // about the com: m_o − (R com) × f
    Pu.block<3, 3>(p + 15, uf) = -Skew(com);
    Px.block(p + 15, qQ, 3, 4) = -Skew(force) * Skew(com) * Tb;
  }
  const MatrixXd dz_du = dz_dp * Pu;
  // The outputs x⁺ = (q⁺, v⁺) from z (ν⁺) and p.
  const MatrixXd Dq = IntegrationJacobianWrtConfiguration(scene, q, v_next, h);
  const MatrixXd Dv = IntegrationJacobianWrtVelocity(scene, q, v_next, h);
  MatrixXd Oz = MatrixXd::Zero(nx, n), Ox = MatrixXd::Zero(nx, nx);
  for (int b = 0; b < nb; ++b) {
    const EcpBody& body = system.bodies()[b];
    const Vector3d w_next = z.segment<3>(6 * b + 3);
    const Matrix3d E = RotationMatrixFromRotationVector(h * w_next);  // R⁺ = E R
    const Matrix3d R_next = E * RotationMatrixFromQuaternion(q.segment<4>(body.q_start + 3));
    const Vector3d com = R_next * body.com;
    const Matrix3d Jl = h * RotationLeftJacobian(h * w_next);  // δθ⁺ = Jl δω⁺ + E δθ
    const int p = 18 * b, op = body.q_start, oQ = body.q_start + 3;
    const int ov = nq + body.v_start, ow = nq + body.v_start + 3;
    // p_o⁺ = c + h v_c⁺ − R⁺ com.
    Oz.block<3, 3>(op, 6 * b) = h * Matrix3d::Identity();
    Oz.block<3, 3>(op, 6 * b + 3) = Skew(com) * Jl;
    Ox.middleRows<3>(op) += Px.middleRows<3>(p) + Skew(com) * E * Px.middleRows<3>(p + 3);
    // Q⁺ = normalize(exp(½ hω⁺) ⊗ normalize(Q)).
    Oz.block(oQ, 6 * b + 3, 4, 3) = Dv.block(oQ, body.v_start + 3, 4, 3);
    Ox.block(oQ, oQ, 4, 4) = Dq.block(oQ, oQ, 4, 4);
    // v_o⁺ = v_c⁺ − ω⁺ × R⁺ com.
    Oz.block<3, 3>(ov, 6 * b).setIdentity();
    Oz.block<3, 3>(ov, 6 * b + 3) = Skew(com) + Skew(w_next) * Skew(com) * Jl;
    Ox.middleRows<3>(ov) += Skew(w_next) * Skew(com) * E * Px.middleRows<3>(p + 3);
    // ω⁺.
    Oz.block<3, 3>(ow, 6 * b + 3).setIdentity();
  }
  EcpGradient g;
  g.ok = true;
  g.B = Oz * dz_du;
  if (with_A) g.A = Oz * (dz_dp * Px) + Ox;
  return g;
}

}  // namespace quasidyn
