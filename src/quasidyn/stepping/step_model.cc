#include "quasidyn/stepping/step_model.h"

#include <string>
#include <utility>

#include "quasidyn/common/argument_check.h"
#include "quasidyn/model/physical_ranges.h"
#include "quasidyn/stepping/step_outcome.h"

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
  // The scene file's usable range (model/physical_ranges.h), for an h given to a step model by
  // Python's h=, the command line or a planner: a subnormal h made a QP bound -inf.
  QUASIDYN_CHECK_ARGUMENT(InPhysicalRange(kTimeStepRange, time_step_), "step model",
                          "time step h " + PhysicalRangeProblem(kTimeStepRange, time_step_));
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

StepData::StepData(const StepModel* model) : model_(model) {
  x_.q.setZero(model->state_q_size());
  x_.v.setZero(model->state_v_size());
  u_.setZero(model->control_size());
}

namespace {

// What u's size is called in Calc's messages, by the kind of command.
const char* ControlSizeName(CommandKind command) {
  switch (command) {
    case CommandKind::kRobotPositions:
      break;
    case CommandKind::kRobotVelocities:
      return "n_q,a (commanded velocities)";
    case CommandKind::kObjectImpulses:
      return "n_v,u (the objects' applied impulses)";
  }
  return "n_q,a";
}

}  // namespace

void StepModel::Calc(const State& x, const Eigen::VectorXd& u, StepData* data) const {
  // Every check before anything changes: a caller's mistake leaves the data as it was.
  CheckData(data, "Calc");
  CheckVector("Calc", "x.q", x.q, scene_->nq, "n_q");
  const int nv_state = state_v_size();
  if (nv_state == 0) {
    QUASIDYN_CHECK_ARGUMENT(x.v.size() == 0, "Calc",
                            "x.v must be empty: the " + ModelName() +
                                " model has no velocity in its state (got size " +
                                std::to_string(x.v.size()) + ")");
  } else {
    QUASIDYN_CHECK_ARGUMENT(x.v.size() == nv_state, "Calc",
                            "x.v has size " + std::to_string(x.v.size()) + ", expected n_v = " +
                                std::to_string(nv_state) + " (the " + ModelName() +
                                " model's state has velocities; InitialState(model) gives the "
                                "scene's v0)");
    CheckFinite("Calc", "x.v", x.v);
  }
  CheckVector("Calc", "u", u, control_size(), ControlSizeName(capabilities().command));
  QUASIDYN_CHECK_ARGUMENT(capabilities().external_forces || data->external_force.size() == 0,
                          "Calc",
                          "external_force: " + formulation_.name + " has no external forces");
  DoCheckStep(x, u, *data);

  // Copies first: x may be data->result.next itself.
  data->x_.q = x.q;
  data->x_.v = x.v;
  data->u_ = u;
  data->calculated_ = true;
  data->derivatives.status = SolverStatus::kNotRun;
  data->derivatives.message.clear();
  StepResult& result = data->result;
  result.solver = SolverSummary();
  DoCalc(data->x_, data->u_, data);
  if (result.ok()) return;
  // A failed step keeps the state and reports no motion.
  result.next.q = data->x_.q;
  result.next.v = data->x_.v;
  result.velocity.setZero(scene_->nv);
  result.contacts.clear();
  result.momentum_force.setZero();
  result.joint_limit_impulse.setZero();
  result.max_body_motion = 0.0;
  result.large_motion = false;
}

void StepModel::CalcDiff(GradientMode mode, StepData* data) const {
  CheckData(data, "CalcDiff");
  QUASIDYN_CHECK_ARGUMENT(data->calculated_, "CalcDiff",
                          "no step to differentiate: call Calc on this data first");
  QUASIDYN_CHECK_ARGUMENT(
      mode == GradientMode::kNone || capabilities().differentiable(), "CalcDiff",
      "the " + formulation_.name + " formulation has no derivative: " + capabilities().no_gradient);
  if (!StartDerivatives(mode, data->result, &data->derivatives)) return;
  DoCalcDiff(mode, data);
}

void StepModel::DoCheckStep(const State& /*x*/, const Eigen::VectorXd& /*u*/,
                            const StepData& /*data*/) const {}

std::string StepModel::ModelName() const { return formulation_.name; }

void StepModel::FailStep(SolverStatus status, std::string message, StepData* data) {
  data->result.status = status;
  data->result.message = std::move(message);
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
