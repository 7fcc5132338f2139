#pragma once
// How far one step moves the bodies that can touch something: the number behind
// StepResult::max_body_motion and its flag large_motion (dynamics/step_result.h).
//
// A step's contact query keeps only the pairs of shapes within a distance d of each other at
// the start (the scene's contact_tolerance ε, or a log barrier's candidate distance): a pair
// further apart is not in the step's program, so nothing stops the step from moving one shape
// into the other. That cannot happen while every body moves by less than d/2 (two bodies
// approaching each other close a gap by at most the sum of their motions); it can when one
// moves further than d, and the step then says so.
//
// The motion of body b from the pose (R, p) at the start to (R⁺, p⁺) at the end is bounded by
//   m_b = ‖p⁺ − p‖ + θ_b r_b,   θ_b = ∠(R⁺ Rᵀ) ∈ [0, π],
// r_b the body's bounding radius (the distance from its origin to the furthest point of its
// shapes): a point x of the body moves by ‖Δp + (R⁺ − R) x‖ <= ‖Δp‖ + 2 sin(θ/2) ‖x‖ <=
// ‖Δp‖ + θ ‖x‖ (triangle inequality; (R⁺ − R)x is a chord of the circle of radius ‖x‖ that R⁺Rᵀ
// turns through θ). The bound is of the end points: the path inside the step is the straight
// line q ⊕ s·h·v, s ∈ [0, 1], of the integrator (kinematics.h), along which a point of a chain of
// revolute joints may sweep an arc; the chord and the arc differ by less than a factor π/2.
//
// Bodies without collision geometry are skipped, and so is the world. No heap allocation once
// the end kinematics has been updated once (kinematics.h).

#include <Eigen/Core>
#include <vector>

#include "quasidyn/dynamics/step_result.h"
#include "quasidyn/kinematics/kinematics.h"
#include "quasidyn/model/scene.h"

namespace quasidyn {

// The distance [m] from the origin of the shape's frame S to the furthest point of the shape
// (sphere r; box half its diagonal; cylinder √(r² + (l/2)²); capsule l/2 + r; convex the
// furthest vertex); infinite for a half-space. Planar sections lie inside these.
double ShapeBoundingRadius(const Shape& shape);

class BodyMotionMeter {
 public:
  // The bounding radii of the scene's bodies with collision geometry (r_b = max over its shapes
  // of ‖p_BS‖ + ShapeBoundingRadius); `contact_distance` d [m] (>= 0, finite), the distance
  // within which the model's contact query keeps pairs. Throws std::invalid_argument for a bad
  // distance. A body with an unbounded shape (a half-space, which the scene format allows on the
  // world only) is skipped.
  BodyMotionMeter(const Scene& scene, double contact_distance);

  double contact_distance() const { return contact_distance_; }

  // max_b m_b between the poses of `start` (at q) and those of q_next (written into *end by
  // end->Update(q_next)) [m]: result->max_body_motion, and result->large_motion when it exceeds
  // contact_distance().
  void Measure(const Kinematics& start, const Eigen::VectorXd& q_next, Kinematics* end,
               StepResult* result) const;

  // The bound m_b above for one pair of poses [m].
  static double Motion(const Eigen::Isometry3d& start, const Eigen::Isometry3d& end, double radius);

 private:
  std::vector<int> bodies_;    // bodies (not the world) with collision geometry
  std::vector<double> radii_;  // r_b [m], per entry of bodies_
  double contact_distance_;    // [m]
};

}  // namespace quasidyn
