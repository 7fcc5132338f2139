#pragma once
// Exact sensitivities of the pyramid QP of Pang & Tedrake 2021, eq. (10), by implicit
// differentiation of its KKT conditions (Amos & Kolter, "OptNet", ICML 2017, §3; Nocedal &
// Wright, "Numerical Optimization", 2nd ed., §16.1 for the equality-constrained KKT system).
//
// With the data of step_data_derivative.h, the solution (v, β) satisfies on its active set 𝒜
//   P v − τ_h − G_𝒜ᵀ β_𝒜 = 0,     G_𝒜 v + o_𝒜 = 0,
// so, for a change dP, dτ_h, dG, do of the data,
//   [ P    G_𝒜ᵀ ] [  dv  ]   [ r₁ ]   [ dτ_h − dP v + dG_𝒜ᵀ β_𝒜 ]
//   [ G_𝒜  0    ] [ −dβ_𝒜 ] = [ r₂ ] = [ −do_𝒜 − dG_𝒜 v          ].
// With G = R J_c (step_data_derivative.h, ray_map) the data terms are the contractions of
// contact_data_derivative.h: dG_𝒜ᵀβ_𝒜 = d(J_cᵀλ) with λ = Rᵀβ_𝒜, dG v = R d(J_c v),
// do = R' dφ/h; for u only r₁ = ∂τ_h/∂u = [0; hK_a] is non-zero. An active joint-limit row l
// (dynamics/joint_limit_rows.h, G's last rows) is a constraint row like a contact's, with
// dG_l = 0 and do_l = G_l dε/h, so its r₂ is −G_l/h along the configuration directions.
//
// Active set (documented choice). Row j is active when β_j d_j > s_j, where s_j = G_j v + o_j
// [m/s] is its slack and d_j = G_j P⁻¹ G_jᵀ [1/kg] its Delassus entry, so that β_j d_j is the
// velocity change the row's impulse causes by itself: the row is active when its impulse
// matters more than its gap. At a strictly complementary solution this is exact (one side is
// zero up to the solver tolerance). Where strict complementarity fails (β_j and s_j both ≈ 0,
// a mode switch) the rule still picks one side deterministically, and the result is the
// derivative of that branch (a one-sided derivative); nothing is averaged.
//
// Solve (factored once, then back-solves for all n_q,a + n_v right-hand sides). When P is
// positive definite (object_mass_scale > 0), by the range-space method in the velocities
// whitened by P's block factor, block by block (range_space_kkt.h, with H = P and E = G_𝒜).
// When P is singular (object_mass_scale = 0), the whole KKT matrix is solved by a complete
// orthogonal decomposition (Eigen::CompleteOrthogonalDecomposition, Golub & Van Loan §5.4.2)
// after a symmetric diagonal equilibration (minimum-norm least squares), slower (O((n+|𝒜|)³)).

#include <Eigen/Cholesky>
#include <Eigen/Core>
#include <Eigen/SparseCore>
#include <vector>

#include "quasidyn/formulations/programs/step_data_derivative.h"
#include "quasidyn/gradients/contact_data_derivative.h"
#include "quasidyn/gradients/positive_definite_factor.h"
#include "quasidyn/gradients/range_space_kkt.h"
#include "quasidyn/gradients/velocity_gradient.h"

namespace quasidyn {

// Indices of the active rows by the rule above; beta and v from the QP solver. Throws
// std::invalid_argument for wrong sizes.
std::vector<int> ActivePyramidRows(const PyramidStepData& data, const Eigen::VectorXd& v,
                                   const Eigen::VectorXd& beta);

// The active set and the factored KKT system of one solved QP step. Usage (as in
// formulations/qp/qp_program.cc, whose contractor calls DifferentiateStepData):
//   QpSensitivity s(&scene, h, &data, v, beta);   // or s.Compute(...) on a kept object
//   Outcome o = DifferentiateStepData(..., v, s.ActiveContactImpulse(), step, &d);
//   VelocityGradient g = s.Gradient(&d);          // or s.Gradient(nullptr) for B only
// Keeps the pointers to scene and data: the caller keeps both alive while it uses this object
// (a pointer, so that a temporary cannot be bound by mistake).
class QpSensitivity {
 public:
  QpSensitivity() = default;
  // time_step h [s] > 0; v (n_v) and beta (m) from the QP solver; data as BuildPyramidStepData
  // makes it (G_rows holds G's non-zeros; a contraction's entries for contact i are zero off
  // its key's columns). Throws std::invalid_argument for wrong sizes or non-finite entries.
  QpSensitivity(const Scene* scene, double time_step, const PyramidStepData* data,
                const Eigen::VectorXd& v, const Eigen::VectorXd& beta);
  // The same on this object, reusing its storage: a step with the sizes and active blocks of
  // the previous one allocates nothing here (CalcDiff keeps one object in its data).
  void Compute(const Scene* scene, double time_step, const PyramidStepData* data,
               const Eigen::VectorXd& v, const Eigen::VectorXd& beta);

  const std::vector<int>& active_rows() const { return active_; }
  // The independent blocks of the whitened system (range_space_kkt.h): their count and sizes.
  int block_count() const { return kkt_.block_count(); }
  int block_size(int b) const { return kkt_.block_size(b); }
  // λ = Rᵀ β_𝒜 (size r, step_data_derivative.h ContactImpulseOf with β zero off 𝒜): the
  // impulse whose J_cᵀλ the A right-hand side needs.
  Eigen::VectorXd ActiveContactImpulse() const;
  // The same in this object's storage (no allocation once its sizes are reached); valid until
  // the next call of this or of Compute.
  const Eigen::VectorXd& ActiveContactImpulseInPlace();
  // dv/du always; dv/dq when contraction is not null (made with v and ActiveContactImpulse()).
  VelocityGradient Gradient(const StepDataContraction* contraction) const;
  // The same into *out, reusing this object's work space and out's storage.
  void Gradient(const StepDataContraction* contraction, VelocityGradient* out);
  // dv for changes of the cost alone (r₂ = 0): the columns of r1 (n_v × c) are dτ_h − dP v
  // (e.g. ∂τ_h/∂v of the second-order step, dynamics/second_order_cost.h).
  Eigen::MatrixXd CostSensitivity(const Eigen::MatrixXd& r1) const;

 private:
  // One direction's rates of one contact: dφ_i and d(J_c,i v) along direction t.
  struct ContactRate {
    int direction;
    double d_phi;
    double d_Jc_v[3];           // zero past the contact's cols
    double minus_d_phi_over_h;  // −dφ_i / h
  };
  // Buffers of the solve, kept between calls.
  struct Workspace {
    Eigen::MatrixXd r1;
    RangeSpaceKkt::R2Rows r2_rows;   // r₂ᵀ by active row
    Eigen::MatrixXd r2_transposed;   // dense r₂ᵀ, for the whole KKT system only
    std::vector<ContactRate> rates;  // one contact's, while its rows are formed
    RangeSpaceKkt::Workspace solve;
  };

  Eigen::MatrixXd SolveFullKkt(const Eigen::MatrixXd& r1, const Eigen::MatrixXd& r2_transposed,
                               int* rank) const;
  void GradientInto(const StepDataContraction* contraction, Workspace* w,
                    VelocityGradient* out) const;

  const Scene* scene_ = nullptr;
  double time_step_ = 0.0;
  const PyramidStepData* data_ = nullptr;
  Eigen::VectorXd beta_;
  std::vector<int> active_;
  PositiveDefiniteFactor::SparseRows whitened_;  // w_j = C⁻ᵀ g_jᵀ, every row (range space)
  bool range_space_ = false;  // P positive definite: the whitened velocity-space path
  RangeSpaceKkt kkt_;         // on whitened_ and active_, factored when range_space_
  Eigen::VectorXd delassus_, slack_;
  Eigen::VectorXd beta_active_, active_impulse_;  // ActiveContactImpulseInPlace's storage
  Workspace workspace_;
};

}  // namespace quasidyn
