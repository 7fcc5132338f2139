#include "quasidyn/planning/planning_overrides.h"

#include <Eigen/Core>
#include <stdexcept>

#include "quasidyn/formulations/registry.h"
#include "quasidyn/planning/rrt.h"

namespace quasidyn {
namespace {

template <typename T>
void Override(const std::optional<T>& value, T* field) {
  if (value) *field = *value;
}

void Override(const std::vector<double>& value, Eigen::VectorXd* field) {
  if (!value.empty())
    *field =
        Eigen::Map<const Eigen::VectorXd>(value.data(), static_cast<Eigen::Index>(value.size()));
}

template <typename Parse, typename T>
void OverrideName(const std::optional<std::string>& name, const char* field, Parse parse, T* out) {
  if (!name) return;
  try {
    *out = parse(*name);
  } catch (const std::invalid_argument& e) {
    throw std::invalid_argument(std::string("planning.") + field + ": " + e.what());
  }
}

// One name fingers or all_links selects that rule; anything else is a list of robot links,
// checked against the scene by ValidatePlanningSettings.
void OverrideGraspAnchors(const std::vector<std::string>& names, PlanningSettings* s) {
  if (names.empty()) return;
  s->grasp_anchor_links.clear();
  if (names.size() == 1 && names[0] == GraspAnchorsName(GraspAnchors::kFingers)) {
    s->grasp_anchors = GraspAnchors::kFingers;
  } else if (names.size() == 1 && names[0] == GraspAnchorsName(GraspAnchors::kAllLinks)) {
    s->grasp_anchors = GraspAnchors::kAllLinks;
  } else {
    s->grasp_anchors = GraspAnchors::kListed;
    s->grasp_anchor_links = names;
  }
}

}  // namespace

PlanningSettings ResolvePlanningSettings(const Scene& scene, const PlanningOverrides& o) {
  // Before the block's own fields.
  CheckPlannableFormulation(ChosenFormulation(scene, FormulationChoice()).info);
  PlanningSettings s = scene.planning.value_or(PlanningSettings{});
  Override(o.goal, &s.goal);
  Override(o.lower, &s.lower);
  Override(o.upper, &s.upper);
  if (!o.rotation_axis.empty()) {
    if (o.rotation_axis.size() != 3)
      throw std::invalid_argument("planning.bounds.rotation_axis: expected 3 numbers, got " +
                                  std::to_string(o.rotation_axis.size()));
    s.rotation_axis = Eigen::Vector3d(o.rotation_axis[0], o.rotation_axis[1], o.rotation_axis[2]);
  }
  Override(o.goal_tolerance, &s.goal_tolerance);
  Override(o.position_weight, &s.position_weight);
  Override(o.rotation_weight, &s.rotation_weight);
  Override(o.goal_bias, &s.goal_bias);
  OverrideName(o.metric, "metric.type", ParseReachabilityMethod, &s.method);
  OverrideName(o.nearest, "nearest", ParseNearestRule, &s.nearest);
  OverrideName(o.regrasp, "regrasp", ParseRegraspExecution, &s.regrasp);
  OverrideGraspAnchors(o.grasp_anchors, &s);
  Override(o.kappa, &s.kappa);
  Override(o.samples, &s.samples);
  Override(o.sample_std, &s.sample_std);
  Override(o.regularization, &s.regularization);
  Override(o.step_size, &s.step_size);
  Override(o.extend_steps, &s.extend_steps);
  Override(o.penetration_tolerance, &s.penetration_tolerance);
  Override(o.max_substeps, &s.max_substeps);
  Override(o.time_step, &s.time_step);
  Override(o.p_grasp, &s.p_grasp);
  Override(o.grasp_candidates, &s.grasp_candidates);
  Override(o.settle_steps, &s.settle_steps);
  Override(o.max_nodes, &s.max_nodes);
  Override(o.time_limit, &s.time_limit);
  if (o.plant_check_substeps || o.plant_check_tolerance) {
    PlantCheckSettings check = s.plant_check.value_or(PlantCheckSettings{});
    Override(o.plant_check_substeps, &check.substeps);
    Override(o.plant_check_tolerance, &check.tolerance);
    s.plant_check = check;
  }
  if (o.seed) {
    if (*o.seed < 0)
      throw std::invalid_argument("planning.seed: must be >= 0 (got " + std::to_string(*o.seed) +
                                  ")");
    s.seed = static_cast<std::uint64_t>(*o.seed);
  }
  ValidatePlanningSettings(s, scene);
  return s;
}

}  // namespace quasidyn
