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

StepModel::StepModel(ScenePtr scene, const FormulationSettings& settings)
    : scene_(std::move(scene)), settings_(settings) {
  QUASIDYN_CHECK_ARGUMENT(scene_ != nullptr, "step model", "the scene is null");
  ValidateFormulationSettings(settings_);
}

Eigen::VectorXd StepModel::ScheduledCommand(double t, const State& /*x*/) const {
  return scene_->CommandAt(t);
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

State InitialState(const Scene& scene) {
  return InitialState(scene, HasVelocityState(ParseFormulation(scene.formulation.type)));
}

State InitialState(const StepModel& model) {
  return InitialState(model.scene(), model.state_v_size() > 0);
}

}  // namespace quasidyn
