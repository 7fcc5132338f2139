#pragma once
// Runs a scene's command schedule through the quasi-dynamic stepper and records the
// trajectory (trajectory.h). The loop, for k = 1 … N:
//
//   u_k = Scene::CommandAt(k·h);  result = Step(q_{k−1}, u_k);  q_k = result.q_next
//
// A failed step (status other than solved / solved_inaccurate, or an exception thrown by
// the step) stops the rollout: the trajectory keeps the steps done before it, and the
// failed step's status and message.

#include <Eigen/Core>
#include <functional>

#include "quasidyn/dynamics/formulation_settings.h"
#include "quasidyn/dynamics/step_result.h"
#include "quasidyn/model/scene.h"
#include "quasidyn/simulation/trajectory.h"

namespace quasidyn {

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

// One step q⁺ = f(q, u), as QuasiDynamicStepper::Step computes it; injectable for tests.
using StepFunction = std::function<StepResult(const Eigen::VectorXd& q, const Eigen::VectorXd& u)>;

// Runs `options.steps` steps from scene.q0 with a QuasiDynamicStepper built from `settings`.
// Throws std::invalid_argument on N < 0 or invalid settings (h <= 0, ...), before any step.
Trajectory Rollout(const Scene& scene, const FormulationSettings& settings,
                   const RolloutOptions& options);

// The same loop with `step` in place of the stepper; `settings` only labels the trajectory
// and sets h. Exposed so tests can inject failures.
Trajectory Rollout(const Scene& scene, const FormulationSettings& settings,
                   const RolloutOptions& options, const StepFunction& step);

}  // namespace quasidyn
