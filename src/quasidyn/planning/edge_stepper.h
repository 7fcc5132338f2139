#pragma once
// One extend edge of the planner (rrt.h) as the stepper takes it, shared by the search and the
// replay (plan_path.h) so that both run the same computations:
//
//   the edge's `steps` steps of h under the constant command u, each taken as n substeps of h/n
//   (n = PlanNode::substeps; n = 1 is the plain step). For a position command the substep
//   j = 1 … n commands a + (j/n)(u − a), a the robots' held position at the start of the step
//   (u itself at j = n), so that the robots' commanded motion is spread over the substeps; a
//   velocity command is held as it is (h/n of it per substep). The warm start is cleared when
//   the edge begins, as the planner always did.
//
// A step of h whose motion exceeds the distance within which it sees contacts (StepResult::
// large_motion, stepping/body_motion.h) may carry a body into another without a contact in its
// program; its substeps move less (the robots by 1/n, a falling object by 1/n², since a
// quasi-dynamic object's free motion over a step of h is h²·g), so they see the contacts the
// step missed. After each step the stepper reports the largest body motion of its substeps and
// (when asked) the deepest overlap of shapes at the end of each substep and, for a substep that
// set large_motion, along its path (PenetrationMeter::StepDepth, penetration_meter.h).

#include <Eigen/Core>
#include <memory>
#include <vector>

#include "quasidyn/planning/penetration_meter.h"
#include "quasidyn/stepping/step_model.h"

namespace quasidyn {

class EdgeStepper {
 public:
  // `model`: the planner's model (time step h), which must outlive the stepper; the models of h/n
  // are made on first use from its formulation choice (formulations/registry.h, ChoiceOf).
  // `measure_depth`: also measure the overlap at the end of every substep (step_depth()).
  // `scale_mass`: the models of h/n step with the objects' mass scale s/n (the planner's s of h,
  // ChoiceOf's object_mass_scale), so that their n substeps move an object as one step of h
  // would with its velocity (PlanningSettings::extension_substeps > 1); false: s kept, so a
  // falling object moves 1/n² per substep (the large-motion substeps' rule).
  EdgeStepper(const StepModel& model, bool measure_depth, bool scale_mass = false);

  const StepModel& model() const { return *models_.front().model; }

  // Starts an edge at x under the command u (size control_size()) with `substeps` (>= 1,
  // std::invalid_argument otherwise) substeps per step.
  void Begin(const State& x, const Eigen::VectorXd& u, int substeps);
  // Takes the edge's next step (its substeps): false when a substep failed (result() says why;
  // state() is then the state before that substep).
  bool Step();

  const State& state() const { return x_; }
  // The last substep's result (its contacts, solver statistics and end state).
  const StepResult& result() const;
  // Of the last Step: the largest StepResult::max_body_motion of its substeps [m], whether any of
  // them set large_motion, and the deepest overlap at the ends of its substeps and along those
  // that set large_motion [m] (0 unless measure_depth).
  double step_motion() const { return step_motion_; }
  bool step_large_motion() const { return step_large_motion_; }
  double step_depth() const { return step_depth_; }
  // The deepest overlap at q [m] (penetration_meter.h); +∞ without measure_depth.
  double Depth(const Eigen::VectorXd& q);

 private:
  struct Substepper {
    int substeps = 0;
    const StepModel* model = nullptr;
    std::shared_ptr<const StepModel> owned;  // the models of h/n (null for the planner's own)
    std::unique_ptr<StepData> data;
  };
  Substepper& For(int substeps);

  std::vector<Substepper> models_;           // models_[0]: the planner's own (1 substep)
  std::unique_ptr<PenetrationMeter> depth_;  // null without measure_depth
  Substepper* current_ = nullptr;
  bool ramp_ = false;  // a position command: ramp it over the substeps
  bool scale_mass_ = false;
  State x_;
  Eigen::VectorXd u_, held_, command_, start_;
  double step_motion_ = 0.0, step_depth_ = 0.0;
  bool step_large_motion_ = false;
};

}  // namespace quasidyn
