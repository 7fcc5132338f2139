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
// exact for them (kinematics/kinematics.h). BuildJointLimitRows gives a row for every finite
// bound, near it or not; a row far from its bound is inactive (the QP, SOCP and LCP give it
// λ_l = 0; the log barriers' λ_l = 1/(κ g_l) is small there). An exact program (QP, SOCP) may
// leave out the rows of robot joints whose bound lies beyond the reach of the step
// (LeaveOutJointLimitsOutOfReach): its minimiser without them is its minimiser with them
// whenever it keeps those bounds (the feasible set only shrank around it), which
// LeftOutJointLimitsHold checks after the solve; the step solves again with every row when it
// does not. Fewer rows, fewer interior-point iterations (arm_cubes: 18 limit rows, the SOCP
// 13 iterations with them, 10 without).

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
  // o_l = d_l (q_j − bound_l)/h [m/s or rad/s] in entries 0 … size() − 1 (the vector keeps the
  // length of every finite bound of the scene, so leaving rows out does not resize it).
  Eigen::VectorXd offset;
  // The finite bounds without a row (LeaveOutJointLimitsOutOfReach), and their count.
  std::vector<JointLimitRow> left_out_rows;
  int left_out = 0;
  int size() const { return static_cast<int>(rows.size()); }
  auto offsets() const { return offset.head(size()); }
};

// The rows of every finite bound of the scene at q (size n_q), time step h [s] > 0, into *out;
// none when the scene's conventions.joint_limits is ignored (model/simulator_conventions.h).
// No heap allocation once *out has held the rows of this scene.
void BuildJointLimitRows(const Scene& scene, const Eigen::VectorXd& q, double time_step,
                         JointLimitRows* out);

// The reach of one step of an actuated joint: a bound further than
//   reach_j = 2 |u_j − q_j| + kJointLimitReachMargin
// from q_j (twice the impedance's commanded displacement, plus a margin for what contact adds)
// keeps no row. A heuristic for speed only: a step that still crosses a bound left out is
// solved again with every row (quasi_dynamic_model.cc), so the result does not depend on it.
constexpr double kJointLimitReachMargin = 0.05;  // [rad or m]

// Leaves out of *limits (built by BuildJointLimitRows at q) the rows of actuated joints whose
// bound lies beyond their reach for the command u (size n_q,a); unactuated joints keep every
// row. Moves those rows to limits->left_out_rows. No heap allocation once *limits has held the
// rows of this scene.
void LeaveOutJointLimitsOutOfReach(const Scene& scene, const Eigen::VectorXd& q,
                                   const Eigen::VectorXd& u, JointLimitRows* limits);

// True when the velocities v keep q + h v within every finite bound that *limits left out
// (always true when none was).
bool LeftOutJointLimitsHold(const Eigen::VectorXd& q, const Eigen::VectorXd& v, double time_step,
                            const JointLimitRows& limits);

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
