#pragma once
// The controllers' and the optimiser's object costs in the planner's units (docs/control.md,
// "The cost in the planner's units"). The planner measures how far the objects are from a goal by
// D (planning/object_space.h: w_p per metre of position, w_r per radian of rotation, the scene's
// `planning:` block); a cost ‖q^u − g‖²_W with W = 1 weighs a metre like a radian and a
// quaternion entry, so a controller or an optimiser given the planner's goal with weights 1
// trades what D counts for what it does not (a refined cylinder plan 0.16 m off its goal, D =
// 0.63, from a plan that ended at D = 0.014: examples/qsim_planning/README.md). These take W =
// ObjectSpace::CoordinateWeights (δqᵀ W δq = D² to second order) and scale the command term by
// mean(W), so that the settings' command weight keeps its meaning (relative to object weights of
// 1), any scale of the metric gives the same controller or optimiser (their programs depend on
// W / r only), and the metric of weights 1 gives the settings unchanged.

#include "quasidyn/control/stabilizer.h"
#include "quasidyn/control/trajectory_optimizer.h"
#include "quasidyn/model/planning_settings.h"
#include "quasidyn/model/scene.h"

namespace quasidyn {

// The stabiliser's cost: object_weight W and the command weight r · mean(W), r that of
// `settings`. std::invalid_argument for a scene ObjectSpace does not take (articulated objects).
StabilizerSettings StabilizerInPlannerMetric(StabilizerSettings settings, const Scene& scene,
                                             const PlanningSettings& planning);

// The optimiser's goal cost: object_weight W on steps 1 … T − 1 (the terminal weight, unless
// set, its default 10 W) and the rate weight ρ · mean(W), ρ that of `settings`. The same errors.
TrajectoryOptimizerSettings OptimizerInPlannerMetric(TrajectoryOptimizerSettings settings,
                                                     const Scene& scene,
                                                     const PlanningSettings& planning);

}  // namespace quasidyn
