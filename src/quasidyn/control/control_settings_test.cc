// The control blocks' settings as their schemas declare them once (the optimiser's with the
// smoothing schedule, the stabiliser's, tracking's with the regrasp motion, replanning's): the
// names the faces keep, the defaults every face gets, the checks and their messages.

#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <stdexcept>
#include <string>

#include "quasidyn/control/plan_tracking.h"
#include "quasidyn/control/replanning.h"
#include "quasidyn/control/settings_blocks.h"
#include "quasidyn/control/smoothed_linearizer.h"
#include "quasidyn/control/stabilizer.h"
#include "quasidyn/control/trajectory_optimizer.h"
#include "quasidyn/planning/regrasp_motion.h"

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

template <typename T>
std::string PathOf(const SettingsSchema<T>& schema, const std::string& name) {
  const auto* setting = schema.FindByName(name);
  return setting == nullptr ? "(none)" : setting->spec.path;
}

TEST(ControlSettings, NamesTheFacesKeep) {
  const auto& optimizer = TrajectoryOptimizerSettingsSchema();
  EXPECT_EQ(PathOf(optimizer, "goal"), "object_goal");
  EXPECT_EQ(PathOf(optimizer, "smoothing"), "smoothing.method");  // --smoothing
  EXPECT_EQ(PathOf(optimizer, "kappa_max"), "smoothing.kappa_max");
  EXPECT_EQ(PathOf(optimizer, "per_segment"), "per_segment");  // --per-segment (was --qp)
  const auto& stabilizer = StabilizerSettingsSchema();
  EXPECT_EQ(PathOf(stabilizer, "kappa"), "kappa");  // the field `smoothing`
  EXPECT_EQ(PathOf(stabilizer, "smoothing"), "method");
  const auto& tracking = TrackingSettingsSchema();
  EXPECT_EQ(PathOf(tracking, "ramp"), "ramp_substeps");
  EXPECT_EQ(PathOf(tracking, "regrasp_clearance"), "regrasp.clearance");
  EXPECT_EQ(PathOf(tracking, "regrasp_max_joint_step"), "regrasp.max_joint_step");
  const auto& replanning = ReplanningSettingsSchema();
  EXPECT_EQ(PathOf(replanning, "replan_deviation"), "replan_deviation");
  EXPECT_EQ(PathOf(replanning, "kappa"), "stabilizer.kappa");
  EXPECT_EQ(PathOf(replanning, "regrasp_clearance"), "tracking.regrasp.clearance");
  // Not settings: the plan's own, and what the code sets.
  EXPECT_EQ(optimizer.FindByPath("regrasp_steps"), nullptr);
  EXPECT_EQ(stabilizer.FindByPath("regrasp_steps"), nullptr);
  EXPECT_EQ(stabilizer.FindByPath("open_loop_steps"), nullptr);
  EXPECT_EQ(replanning.FindByPath("first_plan_found"), nullptr);
  for (const char* block :
       {"optimizer", "smoothing", "stabilizer", "tracking", "regrasp_motion", "replanning"})
    EXPECT_EQ(FindSettingsBlock(block).name, block);
}

// The defaults the command line and Python gave before the settings were declared once.
TEST(ControlSettings, DefaultsAreTheFacesOnes) {
  const TrajectoryOptimizerSettings o;
  EXPECT_EQ(o.horizon, 10);
  EXPECT_EQ(o.iterations, 20);
  EXPECT_EQ(o.rate_weight, 0.1);
  EXPECT_EQ(o.trust_region, 0.1);
  EXPECT_EQ(o.penetration_tolerance, 1e-3);
  EXPECT_EQ(o.smoothing.method, SmoothingMethod::kLogBarrier);
  EXPECT_FALSE(o.per_segment);
  EXPECT_EQ(o.segment_steps, 0);
  const StabilizerSettings s;
  EXPECT_EQ(s.smoothing, 5000.0);
  EXPECT_EQ(s.command_weight, 1e-3);
  EXPECT_EQ(s.max_deviation, 0.2);
  const ReplanningSettings r;
  EXPECT_EQ(r.replan_deviation, 0.0);
  EXPECT_TRUE(r.tracking.ramp_substeps);  // docs/control.md, "The stabiliser's bound"
  EXPECT_EQ(r.tracking.regrasp.clearance, 0.01);
  EXPECT_EQ(r.tracking.regrasp.max_joint_step, 0.05);
  // Every block's defaults are within its declared ranges.
  EXPECT_FALSE(CheckSettingsBlock(TrajectoryOptimizerSettingsSchema(), o));
  EXPECT_FALSE(CheckSmoothingSchedule(o.smoothing));
  EXPECT_FALSE(CheckStabilizerSettings(s, 3));
  EXPECT_FALSE(CheckSettingsBlock(ReplanningSettingsSchema(), r));
  EXPECT_FALSE(CheckSettingsBlock(RegraspMotionSettingsSchema(), RegraspMotionSettings()));
  EXPECT_EQ(TrajectoryOptimizerSettingsSchema().FindByName("horizon")->spec.name, "horizon");
  EXPECT_EQ(TrajectoryOptimizerSettingsSchema().specs()[0].default_text, "10");
}

// The stabiliser's `kappa` is κ of log-barrier smoothing or σ_u of randomized smoothing: each
// method's usable range (model/physical_ranges.h) applies, not the sign alone.
TEST(ControlSettings, StabilizerKappaLiesWithinItsMethodsRange) {
  StabilizerSettings s;
  s.smoothing = 1e-320;  // positive, subnormal
  std::optional<SettingsProblem> p = CheckStabilizerSettings(s, 3);
  ASSERT_TRUE(p);
  EXPECT_EQ(p->field, "kappa");
  EXPECT_EQ(p->problem,
            "must lie within [1e-06, 1e+12] 1/(N·m), got 1e-320 (κ of log-barrier "
            "smoothing)");
  s.smoothing = 1e-6;  // the least κ, usable
  EXPECT_FALSE(CheckStabilizerSettings(s, 3));
  s.method = SmoothingMethod::kRandomized;
  s.smoothing = 1e4;  // a σ_u of 10 km
  p = CheckStabilizerSettings(s, 3);
  ASSERT_TRUE(p);
  EXPECT_EQ(p->problem,
            "must lie within [1e-12, 1000] m or rad, got 10000 (σ_u of randomized "
            "smoothing)");
  s.smoothing = 0.05;
  EXPECT_FALSE(CheckStabilizerSettings(s, 3));
}

TEST(ControlSettings, OutOfRangeNamesTheBlocksField) {
  TrajectoryOptimizerSettings o;
  EXPECT_EQ(Refusal([&] {
              ApplyOptimizerSettingOverrides({{"horizon", std::int64_t{0}}}, &o);
            }),
            "optimizer.horizon: must be >= 1 (got 0)");
  EXPECT_EQ(Refusal([&] {
              ApplyOptimizerSettingOverrides({{"smoothing", std::string("magic")}}, &o);
            }),
            "optimizer.smoothing.method: unknown smoothing 'magic' (log-barrier, randomized)");
  StabilizerSettings s;
  EXPECT_EQ(Refusal([&] { ApplySetting(StabilizerSettingsSchema(), "kappa", 0.0, &s); }),
            "stabilizer.kappa: must be > 0 [1/(N·m); m or rad] (got 0)");
  EXPECT_EQ(Refusal([&] {
              ApplySetting(StabilizerSettingsSchema(), "command_weight",
                           std::numeric_limits<double>::quiet_NaN(), &s);
            }),
            "stabilizer.command_weight: must be finite");
  TrackingSettings t;
  EXPECT_EQ(Refusal([&] { ApplySetting(TrackingSettingsSchema(), "regrasp_clearance", 0.0, &t); }),
            "tracking.regrasp.clearance: must be in [1e-12, 1000] [m] (got 0)");
  ReplanningSettings r;
  EXPECT_EQ(
      Refusal([&] { ApplySetting(ReplanningSettingsSchema(), "replan_deviation", -1.0, &r); }),
      "replanning.replan_deviation: must be >= 0 (got -1)");
  RegraspMotionSettings m;
  m.max_motion_steps = 0;
  const auto problem = CheckSettingsBlock(RegraspMotionSettingsSchema(), m);
  ASSERT_TRUE(problem);
  EXPECT_EQ(problem->field, "max_motion_steps");
}

TEST(ControlSettings, CrossFieldRulesAndSizes) {
  TrajectoryOptimizerSettings o;
  o.object_goal = Eigen::Vector3d::Zero();
  EXPECT_FALSE(CheckTrajectoryOptimizerSettings(o, 3));
  auto problem = CheckTrajectoryOptimizerSettings(o, 2);
  ASSERT_TRUE(problem);
  EXPECT_EQ(problem->field, "object_goal");
  EXPECT_EQ(problem->problem, "expected n_q,u = 2 numbers (the objects' coordinates), got 3");
  o.trust_region_max = 0.05;
  problem = CheckTrajectoryOptimizerSettings(o, 3);
  ASSERT_TRUE(problem);
  EXPECT_EQ(problem->field, "trust_region_max");
  EXPECT_EQ(problem->problem, "must be >= trust_region = 0.1 (got 0.05)");
  o.trust_region_max = 0.5;
  o.per_segment = o.shrinking_horizon = true;
  problem = CheckTrajectoryOptimizerSettings(o, 3);
  ASSERT_TRUE(problem);
  EXPECT_EQ(problem->field, "per_segment");
  o.per_segment = false;
  o.smoothing.kappa_max = 50.0;
  problem = CheckTrajectoryOptimizerSettings(o, 3);
  ASSERT_TRUE(problem);
  EXPECT_EQ(problem->field, "smoothing.kappa_max");
  EXPECT_EQ(problem->problem, "must be >= kappa_start = 100 (got 50)");
  SmoothingSchedule schedule;
  schedule.std_min = 0.1;
  EXPECT_EQ(Refusal([&] { ValidateSmoothingSchedule(schedule); }),
            "smoothing.std_min: must be <= std_start = 0.05 (got 0.1)");
  StabilizerSettings s;
  s.object_weight = Eigen::Vector2d::Ones();
  problem = CheckStabilizerSettings(s, 3);
  ASSERT_TRUE(problem);
  EXPECT_EQ(problem->field, "object_weight");
  EXPECT_EQ(problem->problem, "expected n_q,u = 3 numbers, got 2");
}

// A trust region given alone raises r_max to it (as the faces always did); given with r_max, the
// two are checked against each other.
TEST(ControlSettings, TrustRegionAloneRaisesItsMaximum) {
  TrajectoryOptimizerSettings o;
  ApplyOptimizerSettingOverrides({{"trust_region", 0.8}}, &o);
  EXPECT_EQ(o.trust_region, 0.8);
  EXPECT_EQ(o.trust_region_max, 0.8);
  TrajectoryOptimizerSettings p;
  ApplyOptimizerSettingOverrides({{"trust_region", 0.05}}, &p);
  EXPECT_EQ(p.trust_region_max, 0.5);
  TrajectoryOptimizerSettings q;
  ApplyOptimizerSettingOverrides({{"trust_region", 0.8}, {"trust_region_max", 0.6}}, &q);
  EXPECT_EQ(q.trust_region_max, 0.6);
  q.object_goal = Eigen::Vector3d::Zero();
  ASSERT_TRUE(CheckTrajectoryOptimizerSettings(q, 3));
  EXPECT_EQ(CheckTrajectoryOptimizerSettings(q, 3)->field, "trust_region_max");
}

}  // namespace
}  // namespace quasidyn
