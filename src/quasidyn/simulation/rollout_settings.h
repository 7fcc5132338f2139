#pragma once
// What a rollout of a scene's command schedule asks for (simulation/rollout.h): how many steps
// (a count, or a duration), which derivatives to record, and which steps a trajectory file
// keeps. Each setting is declared once (RolloutSettingsSchema below): `quasidyn simulate`'s
// flags, Python's rollout and rollout_batch keywords, the range checks and the docs' table
// (`quasidyn settings rollout`) all come from it.

#include <optional>

#include "quasidyn/model/settings_schema.h"
#include "quasidyn/stepping/step_model.h"

namespace quasidyn {

// Each field's key, unit, range and one-line doc are declared once, in RolloutSettingsSchema
// (rollout_settings.cc); the comments here say what the fields mean to the code.
struct RolloutSettings {
  // N, the steps to take; 0: not given (the steps covering `duration`, or to the end of the
  // command schedule).
  int steps = 0;
  // T [s], the simulated time the steps cover (StepCountForDuration); 0: not given.
  double duration = 0.0;
  // The derivatives of every step to record (RolloutOptions::gradients).
  GradientMode gradients = GradientMode::kNone;
  // K, the steps a trajectory file keeps (TrajectoryWriteOptions::every).
  int every = 1;
};

// The rollout block's settings, each declared once (model/settings_schema.h).
const SettingsSchema<RolloutSettings>& RolloutSettingsSchema();

// The first problem of `settings`, or nothing: a setting out of its range, or steps and
// duration both given (field "duration": "give steps or duration, not both").
std::optional<SettingsProblem> CheckRolloutSettings(const RolloutSettings& settings);

// Applies `overrides` (each checked, ApplySettingOverrides) and then the whole block's rule;
// throws std::invalid_argument "rollout.<field>: <problem>".
void ApplyRolloutSettingOverrides(const SettingOverrides& overrides, RolloutSettings* settings);

// Whether the settings give the rollout's length (steps or duration).
bool RolloutLengthGiven(const RolloutSettings& settings);

// N for `model`: steps when given, else the steps covering duration at the model's time step,
// else the steps to the end of the scene's command schedule; nothing when none is given and the
// scene has no schedule to run to its end. Throws std::invalid_argument as StepCountForDuration.
std::optional<int> RolloutStepCount(const RolloutSettings& settings, const StepModel& model);

}  // namespace quasidyn
