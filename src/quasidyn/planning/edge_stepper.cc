#include "quasidyn/planning/edge_stepper.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "quasidyn/common/argument_check.h"
#include "quasidyn/formulations/registry.h"
#include "quasidyn/kinematics/kinematics.h"

namespace quasidyn {

EdgeStepper::EdgeStepper(const StepModel& model, bool measure_depth, bool scale_mass)
    : scale_mass_(scale_mass) {
  if (measure_depth) depth_ = std::make_unique<PenetrationMeter>(model.scene_ptr());
  ramp_ = model.capabilities().command == CommandKind::kRobotPositions;
  Substepper own;
  own.substeps = 1;
  own.model = &model;
  own.data = model.CreateData();
  models_.push_back(std::move(own));
}

EdgeStepper::Substepper& EdgeStepper::For(int substeps) {
  for (Substepper& s : models_)
    if (s.substeps == substeps) return s;
  const StepModel& base = *models_.front().model;
  FormulationChoice choice = ChoiceOf(base);
  choice.time_step = base.time_step() / substeps;
  if (scale_mass_) {
    if (const ParameterValue* scale = base.parameters().Find("object_mass_scale"))
      choice.parameters.Set("object_mass_scale", scale->value(0, 0) / substeps);
  }
  Substepper s;
  s.substeps = substeps;
  s.owned = MakeStepModel(base.scene_ptr(), choice);
  s.model = s.owned.get();
  s.data = s.model->CreateData();
  models_.push_back(std::move(s));
  return models_.back();
}

void EdgeStepper::Begin(const State& x, const Eigen::VectorXd& u, int substeps) {
  QUASIDYN_CHECK_ARGUMENT(substeps >= 1, "EdgeStepper::Begin",
                          "substeps must be >= 1 (got " + std::to_string(substeps) + ")");
  current_ = &For(substeps);
  current_->model->ClearWarmStart(current_->data.get());
  x_ = x;
  u_ = u;
}

const StepResult& EdgeStepper::result() const {
  QUASIDYN_CHECK_ARGUMENT(current_ != nullptr, "EdgeStepper::result", "no edge has begun");
  return current_->data->result;
}

bool EdgeStepper::Step() {
  QUASIDYN_CHECK_ARGUMENT(current_ != nullptr, "EdgeStepper::Step", "no edge has begun");
  const StepModel& model = *current_->model;
  StepData* data = current_->data.get();
  const int n = current_->substeps;
  step_motion_ = 0.0;
  step_depth_ = 0.0;
  step_large_motion_ = false;
  if (ramp_ && n > 1) held_ = x_.q.tail(model.scene().nq_a);
  for (int j = 1; j <= n; ++j) {
    const Eigen::VectorXd* command = &u_;
    if (ramp_ && j < n) {
      command_ = held_ + (static_cast<double>(j) / n) * (u_ - held_);
      command = &command_;
    }
    if (depth_) start_ = x_.q;
    model.Calc(x_, *command, data);
    const StepResult& result = data->result;
    if (!result.ok()) return false;
    x_ = result.next;
    step_motion_ = std::max(step_motion_, result.max_body_motion);
    step_large_motion_ = step_large_motion_ || result.large_motion;
    if (depth_) step_depth_ = std::max(step_depth_, depth_->StepDepth(model, start_, result));
  }
  return true;
}

double EdgeStepper::Depth(const Eigen::VectorXd& q) {
  return depth_ ? depth_->Depth(q) : std::numeric_limits<double>::infinity();
}

}  // namespace quasidyn
