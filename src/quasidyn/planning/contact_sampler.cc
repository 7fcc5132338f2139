#include "quasidyn/planning/contact_sampler.h"

#include <algorithm>
#include <limits>

#include "quasidyn/common/argument_check.h"
#include "quasidyn/formulations/registry.h"
#include "quasidyn/kinematics/inverse_kinematics.h"
#include "quasidyn/planning/shape_sampling.h"
#include "quasidyn/stepping/body_motion.h"

namespace quasidyn {
namespace {

// IK accepted when the anchor is within this distance of its target [m].
constexpr double kPlacementTolerance = 1e-3;
// Surface points a finger tries before it keeps its joints (points out of its reach fail IK).
constexpr int kPlacementAttempts = 3;

// The planner's model with the objects held: object_mass_scale s raised to
// kHeldObjectMassScale · max(s, 1) for a formulation that takes it; the planner's model itself
// otherwise (the settling puts the objects back after every step in any case).
std::shared_ptr<const StepModel> HeldModel(const StepModel& model) {
  const ParameterValue* scale = model.parameters().Find("object_mass_scale");
  FormulationChoice held = ChoiceOf(model);
  if (scale == nullptr) return MakeStepModel(model.scene_ptr(), held);
  held.parameters.Set("object_mass_scale",
                      kHeldObjectMassScale * std::max(scale->value(0, 0), 1.0));
  return MakeStepModel(model.scene_ptr(), held);
}

int UniformIndex(Xoshiro256StarStar* g, size_t count) {
  return std::min(static_cast<int>(g->NextUniform() * static_cast<double>(count)),
                  static_cast<int>(count) - 1);
}

// True when a joint between the world and `body` moves it.
bool MovedByAJoint(const Scene& s, int body) {
  for (int b = body; b > 0; b = s.joints[s.bodies[b].parent_joint].parent_body)
    if (s.joints[s.bodies[b].parent_joint].type != JointType::kFixed) return true;
  return false;
}

// The anchor links' bodies, in body order (contact_sampler.h, step 1).
std::vector<int> AnchorBodies(const Scene& s, const PlanningSettings& settings) {
  std::vector<bool> has_shape(s.bodies.size(), false),
      has_shaped_descendant(s.bodies.size(), false);
  for (const CollisionGeometry& g : s.geometries) has_shape[g.body] = true;
  for (int b = 1; b < static_cast<int>(s.bodies.size()); ++b) {
    if (!has_shape[b]) continue;
    for (int parent = s.joints[s.bodies[b].parent_joint].parent_body; parent > 0;
         parent = s.joints[s.bodies[parent].parent_joint].parent_body)
      has_shaped_descendant[parent] = true;
  }
  std::vector<int> bodies;
  for (int b = 1; b < static_cast<int>(s.bodies.size()); ++b) {
    if (!has_shape[b] || !s.instances[s.bodies[b].instance].actuated) continue;
    switch (settings.grasp_anchors) {
      case GraspAnchors::kFingers:
        if (!has_shaped_descendant[b]) bodies.push_back(b);
        break;
      case GraspAnchors::kAllLinks:
        if (MovedByAJoint(s, b)) bodies.push_back(b);
        break;
      case GraspAnchors::kListed: {
        const auto& listed = settings.grasp_anchor_links;
        if (std::find(listed.begin(), listed.end(), s.bodies[b].name) != listed.end()) {
          QUASIDYN_CHECK_ARGUMENT(
              MovedByAJoint(s, b), "ContactSampler",
              "grasp anchor '" + s.bodies[b].name + "' is not moved by any joint");
          bodies.push_back(b);
        }
        break;
      }
    }
  }
  if (settings.grasp_anchors == GraspAnchors::kListed) {
    for (const std::string& name : settings.grasp_anchor_links) {
      const int body = s.BodyIndex(name);
      QUASIDYN_CHECK_ARGUMENT(
          std::find(bodies.begin(), bodies.end(), body) != bodies.end(), "ContactSampler",
          "grasp anchor '" + name + "' is not a robot link with collision geometry");
    }
  }
  return bodies;
}

}  // namespace

ContactSampler::ContactSampler(const StepModel& model, const ObjectSpace& space,
                               const PlanningSettings& settings, int threads)
    : scene_(model.scene_ptr()),
      space_(&space),
      settings_(settings),
      kinematics_(scene_),
      geometry_(scene_),
      geometry_data_(geometry_.CreateData()),
      held_(HeldModel(model), threads) {
  const Scene& s = *scene_;
  std::vector<int> robot_of_instance(s.instances.size(), -1);
  for (const int b : AnchorBodies(s, settings)) {
    Anchor anchor;
    anchor.body = b;
    anchor.instance = s.bodies[b].instance;
    for (int g = 0; g < static_cast<int>(s.geometries.size()); ++g)
      if (s.geometries[g].body == b) anchor.geometries.push_back(g);
    int& robot = robot_of_instance[anchor.instance];
    if (robot < 0) {
      robot = static_cast<int>(robot_anchors_.size());
      robot_anchors_.emplace_back();
    }
    robot_anchors_[robot].push_back(static_cast<int>(anchors_.size()));
    anchors_.push_back(anchor);
  }
  for (int g = 0; g < static_cast<int>(s.geometries.size()); ++g) {
    const int body = s.geometries[g].body;
    if (body == 0) continue;
    const ModelInstance& instance = s.instances[s.bodies[body].instance];
    if (!instance.actuated && instance.nq > 0) object_geometries_.push_back(g);
  }
  QUASIDYN_CHECK_ARGUMENT(!anchors_.empty(), "ContactSampler",
                          "scene '" + s.name + "' has no robot body with collision geometry");
  QUASIDYN_CHECK_ARGUMENT(!object_geometries_.empty(), "ContactSampler",
                          "scene '" + s.name + "' has no movable object with collision geometry");
}

bool ContactSampler::PlaceAnchor(const Anchor& link, bool limit_depth, Eigen::VectorXd* q,
                                 Xoshiro256StarStar* generator) {
  const Scene& s = *scene_;
  const CollisionGeometry& object =
      s.geometries[object_geometries_[UniformIndex(generator, object_geometries_.size())]];
  const SurfacePoint surface = SampleSurfacePoint(object.shape, s.planar, generator);
  const CollisionGeometry& own =
      s.geometries[link.geometries[UniformIndex(generator, link.geometries.size())]];
  const RobotAnchor anchor = SampleRobotAnchor(own.shape, s.planar, generator);

  kinematics_.Update(*q);
  const Eigen::Isometry3d X_WS = kinematics_.BodyPose(object.body) * object.X_BS;
  InverseKinematicsTarget target;
  target.body = link.body;
  target.point_B = own.X_BS * anchor.anchor;
  target.position_W = X_WS * surface.point + anchor.offset * (X_WS.linear() * surface.normal);
  InverseKinematicsSettings ik;
  ik.tolerance = 0.1 * kPlacementTolerance;
  ik.max_iterations = 100;
  const InverseKinematicsResult result = SolveInverseKinematics(s, link.instance, target, *q, ik);
  if (result.position_error > kPlacementTolerance) return false;
  if (limit_depth && RobotDepth(result.q) > ShapeBoundingRadius(own.shape)) return false;
  *q = result.q;
  return true;
}

double ContactSampler::RobotDepth(const Eigen::VectorXd& q) {
  const Scene& s = *scene_;
  kinematics_.Update(q);
  if (!geometry_.Query(kinematics_.BodyPoses(), 0.0, &geometry_data_))
    return std::numeric_limits<double>::infinity();
  double depth = 0.0;
  for (const ContactCandidate& c : geometry_data_.candidates()) {
    if (-c.point.phi <= depth) continue;
    for (int g : {c.geometry_a, c.geometry_b}) {
      const int body = s.geometries[g].body;
      if (body > 0 && s.instances[s.bodies[body].instance].actuated) depth = -c.point.phi;
    }
  }
  return depth;
}

bool ContactSampler::PlaceFingers(Eigen::VectorXd* q, Xoshiro256StarStar* generator) {
  std::vector<bool> moves(anchors_.size());
  bool any = false;
  for (size_t f = 0; f < anchors_.size(); ++f) any |= (moves[f] = generator->NextUniform() < 0.5);
  if (!any) moves[UniformIndex(generator, anchors_.size())] = true;
  bool placed = false;
  for (size_t f = 0; f < anchors_.size(); ++f) {
    if (!moves[f]) continue;
    for (int attempt = 0; attempt < kPlacementAttempts; ++attempt) {
      if (PlaceAnchor(anchors_[f], /*limit_depth=*/false, q, generator)) {
        placed = true;
        break;
      }
    }
  }
  return placed;
}

bool ContactSampler::PlaceOnePerRobot(Eigen::VectorXd* q, Xoshiro256StarStar* generator) {
  std::vector<bool> moves(robot_anchors_.size());
  bool any = false;
  for (size_t r = 0; r < robot_anchors_.size(); ++r)
    any |= (moves[r] = generator->NextUniform() < 0.5);
  if (!any) moves[UniformIndex(generator, robot_anchors_.size())] = true;
  bool placed = false;
  for (size_t r = 0; r < robot_anchors_.size(); ++r) {
    if (!moves[r]) continue;
    const std::vector<int>& links = robot_anchors_[r];
    for (int attempt = 0; attempt < kPlacementAttempts; ++attempt) {
      const Anchor& anchor = anchors_[links[UniformIndex(generator, links.size())]];
      if (PlaceAnchor(anchor, /*limit_depth=*/true, q, generator)) {
        placed = true;
        break;
      }
    }
  }
  return placed;
}

bool ContactSampler::Settled(const Eigen::VectorXd& q) {
  // The planner's own tolerance when it is stricter (rrt.h: no path overlaps deeper).
  return RobotDepth(q) <= std::min(kSettledPenetration, settings_.penetration_tolerance);
}

std::vector<Eigen::VectorXd> ContactSampler::Sample(const Eigen::VectorXd& q,
                                                    Xoshiro256StarStar* generator) {
  const Scene& s = *scene_;
  CheckVector("ContactSampler::Sample", "q", q, s.nq, "n_q");
  const int nq_u = s.nq_u;
  std::vector<StepPoint> points;
  std::vector<Eigen::VectorXd> targets;  // each candidate's IK configuration of the robots
  for (int k = 0; k < settings_.grasp_candidates; ++k) {
    Eigen::VectorXd candidate = q;
    const bool placed = settings_.grasp_anchors == GraspAnchors::kFingers
                            ? PlaceFingers(&candidate, generator)
                            : PlaceOnePerRobot(&candidate, generator);
    if (!placed) continue;
    StepPoint point;
    point.x.q = candidate;
    targets.push_back(candidate.tail(s.nq_a));
    points.push_back(std::move(point));
  }
  // Per-robot anchors: each candidate is stepped until it is settled (at most settle_steps
  // steps). Fingers: every candidate takes all settle_steps steps, as before whole-arm anchors
  // (the planar and hand scenes' trees unchanged). The steps of those still settling run as one
  // batch.
  const bool stop_when_settled = settings_.grasp_anchors != GraspAnchors::kFingers;
  std::vector<bool> alive(points.size(), true), settled(points.size(), false);
  for (int step = 0; step <= settings_.settle_steps; ++step) {
    std::vector<int> settling;
    for (size_t k = 0; k < points.size(); ++k) {
      if (!alive[k] || settled[k]) continue;
      if (stop_when_settled || step == settings_.settle_steps) settled[k] = Settled(points[k].x.q);
      if (!settled[k]) settling.push_back(static_cast<int>(k));
    }
    if (settling.empty() || step == settings_.settle_steps) break;
    // The command toward the IK configuration (the configuration itself for a position command).
    std::vector<StepPoint> batch;
    for (const int k : settling) {
      points[k].u = held_.model().CommandToward(points[k].x, targets[k]);
      batch.push_back(points[k]);
    }
    const std::vector<StepEvaluation> results = held_.Run(batch, GradientMode::kNone);
    for (size_t i = 0; i < settling.size(); ++i) {
      const int k = settling[i];
      if (!results[i].result.ok()) {
        alive[k] = false;
        continue;
      }
      points[k].x.q = results[i].result.next.q;
      points[k].x.q.head(nq_u) = q.head(nq_u);  // the objects are held
    }
  }
  std::vector<Eigen::VectorXd> out;
  for (size_t k = 0; k < points.size(); ++k)
    if (alive[k] && settled[k]) out.push_back(points[k].x.q);
  return out;
}

}  // namespace quasidyn
