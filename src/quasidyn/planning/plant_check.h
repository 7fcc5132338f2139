#pragma once
// Does a plant of a finer time step do what an extension of the planner did? (docs/planning.md,
// "Plans a plant of another time step executes"; PlanningSettings::plant_check.)
//
// The quasi-dynamic step is not converged in h at the planner's h = 0.1 s where a fingertip
// spins a ball held in the air: the planar hand's 180° extensions turn the ball 0.3–0.4 rad in
// one step, which the same command on a plant at h/2 does not reproduce, so such plans end
// 1.5–3.1 rad off there (docs/control.md, "Tracking through regrasps"). The check steps the
// edge's command from the edge's start again on the planner's own formulation at h/k, k
// substeps per step of h with the command held over all of them (exactly what `quasidyn track
// --substeps k --no-ramp` sends a plant: plan_tracking.h), the warm start cleared first so
// that the check, and the tree, are a function of the node and the command alone. The planner
// keeps the extension only if the two ends are within D <= tolerance of each other (D of
// model/planning_settings.h with the h/k end's objects as the goal).

#include <Eigen/Core>
#include <memory>

#include "quasidyn/model/planning_settings.h"
#include "quasidyn/planning/object_space.h"
#include "quasidyn/stepping/step_model.h"

namespace quasidyn {

class PlantCheck {
 public:
  // `model`: the planner's model (time step h), which must outlive the check; the model of h/k
  // is made here from its formulation choice (formulations/registry.h, ChoiceOf).
  // `settings.plant_check` must be set (std::invalid_argument otherwise); `space` is the
  // planner's object space (D), which must outlive the check.
  PlantCheck(const StepModel& model, const ObjectSpace& space, const PlanningSettings& settings);

  // The plant's run of an edge: `steps` (>= 1) steps of h under the command u (size
  // control_size()), each as k steps of h/k with u held, from `start`. False when a step failed
  // (state() is then the state before it).
  bool Run(const State& start, const Eigen::VectorXd& u, int steps);
  const State& state() const { return x_; }

  // D between the planner's end q_end (size n_q) and the last Run's end [-]; +∞ when the run
  // failed.
  double Distance(const Eigen::VectorXd& q_end) const;
  // Run, then Distance(q_end) <= tolerance.
  bool Agrees(const State& start, const Eigen::VectorXd& u, int steps,
              const Eigen::VectorXd& q_end);

  int substeps() const { return substeps_; }
  double tolerance() const { return tolerance_; }

 private:
  const ObjectSpace& space_;
  PlanningSettings settings_;  // D's weights
  int substeps_ = 0;
  double tolerance_ = 0.0;
  std::shared_ptr<const StepModel> fine_;  // the planner's formulation at h/k
  std::unique_ptr<StepData> data_;
  State x_;
  bool ok_ = false;
};

}  // namespace quasidyn
