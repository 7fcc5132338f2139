#pragma once
// The model-predictive controller through contact of the 2D frictional contact notes
// (eqs. (6)–(19)): at each control step, from the measured state x = (q, v) of a second-order
// scene (stepping/second_order_model.h), the step is linearised at x and held over the horizon
// (mpc_linear_model.h: M(q), τ_free, the contacts within contact_distance with their normals,
// rays and gaps), the MIQP of mpc_miqp.h is solved by our branch and bound (solvers/miqp.h),
// and its first force τ_0 is sent.
//
// The input. The notes' u is a force on the point mass; our robots are impedances whose
// command is a setpoint ū, applying τ = K(ū − q⁺) − D v⁺ with K and D taken at the end of the
// step (second_order_cost.h). The controller optimises the force τ (the notes' u: its cost
// τᵀRτ and its bounds are the notes' uᵀRu and u_min, u_max) and sends the setpoint whose
// impedance force at the predicted x̂_1 = (q̂_1, v̂_1) is τ_0:
//
//   ū_0 = q̂_1,a + K⁻¹ (τ_0 + D v̂_1,a).
//
// On the plant, the step from x under ū_0 satisfies the same equations as the MPC's first step
// (same M, contacts, linearised gaps and friction pyramid), so when the plant's LCP has the
// MPC's answer as its solution the plant lands on x̂_1 and feels exactly τ_0 (tested).
//
// Receding horizon: the previous solution's binaries, shifted by one step, are the MIQP's first
// guess (solvers/miqp.h, Solve(guesses)), and "every contact open" the second. The branch and
// bound uses reliability branching (4 candidates, reliability 1; docs/mpc.md, "Speed"), and
// its pseudo-costs start from the previous solve's, shifted by one step as the binaries are:
// the binaries the previous tree measured are not strong-branched again (on the example's
// N = 20 loop the slowest step after the first went from the node limit's 130 relaxations to
// 39 nodes without strong branching, and no step reaches a limit any more; docs/mpc.md,
// "Speed").

#include <Eigen/Core>
#include <memory>
#include <string>
#include <vector>

#include "quasidyn/common/outcome.h"
#include "quasidyn/contact/contact_model.h"
#include "quasidyn/control/mpc_linear_model.h"
#include "quasidyn/control/mpc_miqp.h"
#include "quasidyn/dynamics/second_order_cost.h"
#include "quasidyn/model/state.h"

namespace quasidyn {

class MiqpSolver;  // solvers/miqp.h

// One solve of the controller.
struct MpcStep {
  MiqpStatus status = MiqpStatus::kNotRun;
  std::string message;        // the MIQP's, or why the model could not be built
  bool has_solution = false;  // the MIQP found an integer point (optimal or within limits)
  Eigen::VectorXd force;      // τ_0 (n_a) [N, N·m]; zero without a solution
  // The setpoint sent (n_q,a) [m, rad]: from τ_0 and x̂_1 (header); without a solution, the
  // setpoint of zero force at the current state, q_a + K⁻¹ D v_a.
  Eigen::VectorXd command;
  double cost = 0.0;  // J* of the solution (eq. (19)); the MIQP's best bound and gaps:
  double best_bound = 0.0, gap = 0.0, relative_gap = 0.0;
  // The predicted trajectory: x̂_1 … x̂_N (n_x), τ_0 … τ_{N−1} (n_a), γ_0 … γ_{N−1} (n_γ, per
  // contact (c, β_1 … β_n_d, λ) [N·s, N·s, m/s]).
  std::vector<Eigen::VectorXd> states, forces, impulses;
  std::vector<MpcContact> contacts;  // the model's contacts (their order in γ)
  int binding_caps = 0;              // impulses of the solution at their big-M cap
  MiqpInfo info;
  double build_seconds = 0.0;  // linearisation and MIQP assembly [s]
};

class ContactMpc {
 public:
  // `settings` complete for the scene (CheckMpcSettings with complete = true: target, bounds),
  // else std::invalid_argument "ContactMpc: <field>: <problem>". Uses the scene's stiffness
  // and damping (critical by default, second_order_cost.h) for the setpoint.
  ContactMpc(ScenePtr scene, const MpcSettings& settings);
  ~ContactMpc();

  const Scene& scene() const { return *scene_; }
  const MpcSettings& settings() const { return settings_; }
  double time_step() const { return time_step_; }
  const Eigen::VectorXd& stiffness() const { return stiffness_; }  // K_a
  const Eigen::VectorXd& damping() const { return damping_; }      // D_a

  // The linear model at x (sizes n_q, n_v; finite: std::invalid_argument otherwise); a failure
  // (common/outcome.h) when the contact query fails.
  Outcome Linearize(const State& x, MpcLinearModel* model);

  // Linearises at x and solves (header). Never throws for an infeasible MIQP or a failed query.
  const MpcStep& Solve(const State& x);
  const MpcStep& last() const { return step_; }
  // The model and the MIQP of the last Solve (benchmarks and reference checks).
  const MpcLinearModel& model() const { return model_; }
  const MpcMiqp& miqp() const { return miqp_; }
  // The MIQP solver's settings, from the MPC settings' limits, gaps and branching rule.
  MiqpSettings solver_settings() const;
  // The incumbent guesses the last Solve passed to the MIQP (header, "Receding horizon").
  const std::vector<std::vector<signed char>>& guesses() const { return guesses_; }
  // The pseudo-costs the last Solve passed to the MIQP (header), null when it had none (the
  // first solve, a change of the contacts, after a solve without a solution or Reset).
  const MiqpPseudoCosts* pseudo_cost_seed() const { return seeded_ ? &pseudo_costs_ : nullptr; }
  // The MIQP's pseudo-costs at the end of the last Solve.
  const MiqpPseudoCosts& pseudo_costs() const;
  // Forgets the previous solution (its guess and pseudo-costs for the next solve).
  void Reset() { previous_binaries_.clear(); }

 private:
  ScenePtr scene_;
  MpcSettings settings_;
  double time_step_ = 0.0;
  ContactModel contact_model_;
  ContactData contact_data_;
  Kinematics kinematics_;
  Eigen::VectorXd stiffness_, damping_;
  SecondOrderCostWorkspace cost_workspace_;
  QuasiDynamicCost cost_;
  MpcLinearModel model_;
  MpcMiqp miqp_;
  // The branch and bound (solvers/miqp.h), behind a pointer: its workspace is the library's own
  // (the installed headers hold no solver internals, cmake/PublicHeaders.cmake).
  std::unique_ptr<MiqpSolver> solver_;
  MpcStep step_;
  std::vector<signed char> previous_binaries_;
  // The last solve's pseudo-costs, and this solve's seed (them shifted by one step).
  MiqpPseudoCosts previous_pseudo_costs_, pseudo_costs_;
  bool seeded_ = false;
  std::vector<std::vector<signed char>> guesses_;
  int previous_contacts_ = -1;
};

}  // namespace quasidyn
