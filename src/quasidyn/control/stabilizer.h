#pragma once
// The talk's stabiliser of a contact-rich plan (Pang, "Planning and Control for Contact-rich
// Manipulation", 2022, slide "Preliminary: stabilizing contact-rich plans", "Naive QP controller
// based on smoothed linearization"): at control step t, from the measured configuration q,
//
//   min_u  ‖q⁺ᵘ − q⁺ᵘ_ref‖²_Q + ‖u − u_ref‖²_R
//   s.t.   q⁺ᵘ = f^u(q_ref, u_ref) + A_ρ^u (q − q_ref) + B_ρ^u (u − u_ref),   |u − u_ref|∞ <= d
//
// with A_ρ, B_ρ the smoothed linearisation (log-barrier κ; the talk states no κ,
// ours is the setting `kappa`)
// at the reference step (q_ref,t, u_ref,t), f the EXACT step there (so that the controller sends
// u_ref on the reference), q⁺ᵘ_ref = the reference's objects at t + 1, Q = diag(w), R = r·I.
// Substituting q⁺ᵘ leaves a QP in δu = u − u_ref with Hessian 2(BᵀQB + R) ≻ 0 and the box bound d;
// with no bound active its minimiser is the closed form δu = −(BᵀQB + R)⁻¹ BᵀQ e,
// e = f^u + A^u (q − q_ref) − q⁺ᵘ_ref.
//
// The linearisations of every reference step are computed once, when the stabiliser is made;
// Command() then solves one small QP (solvers/qp.h, UpdateValues + Solve on a fixed pattern).

#include <Eigen/Core>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "quasidyn/control/plan_controller.h"
#include "quasidyn/control/smoothed_linearizer.h"
#include "quasidyn/model/settings_schema.h"
#include "quasidyn/solvers/qp_problem.h"
#include "quasidyn/stepping/step_model.h"

namespace quasidyn {

class QpSolver;  // solvers/qp.h

// The user settings (object_weight … samples) are declared once, with their keys, units, ranges,
// defaults and docs, in StabilizerSettingsSchema (stabilizer.cc); the comments here say what the
// fields mean to the code. The last three fields are set by the code that runs the stabiliser on
// a plan (TrackPlan's callers, replanning.h), not by users.
struct StabilizerSettings {
  Eigen::VectorXd object_weight;  // w: Q = diag(w) (size n_q,u; empty: all 1)
  double command_weight = 1e-3;   // r: R = r·I
  double max_deviation = 0.2;     // d: |u − u_ref|∞ <= d
  SmoothingMethod method = SmoothingMethod::kLogBarrier;
  double smoothing = 5000.0;  // κ (log-barrier) or σ_u (randomized) of A_ρ, B_ρ
  int samples = 50;           // randomized only
  // Steps that are a planner's regrasps (T entries, or empty: none): not linearised, no command
  // (TrackPlan executes them by a RegraspMotion, plan_tracking.h); the stabiliser runs on the
  // contact-continuous segments between them.
  std::vector<bool> regrasp_steps;
  // Steps that send u_ref whatever q is (T entries, or empty: none), not linearised: a physical
  // regrasp's (PlanToTrack::physical_regrasp_steps), where the robots let go of the objects and
  // close again, so that a correction would push a lifted finger or arm into them.
  std::vector<bool> open_loop_steps;
  // A reference step whose linearisation or exact step fails: false, the constructor throws;
  // true, that step sends u_ref (open loop) and open_loop_steps() names it.
  bool open_loop_where_linearization_fails = false;
};

// The stabiliser's user settings, each declared once (model/settings_schema.h): the block
// "stabilizer", `quasidyn track`'s flags, Stabilizer's Python keywords, the range checks, the
// docs' table (docs/control.md), and replanning's `stabilizer.*` keys (ReplanningSettingsSchema).
const SettingsSchema<StabilizerSettings>& StabilizerSettingsSchema();

// The first problem of the user settings of `settings` for a scene of n_q,u = `object_size`
// object coordinates: a setting outside its declared range, or object_weight of another size;
// the field is its path in the block ("object_weight").
std::optional<SettingsProblem> CheckStabilizerSettings(const StabilizerSettings& settings,
                                                       int object_size);

class Stabilizer final : public PlanController {
 public:
  // model: the planning model; q_ref: T + 1 configurations, u_ref: T commands (a trajectory).
  // Throws std::invalid_argument on sizes, NaN, settings out of range ("stabilizer.<field>: ...",
  // CheckStabilizerSettings), or a reference step whose exact step or linearisation fails
  // (naming the step).
  Stabilizer(std::shared_ptr<const StepModel> model, std::vector<Eigen::VectorXd> q_ref,
             std::vector<Eigen::VectorXd> u_ref, const StabilizerSettings& settings);
  ~Stabilizer() override;

  int steps() const override { return static_cast<int>(u_ref_.size()); }
  // The command of step t (0 <= t < T) from the measured configuration q (size n_q). A QP that
  // fails falls back to the closed form clipped to the bound (solver_message() says so).
  // std::invalid_argument for a regrasp step (settings.regrasp_steps).
  const Eigen::VectorXd& Command(int t, const Eigen::VectorXd& q) override;
  // The unconstrained minimiser u_ref − (BᵀQB + R)⁻¹ BᵀQ e (tests, reference).
  Eigen::VectorXd ClosedFormCommand(int t, const Eigen::VectorXd& q) const;
  const std::string& solver_message() const { return message_; }
  // The steps that send u_ref because their linearisation failed (increasing), with why.
  const std::vector<int>& open_loop_steps() const { return open_loop_steps_; }
  const std::vector<std::string>& open_loop_reasons() const { return open_loop_reasons_; }
  const std::vector<Eigen::VectorXd>& q_ref() const { return q_ref_; }
  const std::vector<Eigen::VectorXd>& u_ref() const { return u_ref_; }

 private:
  Eigen::VectorXd Residual(int t, const Eigen::VectorXd& q) const;

  std::shared_ptr<const StepModel> model_;
  std::vector<Eigen::VectorXd> q_ref_, u_ref_;
  StabilizerSettings settings_;
  std::vector<Eigen::MatrixXd> A_u_, B_u_;  // object rows of A_ρ, B_ρ per step
  std::vector<Eigen::VectorXd> f_u_;        // exact f^u(q_ref,t, u_ref,t)
  std::vector<Eigen::MatrixXd> hessian_;    // 2(BᵀQB + R) per step
  QpProblem problem_;
  // The QP solver (solvers/qp.h), behind a pointer: its workspace is the library's own (the
  // installed headers hold no solver internals, cmake/PublicHeaders.cmake).
  std::unique_ptr<QpSolver> solver_;
  Eigen::VectorXd e_, u_;
  std::string message_;
  std::vector<bool> linearized_;  // per step: A_u_, B_u_, f_u_, hessian_ hold its linearisation
  std::vector<int> open_loop_steps_;
  std::vector<std::string> open_loop_reasons_;
};

}  // namespace quasidyn
