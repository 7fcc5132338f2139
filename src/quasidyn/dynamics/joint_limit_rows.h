#pragma once
// The joint-limit rows of one time step, the one builder every formulation takes them from
// (qp, socp, both log barriers, the quasistatic LCP, halm-posa's LCP, and any program built on
// those blocks). For a revolute or prismatic joint j with position limits [lower_j, upper_j]
// (Joint::lower_limit / upper_limit) the step keeps q_j⁺ = q_j + h v_j within them:
//
//   lower bound:  (q_j − lower_j)/h + v_j >= 0,
//   upper bound:  (upper_j − q_j)/h − v_j >= 0,
//
// one row per finite bound, each in the form of a contact's non-penetration row
// φ/h + J v >= 0 (Pang & Tedrake 2021, eq. (10b)) with φ the distance to the bound [m or rad]
// and J = ±e_jᵀ: the row reads o_l + d_l v_j >= 0 with the direction d_l = +1 (lower) or −1
// (upper) and the offset o_l = d_l (q_j − bound_l)/h [m/s or rad/s]. Its multiplier λ_l >= 0
// [N·s for a prismatic joint, N·m·s for a revolute one] is the impulse the limit applies along
// d_l e_j over the step; λ_l / h is the force [N or N·m]. At a limit that holds a robot whose
// impedance pulls past it (command u_j beyond the bound), the stationarity of the step's cost
// (quasi_dynamic_cost.h: h²K_j v_j − hK_j(u_j − q_j) = d_l λ_l with v_j = (bound − q_j)/h)
// gives λ_l = h K_j |u_j − bound_l|: the limit's force is the impedance's pull K_j (u_j − bound).
//
// Revolute and prismatic joints have q_j and v_j of one coordinate each, so q⁺ = q + h v is
// exact for them (kinematics/kinematics.h). The rows of a scene are the same at every step
// (every finite bound, near it or not), so a program's sparsity pattern does not change with
// them; a row far from its bound is inactive (the QP, SOCP and LCP give it λ_l = 0; the log
// barriers' λ_l = 1/(κ g_l) is small there).

#include <Eigen/Core>
#include <vector>

#include "quasidyn/model/scene.h"
#include "quasidyn/solvers/sparse_row_matrix.h"

namespace quasidyn {

struct JointLimitRow {
  int joint = -1;          // index into Scene::joints
  int position = -1;       // the joint's index in q
  int velocity = -1;       // the joint's index in v
  double direction = 1.0;  // d_l: +1 for the lower bound, −1 for the upper
  double bound = 0.0;      // [m or rad]
};

struct JointLimitRows {
  std::vector<JointLimitRow> rows;  // joint order, the lower bound before the upper
  Eigen::VectorXd offset;           // o_l = d_l (q_j − bound_l)/h [m/s or rad/s]
  int size() const { return static_cast<int>(rows.size()); }
};

// The rows of every finite bound of the scene at q (size n_q), time step h [s] > 0, into *out.
// No heap allocation once *out has held the rows of this scene.
void BuildJointLimitRows(const Scene& scene, const Eigen::VectorXd& q, double time_step,
                         JointLimitRows* out);

// Appends the rows d_l e_jᵀ to *G (n_v columns) and sets (*rhs)[first_row + l] = −o_l, so that
// the rows read G v >= rhs (the convention of solvers/qp.h). rhs must have room for them.
void AppendJointLimitRows(const JointLimitRows& limits, SparseRowMatrix* G, Eigen::VectorXd* rhs,
                          int first_row);

// g_l = o_l + d_l v_j, the row's value at v [m/s or rad/s] (>= 0 when the bound holds).
double JointLimitSlack(const JointLimitRows& limits, int l, const Eigen::VectorXd& v);

// The dense rows d_l e_jᵀ (n_l × n_v). The offsets' derivative along the tangent direction
// ε_k of q (q_j ← q_j + ε) is this matrix divided by h: ∂o_l/∂ε_k = d_l δ_jk / h.
Eigen::MatrixXd JointLimitJacobian(const JointLimitRows& limits, int nv);

// Σ_l d_l λ_l e_j (size n_v) [N·s or N·m·s]: the generalized impulse of the multipliers λ
// (size n_l) on the velocities, positive where a lower bound pushes a coordinate up. *impulse
// is resized to n_v (no heap allocation at that size).
void JointLimitImpulse(const JointLimitRows& limits, const Eigen::VectorXd& multipliers, int nv,
                       Eigen::VectorXd* impulse);

}  // namespace quasidyn
