#include "quasidyn/planning/contact_sampler.h"

#include <algorithm>

#include "quasidyn/common/argument_check.h"
#include "quasidyn/formulations/registry.h"
#include "quasidyn/kinematics/inverse_kinematics.h"
#include "quasidyn/planning/shape_sampling.h"

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
  std::vector<bool> has_shape(s.bodies.size(), false),
      has_shaped_descendant(s.bodies.size(), false);
  for (const CollisionGeometry& g : s.geometries) has_shape[g.body] = true;
  for (int b = 1; b < static_cast<int>(s.bodies.size()); ++b) {
    if (!has_shape[b]) continue;
    for (int parent = s.joints[s.bodies[b].parent_joint].parent_body; parent > 0;
         parent = s.joints[s.bodies[parent].parent_joint].parent_body)
      has_shaped_descendant[parent] = true;
  }
  for (int b = 1; b < static_cast<int>(s.bodies.size()); ++b) {
    const int instance = s.bodies[b].instance;
    if (!has_shape[b] || has_shaped_descendant[b] || !s.instances[instance].actuated) continue;
    Finger finger;
    finger.body = b;
    finger.instance = instance;
    for (int g = 0; g < static_cast<int>(s.geometries.size()); ++g)
      if (s.geometries[g].body == b) finger.geometries.push_back(g);
    fingers_.push_back(finger);
  }
  for (int g = 0; g < static_cast<int>(s.geometries.size()); ++g) {
    const int body = s.geometries[g].body;
    if (body == 0) continue;
    const ModelInstance& instance = s.instances[s.bodies[body].instance];
    if (!instance.actuated && instance.nq > 0) object_geometries_.push_back(g);
  }
  QUASIDYN_CHECK_ARGUMENT(!fingers_.empty(), "ContactSampler",
                          "scene '" + s.name + "' has no robot body with collision geometry");
  QUASIDYN_CHECK_ARGUMENT(!object_geometries_.empty(), "ContactSampler",
                          "scene '" + s.name + "' has no movable object with collision geometry");
}

bool ContactSampler::PlaceFinger(const Finger& finger, Eigen::VectorXd* q,
                                 Xoshiro256StarStar* generator) {
  const Scene& s = *scene_;
  const CollisionGeometry& object =
      s.geometries[object_geometries_[UniformIndex(generator, object_geometries_.size())]];
  const SurfacePoint surface = SampleSurfacePoint(object.shape, s.planar, generator);
  const CollisionGeometry& own =
      s.geometries[finger.geometries[UniformIndex(generator, finger.geometries.size())]];
  const RobotAnchor anchor = SampleRobotAnchor(own.shape, s.planar, generator);

  kinematics_.Update(*q);
  const Eigen::Isometry3d X_WS = kinematics_.BodyPose(object.body) * object.X_BS;
  InverseKinematicsTarget target;
  target.body = finger.body;
  target.point_B = own.X_BS * anchor.anchor;
  target.position_W = X_WS * surface.point + anchor.offset * (X_WS.linear() * surface.normal);
  InverseKinematicsSettings ik;
  ik.tolerance = 0.1 * kPlacementTolerance;
  ik.max_iterations = 100;
  const InverseKinematicsResult result = SolveInverseKinematics(s, finger.instance, target, *q, ik);
  if (result.position_error > kPlacementTolerance) return false;
  *q = result.q;
  return true;
}

bool ContactSampler::Settled(const Eigen::VectorXd& q) {
  const Scene& s = *scene_;
  kinematics_.Update(q);
  if (!geometry_.Query(kinematics_.BodyPoses(), 0.0, &geometry_data_)) return false;
  for (const ContactCandidate& c : geometry_data_.candidates()) {
    // The planner's own tolerance when it is stricter (rrt.h: no path overlaps deeper).
    if (c.point.phi >= -std::min(kSettledPenetration, settings_.penetration_tolerance)) continue;
    for (int g : {c.geometry_a, c.geometry_b}) {
      const int body = s.geometries[g].body;
      if (body > 0 && s.instances[s.bodies[body].instance].actuated) return false;
    }
  }
  return true;
}

std::vector<Eigen::VectorXd> ContactSampler::Sample(const Eigen::VectorXd& q,
                                                    Xoshiro256StarStar* generator) {
  const Scene& s = *scene_;
  CheckVector("ContactSampler::Sample", "q", q, s.nq, "n_q");
  const int nq_u = s.nq_u;
  std::vector<StepPoint> points;
  std::vector<Eigen::VectorXd> targets;  // each candidate's IK configuration of the robots
  for (int k = 0; k < settings_.grasp_candidates; ++k) {
    std::vector<bool> moves(fingers_.size());
    bool any = false;
    for (size_t f = 0; f < fingers_.size(); ++f) any |= (moves[f] = generator->NextUniform() < 0.5);
    if (!any) moves[UniformIndex(generator, fingers_.size())] = true;
    Eigen::VectorXd candidate = q;
    bool placed = false;
    for (size_t f = 0; f < fingers_.size(); ++f) {
      if (!moves[f]) continue;
      for (int attempt = 0; attempt < kPlacementAttempts; ++attempt) {
        if (PlaceFinger(fingers_[f], &candidate, generator)) {
          placed = true;
          break;
        }
      }
    }
    if (!placed) continue;
    StepPoint point;
    point.x.q = candidate;
    targets.push_back(candidate.tail(s.nq_a));
    points.push_back(std::move(point));
  }
  std::vector<bool> alive(points.size(), true);
  for (int step = 0; step < settings_.settle_steps; ++step) {
    // The command toward the IK configuration (the configuration itself for a position command).
    for (size_t k = 0; k < points.size(); ++k)
      points[k].u = held_.model().CommandToward(points[k].x, targets[k]);
    const std::vector<StepEvaluation> results = held_.Run(points, GradientMode::kNone);
    for (size_t k = 0; k < points.size(); ++k) {
      if (!alive[k]) continue;
      if (!results[k].result.ok()) {
        alive[k] = false;
        continue;
      }
      points[k].x.q = results[k].result.next.q;
      points[k].x.q.head(nq_u) = q.head(nq_u);  // the objects are held
    }
  }
  std::vector<Eigen::VectorXd> out;
  for (size_t k = 0; k < points.size(); ++k)
    if (alive[k] && Settled(points[k].x.q)) out.push_back(points[k].x.q);
  return out;
}

}  // namespace quasidyn
