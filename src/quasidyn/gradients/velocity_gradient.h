#pragma once
// What the implicit differentiation of one time step produces, whatever the program: the
// sensitivities of the optimal velocity v* of the step's program (each program's derivative
// writes one: formulations/programs/qp_gradient.h, socp_gradient.h, log_barrier_gradient.h,
// formulations/log_barrier_cone/, stewart_trinkle/lcp_step_gradient.h).

#include <Eigen/Core>
#include <string>

#include "quasidyn/model/scene.h"

namespace quasidyn {

struct VelocityGradient {
  // ∂v*/∂ε_k along the tangent directions q ⊕ ε e_k (n_v × n_v); empty when not requested.
  Eigen::MatrixXd dv_dq;
  Eigen::MatrixXd dv_du;  // ∂v*/∂u (n_v × n_q,a)
  int active_rows = 0;    // exact QP: rows of the pyramid kept active; barrier: all rows
  int kkt_rank = 0;       // numerical rank of the linear system solved (its size if regular)
  // False when the linear system could not be factorised (a numerical outcome, not a caller's
  // mistake): dv_dq and dv_du are then empty and `failure` says why.
  bool ok = true;
  std::string failure;
};

// Marks *out failed (ok false, dv_dq and dv_du empty) with `message`.
void FailGradient(std::string message, VelocityGradient* out);
// Marks *out solved from dv = [∂v*/∂ε (n_v × nq_dirs) | ∂v*/∂u (n_v × n_q,a)], the solved
// right-hand sides side by side: dv_dq the first nq_dirs columns (empty when nq_dirs is 0),
// dv_du the rest; active_rows and kkt_rank as VelocityGradient says.
void SetSolvedGradient(const Eigen::MatrixXd& dv, int nq_dirs, int active_rows, int kkt_rank,
                       VelocityGradient* out);

// ∂τ_h/∂u = [0; h K_a] (n_v × n_q,a), quasi_dynamic_cost.h; h [s].
Eigen::MatrixXd CommandForceJacobian(const Scene& scene, double time_step);
// The same written into out (n_v × n_q,a, e.g. the command columns of a right-hand side),
// allocating nothing. Throws std::invalid_argument when out's size is not n_v × n_q,a.
void WriteCommandForceJacobian(const Scene& scene, double time_step,
                               Eigen::Ref<Eigen::MatrixXd> out);

}  // namespace quasidyn
