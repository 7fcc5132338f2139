#pragma once
// The subproblem of the iterative MPC (trajectory_optimizer.h): one convex QP in the command
// corrections δu over a window of H steps, on the linearisation of every step around a
// nominal trajectory (Pang, Suh, Yang & Tedrake, T-RO 2023, §VI-B; talk slide "Smoothed
// gradients enable trajectory optimization"):
//
//   δq_{k+1} = A_k δq_k + B_k δu_k,   δq_0 given,   k = 0 … H − 1
//   J(δu) = Σ_{k=1..H} ‖q^u_k + δq^u_k − g‖²_{W_k}                 object-goal cost
//         + ρ Σ_{k=0..H−1} ‖(u_k + δu_k) − (u_{k−1} + δu_{k−1})‖²   command-rate (Δu) penalty
//   subject to |δu_k,i| <= r                                         trust region (box)
//
// with q_k, u_k the nominal trajectory (q_k = state after step k), W_k = diag(w) for k < H and
// diag(w_T) at k = H, u_{−1} the fixed command before the window (δu_{−1} = 0).
//
// Corrected steps: only the first `corrected_steps` steps of the window may carry a variable
// δu_k; the steps after them keep their commands (δu_k = 0) and only carry the corrections'
// effect on the objects (δq_{k+1} = A_k δq_k) to the cost, and their rate terms are constants
// except the one into the first kept step, ‖Δu_k − δu_{k−1}‖², which stays. This is the QP of
// one contact-continuous segment of a path with regrasps (trajectory_optimizer.h,
// `per_segment`): its own commands are the variables, the rest of the path is its prediction.
//
// Regrasp steps (a planner's path, docs/plan-format.md): step k may be a REGRASP, which resets
// the robots to u_k and keeps the objects, q_{k+1} = (q^u_k, u_k), instead of a stepper step.
// Its configuration u_k is the planner's and stays fixed (no δu_k variable: δu_k = 0), its
// linearisation is exact, A_k = diag(I_{n_q,u}, 0), and the rate term INTO it, ‖u_k − u_{k−1}‖²,
// is dropped (a reset is not a motion of the robots); the term out of it, ‖u_{k+1} − u_k‖², stays.
// The variables are the δu_k of the other steps, in order; the difference operator restricted to
// them is still square and unit lower triangular, so the Hessian stays positive definite.
//
// Structure: the states are eliminated by the forward recursion δq_{k+1} = Φ_{k+1} δq_0 +
// Σ_{j<=k} Γ_{k+1,j} δu_j (Γ_{j+1,j} = B_j, Γ_{k+1,j} = A_k Γ_{k,j}), which costs O(H²) blocks
// and leaves a dense QP in the H·n_u corrections alone: our interior-point QP (solvers/qp.h)
// has inequality rows only, and at these sizes (H·n_u <= a few hundred) its dense Cholesky of
// the H·n_u × H·n_u reduced matrix is cheaper than a sparse KKT in (δu, δq) with (n_u + n_q)·H
// unknowns and H·n_q equality rows (docs/control.md, "The QP").
//
// ρ > 0 makes the Hessian 2ρ DᵀD + 2 Σ Γᵀ W Γ positive definite (D, the difference operator
// with δu_{−1} = 0, is invertible), so the subproblem has exactly one minimiser.

#include <Eigen/Core>
#include <vector>

#include "quasidyn/solvers/qp_problem.h"

namespace quasidyn {

struct TrajoptQpData {
  int object_size = 0;                     // n_q,u: the leading rows of q the goal cost reads
  std::vector<Eigen::MatrixXd> A;          // H matrices n_q × n_q
  std::vector<Eigen::MatrixXd> B;          // H matrices n_q × n_u
  std::vector<Eigen::VectorXd> q_nominal;  // q_1 … q_H (size n_q each)
  std::vector<Eigen::VectorXd> u_nominal;  // u_0 … u_{H−1} (size n_u each)
  Eigen::VectorXd u_before;                // u_{−1} (size n_u)
  Eigen::VectorXd dq0;                     // δq_0 (size n_q)
  Eigen::VectorXd goal;                    // g (size n_q,u)
  Eigen::VectorXd object_weight;           // w >= 0 (size n_q,u) [1/m² or 1/rad²]
  Eigen::VectorXd terminal_weight;         // w_T >= 0 (size n_q,u)
  double rate_weight = 1.0;                // ρ > 0 [1/m² or 1/rad²]
  double trust_region = 0.1;               // r > 0 [m or rad]
  // Per step (H entries, or empty: none): true when step k is a regrasp (above); its A_k must be
  // diag(I, 0) and its B_k is not read.
  std::vector<bool> regrasp;
  // The leading steps whose commands are corrected (above), in [1, H]; −1: all H.
  int corrected_steps = -1;
};

// Whether step k of the data is a regrasp (false when `regrasp` is empty).
bool IsRegraspStep(const TrajoptQpData& data, int k);

// The column of δu_k in the QP's x for each step k (−1 for a regrasp step and a step at or after
// corrected_steps), and their count
// n_x = n_u · (number of non-regrasp steps) through `variables`.
std::vector<int> TrajoptColumns(const TrajoptQpData& data, int* variables);

// Builds the QP ½ xᵀPx + cᵀx s.t. Gx >= h, x = (δu_k of the non-regrasp steps k, in order),
// whose objective is J(δu) − J(0). Throws std::invalid_argument on inconsistent sizes, ρ <= 0,
// r <= 0, negative weights or a window of regrasp steps only.
void BuildTrajoptQp(const TrajoptQpData& data, QpProblem* problem);

// The QP solver's settings for BuildTrajoptQp's problems: the dense path of solvers/qp.h at every
// size, as the condensed Q is dense (a sparse LDLᵀ of it costs 4.8 times Eigen's blocked
// Cholesky at 160 variables). G is the trust region's box, one entry in each of its 2 n_x rows,
// which the dense path sums into Gᵀ diag(w) G by rows, O(n_x) per interior-point iteration
// (QpSolver's dense_by_rows_; docs/control.md, "The QP").
QpSettings TrajoptQpSettings();

// The linearised states q_k + δq_k, k = 1 … H, for corrections x (the QP's variables, size n_x
// of TrajoptColumns).
std::vector<Eigen::VectorXd> PredictedStates(const TrajoptQpData& data, const Eigen::VectorXd& du);

// J of a trajectory: states q_1 … q_H (each n_q), commands u_0 … u_{H−1}, u_{−1} = u_before;
// no rate term into a regrasp step (weights.regrasp).
double TrajoptCost(const TrajoptQpData& weights, const std::vector<Eigen::VectorXd>& q,
                   const std::vector<Eigen::VectorXd>& u);

}  // namespace quasidyn
