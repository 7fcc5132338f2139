#include "quasidyn/control/planner_metric.h"

#include "quasidyn/planning/object_space.h"

namespace quasidyn {

StabilizerSettings StabilizerInPlannerMetric(StabilizerSettings settings, const Scene& scene,
                                             const PlanningSettings& planning) {
  settings.object_weight = ObjectSpace(scene).CoordinateWeights(planning);
  settings.command_weight *= settings.object_weight.mean();
  return settings;
}

TrajectoryOptimizerSettings OptimizerInPlannerMetric(TrajectoryOptimizerSettings settings,
                                                     const Scene& scene,
                                                     const PlanningSettings& planning) {
  settings.object_weight = ObjectSpace(scene).CoordinateWeights(planning);
  settings.rate_weight *= settings.object_weight.mean();
  return settings;
}

}  // namespace quasidyn
