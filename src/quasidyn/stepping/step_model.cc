#include "quasidyn/stepping/step_model.h"

#include "quasidyn/common/argument_check.h"

namespace quasidyn {

const char* GradientModeName(GradientMode mode) {
  switch (mode) {
    case GradientMode::kNone:
      return "none";
    case GradientMode::kBOnly:
      return "b_only";
    case GradientMode::kAAndB:
      return "a_and_b";
  }
  return "unknown";
}

StepModel::StepModel(ScenePtr scene, double time_step, FormulationInfo formulation,
                     ParameterBlock parameters)
    : scene_(std::move(scene)),
      time_step_(time_step),
      formulation_(std::move(formulation)),
      parameters_(std::move(parameters)) {
  QUASIDYN_CHECK_ARGUMENT(scene_ != nullptr, "step model", "the scene is null");
  CheckPositive("step model", "time step h", time_step_);
}

int StepModel::state_v_size() const {
  return capabilities().state == StateKind::kConfigurationAndVelocity ? scene_->nv : 0;
}

int StepModel::control_size() const {
  return capabilities().command == CommandKind::kObjectImpulses ? scene_->nv_u : scene_->nq_a;
}

Eigen::VectorXd StepModel::ScheduledCommand(double t, const State& x) const {
  Eigen::VectorXd u;
  ScheduledCommandInto(t, x, &u);
  return u;
}

void StepModel::ScheduledCommandInto(double t, const State& /*x*/, Eigen::VectorXd* u) const {
  scene_->CommandAt(t, u);
}

Eigen::VectorXd StepModel::HoldingCommand(const State& x) const {
  CheckSize("HoldingCommand", "x.q", x.q.size(), scene_->nq, "n_q");
  if (capabilities().command == CommandKind::kRobotPositions) return x.q.tail(scene_->nq_a);
  return Eigen::VectorXd::Zero(control_size());
}

Eigen::VectorXd StepModel::CommandToward(const State& x, const Eigen::VectorXd& q_a_target) const {
  CheckSize("CommandToward", "x.q", x.q.size(), scene_->nq, "n_q");
  CheckSize("CommandToward", "q_a_target", q_a_target.size(), scene_->nq_a, "n_q,a");
  switch (capabilities().command) {
    case CommandKind::kRobotPositions:
      return q_a_target;
    case CommandKind::kRobotVelocities:
      return (q_a_target - x.q.tail(scene_->nq_a)) / time_step_;
    case CommandKind::kObjectImpulses:
      break;
  }
  ThrowInvalidArgument("CommandToward",
                       formulation_.name + " commands the objects' impulses, not the robots");
}

void StepModel::CheckData(const StepData* data, const char* where) const {
  QUASIDYN_CHECK_ARGUMENT(data != nullptr && data->model_ == this, where,
                          "the data was not made by this model (use model.CreateData())");
}

namespace {

State InitialState(const Scene& scene, bool with_velocity) {
  if (!with_velocity) return State{scene.q0, Eigen::VectorXd()};
  return State{scene.q0, scene.v0.size() == scene.nv ? scene.v0 : Eigen::VectorXd::Zero(scene.nv)};
}

}  // namespace

State InitialState(const StepModel& model) {
  return InitialState(model.scene(), model.state_v_size() > 0);
}

}  // namespace quasidyn
