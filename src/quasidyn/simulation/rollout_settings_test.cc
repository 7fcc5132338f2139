// The rollout block's settings as its schema declares them once: the names the faces keep
// (`quasidyn simulate --steps/--duration/--every`, Python's steps=, duration=, gradients=), the
// defaults, the whole block's rule, the messages and the step count they give.

#include "quasidyn/simulation/rollout_settings.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <stdexcept>
#include <string>

#include "quasidyn/formulations/registry.h"
#include "quasidyn/scenes/scene_loading.h"
#include "quasidyn/simulation/rollout.h"
#include "quasidyn/testing/program_settings.h"
#include "quasidyn/testing/shared_scene.h"

namespace quasidyn {
namespace {

// The message of the std::invalid_argument `call` throws ("" if none).
template <typename Call>
std::string Refusal(Call&& call) {
  try {
    call();
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "";
}

TEST(RolloutSettings, NamesKindsAndDefaults) {
  const auto& schema = RolloutSettingsSchema();
  EXPECT_EQ(schema.block(), "rollout");
  const std::vector<SettingSpec> specs = schema.specs();
  ASSERT_EQ(specs.size(), 4u);
  EXPECT_EQ(specs[0].name, "steps");
  EXPECT_EQ(specs[0].kind, SettingKind::kInteger);
  EXPECT_EQ(specs[0].default_text, "0");
  EXPECT_EQ(SettingRangeText(specs[0]), ">= 0");
  EXPECT_EQ(specs[1].name, "duration");
  EXPECT_EQ(specs[1].kind, SettingKind::kNumber);
  EXPECT_EQ(specs[1].unit, "s");
  EXPECT_EQ(SettingRangeText(specs[1]), ">= 0");
  EXPECT_EQ(specs[2].name, "gradients");
  EXPECT_EQ(specs[2].kind, SettingKind::kChoice);
  EXPECT_EQ(SettingRangeText(specs[2]), "none | b_only | a_and_b");
  EXPECT_EQ(specs[2].default_text, "none");
  EXPECT_EQ(specs[3].name, "every");
  EXPECT_EQ(specs[3].default_text, "1");
  EXPECT_EQ(SettingRangeText(specs[3]), ">= 1");
  for (const SettingSpec& spec : specs) EXPECT_FALSE(spec.doc.empty()) << spec.name;
  // The defaults of the structs the faces fill.
  const RolloutSettings r;
  EXPECT_EQ(r.steps, 0);
  EXPECT_EQ(r.duration, 0.0);
  EXPECT_EQ(r.gradients, GradientMode::kNone);
  EXPECT_EQ(r.every, 1);
  EXPECT_EQ(r.gradients, RolloutOptions().gradients);
  EXPECT_FALSE(CheckRolloutSettings(r));
  EXPECT_FALSE(RolloutLengthGiven(r));
}

TEST(RolloutSettings, OverridesAreCheckedAndNameTheField) {
  RolloutSettings r;
  ApplyRolloutSettingOverrides({{"steps", std::int64_t{7}},
                                {"gradients", std::string("a_and_b")},
                                {"every", std::int64_t{3}}},
                               &r);
  EXPECT_EQ(r.steps, 7);
  EXPECT_EQ(r.gradients, GradientMode::kAAndB);
  EXPECT_EQ(r.every, 3);
  EXPECT_TRUE(RolloutLengthGiven(r));
  RolloutSettings s;
  EXPECT_EQ(Refusal([&] {
              ApplyRolloutSettingOverrides({{"steps", std::int64_t{-1}}}, &s);
            }),
            "rollout.steps: must be >= 0 (got -1)");
  EXPECT_EQ(Refusal([&] {
              ApplyRolloutSettingOverrides({{"every", std::int64_t{0}}}, &s);
            }),
            "rollout.every: must be >= 1 (got 0)");
  EXPECT_EQ(Refusal([&] {
              ApplyRolloutSettingOverrides({{"duration", -1.0}}, &s);
            }),
            "rollout.duration: must be >= 0 [s] (got -1)");
  EXPECT_EQ(
      Refusal([&] {
        ApplyRolloutSettingOverrides({{"duration", std::numeric_limits<double>::quiet_NaN()}}, &s);
      }),
      "rollout.duration: must be finite");
  EXPECT_EQ(Refusal([&] {
              ApplyRolloutSettingOverrides({{"gradients", std::string("A")}}, &s);
            }),
            "rollout.gradients: unknown gradients 'A' (none, b_only, a_and_b)");
  // Steps and duration exclude each other (the block's rule, after every value is set).
  EXPECT_EQ(Refusal([&] {
              ApplyRolloutSettingOverrides({{"steps", std::int64_t{5}}, {"duration", 1.0}}, &s);
            }),
            "rollout.duration: give steps or duration, not both");
  RolloutSettings both;
  both.steps = 5;
  both.duration = 1.0;
  const auto problem = CheckRolloutSettings(both);
  ASSERT_TRUE(problem);
  EXPECT_EQ(problem->field, "duration");
}

TEST(RolloutSettings, StepCountFromStepsDurationOrTheSchedule) {
  const ScenePtr scene = testing::Shared(
      LoadScene(std::string(QUASIDYN_SOURCE_DIR) + "/examples/planar_gripper/scene.yaml"));
  const auto model = MakeStepModel(scene, testing::SceneProgramSettings(*scene));
  const double h = model->time_step();
  RolloutSettings r;
  EXPECT_EQ(RolloutStepCount(r, *model), StepCountForDuration(scene->ScheduleEnd(), h));
  r.duration = 10 * h;
  EXPECT_EQ(RolloutStepCount(r, *model), 10);
  r = RolloutSettings();
  r.steps = 3;
  EXPECT_EQ(RolloutStepCount(r, *model), 3);
}

}  // namespace
}  // namespace quasidyn
