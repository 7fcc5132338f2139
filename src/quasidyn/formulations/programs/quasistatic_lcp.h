#pragma once
// The quasistatic time step with impedance-controlled robots as a linear complementarity
// problem, Pang & Tedrake 2021, eq. (6) (§III-C), the Stewart–Trinkle LCP with Coulomb
// friction and maximum dissipation (Stewart & Trinkle 1996, IJNME 39(15)):
//
//   P v = τ_h + Σ_i (J_n,iᵀ λ_n,i + J_d,iᵀ λ_f,i)                   (6b), (6c)
//   0 <= λ_n,i ⊥ w_n,i = φ_i/h + J_n,i v                     >= 0   (1d) / h
//   0 <= λ_f,i ⊥ w_f,i = Γ_i e + J_d,i v                     >= 0   (1e) / h
//   0 <= Γ_i   ⊥ w_Γ,i = μ_i λ_n,i − eᵀ λ_f,i                >= 0   (1f)
//
// per contact i: λ_n,i [N·s], λ_f,i (n_d impulses [N·s] along the unit rays d_ij), Γ_i [m/s]
// (the sliding speed), e = (1, …, 1); and per joint-limit row l (joint_limit_rows.h)
//   0 <= λ_l   ⊥ w_l = o_l + d_l v_j                         >= 0,
// its impulse d_l λ_l e_j added to (6b) (the last block of z, contact_lcp_blocks.h). P =
// blockdiag(s·M_u, h²K_a) and τ_h are the cost of quasi_dynamic_cost.h: with s = 0, (6b)-(6c) are
// the paper's force balances exactly (its τ_a = 0, robots gravity-compensated); s > 0 adds the
// quasi-dynamic term s·M_u v_u of Pang, Suh, Yang & Tedrake 2023 so that every formulation of
// quasidyn steps the same model.
//
// v is eliminated with P⁻¹ (P must be positive definite, which needs s > 0 whenever the
// scene has objects; with s = 0 the step fails with a message saying so, because the mixed
// LCP with a singular P is not what Lemke's method solves):
//   z = (λ_n, λ_f, Γ),   w = M z + q,
//   M = [ J_n P⁻¹J_nᵀ   J_n P⁻¹J_dᵀ   0 ]     q = [ φ/h + J_n P⁻¹τ_h ]
//       [ J_d P⁻¹J_nᵀ   J_d P⁻¹J_dᵀ   E ]         [       J_d P⁻¹τ_h ]
//       [ diag(μ)       −Eᵀ            0 ]         [           0      ]
// with E (Σn_d × n_c) the block-diagonal matrix of the e's. Solved by Lemke's method
// (solvers/lemke.h), which processes this LCP (Stewart & Trinkle 1996, §4; Anitescu & Potra
// 1997). M is copositive but not copositive-plus when μ > 0 (z = Γ_i alone gives zᵀMz = 0 and
// (M + Mᵀ)z = μ_i Γ_i e_i ≠ 0), so the plain copositive-plus theorem does not cover it; the
// papers' argument uses its structure. A secondary ray is reported as infeasible.
// Unlike eq. (10), sliding keeps w_n = 0 (no boundary layer) and the friction is on the
// pyramid's boundary, eᵀλ_f = μλ_n, opposing the sliding direction.

#include <Eigen/Cholesky>
#include <vector>

#include "quasidyn/dynamics/contact_lcp_solver.h"
#include "quasidyn/formulations/program.h"
#include "quasidyn/solvers/lemke.h"
#include "quasidyn/solvers/sized_storage_pool.h"
#include "quasidyn/solvers/view_storage.h"

namespace quasidyn {

// The LCP above, with v eliminated: z = (λ_n (n_c), λ_f (Σ n_d, contact-major), Γ (n_c), λ_l
// (n_l)) and v = velocity_offset + velocity_map · z = P⁻¹(τ_h + J_nᵀλ_n + J_dᵀλ_f + G_lᵀλ_l).
// Dense: M couples every pair of contacts through P⁻¹. The n_z-sized matrices and vectors are
// views on `storage`, which keeps the largest sizes met (view_storage.h): n_z moves with the
// contacts (50 steps of the arm_cubes grasp under lcp: n_c 48–53, n_z 306–336, 28 changes), and
// M alone (n_z² ≈ 1e5 doubles there) is beyond what a SizedStoragePool keeps. Valid until the
// next build; not copyable (the views point into its own storage).
struct QuasistaticLcp {
  ViewStorage::MatrixView M{nullptr, 0, 0};  // n_z × n_z (units of w per unit of z, by row)
  ViewStorage::VectorView q{nullptr, 0};     // n_z (units of w: m/s, rad/s or N·s by row)
  Eigen::VectorXd velocity_offset;           // P⁻¹τ_h (n_v) [m/s or rad/s]
  ViewStorage::MatrixView velocity_map{nullptr, 0, 0};  // P⁻¹Jᵀ, n_v × n_z
  int num_contacts = 0;
  int num_friction = 0;  // Σ n_d

  LcpView lcp() const { return LcpView(M, q); }

  // Buffers of the build (kept so that a rebuild allocates nothing once its sizes have been met).
  Eigen::MatrixXd P;
  ViewStorage::MatrixView JT{nullptr, 0, 0};   // [J_nᵀ J_dᵀ 0 G_lᵀ], n_v × n_z
  ViewStorage::MatrixView J{nullptr, 0, 0};    // its transpose, n_z × n_v (M by columns of J)
  ViewStorage::VectorView offset{nullptr, 0};  // φ/h on the λ_n rows, o_l on the limit rows
  Eigen::LLT<Eigen::MatrixXd> P_factor;
  ViewStorage storage;
};

// Builds the LCP into *out; false when P is not positive definite (object_mass_scale = 0 with
// objects in the scene), true otherwise.
bool BuildQuasistaticLcp(const StepProblem& problem, QuasistaticLcp* out);

SolverSummary SummaryOf(const LemkeInfo& info);

struct QuasistaticLcpWorkspace final : ProgramWorkspace {
  explicit QuasistaticLcpWorkspace(const LemkeSettings& settings) : contact_solver(settings) {}
  QuasistaticLcp built;
  LemkeSolver solver;    // lcp
  int solver_size = -1;  // the LCP size the solver is set up for
  Eigen::VectorXd z;     // through `storage`
  SizedStoragePool storage;
  // stewart-trinkle: Lemke warm-started from the previous step's basis, with rescaled retries
  // (contact_lcp_solver.h).
  ContactLcpSolver contact_solver;
  bool warm_started = false;  // the last Solve's answer came from the guess (0 pivots)
};

// The same LCP serves two step models, by the cost it is given (step_problem.h):
//   kQuasistatic     the quasistatic step, P and τ_h of quasi_dynamic_cost.h (Pang & Tedrake
//                    2021, eq. 6; formulation lcp); a singular P is a failed step
//                    (kNumericalFailure) whose message asks for a positive object_mass_scale;
//   kStewartTrinkle  the second-order step, P = M̂ and τ_h of second_order_cost.h: the LCP of
//                    Stewart & Trinkle 1996 (eqs. 3–5 of the notes, with λ = Γ the sliding
//                    speed), warm-started from the previous step's basis and retried on
//                    rescaled data when Lemke fails (contact_lcp_solver.h; formulation
//                    stewart-trinkle, formulations/stewart_trinkle/).
enum class ContactLcpCost { kQuasistatic, kStewartTrinkle };

// Builds the LCP of `problem` into the workspace, solves it and writes v, the contact impulses
// and the limits' impulses into *solution; `description` names the program in messages.
void SolveContactLcp(const StepProblem& problem, ContactLcpCost cost, const LemkeSettings& settings,
                     const char* description, QuasistaticLcpWorkspace* workspace,
                     FormulationSolution* solution);

}  // namespace quasidyn
