#pragma once
// Exact sensitivities of the exact-cone SOCP step (dynamics/quasi_dynamic_socp.h;
// Pang, Suh, Yang & Tedrake, T-RO 2023, eq. (27)) by implicit differentiation of its conic KKT
// conditions (ibid. §III-C, eqs. (28)–(30)).
//
// Program (blocks of socp_gradient_blocks.h, u_b = A_b v + b_b, A_b = R_b J_c,i,
// b_b = (φ_i/h) R_b e₀):
//   minimise ½ vᵀ P v − τ_hᵀ v   subject to   u_b ∈ K_b   (second-order cones, self-dual).
// KKT (Boyd & Vandenberghe, "Convex Optimization", §5.9.2):
//   P v − τ_h − Σ_b A_bᵀ y_b = 0,    u_b ∈ K_b,  y_b ∈ K_b,  u_bᵀ y_b = 0.
//
// Residual-map form (the approach of Agrawal, Barratt, Boyd, Moursi & Busseti, "Differentiating
// through a cone program", J. Appl. Numer. Optim. 2019, §3, written here for our program). Put
//   w_b = d_b y_b − u_b,   d_b = trace(A_b P⁻¹ A_bᵀ)/m_b > 0   [1/kg: N·s → m/s],
// a scalar "Delassus" scale that puts the impulse and the velocity in the same units (a
// positive scalar maps K_b onto itself). By Moreau's decomposition (K self-dual, u ⊥ y) the
// pair is recovered from w alone: d_b y_b = Π_K(w_b), u_b = Π_K(−w_b) = Π_K(w_b) − w_b. So
// (v, w) is a zero of
//   F₁ = P v − τ_h − Σ_b A_bᵀ Π_K(w_b)/d_b,    F₂,b = A_b v + b_b − Π_K(w_b) + w_b,
// and, with D_b = DΠ_K(w_b), the implicit function theorem gives for a data change
//   [ P     −Aᵀ D̃  ] [ dv ]   [ dτ_h − d(P v) + d(J_cᵀ λ)   ]      D̃ = blockdiag(D_b/d_b),
//   [ A     I − D  ] [ dw ] = [ −R_b (d(J_c,i v) + dφ_i/h e₀) ]     λ = Σ_b R_bᵀ y_b,
// (contractions of contact_data_derivative.h; for B the right side is [∂τ_h/∂u; 0]).
//
// The three cases of a cone, from the spectral values σ₁ = w₀ − ‖w₁‖ <= σ₂ = w₀ + ‖w₁‖ of w
// (projection formulas: Bauschke, "Projection algorithms and monotone operators", 1996, or
// Agrawal et al. 2019, §A; m_b = 1 is the half line, σ₁ = σ₂ = w):
//   sticking   σ₁ > 0:        u = 0, y interior (the contact rolls/sticks)   D = I
//   separated  σ₂ <= 0:       y = 0, u interior or at the apex               D = 0
//   sliding    σ₁ <= 0 < σ₂:  both on the boundary, y ∝ J u                  D = ½ [1, ŵᵀ;
//                               ŵ, (1 + w₀/‖w₁‖) I − (w₀/‖w₁‖) ŵŵᵀ],  ŵ = w₁/‖w₁‖
// (‖w₁‖ > 0 in the sliding case, so D is always finite). For the half line: D = 1 if w > 0,
// else 0, i.e. a row is active when y d > u, the rule of qp_gradient.h.
//
// Degenerate points (documented choice). Strict complementarity fails when σ₁ = 0 (u = 0 and
// y on the cone's boundary: sticking at the edge of the friction cone, about to slide) or
// σ₂ = 0 (y = 0 and u on the boundary or at the apex: touching while sliding, or φ = 0
// with no impulse). Π_K is not differentiable there; the inequalities above pick one side
// deterministically — σ₁ = 0 is treated as sliding (the limit of the sliding branch,
// D = ½[1, ŵᵀ; ŵ, 2I − ŵŵᵀ]), σ₂ = 0 as separated — so A and B are the one-sided
// derivatives of that branch (an element of the generalised Jacobian), never an average.
// Computed from a solver's (u, y), σ is accurate to the solver tolerance, so the side is the
// one nearest that solution.
//
// Solve (range space, when H below is positive definite, e.g. P is: object_mass_scale > 0).
// D_b is symmetric with the eigenvalues 1, 0 and, for a sliding cone, λ = ½(1 + w₀/‖w₁‖) ∈
// (0, 1] on the tangential directions (0, t), t ⊥ ŵ. In D_b's eigenvectors q_i the second row
// reads q_iᵀA_b dv + (1 − λ_i) z_i = q_iᵀr₂,b (z = qᵀdw), and the impulse change is
// dy_b = Σ_i q_i λ_i z_i/d_b, so
//   λ_i = 0 (a separated block, or a sliding cone's (−1, ŵ)/√2): no impulse change, the row
//            drops out;
//   λ_i = 1 (every row of a sticking block, a sliding cone's (1, ŵ)/√2, an active limit row):
//            the row is held, q_iᵀA_b dv = q_iᵀr₂,b, with a free multiplier;
//   0 < λ_i < 1 (a sliding cone's tangential directions): z_i is eliminated, adding the
//            curvature k_i a_i a_iᵀ to P and k_i a_i q_iᵀr₂,b to r₁, a_i = A_bᵀq_i,
//            k_i = λ_i/(d_b(1 − λ_i)) = (‖w₁‖ + w₀)/(d_b(‖w₁‖ − w₀)) [kg] (= |y|/|u| in the
//            cone's coordinates: independent of d_b, which only puts w in one unit).
// This is the equality-constrained system of range_space_kkt.h with H = P + Σ k_i a_i a_iᵀ and
// E the held rows, solved by blocks in the velocities whitened by H's factor, O(n_v³) at most
// instead of O((n_v + Σ m_b)³). A tangential direction with 1 − λ <= 1e-8 (a cone within 1e-8
// of sticking, k_i/(a_iᵀP⁻¹a_i) >= 1e8) is held instead: the error of that limit is O(1 − λ),
// that of keeping k_i in H's Cholesky factor O(ε_mach k_i/(a_iᵀP⁻¹a_i)); both stay below
// ≈ 1e-8 relative with this threshold. kkt_rank reports the rank of the whole system:
// n_v + rank(E) + the rows not held.
// Inconsistent held rows (documented choice). When more rows are held than the velocities they
// constrain (a cube in a grasp and on a stack: 144 held rows of rank 67 on 69 velocities at
// step 200 of arm_cubes) a configuration direction can move them inconsistently (six of the
// 69 there): no dv keeps them all, the step's derivative does not exist along it (some
// contact must separate) and r₂ enters through its least-squares projection
// onto range(E), as for the QP (range_space_kkt.h). The whole-system solve below minimises a
// differently weighted residual there, so the two differ along those directions only (by up
// to 0.13 of A's largest entry at that step); wherever the held rows are consistent they agree
// (tested to 1e-8 relative).
//
// Solve (whole system: SocpKktSolve::kFullKkt, or H not positive definite): the system is
// square (n_v + Σ m_b) but singular when the active rows are rank deficient (a box flat on the
// ground: four sticking corners, 12 rows on 6 velocities) or at a degenerate point; then dw is
// not unique but dv is. Rows and then columns are scaled to unit ∞-norm, and a complete
// orthogonal decomposition (Golub & Van Loan, §5.4.2) returns the minimum-norm least-squares
// solution: deterministic and finite for every input. The tests compare the two solves.

#include <Eigen/Core>
#include <vector>

#include "quasidyn/dynamics/step_problem.h"
#include "quasidyn/formulations/programs/socp_gradient_blocks.h"
#include "quasidyn/gradients/contact_data_derivative.h"
#include "quasidyn/gradients/positive_definite_factor.h"
#include "quasidyn/gradients/range_space_kkt.h"
#include "quasidyn/gradients/velocity_gradient.h"

namespace quasidyn {

enum class ConeCase { kSeparated, kSliding, kSticking };

// The case of one block from w = d·y − u (size m >= 1), and D = DΠ_K(w) (m × m) as above.
ConeCase ClassifyCone(Eigen::Ref<const Eigen::VectorXd> w,
                      Eigen::MatrixXd* projection_jacobian = nullptr);

// D = DΠ_K(w) split by its eigenvalues for the range-space solve (header): the held
// directions (λ = 1, and a sliding cone's tangential ones within 1 − λ <= kNearStickingGap of
// sticking) and the curved ones (0 < λ < 1) as orthonormal columns of size m, with their λ
// and 1 − λ (computed without cancellation); the λ = 0 directions are left out, so
// D = held heldᵀ + curved diag(λ) curvedᵀ up to the near-sticking rule.
inline constexpr double kNearStickingGap = 1e-8;  // [-], of 1 − λ
struct ConeDirections {
  Eigen::MatrixXd held;    // m × h
  Eigen::MatrixXd curved;  // m × c
  Eigen::VectorXd lambda;  // c
  Eigen::VectorXd gap;     // c: 1 − λ
};
// Fills *out for w (size m >= 1), reusing its storage.
void SplitCone(Eigen::Ref<const Eigen::VectorXd> w, ConeDirections* out);

// d_b = trace(A_b P⁻¹ A_bᵀ)/m_b per block [1/kg], by P's block factor
// (positive_definite_factor.h), or with P⁻¹ = (P + δI)⁻¹, δ = 1e-12·max(1, max P_ii), when P is
// singular; 1 when A_b = 0 (no velocity dependence).
std::vector<double> DelassusScales(const StepProblem& problem,
                                   const std::vector<ContactConeBlock>& blocks);

// The case of every block at the SOCP solution (v, multipliers y_b = SocpBlockMultipliers).
std::vector<ConeCase> ClassifySocpBlocks(const StepProblem& problem,
                                         const std::vector<ContactConeBlock>& blocks,
                                         const std::vector<Eigen::VectorXd>& multipliers,
                                         const Eigen::VectorXd& v);

// dv/du always; dv/dq (along the tangent directions of contact_data_derivative.h) when
// `contraction` is not null. The contraction must have been computed at this v and with
// λ = StackedImpulseCoordinates(problem.contacts, blocks, multipliers). limit_multipliers are
// the SOCP's duals λ_l of the joint-limit rows (FormulationSolution::limit_impulse, size n_l of
// problem.cost.limits): each row is one more half line (m_b = 1) with A_l = G_l, dA_l = 0 and
// ∂b_l/∂ε = G_l/h (dynamics/joint_limit_rows.h). active_rows of the result counts the binding
// scalar conditions: m_b per sticking block, 1 per sliding block, 1 per active limit row.
// solve picks the method (header; kRangeSpace falls back to the whole system when H is not
// positive definite). Throws std::invalid_argument on inconsistent sizes.
enum class SocpKktSolve { kRangeSpace, kFullKkt };
VelocityGradient SocpVelocityGradient(const StepProblem& problem,
                                      const std::vector<ContactConeBlock>& blocks,
                                      const std::vector<Eigen::VectorXd>& multipliers,
                                      const Eigen::VectorXd& limit_multipliers,
                                      const Eigen::VectorXd& v,
                                      const StepDataContraction* contraction,
                                      SocpKktSolve solve = SocpKktSolve::kRangeSpace);

// SocpVelocityGradient with its storage kept between calls (CalcDiff keeps one in its data):
// a step with the sizes of the previous one allocates little beyond its factors' blocks.
// Arguments and errors as SocpVelocityGradient; the result goes into *out, reusing its storage.
class SocpSensitivity {
 public:
  void Compute(const StepProblem& problem, const std::vector<ContactConeBlock>& blocks,
               const std::vector<Eigen::VectorXd>& multipliers,
               const Eigen::VectorXd& limit_multipliers, const Eigen::VectorXd& v,
               const StepDataContraction* contraction, SocpKktSolve solve, VelocityGradient* out);

  // dv (n_v × c) for the right side [r1; 0] (r1: n_v × c, a change of the cost's linear term
  // τ_h with the constraints' values held) of the system the last Compute solved, by its
  // factors (range space) or the whole system as Compute chose: the second-order step's
  // ∂v⁺/∂v from r1 = ∂τ_h/∂v − ∂(P v⁺)/∂v (anitescu_cone/anitescu_cone_program.h).
  // std::invalid_argument before a Compute or when r1 does not have n_v rows.
  void CostSensitivity(const Eigen::MatrixXd& r1, Eigen::MatrixXd* dv);

 private:
  bool SolveRangeSpace(VelocityGradient* out);
  // The rank and dv of a range-space solve with `held` rows in E (workspace_.x) into *out.
  bool FinishRangeSpace(int held, VelocityGradient* out) const;
  VelocityGradient SolveFullKkt() const;
  // The blocks' A_b and their compact layout (members below) from the contacts' Jacobians.
  void CompactBlockJacobians(const ContactSet& contacts,
                             const std::vector<ContactConeBlock>& blocks);
  // The whole system's velocity rows for the right sides [r1; r₂'s first r2_columns columns,
  // then 0], and its rank.
  Eigen::MatrixXd FullKktVelocities(const Eigen::MatrixXd& r1, int r2_columns, int* rank) const;

  // The linearised conditions of the step (header): the blocks' A_b on their contacts'
  // columns (block b: columns_[columns_start_[b] …] (k_b of them), its m_b rows first at
  // offset_[b] of the stack, offset_.back() = Σ m_b; A_compact_[compact_offset_[b] + i k_b + s]
  // = A_b(i, column s)), w_b = d_b y_b − u_b stacked alike, each block's case and d_b, the
  // joint-limit rows G_l with d_l and activity, and the right-hand sides r₁ (n_v × (n_v dirs +
  // n_q,a)) and r₂ ((Σ m_b + n_l) × n_v dirs; zero for the commands): a block's rows of r₂ on
  // its contact's directions only, laid out as A_compact_ (r2_compact_, zero along every other
  // direction), the limit rows' r₂ = −G_l/h.
  int n_ = 0, nq_dirs_ = 0, active_rows_ = 0;
  double time_step_ = 0.0;                       // h [s]
  bool computed_ = false, range_space_ = false;  // a Compute ran; it solved by the range space
  bool cost_is_P_ = false;   // P_factor_ holds P's factor and whitened_ the rows [A; G_limits]
  bool P_factored_ = false;  // P_factor_ factors P_ (= P_sparse_kept_)
  Eigen::MatrixXd P_;
  std::vector<int> offset_, columns_start_, columns_, compact_offset_;
  std::vector<double> A_compact_, r2_compact_;
  Eigen::MatrixXd G_limits_;
  SparseRowMatrix rows_sparse_;  // [A; G_limits]'s non-zeros
  Eigen::MatrixXd rows_;         // the same, dense, when P is singular
  Eigen::VectorXd forms_, gap_, w_;
  std::vector<ConeCase> cases_;
  std::vector<double> scales_, limit_scales_;
  std::vector<char> limit_active_;
  Eigen::MatrixXd r1_;
  PositiveDefiniteFactor P_factor_;
  SparseRowMatrix P_sparse_kept_;  // the P that P_ holds and P_factor_ factors
  PositiveDefiniteFactor::SparseRows whitened_;
  // The range-space solve's: H, r₁ with the curvature terms, the held rows E and their r₂ by
  // held row (RangeSpaceKkt::R2Rows: a row's entries on its contact's directions only).
  Eigen::MatrixXd H_, reduced_r1_;
  SparseRowMatrix E_;
  ConeDirections split_;
  Eigen::VectorXd a_, r2_q_;
  std::vector<int> held_rows_;
  RangeSpaceKkt::R2Rows r2_rows_;
  RangeSpaceKkt kkt_;
  RangeSpaceKkt::Workspace workspace_;
};
}  // namespace quasidyn
