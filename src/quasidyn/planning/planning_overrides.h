#pragma once
// Field-by-field overrides of a scene's planning block (model/planning_settings.h), as the
// command line (`quasidyn plan --goal ... --seed ...`) and Python (`quasidyn.plan(scene,
// goal, seed=...)`) give them: one place that applies and checks them for both faces.

#include <optional>
#include <string>
#include <vector>

#include "quasidyn/model/planning_settings.h"
#include "quasidyn/model/scene.h"

namespace quasidyn {

// Unset (nullopt, or an empty vector) keeps the scene's value. Names follow the block's fields.
struct PlanningOverrides {
  std::vector<double> goal, lower, upper, rotation_axis;
  std::optional<double> goal_tolerance, position_weight, rotation_weight, goal_bias;
  std::optional<std::string> metric;   // exact | log-barrier | randomized
  std::optional<std::string> nearest;  // reachability | euclidean
  std::optional<std::string> regrasp;  // reset | physical
  // {"fingers"} | {"all_links"} | robot link names {"robot/link", ...} (the block's grasp_anchors)
  std::vector<std::string> grasp_anchors;
  std::optional<double> kappa, sample_std, regularization, step_size, time_step, p_grasp;
  std::optional<double> penetration_tolerance;  // [m]
  std::optional<int> samples, extend_steps, grasp_candidates, settle_steps, max_nodes;
  std::optional<int> max_substeps;
  std::optional<double> time_limit;
  std::optional<long long> seed;  // >= 0
  // Either given: the plant check (PlanningSettings::plant_check) on, the other field the scene's
  // or its default.
  std::optional<int> plant_check_substeps;
  std::optional<double> plant_check_tolerance;
};

// The scene's planning block (defaults when it has none) with the overrides, checked as a
// query about to run (first the scene's formulation, CheckPlannableFormulation of planning/rrt.h,
// "formulation.type: ..."; then ValidatePlanningSettings of planning/rrt.h): throws
// std::invalid_argument "planning.<field>: <problem>" for the first problem (an unknown metric or
// nearest-node rule, a negative seed, a goal of the wrong size, ...).
PlanningSettings ResolvePlanningSettings(const Scene& scene, const PlanningOverrides& overrides);

}  // namespace quasidyn
