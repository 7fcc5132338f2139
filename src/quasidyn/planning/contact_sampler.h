#pragma once
// Contact sampling for RRT through contact (the talk's "contact sampling": the robots are
// occasionally reset to a configuration in contact with the objects, typically a grasp). Generic
// over scenes: nothing is written per scene.
//
// A candidate from a configuration q keeps q's objects and moves some of the robots' fingers:
//   1. Fingers: the robot bodies that carry collision geometry and have no descendant body that
//      does (fingertips, a pusher's tip). Each moves with probability ½ (at least one does).
//   2. For a moving finger: a uniformly random surface point p (outward normal n) of a random
//      shape of a random movable object (shape_sampling.h), and a random anchor of a random
//      shape of the finger (its core point for spheres and capsules); damped-least-squares
//      inverse kinematics (kinematics/inverse_kinematics.h) moves the robot so that the anchor
//      reaches p + offset · n. A finger whose IK does not converge to within 1 mm (a point out of
//      its reach) tries another point, up to 3 in all, then keeps its joints. Fingers are solved
//      one after the other: on joints two fingers share (an arm carrying two fingers) the later one
//      wins.
//   3. Settling: `settle_steps` steps of the planner's exact stepper with the objects held where
//      they are, commanded to the IK configuration, resolve what the IK left in penetration
//      (links through the object, the ground, each other). The objects are held by a large mass
//      scale of the quasi-dynamic regularisation (s = 1e4 ·, dynamics/quasi_dynamic_cost.h: they
//      move ~1e-4 of the penetration per step) and their coordinates are reset after each step.
// Candidates whose IK moved no finger, whose settling step failed, or where a robot shape still
// penetrates anything (an object, the environment, a robot) by more than kSettledPenetration
// after settling (a finger caught between an object and the table, say) are dropped. The settling
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
  // std::invalid_argument when the scene has no finger (no robot body with collision geometry)
  // or no object shape to touch.
  ContactSampler(const StepModel& model, const ObjectSpace& space, const PlanningSettings& settings,
                 int threads);

  // Up to settings.grasp_candidates settled configurations from q (size n_q), each with q's
  // object coordinates exactly.
  std::vector<Eigen::VectorXd> Sample(const Eigen::VectorXd& q, Xoshiro256StarStar* generator);

  struct Finger {
    int body = -1;                // index into Scene::bodies
    int instance = -1;            // its robot instance
    std::vector<int> geometries;  // indices into Scene::geometries
  };
  const std::vector<Finger>& fingers() const { return fingers_; }

 private:
  // Moves one finger onto a random object surface point; false when the IK did not converge.
  bool PlaceFinger(const Finger& finger, Eigen::VectorXd* q, Xoshiro256StarStar* generator);

  ScenePtr scene_;
  const ObjectSpace* space_;
  PlanningSettings settings_;
  std::vector<Finger> fingers_;
  // True when no robot shape penetrates anything by more than kSettledPenetration at q.
  bool Settled(const Eigen::VectorXd& q);

  std::vector<int> object_geometries_;  // shapes of movable objects
  Kinematics kinematics_;
  GeometryModel geometry_;
  GeometryData geometry_data_;
  BatchStepper held_;  // the exact stepper with the objects' mass scaled by kHeldObjectMassScale
};

}  // namespace quasidyn
