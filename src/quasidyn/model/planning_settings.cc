#include "quasidyn/model/planning_settings.h"

#include <cmath>
#include <sstream>
#include <stdexcept>
#include <tuple>

#include "quasidyn/model/scene.h"

namespace quasidyn {
namespace {

std::string SettingText(double x) {
  std::ostringstream s;
  s.precision(17);
  s << x;
  return s.str();
}

using MaybeProblem = std::optional<PlanningSettingsProblem>;

MaybeProblem PlanningSettingsWrong(const std::string& field, const std::string& problem) {
  return PlanningSettingsProblem{field, problem};
}

MaybeProblem CheckPositive(const std::string& field, double value, const std::string& unit) {
  if (std::isnan(value) || !(value > 0.0))
    return PlanningSettingsWrong(field, "must be > 0" + unit + " (got " + SettingText(value) + ")");
  return std::nullopt;
}

MaybeProblem CheckFiniteNonNegative(const std::string& field, double value,
                                    const std::string& unit) {
  if (!std::isfinite(value) || !(value >= 0.0))
    return PlanningSettingsWrong(
        field, "must be finite and >= 0" + unit + " (got " + SettingText(value) + ")");
  return std::nullopt;
}

MaybeProblem CheckProbability(const std::string& field, double value) {
  if (!(value >= 0.0 && value <= 1.0))
    return PlanningSettingsWrong(
        field, "must be a probability in [0, 1] (got " + SettingText(value) + ")");
  return std::nullopt;
}

MaybeProblem CheckAtLeast(const std::string& field, int value, int minimum) {
  if (value < minimum)
    return PlanningSettingsWrong(
        field, "must be >= " + std::to_string(minimum) + " (got " + std::to_string(value) + ")");
  return std::nullopt;
}

// minimum <= value <= maximum, the first bound broken named ("must be >= 1 (got 0)").
MaybeProblem CheckInRange(const std::string& field, int value, int minimum, int maximum) {
  if (MaybeProblem p = CheckAtLeast(field, value, minimum)) return p;
  if (value > maximum)
    return PlanningSettingsWrong(
        field, "must be <= " + std::to_string(maximum) + " (got " + std::to_string(value) + ")");
  return std::nullopt;
}

MaybeProblem CheckFiniteVector(const std::string& field, const Eigen::VectorXd& x) {
  for (Eigen::Index i = 0; i < x.size(); ++i) {
    if (!std::isfinite(x[i]))
      return PlanningSettingsWrong(
          field, "entry " + std::to_string(i) + " is not finite (" + SettingText(x[i]) + ")");
  }
  return std::nullopt;
}

// The numbers that do not depend on the scene.
MaybeProblem CheckScalars(const PlanningSettings& s) {
  if (MaybeProblem p = CheckFiniteNonNegative("goal_tolerance", s.goal_tolerance, "")) return p;
  if (!(s.goal_tolerance > 0))
    return PlanningSettingsWrong("goal_tolerance", "must be > 0 (got 0)");
  if (MaybeProblem p = CheckFiniteNonNegative("goal_weights.position", s.position_weight, " [1/m]"))
    return p;
  if (MaybeProblem p =
          CheckFiniteNonNegative("goal_weights.rotation", s.rotation_weight, " [1/rad]"))
    return p;
  if (!(s.position_weight + s.rotation_weight > 0))
    return PlanningSettingsWrong("goal_weights",
                                 "position and rotation weights are both 0: no goal distance");
  if (MaybeProblem p = CheckProbability("goal_bias", s.goal_bias)) return p;
  if (!std::isfinite(s.kappa)) return PlanningSettingsWrong("metric.kappa", "must be finite");
  if (MaybeProblem p = CheckPositive("metric.kappa", s.kappa, " [1/(N·m)]")) return p;
  if (MaybeProblem p = CheckAtLeast("metric.samples", s.samples, 1)) return p;
  if (!std::isfinite(s.sample_std)) return PlanningSettingsWrong("metric.std", "must be finite");
  if (MaybeProblem p = CheckPositive("metric.std", s.sample_std, " [m or rad]")) return p;
  if (!std::isfinite(s.regularization))
    return PlanningSettingsWrong("metric.regularization", "must be finite");
  if (MaybeProblem p = CheckPositive("metric.regularization", s.regularization, "")) return p;
  if (!std::isfinite(s.step_size)) return PlanningSettingsWrong("step_size", "must be finite");
  if (MaybeProblem p = CheckPositive("step_size", s.step_size, " [m or rad]")) return p;
  if (MaybeProblem p = CheckAtLeast("extend_steps", s.extend_steps, 1)) return p;
  if (MaybeProblem p = CheckFiniteNonNegative("time_step", s.time_step, " [s]")) return p;
  if (MaybeProblem p = CheckPositive("penetration_tolerance", s.penetration_tolerance, " [m]"))
    return p;
  if (MaybeProblem p = CheckInRange("max_substeps", s.max_substeps, 1, kMaxPlanningSubsteps))
    return p;
  if (MaybeProblem p = CheckProbability("p_grasp", s.p_grasp)) return p;
  if (MaybeProblem p = CheckAtLeast("grasp_candidates", s.grasp_candidates, 1)) return p;
  if (MaybeProblem p = CheckAtLeast("settle_steps", s.settle_steps, 1)) return p;
  if (!(s.grasp_score_fraction > 0.0 && s.grasp_score_fraction <= 1.0))
    return PlanningSettingsWrong(
        "grasp_score_fraction",
        "must be in (0, 1] (got " + SettingText(s.grasp_score_fraction) + ")");
  if (MaybeProblem p = CheckAtLeast("limits.max_nodes", s.max_nodes, 1)) return p;
  if (MaybeProblem p = CheckPositive("limits.time_limit", s.time_limit, " [s]")) return p;
  if (MaybeProblem p = CheckInRange("extension_batch", s.extension_batch, 1, kMaxExtensionBatch))
    return p;
  if (s.goal_connection) {
    const GoalConnectionSettings& c = *s.goal_connection;
    if (MaybeProblem p = CheckPositive("goal_connection.radius", c.radius, "")) return p;
    if (MaybeProblem p = CheckAtLeast("goal_connection.horizon", c.horizon, 1)) return p;
    if (MaybeProblem p = CheckAtLeast("goal_connection.iterations", c.iterations, 1)) return p;
    if (MaybeProblem p = CheckAtLeast("goal_connection.interval", c.interval, 1)) return p;
  }
  if (s.plant_check) {
    const PlantCheckSettings& c = *s.plant_check;
    if (MaybeProblem p = CheckInRange("plant_check.substeps", c.substeps, 2, kMaxPlanningSubsteps))
      return p;
    if (!std::isfinite(c.tolerance))
      return PlanningSettingsWrong("plant_check.tolerance", "must be finite");
    if (MaybeProblem p = CheckPositive("plant_check.tolerance", c.tolerance, "")) return p;
  }
  return std::nullopt;
}

// A box of the objects' coordinates (the bounds, the object_region): 3 finite numbers per object
// on each side, lower <= upper; `block` names the field ("bounds", "object_region").
MaybeProblem CheckObjectBox(const std::string& block, const Eigen::VectorXd& lower,
                            const Eigen::VectorXd& upper, int objects, bool planar) {
  for (const auto& [field, bound] :
       {std::pair<std::string, const Eigen::VectorXd*>{block + ".lower", &lower},
        {block + ".upper", &upper}}) {
    if (bound->size() != 3 * objects)
      return PlanningSettingsWrong(
          field, "expected " + std::to_string(3 * objects) +
                     " numbers (3 per object: " + (planar ? "x, y, theta" : "x, y, z") + "), got " +
                     std::to_string(bound->size()));
    if (MaybeProblem p = CheckFiniteVector(field, *bound)) return p;
  }
  for (int i = 0; i < 3 * objects; ++i) {
    if (lower[i] > upper[i])
      return PlanningSettingsWrong(block, "lower[" + std::to_string(i) +
                                              "] = " + SettingText(lower[i]) + " > upper[" +
                                              std::to_string(i) + "] = " + SettingText(upper[i]));
  }
  return std::nullopt;
}

// Goal and bounds against the scene's objects.
MaybeProblem CheckGoalAndBounds(const PlanningSettings& s, const Scene& scene, bool complete) {
  const int objects = MovableObjectCount(scene);
  const bool has_bounds = s.lower.size() > 0 || s.upper.size() > 0;
  if (complete && !has_bounds)
    return PlanningSettingsWrong("bounds", "missing: the sampling region (lower, upper)");
  if (has_bounds) {
    if (MaybeProblem p = CheckObjectBox("bounds", s.lower, s.upper, objects, scene.planar))
      return p;
  }
  if (s.region_lower.size() > 0 || s.region_upper.size() > 0) {
    if (MaybeProblem p =
            CheckObjectBox("object_region", s.region_lower, s.region_upper, objects, scene.planar))
      return p;
  }
  if (s.rotation_axis) {
    if (scene.planar)
      return PlanningSettingsWrong("bounds.rotation_axis",
                                   "planar scenes rotate about z only; remove it");
    if (!s.rotation_axis->allFinite() || s.rotation_axis->norm() == 0.0)
      return PlanningSettingsWrong("bounds.rotation_axis", "must be a finite, non-zero vector");
  }
  if (s.goal.size() == 0) {
    if (complete) return PlanningSettingsWrong("goal", "missing: the objects' goal q_u");
    return std::nullopt;
  }
  if (s.goal.size() != scene.nq_u)
    return PlanningSettingsWrong("goal", "expected n_q,u = " + std::to_string(scene.nq_u) +
                                             " numbers (the objects' q), got " +
                                             std::to_string(s.goal.size()));
  if (MaybeProblem p = CheckFiniteVector("goal", s.goal)) return p;
  int object = 0;
  for (const ModelInstance& instance : scene.instances) {
    if (instance.actuated || instance.nq == 0) continue;
    const int q = instance.q_start;
    if (instance.nq == 7) {
      const double norm = s.goal.segment<4>(q + 3).norm();
      if (std::abs(norm - 1.0) > 1e-6)
        return PlanningSettingsWrong("goal", "the quaternion of object '" + instance.name +
                                                 "' (entries " + std::to_string(q + 3) + " to " +
                                                 std::to_string(q + 6) + ") has norm " +
                                                 SettingText(norm) + ", expected 1 within 1e-6");
    }
    // The goal's coordinates inside a box of the objects' coordinates (the region, the bounds).
    for (const auto& [name, lower, upper] :
         {std::tuple<const char*, const Eigen::VectorXd*, const Eigen::VectorXd*>{
              "object_region", &s.region_lower, &s.region_upper},
          {"bounds", &s.lower, &s.upper}}) {
      for (int k = 0; k < 3 && lower->size() > 0; ++k) {
        const double value = s.goal[q + k];
        const int b = 3 * object + k;
        if (value < (*lower)[b] || value > (*upper)[b])
          return PlanningSettingsWrong(
              "goal", "entry " + std::to_string(q + k) + " (object '" + instance.name +
                          "') = " + SettingText(value) + " lies outside the " + name + " [" +
                          SettingText((*lower)[b]) + ", " + SettingText((*upper)[b]) + "]");
      }
    }
    ++object;
  }
  return std::nullopt;
}

// The listed grasp anchors against the scene: each a robot body with collision geometry below a
// joint that moves it.
MaybeProblem CheckGraspAnchors(const PlanningSettings& s, const Scene& scene) {
  if (s.grasp_anchors != GraspAnchors::kListed) return std::nullopt;
  if (s.grasp_anchor_links.empty())
    return PlanningSettingsWrong("grasp_anchors", "the list of anchor links is empty");
  for (const std::string& name : s.grasp_anchor_links) {
    const int body = scene.BodyIndex(name);
    if (body <= 0 || !scene.instances[scene.bodies[body].instance].actuated)
      return PlanningSettingsWrong("grasp_anchors",
                                   "'" + name + "' is not a robot link (write robot/link)");
    bool shaped = false;
    for (const CollisionGeometry& g : scene.geometries) shaped |= g.body == body;
    if (!shaped)
      return PlanningSettingsWrong("grasp_anchors",
                                   "robot link '" + name + "' has no collision geometry");
    bool moved = false;
    for (int b = body; b > 0; b = scene.joints[scene.bodies[b].parent_joint].parent_body)
      moved |= scene.joints[scene.bodies[b].parent_joint].type != JointType::kFixed;
    if (!moved)
      return PlanningSettingsWrong("grasp_anchors",
                                   "robot link '" + name + "' is not moved by any joint");
  }
  return std::nullopt;
}

}  // namespace

const char* GraspAnchorsName(GraspAnchors anchors) {
  switch (anchors) {
    case GraspAnchors::kFingers:
      return "fingers";
    case GraspAnchors::kAllLinks:
      return "all_links";
    case GraspAnchors::kListed:
      return "listed";
  }
  return "?";
}

const char* GraspSelectionName(GraspSelection selection) {
  return selection == GraspSelection::kNearest ? "nearest" : "conditioning";
}

GraspSelection ParseGraspSelection(const std::string& name) {
  if (name == "nearest") return GraspSelection::kNearest;
  if (name == "conditioning") return GraspSelection::kConditioning;
  throw std::invalid_argument("unknown grasp selection '" + name + "' (nearest, conditioning)");
}

const char* ReachabilityMethodName(ReachabilityMethod method) {
  switch (method) {
    case ReachabilityMethod::kExact:
      return "exact";
    case ReachabilityMethod::kLogBarrier:
      return "log-barrier";
    case ReachabilityMethod::kRandomized:
      return "randomized";
  }
  return "?";
}

ReachabilityMethod ParseReachabilityMethod(const std::string& name) {
  for (ReachabilityMethod m : {ReachabilityMethod::kExact, ReachabilityMethod::kLogBarrier,
                               ReachabilityMethod::kRandomized})
    if (name == ReachabilityMethodName(m)) return m;
  throw std::invalid_argument("unknown metric '" + name + "' (exact, log-barrier, randomized)");
}

const char* NearestRuleName(NearestRule rule) {
  return rule == NearestRule::kReachability ? "reachability" : "euclidean";
}

NearestRule ParseNearestRule(const std::string& name) {
  if (name == "reachability") return NearestRule::kReachability;
  if (name == "euclidean") return NearestRule::kEuclidean;
  throw std::invalid_argument("unknown nearest-node rule '" + name + "' (reachability, euclidean)");
}

const char* RegraspExecutionName(RegraspExecution execution) {
  return execution == RegraspExecution::kReset ? "reset" : "physical";
}

RegraspExecution ParseRegraspExecution(const std::string& name) {
  if (name == "reset") return RegraspExecution::kReset;
  if (name == "physical") return RegraspExecution::kPhysical;
  throw std::invalid_argument("unknown regrasp execution '" + name + "' (reset, physical)");
}

int MovableObjectCount(const Scene& scene) {
  int count = 0;
  for (const ModelInstance& instance : scene.instances)
    if (!instance.actuated && instance.nq > 0) ++count;
  return count;
}

std::optional<PlanningSettingsProblem> CheckPlanningSettings(const PlanningSettings& settings,
                                                             const Scene& scene, bool complete) {
  if (MovableObjectCount(scene) == 0)
    return PlanningSettingsWrong(
        "objects", "the scene has no movable object (planar or floating) to plan for");
  if (scene.nq_a == 0)
    return PlanningSettingsWrong("robots", "the scene has no robot to move the objects with");
  for (const ModelInstance& instance : scene.instances) {
    if (instance.actuated) continue;
    for (const int j : instance.joints) {
      const Joint& joint = scene.joints[j];
      if (joint.type == JointType::kRevolute || joint.type == JointType::kPrismatic)
        return PlanningSettingsWrong(
            "objects", "object '" + instance.name + "' is articulated (" +
                           JointTypeName(joint.type) + " joint '" + joint.name +
                           "'); the planner samples planar and floating objects only");
    }
  }
  for (const ModelInstance& instance : scene.instances)
    if (!scene.planar && !instance.actuated && instance.nq == 3)
      return PlanningSettingsWrong(
          "objects", "object '" + instance.name +
                         "' has a planar joint in a 3D scene; the planner samples the "
                         "objects of 3D scenes as floating bodies (x, y, z and a "
                         "rotation) only");
  if (MaybeProblem p = CheckScalars(settings)) return p;
  if (MaybeProblem p = CheckGraspAnchors(settings, scene)) return p;
  return CheckGoalAndBounds(settings, scene, complete);
}

}  // namespace quasidyn
