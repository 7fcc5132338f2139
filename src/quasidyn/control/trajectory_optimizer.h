#pragma once
// Trajectory optimisation through contact by iterative MPC (Pang, Suh, Yang & Tedrake, T-RO
// 2023, §VI-B; the talk's slide "Smoothed gradients enable trajectory optimization for
// dexterous hands"; docs/control.md). Iteration i (i = 0 … K − 1) from the best iterate
// (u*, q*) so far, whose states q*_k come from the EXACT stepper:
//
//   1. linearise every step k at (q*_k, u*_k) with the smoothed method of schedule i
//      (smoothed_linearizer.h: log-barrier κ_i or randomized σ_i);
//   2. solve the QP of trajopt_qp.h (trust region r on δu, Δu penalty ρ, object goal g) for δu;
//      in shrinking-horizon mode, re-plan instead from each reached state: at step t the QP of
//      the window t … T − 1 starts from δq_t = q̃_t − q*_t and only its first δu is applied;
//   3. roll the candidate u* + δu out with the exact stepper; accept it when its exact cost J
//      is below the best one (r ← min(r·grow, r_max)), else keep the best iterate and shrink
//      r ← r·shrink. A failed step, linearisation or QP shrinks r the same way, and the
//      iteration's message says what failed. A linearisation that fails at the parameter of
//      iteration i is retried with those of iterations i − 1, …, 0 (smoother) before the
//      iteration gives up: the best iterate does not move while iterations are rejected, so
//      the same failure would otherwise repeat until the run stops.
//
// The best iterate's exact cost therefore never increases. Sees the model only through the
// StepModel interface (and the formulation table, through the linearizer).
//
// Plans that stay physical (docs/planning.md, "Plans that stay physical"): every exact rollout
// is measured for the deepest overlap of shapes, at the end of every step and along the path of
// a step that moved a body further than it saw contacts (PenetrationMeter::StepDepth,
// planning/penetration_meter.h). A candidate that overlaps deeper than the limit
// max(penetration_tolerance, the initial guess's own depth) is rejected like one whose cost did
// not fall (its message says how deep), so the best iterate never passes deeper than the guess
// did, nor deeper than the tolerance when the guess does not.
//
// A planner's path as the initial guess: steps marked in `regrasp_steps` are regrasps
// (docs/plan-format.md), modelled in the rollout and the linearisation (trajopt_qp.h): the
// robots are reset to that step's command (the planner's grasp, kept fixed), the objects stay,
// and the QP corrects the commands of the other steps across the resets toward the final goal.
// A regrasp's robot jump is not a dynamics step, so no QP smooths over it: its command is the
// planner's and its state is the reset of the state before it.
//
// Per-segment mode (`per_segment`): step 2 becomes one QP per contact-continuous segment (the
// steps between two regrasps, or between a regrasp and either end), solved in path order. The
// QP of segment [a, b) starts from δq_a = q̃_a − q*_a, where the exact rollout of the corrected
// segments before it (and the regrasps between them) reached q̃_a; its variables are δu_a …
// δu_{b−1} alone, and the steps after b carry their effect on the objects through their
// linearisations to the cost with their commands kept (TrajoptQpData::corrected_steps). The
// segment is then rolled out exactly from q̃_a and the next one is solved from where it ends.
// The rate terms do not couple two segments (none enters a regrasp; the one out of it has the
// regrasp's fixed command), only the objects' state does. A path of S segments of n steps
// each costs S QPs of n·n_u variables instead of one of S·n·n_u: the 126-step 180° plan of the
// 16-joint hand gives 15 QPs of at most 16·28 variables (16·10 in pieces of segment_steps = 10),
// where the single QP of 1792 variables fails its Cholesky factorisation for κ <= 400 and takes
// 31–46 s per iteration above (docs/control.md).

#include <Eigen/Core>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "quasidyn/common/cancellation.h"
#include "quasidyn/common/outcome.h"
#include "quasidyn/control/smoothed_linearizer.h"
#include "quasidyn/control/trajopt_qp.h"
#include "quasidyn/model/settings_schema.h"
#include "quasidyn/planning/penetration_meter.h"
#include "quasidyn/solvers/qp_problem.h"
#include "quasidyn/stepping/step_model.h"

namespace quasidyn {

class QpSolver;  // solvers/qp.h

struct OptimizerIteration;

// The user settings (horizon … penetration_tolerance, smoothing) are declared once, with their
// keys, units, ranges, defaults and docs, in TrajectoryOptimizerSettingsSchema
// (trajectory_optimizer.cc); the comments here say what the fields mean to the code.
struct TrajectoryOptimizerSettings {
  int horizon = 10;                 // T steps
  int iterations = 20;              // K
  Eigen::VectorXd object_goal;      // g (size n_q,u): the objects' goal configuration
  Eigen::VectorXd object_weight;    // w (size n_q,u; empty: all 1) on steps 1 … T − 1
  Eigen::VectorXd terminal_weight;  // w_T (size n_q,u; empty: 10·w) on step T
  double rate_weight = 0.1;         // ρ on ‖u_k − u_{k−1}‖² (u_{−1} = q_a(0))
  double trust_region = 0.1;        // r_0, ∞-norm bound on δu
  double trust_region_max = 0.5;    // r_max, at least r_0
  double trust_region_min = 1e-5;   // the run stops when r falls below it
  double shrink = 0.5;              // r's factor after a rejected candidate
  double grow = 1.5;                // r's factor after an accepted one
  bool shrinking_horizon = false;   // re-plan from each reached state (step 2 above)
  // One QP per contact-continuous segment between regrasps (above); not with shrinking_horizon.
  // Without regrasp steps the path is one segment and this is the single QP.
  bool per_segment = false;
  // Per-segment mode: a segment longer than this many steps is corrected in consecutive pieces
  // of at most this many, each a QP of its own from where the piece before it ends (the rate
  // term between two pieces stays in the later piece's QP); 0: whole segments.
  int segment_steps = 0;
  // Per step (T entries, or empty: none): true where step k is a regrasp, q_{k+1} = (q^u_k, u_k)
  // with u_k the fixed grasp configuration, not a stepper step. At least one step must not be.
  // Not a user setting: the initial guess's (a planner's path).
  std::vector<bool> regrasp_steps;
  SmoothingSchedule smoothing;
  // The deepest overlap of shapes a candidate's exact rollout may reach (above); +∞: not
  // measured.
  double penetration_tolerance = 1e-3;
  // Called after every iteration with its record; may be empty.
  std::function<void(const OptimizerIteration&)> progress;
  // Checked before every iteration and between its steps' linearisations
  // (common/cancellation.h): when set, the run stops there with the best iterate so far
  // (OptimizationResult::interrupted; an iteration cut short is dropped). Null: never. Not a
  // user setting; the caller owns it and it must outlive the call.
  const CancellationToken* cancel = nullptr;
};

// The optimiser's user settings, each declared once (model/settings_schema.h): the block
// "optimizer" (the smoothing schedule's settings as `smoothing.*`, SmoothingScheduleSchema),
// `quasidyn optimize`'s flags, TrajectoryOptimizer's Python keywords, the range checks and the
// docs' table (docs/control.md).
const SettingsSchema<TrajectoryOptimizerSettings>& TrajectoryOptimizerSettingsSchema();

// The first problem of `settings` for a scene of n_q,u = `object_size` object coordinates: a
// setting outside its declared range, a goal or weights of another size (or no goal), or a
// cross-field rule the ranges cannot say (trust_region_max >= trust_region, per_segment and
// shrinking_horizon exclusive, the smoothing schedule's); the field is its path in the block
// ("trust_region_max", "smoothing.kappa_max"). regrasp_steps is not a setting (not checked).
std::optional<SettingsProblem> CheckTrajectoryOptimizerSettings(
    const TrajectoryOptimizerSettings& settings, int object_size);

// Throws std::invalid_argument "optimizer.<field>: <problem>" (CheckTrajectoryOptimizerSettings,
// sizes against the model's scene), or "TrajectoryOptimizer: ..." for regrasp_steps that are not
// T entries or are all regrasps.
void ValidateTrajectoryOptimizerSettings(const TrajectoryOptimizerSettings& settings,
                                         const StepModel& model);

// Applies `overrides` (settings by name: `quasidyn optimize`'s flags, Python's keywords) to
// *settings, each checked ("optimizer.<path>: ..."). A trust_region given above
// trust_region_max raises trust_region_max to it, unless trust_region_max is given too (the one
// rule of the faces: an initial trust region alone is never refused for the default r_max).
void ApplyOptimizerSettingOverrides(const SettingOverrides& overrides,
                                    TrajectoryOptimizerSettings* settings);

struct OptimizerIteration {
  int index = 0;                // i
  double parameter = 0.0;       // κ_i [1/(N·m)] or σ_i [m or rad]
  double trust_region = 0.0;    // r used by this iteration's QP
  double predicted_cost = 0.0;  // J of the linearised prediction (single-QP mode), else NaN
  double cost = 0.0;            // exact J of the candidate; +∞ when it failed
  double best_cost = 0.0;       // exact J of the best iterate after this iteration
  double penetration = 0.0;     // deepest overlap of the candidate's rollout [m]; 0: none or
                                // not measured
  bool accepted = false;
  // What failed or why the candidate was rejected, after any note of a linearisation that fell
  // back to an earlier, smoother parameter; empty for an accepted iteration without a note.
  std::string message;
  double seconds = 0.0;  // wall-clock time of the iteration
  // Of which: linearising the best iterate's steps, and building and solving the QPs [s].
  double linearize_seconds = 0.0;
  double qp_seconds = 0.0;
  // The best iterate and the parameter unchanged since the last iteration's linearisations
  // (it was rejected and the schedule is at κ_max or σ_min): its A_k, B_k were kept.
  bool linearizations_kept = false;
  int qps = 0;  // QPs solved (1 in single-QP mode; per segment or per step in the others)
};

struct OptimizationResult {
  std::vector<Eigen::VectorXd> u;  // the best commands u_0 … u_{T−1}
  std::vector<Eigen::VectorXd> q;  // their exact states q_0 … q_T
  double initial_cost = 0.0;
  double best_cost = 0.0;
  // The deepest overlap of shapes [m] along the initial guess's rollout and the best iterate's
  // (the class comment); NaN when penetration_tolerance is +∞ (not measured).
  double initial_penetration = 0.0;
  double max_penetration = 0.0;
  std::vector<OptimizerIteration> iterations;
  std::string message;  // why the run stopped early, if it did
  double seconds = 0.0;
  // settings.cancel stopped the run (message: before which iteration); u and q are the best
  // iterate so far, every iteration in `iterations` finished.
  bool interrupted = false;
};

class TrajectoryOptimizer {
 public:
  // model: the exact stepper (quasi-dynamic, no velocity state); settings validated here.
  // The model is held as given; a test may pass a wrapper that makes chosen steps fail.
  TrajectoryOptimizer(std::shared_ptr<const StepModel> model,
                      const TrajectoryOptimizerSettings& settings);
  ~TrajectoryOptimizer();

  // Optimises from q0 (size n_q) and the initial commands (T entries of size n_u; e.g. a
  // planner's path or a trajectory file's commands). Throws std::invalid_argument on bad sizes
  // or NaN, or when the initial guess's exact rollout fails (no cost to improve on).
  OptimizationResult Optimize(const Eigen::VectorXd& q0, const std::vector<Eigen::VectorXd>& u0);

  // The exact rollout of u from q0: states q_0 … q_T (regrasp steps reset the robots); a failure
  // (common/outcome.h) naming the step when a step fails.
  Outcome ExactRollout(const Eigen::VectorXd& q0, const std::vector<Eigen::VectorXd>& u,
                       std::vector<Eigen::VectorXd>* q);
  // The deepest overlap of shapes [m] of the last ExactRollout (q_0 and every step, the class
  // comment); NaN when penetration_tolerance is +∞.
  double last_rollout_penetration() const { return rollout_depth_; }
  // The exact cost J of states q_0 … q_T and commands u_0 … u_{T−1}.
  double Cost(const std::vector<Eigen::VectorXd>& q, const std::vector<Eigen::VectorXd>& u) const;

  // The QP data and the solver's answer of the last single-QP iteration (tests, references).
  const TrajoptQpData& last_subproblem() const { return last_data_; }
  const QpResult& last_qp_result() const;
  const TrajectoryOptimizerSettings& settings() const { return settings_; }

 private:
  // Fills data_ (window t0 … T − 1) from the linearisations of the best iterate.
  void FillWindow(int t0, const Eigen::VectorXd& dq0, const Eigen::VectorXd& u_before,
                  TrajoptQpData* data) const;
  Outcome SolveWindow(const TrajoptQpData& data, Eigen::VectorXd* du, OptimizerIteration* it);
  // Per-segment mode: the candidate of trust region r, segment by segment (the class comment);
  // false, with the failure in it->message, when a QP or a step fails.
  bool CorrectSegments(const Eigen::VectorXd& q0, const Eigen::VectorXd& u_start, double r,
                       std::vector<Eigen::VectorXd>* u, std::vector<Eigen::VectorXd>* q,
                       OptimizerIteration* it);
  bool IsRegrasp(int k) const;
  // Starts measuring a rollout from q0: its depth so far is q0's (NaN when not measured).
  // The goal's planar angles on the branch nearest the guess's final angles (the .cc says why).
  void GoalOnTheGuessBranch(const Eigen::VectorXd& q_final);
  void StartDepth(const Eigen::VectorXd& q0);
  // Step k from q under u: the exact stepper, or the reset of a regrasp step.
  Outcome Step(int k, const Eigen::VectorXd& q, const Eigen::VectorXd& u, Eigen::VectorXd* next);

  std::shared_ptr<const StepModel> model_;
  std::unique_ptr<StepData> step_data_;
  std::unique_ptr<PenetrationMeter> depth_;  // null when penetration_tolerance is +∞
  double rollout_depth_ = 0.0;               // of the rollout in progress or the last one
  TrajectoryOptimizerSettings settings_;
  SmoothedLinearizer linearizer_;
  // The QP solver (solvers/qp.h), behind a pointer: its workspace is the library's own (the
  // installed headers hold no solver internals, cmake/PublicHeaders.cmake).
  std::unique_ptr<QpSolver> solver_;
  // The best iterate and its linearisation.
  std::vector<Eigen::VectorXd> q_best_, u_best_;
  std::vector<Eigen::MatrixXd> A_, B_;
  TrajoptQpData last_data_;
};

}  // namespace quasidyn
