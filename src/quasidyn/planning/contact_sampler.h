#pragma once
// Contact sampling for RRT through contact (the talk's "contact sampling": the robots are
// occasionally reset to a configuration in contact with the objects, typically a grasp). Generic
// over scenes: nothing is written per scene.
//
// A candidate from a configuration q keeps q's objects and moves some of the robots:
//   1. Anchor links (PlanningSettings::grasp_anchors): the fingers, the robot bodies that carry
//      collision geometry and have no descendant body that does (fingertips, a pusher's tip;
//      the default); every robot link with collision geometry that a joint moves (all_links:
//      whole-arm contact, a forearm or an upper arm against a big box); or the links listed.
//      With fingers, each finger moves with probability ½ (at least one does). Otherwise each
//      robot moves with probability ½ (at least one does) and places one of its anchor links,
//      drawn uniformly: one IK per robot, so no two placements fight over the same joints.
//   2. For a placed link: a uniformly random surface point p (outward normal n) of a random
//      shape of a random movable object (shape_sampling.h), and a random anchor of a random
//      shape of the link (its core point for spheres and capsules); damped-least-squares
//      inverse kinematics (kinematics/inverse_kinematics.h) on the joints between the robot's
//      base and that link moves the anchor to p + offset · n. A placement whose IK does not
//      converge to within 1 mm (a point out of reach) is drawn again (another point; in the
//      per-robot mode another link too), up to 3 in all, then the joints are kept. Fingers are
//      solved one after the other: on joints two fingers share (an arm carrying two fingers)
//      the later one wins. In the per-robot mode a placement whose IK configuration leaves a
//      robot shape deeper in anything than the bounding radius of the placed shape (an upper
//      arm through the box, a hand through the table) counts as failed too: such candidates
//      mostly fail to settle (bimanual_box, docs/planning.md), and their failing settling
//      steps cost the most.
//   3. Settling: up to `settle_steps` steps of the planner's exact stepper with the objects held
//      where they are, commanded to the IK configuration, resolve what the IK left in
//      penetration (links through the object, the ground, each other). In the per-robot mode a
//      candidate leaves the settling as soon as it is settled (below), before any step when the
//      IK left it so; with fingers every candidate takes all settle_steps steps. The
//      objects are held by a large mass scale of the quasi-dynamic regularisation (s = 1e4 ·,
//      dynamics/quasi_dynamic_cost.h: they move ~1e-4 of the penetration per step) and their
//      coordinates are reset after each step.
// Candidates whose IK moved nothing, whose settling step failed, or where a robot shape still
// penetrates anything (an object, the environment, a robot) by more than kSettledPenetration
// after settling (a link caught between an object and the table, say) are dropped. The settling
// steps of all candidates run as one batch (stepping/batch_step.h): the candidates are bitwise
// the same for every thread count; the draws come from the caller's generator.

#include <Eigen/Core>
#include <memory>
#include <vector>

#include "quasidyn/geometry/geometry_model.h"
#include "quasidyn/gradients/randomized_smoothing_sampler.h"
#include "quasidyn/kinematics/kinematics.h"
#include "quasidyn/model/planning_settings.h"
#include "quasidyn/planning/object_space.h"
#include "quasidyn/stepping/batch_step.h"
#include "quasidyn/stepping/step_model.h"

namespace quasidyn {

// The objects' quasi-dynamic mass scale while they are held during settling [-].
inline constexpr double kHeldObjectMassScale = 1e4;
// The deepest penetration of a robot shape a settled candidate may keep [m]: the first-order
// contact constraints of a step leave second-order penetrations, far below a millimetre.
inline constexpr double kSettledPenetration = 1e-3;

class ContactSampler {
 public:
  // `model`: the planner's model (the settling holds the objects with kHeldObjectMassScale when
  // its formulation takes object_mass_scale, and puts them back after every step). Throws
  // std::invalid_argument when the scene has no anchor link (no robot body with collision
  // geometry; a listed name that is not a moving robot link with geometry) or no object shape
  // to touch.
  ContactSampler(const StepModel& model, const ObjectSpace& space, const PlanningSettings& settings,
                 int threads);

  // Up to settings.grasp_candidates settled configurations from q (size n_q), each with q's
  // object coordinates exactly.
  std::vector<Eigen::VectorXd> Sample(const Eigen::VectorXd& q, Xoshiro256StarStar* generator);

  // A robot link contact sampling may put onto an object.
  struct Anchor {
    int body = -1;                // index into Scene::bodies
    int instance = -1;            // its robot instance
    std::vector<int> geometries;  // indices into Scene::geometries
  };
  // In body order.
  const std::vector<Anchor>& anchors() const { return anchors_; }

 private:
  // Moves one anchor link onto a random object surface point; false when the IK did not
  // converge or, with `limit_depth`, left a robot shape deeper in anything than the bounding
  // radius of the anchor's shape (stepping/body_motion.h).
  bool PlaceAnchor(const Anchor& anchor, bool limit_depth, Eigen::VectorXd* q,
                   Xoshiro256StarStar* generator);
  // The deepest overlap [m] of a robot shape with anything at q (0 when none; infinite when the
  // geometry query fails).
  double RobotDepth(const Eigen::VectorXd& q);
  // The IK configurations of one candidate from q; false when nothing was placed.
  bool PlaceFingers(Eigen::VectorXd* q, Xoshiro256StarStar* generator);
  bool PlaceOnePerRobot(Eigen::VectorXd* q, Xoshiro256StarStar* generator);

  ScenePtr scene_;
  const ObjectSpace* space_;
  PlanningSettings settings_;
  std::vector<Anchor> anchors_;
  std::vector<std::vector<int>> robot_anchors_;  // per robot with anchors: indices into anchors_
  // True when no robot shape penetrates anything by more than kSettledPenetration (or the
  // planner's penetration_tolerance, when smaller) at q.
  bool Settled(const Eigen::VectorXd& q);

  std::vector<int> object_geometries_;  // shapes of movable objects
  Kinematics kinematics_;
  GeometryModel geometry_;
  GeometryData geometry_data_;
  BatchStepper held_;  // the exact stepper with the objects' mass scaled by kHeldObjectMassScale
};

}  // namespace quasidyn
