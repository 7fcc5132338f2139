#pragma once
// Runs commands through a step model (stepping/step_model.h) and records the trajectory
// (trajectory.h). One loop serves the scene's command schedule (Rollout) and the caller's own
// commands (RolloutCommands), for k = 1 … N:
//
//   u_k = model.ScheduledCommand(k·h, x_{k−1})  or  U.row(k−1);  Calc(x_{k−1}, u_k);
//   x_k = result.next;  CalcDiff(options.gradients) when asked: A_k, B_k of that step into its
//   record.
//
// (ScheduledCommand is Scene::CommandAt(k·h), the commanded positions, except for a model that
// derives its command from the schedule otherwise: halm-posa's commanded velocity, step_model.h)
//
// A failed step (status other than solved / solved_inaccurate) stops the rollout: the
// trajectory keeps the steps done before it, and the failed step's status and message. A step
// whose derivative fails (a non-differentiable point, a formulation without derivatives)
// keeps going: its record says why in gradient_status / gradient_message. A caller's mistake
// (N < 0, sizes, NaN) throws std::invalid_argument before any step.

#include <Eigen/Core>
#include <functional>
#include <memory>
#include <vector>

#include "quasidyn/common/cancellation.h"
#include "quasidyn/dynamics/step_result.h"
#include "quasidyn/model/scene.h"
#include "quasidyn/simulation/trajectory.h"
#include "quasidyn/stepping/step_model.h"

namespace quasidyn {

// A stepper's contact report with the scene's shape and body names in place of indices.
ContactRecord NamedContactRecord(const Scene& scene, const ContactReport& report);

// The number of steps of length h [s] (> 0) that cover a duration T [s] (>= 0): T/h when it
// is an integer up to round-off (relative 1e-9, far above the ~1e-16 error of the division
// and far below one step), otherwise ⌈T/h⌉ so that the simulated time reaches T.
// Throws std::invalid_argument on h <= 0, T < 0, NaN or a count above 10⁹.
int StepCountForDuration(double duration, double time_step);

struct RolloutOptions {
  int steps = 0;  // N >= 0, the number of steps to take (Rollout; RolloutCommands: U's rows)
  // Called after every step with the fraction of steps done, in (0, 1]; may be empty.
  std::function<void(double fraction_done)> progress;
  // The derivatives of every step (StepModel::CalcDiff of the step Calc solved) to record in
  // TrajectoryStep::A, B: none by default.
  GradientMode gradients = GradientMode::kNone;
  // Checked before every step of every rollout, a batch's included (common/cancellation.h):
  // when set, the rollout stops there, keeping the steps done (completed() false), its message
  // "interrupted before step k" and its status the last step's. Null: never. The caller owns it
  // and it must outlive the call.
  const CancellationToken* cancel = nullptr;
};

// Runs `options.steps` steps of `model` from the scene's initial state (InitialState(model):
// q0, and v0 for a second-order model), with the commands of the scene's schedule. Throws
// std::invalid_argument on N < 0.
Trajectory Rollout(const StepModel& model, const RolloutOptions& options);

// The same from the state x0 (sizes as the model's state), u_k = model.ScheduledCommand(k·h,
// x_{k−1}). Throws std::invalid_argument on N < 0 or a wrong-size or non-finite x0.
Trajectory RolloutFrom(const StepModel& model, const State& x0, const RolloutOptions& options);

// Runs N = commands.rows() steps of `model` from x0 with u_k = commands.row(k − 1) (each row
// of size n_q,a [m, rad]); options.steps is ignored. Throws std::invalid_argument naming
// `commands` or x0 for a wrong size or a non-finite entry.
Trajectory RolloutCommands(const StepModel& model, const State& x0, const Eigen::MatrixXd& commands,
                           const RolloutOptions& options);

// B rollouts of `model` on T = `threads` worker threads (common/parallel_for.h): rollout b
// starts from x0s[b] and runs with the commands commands[b] as RolloutCommands does or, when
// `commands` is empty, the scene's schedule for options.steps steps as RolloutFrom does.
// Rollouts are handed to the workers one at a time as they become free (ParallelFor); each
// worker keeps one data object and clears its warm start before each rollout
// (StepModel::ClearWarmStart), and runs it by the same loop as a single rollout: trajectory b is
// bitwise the trajectory of that single call (step_time_seconds apart), for every T. Every input is
// checked before any step: std::invalid_argument "rollout b: x0.q ...", "rollout b: commands row k
// ..." (as the single calls name them), or for T < 1, N < 0, a `commands` of another length than
// x0s. A failed step stops its own rollout only. options.progress is not called.
std::vector<Trajectory> RolloutBatch(const StepModel& model, const std::vector<State>& x0s,
                                     const std::vector<Eigen::MatrixXd>& commands,
                                     const RolloutOptions& options, int threads);

// What a batch of rollouts keeps from one RolloutBatchInto call to the next: the model, per
// worker a step data object and its state and command buffers (all made by the first call that
// uses the worker, in the calling thread, whether or not the schedule hands the worker an item),
// and the trajectories of the last call, whose records the next call overwrites in place. Setup
// allocates; once a batch of the same shape (rollouts, steps, contacts per step) has run, the next
// one allocates nothing per rollout or step beyond what the model's Calc itself allocates
// (rollout_workspace_test.cc counts it).
class RolloutWorkspace {
 public:
  // Throws std::invalid_argument for a null model.
  explicit RolloutWorkspace(std::shared_ptr<const StepModel> model);
  ~RolloutWorkspace();
  RolloutWorkspace(const RolloutWorkspace&) = delete;
  RolloutWorkspace& operator=(const RolloutWorkspace&) = delete;

  const StepModel& model() const { return *model_; }
  // The trajectories of the last call, trajectory b from rollout b; overwritten by the next.
  const std::vector<Trajectory>& trajectories() const { return trajectories_; }
  // Moves them out; the next call then makes new ones (the worker buffers are kept).
  std::vector<Trajectory> TakeTrajectories() { return std::move(trajectories_); }

 private:
  friend const std::vector<Trajectory>& RolloutBatchInto(
      const std::vector<State>& x0s, const std::vector<Eigen::MatrixXd>& commands,
      const RolloutOptions& options, int threads, RolloutWorkspace* workspace);
  struct Worker {
    std::unique_ptr<StepData> data;
    State x;            // x_{k−1}
    Eigen::VectorXd u;  // u_k
  };
  std::shared_ptr<const StepModel> model_;
  Trajectory header_;  // StartTrajectory's header of the model's trajectories (no steps)
  std::vector<Worker> workers_;
  std::vector<Trajectory> trajectories_;
};

// RolloutBatch of workspace->model(), the trajectories into workspace->trajectories() (the
// returned reference): the same checks, the same bits (trajectory b is bitwise RolloutBatch's,
// step_time_seconds apart), for every T; the storage of the earlier call's trajectories and of
// the workers is reused. For repeated batches (sampling planners, MPPI-style control).
const std::vector<Trajectory>& RolloutBatchInto(const std::vector<State>& x0s,
                                                const std::vector<Eigen::MatrixXd>& commands,
                                                const RolloutOptions& options, int threads,
                                                RolloutWorkspace* workspace);

// An empty trajectory of `model`'s steps (its scene, formulation, time step and parameter
// values), starting at x0 = (q0, v0) (v0 empty for a model without velocities), for N requested
// steps: what a rollout starts from, and what a caller appends its own steps to.
Trajectory StartTrajectory(const StepModel& model, const State& x0, int steps_requested);

// The formulation `trajectory` was stepped with: its name, number parameters and time step (on
// top of a scene's own block, which keeps what a trajectory file does not record, e.g. a
// matrix parameter).
FormulationChoice ChoiceOf(const Trajectory& trajectory);

// Appends step k = trajectory->steps_done + 1 (t_k = k·h): the configuration q after it, its
// command u and, when `result` is given, the contacts with their forces, the status, the
// solver's statistics and the momentum force of that (successful) step. Raises
// steps_requested to k when needed. The caller checks sizes (RolloutCommands, Python).
void AppendStep(const Eigen::VectorXd& q, const Eigen::VectorXd& u, const StepResult* result,
                Trajectory* trajectory);
// The same with the state x = (q, v) after the step (v empty for models without velocities).
void AppendStep(const State& x, const Eigen::VectorXd& u, const StepResult* result,
                Trajectory* trajectory);

}  // namespace quasidyn
