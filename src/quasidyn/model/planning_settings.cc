#include "quasidyn/model/planning_settings.h"

#include <algorithm>
#include <cmath>
#include <sstream>
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

MaybeProblem CheckFiniteVector(const std::string& field, const Eigen::VectorXd& x) {
  for (Eigen::Index i = 0; i < x.size(); ++i) {
    if (!std::isfinite(x[i]))
      return PlanningSettingsWrong(
          field, "entry " + std::to_string(i) + " is not finite (" + SettingText(x[i]) + ")");
  }
  return std::nullopt;
}

// Every setting in its declared range, and what the ranges alone cannot say.
MaybeProblem CheckScalars(const PlanningSettings& s) {
  if (MaybeProblem p = CheckSettingsBlock(PlanningSettingsSchema(), s)) return p;
  if (!(s.position_weight + s.rotation_weight > 0))
    return PlanningSettingsWrong("goal_weights",
                                 "position and rotation weights are both 0: no goal distance");
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
          field, "expected " + std::to_string(3 * objects) + " numbers (3 per object: " +
                     (planar ? "x, y, theta" : "x, y, z; an object on ghost links: its joints'") +
                     "), got " + std::to_string(bound->size()));
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

const char* NearestRuleName(NearestRule rule) {
  return rule == NearestRule::kReachability ? "reachability" : "euclidean";
}

const char* RegraspExecutionName(RegraspExecution execution) {
  return execution == RegraspExecution::kReset ? "reset" : "physical";
}

const SettingsSchema<PlanningSettings>& PlanningSettingsSchema() {
  static const SettingsSchema<PlanningSettings>* const schema = [] {
    using P = PlanningSettings;
    using C = GoalConnectionSettings;
    using K = PlantCheckSettings;
    auto* s = new SettingsSchema<P>(
        "planning",
        "RRT through contact with the reachability metric and contact sampling (Pang, Suh, Yang "
        "& Tedrake, T-RO 2023; docs/planning.md)");
    const char* per_object =
        "3 per movable object: x, y, z [m] in 3D; x, y [m] and θ [rad] planar or on ghost links";
    s->Field("goal", &P::goal)
        .Unit("m, rad")
        .Doc(
            "the objects' goal q_u (n_q,u numbers: x, y, θ per planar object; x, y, z and a unit "
            "quaternion w, x, y, z per floating one)");
    s->Number("goal_tolerance", &P::goal_tolerance)
        .Within(kSettingLengthRange)
        .Doc("the search stops at a node whose goal distance D is at most this");
    s->Number("goal_weights.position", &P::position_weight)
        .Name("position_weight")
        .Unit("1/m")
        .AtLeast(0)
        .Doc("w_p, the weight of the positions in D (w_p + w_r > 0)");
    s->Number("goal_weights.rotation", &P::rotation_weight)
        .Name("rotation_weight")
        .Unit("1/rad")
        .AtLeast(0)
        .Doc("w_r, the weight of the rotation angles in D");
    s->Number("goal_bias", &P::goal_bias)
        .AtLeast(0)
        .AtMost(1)
        .Doc("the probability that a sample is the goal itself");
    s->Field("bounds.lower", &P::lower)
        .Name("lower")
        .Doc(std::string("the sampling region's lower corner, ") + per_object);
    s->Field("bounds.upper", &P::upper)
        .Name("upper")
        .Doc(std::string("the sampling region's upper corner, ") + per_object);
    s->Custom(
         "bounds.rotation_axis", SettingKind::kNumbers,
         [](const P& p) {
           return p.rotation_axis ? SettingValue(std::vector<double>(p.rotation_axis->data(),
                                                                     p.rotation_axis->data() + 3))
                                  : SettingValue(std::vector<double>());
         },
         [](const SettingValue& v, P* p) {
           const std::vector<double>& x = std::get<std::vector<double>>(v);
           if (x.empty())
             p->rotation_axis.reset();
           else
             p->rotation_axis = Eigen::Vector3d(x[0], x[1], x[2]);
         })
        .Name("rotation_axis")
        .Size(3)
        .Doc(
            "3D: sample rotations about this axis (world frame) from the objects' initial "
            "orientation; absent: uniform on SO(3)");
    s->Field("object_region.lower", &P::region_lower)
        .Doc(std::string("where the objects may go, lower corner (absent: anywhere), ") +
             per_object);
    s->Field("object_region.upper", &P::region_upper).Doc("where the objects may go, upper corner");
    s->Choice("metric.type", &P::method,
              {ReachabilityMethod::kExact, ReachabilityMethod::kLogBarrier,
               ReachabilityMethod::kRandomized},
              ReachabilityMethodName)
        .Name("metric")
        .Noun("metric")
        .Doc("the linearisation of the reachability metric at a node");
    s->Number("metric.kappa", &P::kappa)
        .Name("kappa")
        .Unit("1/(N·m)")
        .Within(kKappaRange)
        .Doc("κ, the log-barrier weight of the metric's linearisations (metric log-barrier)");
    s->Integer("metric.samples", &P::samples)
        .Name("samples")
        .AtLeast(1)
        .Doc("randomized-smoothing samples per linearisation (metric randomized)");
    s->Number("metric.std", &P::sample_std)
        .Name("std")
        .Unit("m or rad")
        .Within(kSettingLengthRange)
        .Doc("σ_u, the samples' standard deviation on u (metric randomized)");
    s->Number("metric.regularization", &P::regularization)
        .Name("regularization")
        .Unit("(m or rad)²")
        .Within(kSettingWeightRange)
        .Doc("λ of the metric's (B Bᵀ + λ I)⁻¹");
    s->Choice("nearest", &P::nearest, {NearestRule::kReachability, NearestRule::kEuclidean},
              NearestRuleName)
        .Noun("nearest-node rule")
        .Doc(
            "the node an extension starts from: nearest by the metric, or in the objects' "
            "tangent space (the talk's ablation)");
    s->Number("step_size", &P::step_size)
        .Unit("m or rad")
        .Within(kSettingLengthRange)
        .Doc("the robots' largest displacement over one extension");
    s->Integer("extend_steps", &P::extend_steps)
        .AtLeast(1)
        .Doc("steps of the exact stepper per extension");
    s->Number("time_step", &P::time_step)
        .Name("h")
        .Unit("s")
        .AtLeast(0)
        .Doc("h of the planner's steps; 0: the scene's time_step");
    s->Number("penetration_tolerance", &P::penetration_tolerance)
        .Unit("m")
        .Within(kSettingLengthRange)
        .MayBeInfinite()
        .Doc("the deepest overlap of two shapes a plan may keep (∞: not checked)");
    s->Integer("max_substeps", &P::max_substeps)
        .AtLeast(1)
        .AtMost(kMaxPlanningSubsteps)
        .Doc("substeps of an extension's step that overlaps too deeply (1: none)");
    s->Integer("extension_substeps", &P::extension_substeps)
        .AtLeast(1)
        .AtMost(kMaxPlanningSubsteps)
        .Doc(
            "substeps n of h/n every extension step is taken as, the command ramped and the "
            "objects' mass scale s/n: the same quasi-dynamic motion, finer (1: the step of h)");
    s->Number("p_grasp", &P::p_grasp)
        .AtLeast(0)
        .AtMost(1)
        .Doc("the probability that an iteration re-grasps instead of extending");
    s->Integer("grasp_candidates", &P::grasp_candidates)
        .AtLeast(1)
        .Doc("robot configurations in contact tried per regrasp");
    s->Integer("settle_steps", &P::settle_steps)
        .AtLeast(1)
        .Doc("steps that settle a candidate with the objects held");
    s->Choice("regrasp", &P::regrasp, {RegraspExecution::kReset, RegraspExecution::kPhysical},
              RegraspExecutionName)
        .Noun("regrasp execution")
        .Doc("a regrasp jumps the robots (reset) or is a motion the plant can execute (physical)");
    s->Custom(
         "grasp_anchors", SettingKind::kNames,
         [](const P& p) {
           return p.grasp_anchors == GraspAnchors::kListed
                      ? SettingValue(p.grasp_anchor_links)
                      : SettingValue(std::vector<std::string>{GraspAnchorsName(p.grasp_anchors)});
         },
         [](const SettingValue& v, P* p) {
           const std::vector<std::string>& names = std::get<std::vector<std::string>>(v);
           p->grasp_anchor_links.clear();
           if (names.size() == 1 && names[0] == GraspAnchorsName(GraspAnchors::kFingers)) {
             p->grasp_anchors = GraspAnchors::kFingers;
           } else if (names.size() == 1 && names[0] == GraspAnchorsName(GraspAnchors::kAllLinks)) {
             p->grasp_anchors = GraspAnchors::kAllLinks;
           } else {
             p->grasp_anchors = GraspAnchors::kListed;
             p->grasp_anchor_links = names;
           }
         })
        .Choices(
            {GraspAnchorsName(GraspAnchors::kFingers), GraspAnchorsName(GraspAnchors::kAllLinks)})
        .Noun("robot/link")
        .Doc(
            "the links contact sampling puts onto an object: the fingers, every moved link with "
            "geometry, or the listed robot/link names");
    s->Choice("grasp_selection", &P::grasp_selection,
              {GraspSelection::kNearest, GraspSelection::kConditioning}, GraspSelectionName)
        .Noun("grasp selection")
        .Doc(
            "the candidate a regrasp takes: nearest by the metric, or the same among the "
            "well-conditioned ones");
    s->Number("grasp_score_fraction", &P::grasp_score_fraction)
        .Above(0)
        .AtMost(1)
        .Doc(
            "conditioning: candidates scoring below this fraction of the best are passed over "
            "(not stated in the papers)");
    s->Integer("extension_batch", &P::extension_batch)
        .AtLeast(1)
        .AtMost(kMaxExtensionBatch)
        .Doc("samples extended side by side per round (1: the planner of the papers)");
    s->Integer("limits.max_nodes", &P::max_nodes)
        .Name("max_nodes")
        .AtLeast(1)
        .Doc("the search stops at this many tree nodes");
    s->Number("limits.time_limit", &P::time_limit)
        .Name("time_limit")
        .Unit("s")
        .Within(kSettingTimeLimitRange)
        .MayBeInfinite()
        .Doc("the search stops after this much wall time");
    s->Integer("seed", &P::seed).AtLeast(0).Doc("the same seed gives the same tree");
    s->Section("goal_connection", &P::goal_connection,
               "the nearest node asks the trajectory optimiser for a way to the goal "
               "(docs/planning.md, \"Goal connection\")");
    s->Field("goal_connection.radius", &P::goal_connection, &C::radius)
        .Within(kSettingLengthRange)
        .MayBeInfinite()
        .Doc("a node with D at most this asks for a connection");
    s->Field("goal_connection.horizon", &P::goal_connection, &C::horizon)
        .AtLeast(1)
        .Doc("commands (steps of the planner's h) per connection");
    s->Field("goal_connection.iterations", &P::goal_connection, &C::iterations)
        .AtLeast(1)
        .Doc("the optimiser's iterations per connection");
    s->Field("goal_connection.interval", &P::goal_connection, &C::interval)
        .AtLeast(1)
        .Doc("new nodes between two attempts");
    s->Field("goal_connection.trust_region_min", &P::goal_connection, &C::trust_region_min)
        .Unit("m or rad")
        .Within(kSettingLengthRange)
        .Doc("an attempt stops when the optimiser's trust region falls below this");
    s->Field("goal_connection.kappa_start", &P::goal_connection, &C::kappa_start)
        .Unit("1/(N·m)")
        .Within(kKappaRange)
        .Doc("the optimiser's log-barrier weight κ_0 at an attempt's first iteration");
    s->Field("goal_connection.regrasp_when_stalled", &P::goal_connection, &C::regrasp_when_stalled)
        .Doc("a stalled connection is retried from a new grasp");
    s->Section("plant_check", &P::plant_check,
               "an extension is kept only if a plant of step h/k ends near it (docs/planning.md, "
               "\"Plans a plant of another time step executes\")");
    s->Field("plant_check.substeps", &P::plant_check, &K::substeps)
        .AtLeast(2)
        .AtMost(kMaxPlanningSubsteps)
        .Doc("k, the plant's steps per step of h");
    s->Field("plant_check.tolerance", &P::plant_check, &K::tolerance)
        .Within(kSettingLengthRange)
        .Doc("the largest D between the plant's end and the planner's");
    return s;
  }();
  return *schema;
}

int MovableObjectCount(const Scene& scene) {
  int count = 0;
  for (const ModelInstance& instance : scene.instances)
    if (!instance.actuated && instance.nq > 0) ++count;
  return count;
}

bool OnPlanarGhostLinks(const Scene& scene, const ModelInstance& instance) {
  if (instance.actuated || instance.nq != 3) return false;
  std::vector<const Joint*> moving;
  for (const int j : instance.joints)
    if (scene.joints[j].type != JointType::kFixed) moving.push_back(&scene.joints[j]);
  if (moving.size() != 3) return false;
  std::sort(moving.begin(), moving.end(),
            [](const Joint* a, const Joint* b) { return a->q_start < b->q_start; });
  return moving[0]->type == JointType::kPrismatic && moving[1]->type == JointType::kPrismatic &&
         moving[2]->type == JointType::kRevolute;
}

std::optional<PlanningSettingsProblem> CheckPlanningSettings(const PlanningSettings& settings,
                                                             const Scene& scene, bool complete) {
  if (MovableObjectCount(scene) == 0)
    return PlanningSettingsWrong(
        "objects", "the scene has no movable object (planar or floating) to plan for");
  if (scene.nq_a == 0)
    return PlanningSettingsWrong("robots", "the scene has no robot to move the objects with");
  for (const ModelInstance& instance : scene.instances) {
    if (instance.actuated || OnPlanarGhostLinks(scene, instance)) continue;
    for (const int j : instance.joints) {
      const Joint& joint = scene.joints[j];
      if (joint.type == JointType::kRevolute || joint.type == JointType::kPrismatic)
        return PlanningSettingsWrong(
            "objects", "object '" + instance.name + "' is articulated (" +
                           JointTypeName(joint.type) + " joint '" + joint.name +
                           "'); the planner samples planar and floating objects and "
                           "objects on planar ghost links (two prismatic joints, then a "
                           "revolute one) only");
    }
  }
  for (const ModelInstance& instance : scene.instances)
    if (!scene.planar && !instance.actuated && instance.nq == 3 &&
        !OnPlanarGhostLinks(scene, instance))
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
