#include "quasidyn/control/settings_blocks.h"

#include <stdexcept>

#include "quasidyn/common/closest_name.h"
#include "quasidyn/control/plan_tracking.h"
#include "quasidyn/control/replanning.h"
#include "quasidyn/control/smoothed_linearizer.h"
#include "quasidyn/control/stabilizer.h"
#include "quasidyn/control/trajectory_optimizer.h"
#include "quasidyn/linearization/linearization_settings.h"
#include "quasidyn/model/mpc_settings.h"
#include "quasidyn/model/planning_settings.h"
#include "quasidyn/planning/regrasp_motion.h"
#include "quasidyn/simulation/rollout_settings.h"

namespace quasidyn {
namespace {

template <typename T>
SettingsBlockInfo Info(const SettingsSchema<T>& schema) {
  return {schema.block(), schema.doc(), schema.specs(), schema.sections()};
}

}  // namespace

std::vector<SettingsBlockInfo> SettingsBlocks() {
  return {Info(PlanningSettingsSchema()),
          Info(MpcSettingsSchema()),
          Info(TrajectoryOptimizerSettingsSchema()),
          Info(SmoothingScheduleSchema()),
          Info(StabilizerSettingsSchema()),
          Info(TrackingSettingsSchema()),
          Info(RegraspMotionSettingsSchema()),
          Info(ReplanningSettingsSchema()),
          Info(RolloutSettingsSchema()),
          Info(LinearizationSettingsSchema())};
}

SettingsBlockInfo FindSettingsBlock(const std::string& name) {
  std::vector<std::string> names;
  for (SettingsBlockInfo& block : SettingsBlocks()) {
    if (block.name == name) return block;
    names.push_back(block.name);
  }
  throw std::invalid_argument("unknown settings block '" + name + "'" + DidYouMean(name, names) +
                              " (" + JoinNames(names) + ")");
}

}  // namespace quasidyn
