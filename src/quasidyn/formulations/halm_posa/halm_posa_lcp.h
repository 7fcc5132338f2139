#pragma once
// The time-stepping LCP of planar quasi-static manipulation with finite velocity feedback,
// Halm & Posa 2018, §5, eqs. (31)–(38):
//
//   Δq_o = A Jᵀ_o Λ                         (32)  objects slide on their limit surfaces
//   Δq_m = c B Jᵀ_m Λ + h u                 (33)  velocity-commanded robots, finite gain
//   0 <= φ⁻ + J_N Δq                ⊥ Λ_N >= 0   (31), (34)
//   0 <= J_T Δq + E γ               ⊥ Λ_T >= 0   (35)
//   0 <= μ Λ_N − Eᵀ Λ_T             ⊥ γ   >= 0   (36)
//
// per contact i: Λ_N,i [N·s], Λ_T,i (one impulse per friction ray d_ij, for a planar contact
// the two tangents ±t_i: the paper's two opposing forces λ⁺, λ⁻) and γ_i [m] (the sliding
// distance); and per joint-limit row l (dynamics/joint_limit_rows.h, not in the paper)
//   0 <= (q_j − bound_l) d_l + d_l Δq_j   ⊥ Λ_l >= 0,
// the limit a frictionless contact of one robot coordinate, whose impulse moves the robot
// through c B as the contact impulses do (eq. (33): Δq_m = c B (J_mᵀΛ + G_lᵀΛ_l) + h u). The
// LCP keeps the structure of Theorem 1 (the limit block G_l c B G_lᵀ is positive definite for
// c > 0), so it is solvable when the robot starts within its limits; at c = 0 a command past
// a limit jams like a squeezing command (no solution). With the mobility W = blockdiag(A_1(θ_1), …,
// A_m(θ_m), c B) (n_v × n_v: each object's A of dynamics/limit_surface.h, eq. (12), then the
// robots' c B), the displacement Δq = d₀ + W Jᵀ z with d₀ = [0; h u] (u the robots' commanded
// velocity) and z = (Λ_N, Λ_T, γ) (dynamics/contact_lcp_blocks.h for J and the friction blocks):
//
//   M̃(cB) = J W Jᵀ + [0 E; μ −Eᵀ 0],   w̃ = J d₀ + [φ⁻; 0; 0]        (37), (38)
//
// (J d₀ = [h J_N,m u; h J_T,m u; 0], the paper's w(h u⁻)). Theorem 1 and §5: for c > 0, B ≻ 0
// and φ⁻ >= 0 the LCP has a solution and Lemke's method finds one (M̃ is copositive and
// SOL(M̃, 0) is orthogonal to w̃). At c = 0 (perfect velocity control, eqs. (13)–(14)) a
// command that squeezes or jams has no solution: Lemke's method ends on a secondary ray.
//
// Rate form. The LCP is built and solved divided by h, as the quasistatic LCP is
// (quasistatic_lcp.h): LCP(M̃, w̃/h) has the solution z/h, i.e. the average contact forces
// F_N = Λ_N/h, F_T = Λ_T/h [N] and the sliding speed γ/h [m/s], its rows in m/s:
//
//   q_lcp = J [0; u] + [φ⁻/h; 0; 0],   Δq = d₀ + h W Jᵀ z_F.
//
// Lemke's tie and pivot tests (solvers/lemke.h) are relative to the data (it pivots on M and q
// normalised by powers of two; they were absolute below 1 when this retry was added). A
// degenerate LCP can still end on a false ray (two fingers closing exactly along
// their normals, with 1e-9 m/s of tangential rounding in the command): the solver then retries
// with w̃ scaled by 10³ and by 10⁻³ (LCP(M̃, s w̃) has the solution s z) and fails only when
// every scale does.

#include <Eigen/Core>
#include <vector>

#include "quasidyn/contact/contact_set.h"
#include "quasidyn/dynamics/contact_lcp_solver.h"
#include "quasidyn/dynamics/joint_limit_rows.h"
#include "quasidyn/formulations/halm_posa/limit_surface.h"
#include "quasidyn/solvers/lemke.h"

namespace quasidyn {

// *W (n_v × n_v) = blockdiag of A(θ) of each object at q (θ = q[v_start + 2]; planar scenes
// have q and v indexed alike) and scaled_gains = c B (n_q,a × n_q,a) on the robots' block
// [n_v − n_q,a, n_v). No heap allocation once *W has its size.
void BuildHalmPosaMobility(const std::vector<ObjectLimitSurface>& surfaces,
                           const Eigen::VectorXd& q, const Eigen::MatrixXd& scaled_gains,
                           Eigen::MatrixXd* W);

struct HalmPosaLcp {
  LcpProblem lcp;                       // M̃ (n_z × n_z), w̃/h (n_z) [m/s]: the rate form
  Eigen::MatrixXd JT;                   // Jᵀ = [J_Nᵀ J_Tᵀ 0] (n_v × n_z)
  Eigen::MatrixXd displacement_map;     // h W Jᵀ (n_v × n_z) [m/N]: Δq = d₀ + map · z_F
  Eigen::VectorXd displacement_offset;  // d₀ = [0; h u] (n_v) [m, rad]
  int num_contacts = 0;
  double time_step = 0.0;  // h [s]
  // Set by HalmPosaLcpSolver::Solve when it kept the penetrations: φ⁻ replaced by max(φ⁻, 0)
  // in lcp.q (the last fallback below).
  bool penetration_kept = false;
};

// Builds eqs. (37)–(38), in rate form, into *out from the contacts and joint-limit rows at q⁻
// (built with the same h), W and u (n_q,a, [m/s, rad/s]) over h [s]; the limit rows are the
// last n_l entries of z (contact_lcp_blocks.h). No heap allocation once *out has held an LCP of
// this size.
void BuildHalmPosaLcp(const ContactSet& contacts, const JointLimitRows& limits,
                      const Eigen::MatrixXd& W, const Eigen::VectorXd& u, double h,
                      HalmPosaLcp* out);

// The solver of the LCP (contact_lcp_solver.h): the previous solution's basic set is tried first
// when the contacts are the previous solve's, and Lemke's method runs only when it fails (then on
// the scales above while it fails; the pivots of every run are summed).
//
// Penetration. Theorem 1 needs φ⁻ >= 0. A step can start slightly inside a contact (φ⁻ < 0) when
// the previous step's linearisation of φ (eq. (31)) overshot; removing that penetration may then
// be impossible (a peg touching both walls of its slot, penetrating one), and the LCP has no
// solution. When every scale fails and some φ⁻ < 0, the solver keeps the penetrations instead of
// removing them (φ⁻ → max(φ⁻, 0) in w̃: no contact may penetrate further) and solves again; by
// Theorem 1 that LCP has a solution when c > 0 (HalmPosaLcp::penetration_kept says it happened).
// The paper's alternative, the fixed-point re-linearisation about the current estimate of q⁺
// (§5), is not implemented.
class HalmPosaLcpSolver {
 public:
  explicit HalmPosaLcpSolver(const LemkeSettings& settings = {}) : solver_(settings) {}

  // Solves lcp->lcp (built from `contacts` by BuildHalmPosaLcp; its q may be changed by the
  // penetration fallback above); the result stays valid until the next Solve. *warm_started
  // (may be null) tells whether the guess gave the answer (0 pivots).
  const LcpResult& Solve(const ContactSet& contacts, HalmPosaLcp* lcp, bool* warm_started);
  // Forgets the previous solution (the next Solve is a function of its problem alone).
  void ClearWarmStart() { solver_.ClearWarmStart(); }

 private:
  ContactLcpSolver solver_;
  LcpResult kept_answer_;  // the penetration fallback's answer, with the pivots of every run
};

}  // namespace quasidyn
