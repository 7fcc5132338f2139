#pragma once
// The model of the MPC through contact (the 2D frictional contact notes, eqs. (1)–(9)): the
// second-order time step linearised at the current state x_0 = (q_0, v_0) and held over the
// horizon, as the notes hold n(q_k), D(q_k) and the gaps:
//
//   M (v_{k+1} − v_k) = h (B_a τ_k + τ_free) + Σ_i (J_n,iᵀ c_i + J_d,iᵀ β_i),        (1)
//   q_{k+1} = q_k + h v_{k+1},                                                        (2)
//   0 <= c_i     ⟂  w_c,i  = φ_i + J_n,i (q_{k+1} − q_0)        >= 0,               (3)
//   0 <= β_ij    ⟂  w_β,ij = λ_i + J_d,ij v_{k+1}               >= 0,               (4)
//   0 <= λ_i     ⟂  w_λ,i  = μ_i c_i − Σ_j β_ij                 >= 0,               (5)
//
// with M = M(q_0), τ_free = τ_g + τ_ext − C(q_0, v_0) v_0 (gravity on the objects, their
// external force, the velocity-product force), B_a the actuated coordinates, τ_k the robots'
// actuation force [N, N·m] (the notes' u), J_n,i the normal Jacobian and J_d,ij = d_ijᵀ J_i the
// friction-pyramid rays of contact i at q_0 (contact/contact_set.h). In 2D the pyramid has the
// two rays ±t (the notes' D_i); in 3D the scene's n_d. The impulse vector of one step is
// γ = (per contact: c_i, β_i1 … β_in_d, λ_i), as eq. (9) stacks it contact by contact.
//
// (1)–(2) are eq. (6)/(7): x_{k+1} = A x_k + B τ_k + C γ_k + F (ExplicitDynamics). The gap (3)
// is linear in q_{k+1} (eq. (3) of the notes: n(q_k)ᵀ q_{k+1} + α), which needs n_q = n_v with
// q̇ = v (no floating bodies: quaternions).

#include <Eigen/Core>
#include <vector>

namespace quasidyn {

struct MpcContact {
  double phi = 0.0;           // φ_i(q_0) [m]
  Eigen::RowVectorXd normal;  // J_n,i (1 × n_v)
  Eigen::MatrixXd rays;       // J_d,i (n_d × n_v): d_ijᵀ J_i
  double friction = 0.0;      // μ_i >= 0
};

struct MpcLinearModel {
  double time_step = 0.0;      // h [s] > 0
  Eigen::VectorXd q, v;        // x_0 (sizes n_v: n_q = n_v)
  Eigen::MatrixXd mass;        // M (n_v × n_v), symmetric positive definite
  Eigen::VectorXd free_force;  // τ_free (n_v) [N, N·m]
  Eigen::MatrixXd actuation;   // B_a (n_v × n_a): columns e_j of the actuated coordinates
  std::vector<MpcContact> contacts;

  int nv() const { return static_cast<int>(mass.rows()); }
  int nx() const { return 2 * nv(); }
  int na() const { return static_cast<int>(actuation.cols()); }
  // n_γ: Σ_i (2 + n_d,i) impulses (and complementarity pairs, and binaries) per step.
  int ImpulseCount() const;
  // Offset of contact i's block (c_i, β_i, λ_i) in γ.
  int ImpulseOffset(int contact) const;
  // Throws std::invalid_argument naming the first inconsistent field (sizes, h <= 0, non-finite
  // data, μ < 0, M not positive definite).
  void Validate(const char* where) const;
  // Eq. (7): x⁺ = A x + B τ + C γ + F with A (n_x × n_x), B (n_x × n_a), C (n_x × n_γ), F (n_x).
  void ExplicitDynamics(Eigen::MatrixXd* A, Eigen::MatrixXd* B, Eigen::MatrixXd* C,
                        Eigen::VectorXd* F) const;
  // The complementarity functions w = D x⁺ + E γ + α of eq. (9) (n_γ), at x⁺ = (q⁺, v⁺), γ.
  Eigen::VectorXd Complementarity(const Eigen::VectorXd& x_next,
                                  const Eigen::VectorXd& impulses) const;
};

}  // namespace quasidyn
