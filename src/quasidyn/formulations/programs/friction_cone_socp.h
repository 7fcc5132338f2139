#pragma once
// The quasi-dynamic time step with the exact (circular) Coulomb friction cone, an SOCP
// (Pang, Suh, Yang & Tedrake, T-RO 2023, the convex quasi-dynamic contact model; Anitescu
// 2006, Math. Programming 105(1)):
//
//   minimise_v  ½ vᵀ P v − τ_hᵀ v                                   (quasi_dynamic_cost.h)
//   subject to  (φ_i/h + J_n,i v,  J_t,i v) ∈ K*_i   for every contact i,
//
// K*_i = {(a, b) : a >= μ_i ‖b‖} the dual of the friction cone K_i = {(λ_n, λ_t) : ‖λ_t‖ <=
// μ_i λ_n}. It is written as the standard cone of solvers/socp.h, A_i v + b_i ∈ K with
//   u_i = A_i v + b_i = (t_i, z_i),   t_i = φ_i/h + J_n,i v  [m/s],   z_i = μ_i J_t,i v  [m/s],
// i.e. A_i = [J_n,i; μ_i J_t,i] ((1 + n_t) × n_v), b_i = (φ_i/h, 0). A contact with μ_i = 0
// has no friction and becomes the linear row J_n,i v >= −φ_i/h. A planar contact (n_t = 1)
// has the two-dimensional cone t_i >= |z_i|, which is exactly the two linear rows
// t_i + z_i >= 0 and t_i − z_i >= 0 (in 2D the friction cone is a pyramid); they are passed as
// linear rows, which is exact, cheaper, and avoids a numerical failure of solvers/socp.h on
// two-dimensional cones (non-finite iterate, seen on the planar_gripper example).
//
// Impulses from the cone duals. With y_i ∈ K (the second-order cone is self-dual) the
// multiplier of cone i, the Lagrangian is ½vᵀPv − τ_hᵀv − Σ_i y_iᵀ(A_i v + b_i), so
//   stationarity       P v − τ_h = Σ_i A_iᵀ y_i = Σ_i (J_n,iᵀ y_i,0 + J_t,iᵀ μ_i y_i,1:),
//   complementarity    y_iᵀ u_i = 0,  y_i ∈ K,  u_i ∈ K.
// The contact impulse λ_i = λ_n,i n_i + λ_t,i (world, N·s) enters the generalized momentum
// balance as J_iᵀ λ_i = J_n,iᵀ λ_n,i + J_t,iᵀ λ̂_t,i (λ̂_t its coordinates in (t1, t2)), so
//   λ_n,i = y_i,0,   λ̂_t,i = μ_i y_i,1:,   friction impulse = Σ_k λ̂_t,ik t_k,i,
// and y_i ∈ K, i.e. ‖y_i,1:‖ <= y_i,0, gives ‖λ_t,i‖ = μ_i ‖y_i,1:‖ <= μ_i λ_n,i: the impulse
// lies in the friction cone. Complementarity y_iᵀu_i = 0 reads
//   λ_n,i (φ_i/h + J_n,i v) + λ̂_t,iᵀ (J_t,i v) = 0:
// sticking (u_i interior: y_i = 0 or u_i = 0), or sliding with the friction impulse opposite
// the tangential velocity on the cone's boundary (both on the boundaries, y_i ∝ J u_i),
// with Anitescu's boundary layer φ_i/h + J_n,i v = μ_i ‖J_t,i v‖ > 0 while sliding.
// For a planar contact with multipliers ζ₊, ζ₋ >= 0 of the rows t_i ± z_i >= 0, the same
// reading of Σ A_iᵀ y_i gives λ_n,i = ζ₊ + ζ₋ and λ̂_t,i = μ_i (ζ₊ − ζ₋), again in the cone.
// The joint-limit rows o_l + d_l v_j >= 0 (joint_limit_rows.h) are linear rows after the
// contacts', their duals the limits' impulses λ_l.

#include "quasidyn/formulations/programs/friction_cone_socp_warm_start.h"
#include "quasidyn/formulations/programs/socp_gradient.h"
#include "quasidyn/formulations/programs/socp_gradient_blocks.h"
#include "quasidyn/formulations/quasi_dynamic/quasi_dynamic_program.h"
#include "quasidyn/solvers/sized_storage_pool.h"
#include "quasidyn/solvers/socp.h"

namespace quasidyn {

// The SOCP above into *socp: one cone per 3D contact with μ_i > 0 (in contact order, rows
// [J_n,i; μ_i J_t,i] of A, b = (φ_i/h, 0, …)); linear rows in contact order: J_n,i v >= −φ_i/h
// for a frictionless contact, (J_n,i ± μ_i J_t,i) v >= −φ_i/h (plus first) for a planar contact
// with μ_i > 0, then the joint-limit rows. No heap allocation once *socp has held a problem of
// this size, or, with `storage`, once its vectors' sizes have been met (its spares).
void BuildFrictionConeSocp(const StepProblem& problem, SocpProblem* socp,
                           SizedStoragePool* storage = nullptr);

// Appends the cone u_i = A_i v + b_i of one contact with μ_i > 0 (above) to A, b and the cone
// dimensions: rows [J_n,i; μ_i J_t,i] on the contact's columns, b = (φ_i/h, 0, …); h [s].
void AppendFrictionCone(const ContactSet& contacts, int i, double time_step, SparseRowMatrix* A,
                        Eigen::VectorXd* b, int row, std::vector<int>* cone_dims);

SolverSummary SummaryOf(const SocpInfo& info);

// Where a step's interior point starts: its cold start, or the previous step's answer kept in
// the workspace (friction_cone_socp_warm_start.h).
enum class SocpStart { kCold, kFromPreviousStep };

struct FrictionConeSocpWorkspace final : ProgramWorkspace {
  SocpProblem socp;
  SocpSolver solver;
  FrictionConeSocpWarmStart previous;  // the last answer (SocpStart::kFromPreviousStep)
  SocpWarmStart start;                 // scratch: the start made from it
  SizedStoragePool storage;            // socp's h and b for every row count met so far
  // The derivative's (socp_gradient.h): the cones' blocks and multipliers, the linearisation and
  // its range-space solve.
  std::vector<ContactConeBlock> cone_blocks;
  std::vector<Eigen::VectorXd> cone_multipliers;
  Eigen::VectorXd cone_impulse;  // λ = Σ R_bᵀ y_b (socp_gradient_blocks.h)
  SocpSensitivity sensitivity;
};

// Builds the SOCP of `problem` into the workspace, solves it (set up again only for a new
// pattern) and writes v and the impulses (from the cone duals, above) into *solution. When the
// solver stops on a numerical failure it is run once more with tolerances 100× looser and a
// success is reported as kSolvedInaccurate. The same program serves two step models, by the
// cost the problem carries (step_problem.h), as the pyramid QP does (programs/pyramid_qp.h): the
// quasi-dynamic step (quasi_dynamic_cost.h; formulation socp) and the second-order step
// (second_order_cost.h, P = M̂; formulation anitescu-cone, Anitescu 2006's relaxation on the
// exact cone, anitescu_cone/anitescu_cone_program.h). `description` names the program in
// messages. With SocpStart::kFromPreviousStep the interior point starts from the answer of the
// workspace's previous step (friction_cone_socp_warm_start.h) and remembers this one; a warm
// solve that does not end kSolved is solved again cold, so a warm start never changes a status
// (the summary's iterations and time are then those of both solves).
void SolveFrictionConeSocp(const StepProblem& problem, const SocpSettings& settings,
                           const char* description, FrictionConeSocpWorkspace* workspace,
                           FormulationSolution* solution, SocpStart start = SocpStart::kCold);

// ∂v/∂q (tangent; when `contractor` is not null) and ∂v/∂u of the answer the last
// SolveFrictionConeSocp left in the workspace, into *gradient (socp_gradient.h; the right side
// of u is ∂τ_h/∂u = h K_a for both costs); the factors stay in workspace->sensitivity for
// further right-hand sides (SocpSensitivity::CostSensitivity). False, with *gradient failed
// and named, when the contact data's derivative failed.
bool DifferentiateFrictionConeSocp(const StepProblem& problem, const FormulationSolution& solution,
                                   StepDataContractor* contractor,
                                   FrictionConeSocpWorkspace* workspace,
                                   VelocityGradient* gradient);

}  // namespace quasidyn
