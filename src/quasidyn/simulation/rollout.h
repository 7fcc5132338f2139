#pragma once
// Runs a scene's command schedule through a step model (stepping/step_model.h) and records
// the trajectory (trajectory.h). The loop, for k = 1 … N:
//
//   u_k = model.ScheduledCommand(k·h, x_{k−1});  Calc(x_{k−1}, u_k);  x_k = result.next
//
// (u_k = Scene::CommandAt(k·h), the commanded positions, except for a model that derives its
// command from the schedule otherwise: halm-posa's commanded velocity, step_model.h)
//
// A failed step (status other than solved / solved_inaccurate) stops the rollout: the
// trajectory keeps the steps done before it, and the failed step's status and message. A
// caller's mistake (N < 0) throws std::invalid_argument before any step.

#include <Eigen/Core>
#include <functional>

#include "quasidyn/dynamics/step_result.h"
#include "quasidyn/model/scene.h"
#include "quasidyn/simulation/trajectory.h"
#include "quasidyn/stepping/step_model.h"

namespace quasidyn {

// A trajectory of `model`'s scene and settings with no step yet: the header fields (scene,
// formulation, sizes, coordinate names, q0 = the scene's q0) and steps_requested = steps.
Trajectory EmptyTrajectory(const StepModel& model, int steps);

// A stepper's contact report with the scene's shape and body names in place of indices.
ContactRecord NamedContactRecord(const Scene& scene, const ContactReport& report);

// The number of steps of length h [s] (> 0) that cover a duration T [s] (>= 0): T/h when it
// is an integer up to round-off (relative 1e-9, far above the ~1e-16 error of the division
// and far below one step), otherwise ⌈T/h⌉ so that the simulated time reaches T.
// Throws std::invalid_argument on h <= 0, T < 0, NaN or a count above 10⁹.
int StepCountForDuration(double duration, double time_step);

struct RolloutOptions {
  int steps = 0;  // N >= 0, the number of steps to take
  // Called after every step with the fraction of steps done, in (0, 1]; may be empty.
  std::function<void(double fraction_done)> progress;
};

// Runs `options.steps` steps of `model` from the scene's initial state (InitialState), with
// the commands of the scene's schedule. Throws std::invalid_argument on N < 0.
Trajectory Rollout(const StepModel& model, const RolloutOptions& options);

}  // namespace quasidyn
