#pragma once
// The MPC through contact as a mixed-integer QP (the 2D frictional contact notes, eqs. (10),
// (11), (18), (19)), on the linear model of mpc_linear_model.h:
//
//   min  Σ_{k=0}^{N−1} (x_k − x_d)ᵀ Q (x_k − x_d) + τ_kᵀ R τ_k  +  (x_N − x_d)ᵀ Q_f (x_N − x_d)
//   s.t. the dynamics (1)–(2) of mpc_linear_model.h, k = 0 … N−1 (x_0 given),
//        0 <= w_k+1 <= M_w (1 − z_k),   0 <= γ_k <= M_γ z_k,   z_k ∈ {0, 1}^{n_γ}   (eq. (11)),
//        x_k+1 ∈ X_k+1,   τ_min <= τ_k <= τ_max,
//
// w the complementarity functions (3)–(5) of mpc_linear_model.h, one binary per pair.
//
// Sparse, states kept (the notes' choice, §2): the decision vector is, step after step,
// (x_{k+1}, τ_k, γ_k, w_k, z_k), (n_x + n_a + 3 n_γ) per step; the dynamics are N·n_x equality
// rows (our QP takes them, solvers/qp.h), each touching two consecutive steps. The
// complementarity functions are variables w of their own, defined by N·n_γ more equality rows,
// so that each big-M row bounds one continuous variable: fixing a binary then pins γ_g or w_g
// to 0, which the MIQP's node presolve substitutes (solvers/miqp.h), and the node QPs keep a
// strict interior (with w written out in x, z = 1 would leave 0 <= w(x) <= 0, an equality as
// two inequalities, on which the interior point stalls). Condensing
// (eliminating the states) would leave n_a + 2 n_γ variables per step but make every
// complementarity row of step k dense in the inputs and impulses of all steps before it
// (O(N²) non-zeros instead of O(N)); at N = 20 on the notes' example that is 26 k non-zeros
// against 3 k, and the interior point's normal matrix would be dense.
//
// State boxes per step (reachability): X_k+1 = [x_min, x_max] ∩ {q_0 + (k+1) h [v_min, v_max]}
// on q (q_{k+1} = q_k + h v_{k+1} with v in its box); v keeps its box.
//
// Big-M (docs/mpc.md, "Big-M"), per pair and step, from the boxes:
//  * impulse caps M_γ (model constraints γ <= M_γ, reported when they bind):
//      c̄_i = margin · max over the boxes of |J_n,i (v⁺ − v) − h J_n,i M⁻¹ (B_a τ + τ_free)|
//                                             / (J_n,i M⁻¹ J_n,iᵀ),
//    the impulse that alone balances the largest normal momentum change the boxes allow
//    (margin >= 1 covers other contacts' friction pushing against it); β̄_ij = μ_i c̄_i;
//    λ̄_i = max over the v box of max_j |J_d,ij v| (λ is the sliding speed, eq. (4));
//  * the complementarity functions' caps M_w, their largest values over the boxes and caps:
//      w_c:  max over X_k+1 of φ_i + J_n,i (q − q_0),
//      w_β:  λ̄_i + max over the v box of J_d,ij v,
//      w_λ:  μ_i c̄_i.
// A contact whose gap cannot close within X_k+1 (min of w_c > 0) has its step's binaries fixed:
// c = 0, β = 0 (z = 0), w_λ = 0 (z = 1; λ free). A single big_m > 0 replaces every M.

#include <Eigen/Core>
#include <vector>

#include "quasidyn/control/mpc_linear_model.h"
#include "quasidyn/model/mpc_settings.h"
#include "quasidyn/solvers/miqp_problem.h"

namespace quasidyn {

// Where each block of step k lives in the decision vector.
struct MpcLayout {
  int horizon = 0, nx = 0, na = 0, ngamma = 0;
  int StepSize() const { return nx + na + 3 * ngamma; }
  int State(int k) const { return k * StepSize(); }       // x_{k+1}
  int Force(int k) const { return State(k) + nx; }        // τ_k
  int Impulse(int k) const { return Force(k) + na; }      // γ_k
  int Slack(int k) const { return Impulse(k) + ngamma; }  // w_k
  int Binary(int k) const { return Slack(k) + ngamma; }   // z_k
  int Variables() const { return horizon * StepSize(); }
};

struct MpcMiqp {
  MiqpProblem problem;
  MpcLayout layout;
  // The constant part of J ((x_0 − x_d)ᵀQ(x_0 − x_d) and the x_dᵀQx_d terms), also the MIQP's
  // objective_offset: the MIQP's objective is J.
  double constant = 0.0;
  // Per step k: the impulse caps M_γ and the complementarity caps M_w (n_γ each), and the
  // boxes X_k+1 of the states.
  std::vector<Eigen::VectorXd> impulse_cap, complementarity_cap, state_lower, state_upper;
  int fixed_binaries = 0;  // by the gap test above
};

// The weights and bounds of `settings` with its defaults filled in (Q = I, Q_f = Q, R = I) for
// a model of n_x states and n_a inputs; std::invalid_argument when the bounds or the target are
// missing or of the wrong size.
MpcSettings ResolvedMpcSettings(const MpcSettings& settings, int nx, int na);

// Builds the MIQP at the model's x_0 (std::invalid_argument for a bad model or settings).
void BuildMpcMiqp(const MpcLinearModel& model, const MpcSettings& settings, MpcMiqp* out);

// J of a trajectory: states x_1 … x_N (each n_x), forces τ_0 … τ_{N−1}, from x_0 = model's.
double MpcCost(const MpcLinearModel& model, const MpcSettings& resolved,
               const std::vector<Eigen::VectorXd>& states,
               const std::vector<Eigen::VectorXd>& forces);

}  // namespace quasidyn
