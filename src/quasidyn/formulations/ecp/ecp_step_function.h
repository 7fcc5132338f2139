#pragma once
// The mixed NCP of one ECP time step (Xie & Chakraborty, §III-D and §IV-B, eqs. (7)–(9),
// (13)–(17), in the unknowns of ecp_system.h) as a MixedNcpFunction: F(z) and its analytic
// Jacobian, for the semismooth Newton solver (solvers/mixed_ncp_newton.h).
//
// Each body ends the step at c⁺ = c + h v⁺, R⁺ = exp([h ω⁺]×) R (backward Euler, eq. (8), with
// the exponential map for the rotation) and every geometric quantity is evaluated there
// (geometrically implicit). Rows (the row of an unknown holds its equation or, for a
// complementarity unknown, its complementary function):
//
//   body v⁺  [m/s]    v⁺ − v − h g − (p_app,f + Σ f_k)/m                           Newton, eq. (7)
//   body ω⁺  [rad/s]  (I(ω⁺ − ω) + h ω⁺ × Iω⁺ − p_app,τ − Σ τ_k)/λ_max(I)    Euler + gyroscopic
//   a1 [m]            a1 − a2 + s n_F,        n_F = Σ_i l_i ∇f_i(a1)          eq. (13)
//   a2 [-]            n_F + n_G,              n_G = Σ_j l_j ∇g_j(a2)          eq. (14)
//   s [-]             Σ_i l_i − 1
//   p̂_t, p̂_o [m/s]    e_t² μ p̂_n v_t + p̂_t σ,  e_o² μ p̂_n v_o + p̂_o σ          eq. (9)
//   p̂_r [m/s]         (e_r² μ p̂_n ω_r + p̂_r σ)/e_r                            eq. (9)
//   p̂_n [m]           s  (0 <= p̂_n ⊥ s >= 0)                                  eq. (17)
//   σ [-]             (μ p̂_n)² − (p̂_t/e_t)² − (p̂_o/e_o)² − (p̂_r/e_r)²          eq. (9)
//   l_F [m], l_G [m]  −f_i(a1), −g_j(a2)                                       eqs. (15), (16)
//
// where I = R I_body Rᵀ (at the start, as the paper's M^u), (n, t, o) the contact frame of
// m = Σ_j max(l_j, 0) ∇g_j(a2) (contact_frame.h; G's outward normal, pointing at F), the pair's
// impulse on F f_k = P(p̂_n n + p̂_t t + p̂_o o) at a2 with moment τ_k = (a2 − c_F⁺) × f_k +
// P p̂_r n (and −f_k, −(a2 − c_G⁺) × f_k − P p̂_r n on G when it moves), v_t = t·w, v_o = o·w,
// ω_r = n·(ω_F − ω_G), w the velocity of F's point at a2 relative to G's.
//
// Departures from the paper, both equivalent at a solution (docs/ecp.md): eq. (13)–(14)'s
// normalisation l_k1 = 1 of one active constraint k1 (chosen in advance) is replaced by
// Σ_i l_i = 1 with the distance scale s as an unknown, so that no active constraint has to be
// guessed; and eq. (17)'s max_i f_i(a2) >= 0 by s >= 0: for a convex F, a2 − a1 = s n_F with n_F
// in F's normal cone at a1 puts a2 outside F exactly when s > 0 and on its boundary when s = 0,
// so the two complementarity conditions have the same solutions, and s is smooth where the max is
// not.
//
// A pair marked inactive (far apart at the start of the step, ecp_model.h) keeps its free unknowns
// at `reference` (rows z_i − reference_i) and its complementarity unknowns at 0 (rows F_i = 1),
// and exerts nothing.

#include <Eigen/Core>
#include <memory>
#include <vector>

#include "quasidyn/formulations/ecp/ecp_system.h"
#include "quasidyn/solvers/mixed_ncp_newton.h"

namespace quasidyn {

// One body at the start of the step, and the generalized impulse applied to it over the step.
struct EcpBodyState {
  Eigen::Vector3d c = Eigen::Vector3d::Zero();                // com [m], world
  Eigen::Matrix3d R = Eigen::Matrix3d::Identity();            // orientation (body → world)
  Eigen::Vector3d v = Eigen::Vector3d::Zero();                // com velocity [m/s], world
  Eigen::Vector3d w = Eigen::Vector3d::Zero();                // angular velocity [rad/s], world
  Eigen::Vector3d impulse = Eigen::Vector3d::Zero();          // applied force impulse [N·s], world
  Eigen::Vector3d angular_impulse = Eigen::Vector3d::Zero();  // moment about the com [N·m·s]
};

class EcpStepFunction final : public MixedNcpFunction {
 public:
  // Sizes every buffer for `system` (shared: it lives as long as this object).
  explicit EcpStepFunction(std::shared_ptr<const EcpSystem> system);
  const EcpSystem& system() const { return *system_ptr_; }

  // The step's inputs, set before a solve.
  std::vector<EcpBodyState>& bodies() { return bodies_; }
  const std::vector<EcpBodyState>& bodies() const { return bodies_; }
  std::vector<unsigned char>& active() { return active_; }  // per pair
  const std::vector<unsigned char>& active() const { return active_; }
  std::vector<Eigen::Vector3d>& seeds() { return seeds_; }  // per pair: the frame's seed e
  Eigen::VectorXd& reference() { return reference_; }       // size n
  const Eigen::VectorXd& reference() const { return reference_; }

  bool Evaluate(const Eigen::VectorXd& z, Eigen::VectorXd* F, Eigen::MatrixXd* J) override;

  // ∂F/∂p at z (n × 18 per body) for the parameters p of body b at columns 18b: δc (3), δθ (3,
  // a world rotation perturbation R → exp([δθ]×)R), δv (3), δω (3), δ impulse (3), δ angular
  // impulse (3). False where Evaluate is.
  bool ParameterJacobian(const Eigen::VectorXd& z, Eigen::MatrixXd* dF_dp);

  // The contact frame of pair k at z (after Evaluate at that z): n, t, o.
  struct PairFrame {
    Eigen::Vector3d n, t, o;
  };
  const PairFrame& frame(int pair) const { return frames_[pair]; }
  // The end-of-step pose of body slot b at the last evaluated z.
  const Eigen::Vector3d& end_com(int b) const { return end_c_[b]; }
  const Eigen::Matrix3d& end_rotation(int b) const { return end_R_[b]; }

 private:
  // Evaluate's body: F, and when J is set, J's direct part and pose_ (∂F/∂(c⁺, θ⁺)).
  bool Fill(const Eigen::VectorXd& z, Eigen::VectorXd* F, Eigen::MatrixXd* J);

  std::shared_ptr<const EcpSystem> system_ptr_;
  const EcpSystem& system_;
  std::vector<EcpBodyState> bodies_;
  std::vector<unsigned char> active_;
  std::vector<Eigen::Vector3d> seeds_;
  std::vector<PairFrame> frames_;
  Eigen::VectorXd reference_;
  // Per body: the end pose, h·J_l(hω⁺) (δθ⁺ per δω⁺), exp([hω⁺]×), the start world inertia.
  std::vector<Eigen::Vector3d> end_c_;
  std::vector<Eigen::Matrix3d> end_R_, rotation_jacobian_, step_rotation_, inertia_;
  Eigen::MatrixXd pose_;  // n × 6 per body: ∂F/∂c⁺ (3), ∂F/∂θ⁺ (3)
  Eigen::VectorXd scratch_F_;
  Eigen::MatrixXd scratch_J_;
};

}  // namespace quasidyn
