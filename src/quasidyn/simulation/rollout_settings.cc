#include "quasidyn/simulation/rollout_settings.h"

#include "quasidyn/model/scene.h"
#include "quasidyn/simulation/rollout.h"

namespace quasidyn {

const SettingsSchema<RolloutSettings>& RolloutSettingsSchema() {
  static const SettingsSchema<RolloutSettings>* const schema = [] {
    using R = RolloutSettings;
    auto* s = new SettingsSchema<R>(
        "rollout",
        "a rollout of the scene's command schedule: its length, the derivatives it records and "
        "the steps its trajectory file keeps (docs/cli.md, docs/python.md)");
    s->Integer("steps", &R::steps)
        .AtLeast(0)
        .Doc(
            "N, the steps to take; 0: the steps covering duration, or to the end of the "
            "command schedule");
    s->Number("duration", &R::duration)
        .Unit("s")
        .AtLeast(0)
        .Doc("T, the simulated time the steps cover (⌈T/h⌉ steps; not with steps); 0: not given");
    s->Choice("gradients", &R::gradients,
              {GradientMode::kNone, GradientMode::kBOnly, GradientMode::kAAndB}, GradientModeName)
        .Noun("gradients")
        .Doc("the derivatives of every step to record: none, B = ∂x⁺/∂u, or A = ∂x⁺/∂x and B");
    s->Integer("every", &R::every)
        .AtLeast(1)
        .Doc("K: a trajectory file keeps every K-th step (and the last)");
    return s;
  }();
  return *schema;
}

std::optional<SettingsProblem> CheckRolloutSettings(const RolloutSettings& settings) {
  if (std::optional<SettingsProblem> p = CheckSettingsBlock(RolloutSettingsSchema(), settings))
    return p;
  if (settings.steps > 0 && settings.duration > 0)
    return SettingsProblem{"duration", "give steps or duration, not both"};
  return std::nullopt;
}

void ApplyRolloutSettingOverrides(const SettingOverrides& overrides, RolloutSettings* settings) {
  ApplySettingOverrides(RolloutSettingsSchema(), overrides, settings);
  if (const std::optional<SettingsProblem> p = CheckRolloutSettings(*settings))
    settings_detail::ThrowSettingProblem(RolloutSettingsSchema().block(), p->field, p->problem);
}

bool RolloutLengthGiven(const RolloutSettings& settings) {
  return settings.steps > 0 || settings.duration > 0;
}

std::optional<int> RolloutStepCount(const RolloutSettings& settings, const StepModel& model) {
  if (settings.steps > 0) return settings.steps;
  if (settings.duration > 0) return StepCountForDuration(settings.duration, model.time_step());
  const double end = model.scene().ScheduleEnd();
  if (!(end > 0)) return std::nullopt;
  return StepCountForDuration(end, model.time_step());
}

}  // namespace quasidyn
