#pragma once
// How deep the shapes of a configuration overlap: the quantity a plan is checked against
// (PlanningSettings::penetration_tolerance, docs/planning.md, "Plans that stay physical").
//
//   depth(q) = max(0, −min φ_ij(q))   [m]
//
// over every pair (i, j) of shapes that may collide (the scene's collision filter and the pairs
// of bodies joined by a joint excluded, geometry/geometry_model.h), φ the signed distance
// (negative inside). Every overlapping pair has φ <= 0, so a query with tolerance 0 sees them
// all, whatever the step's contact tolerance saw.
//
// StepDepth measures a step of the stepper: depth at its end and, for a step that set
// large_motion (stepping/body_motion.h), along its path q ⊕ s·h·v (the integrator's straight
// line, kinematics.h) at ⌈m/d⌉ − 1 inner points (m the step's largest body motion, d the
// distance within which it saw contacts, at least the scene's ε), so that no body moves more
// than d between two checked configurations: a continuous-collision check at that resolution,
// which also sees a body that passed through another within the step. An inner point no
// deeper than the step's start counts as the start's own overlap, not the step's: a start that
// overlaps (a given q0, docs/qsim-files.md) shrinks along a step that separates it, and only an
// overlap deeper than it is new. The planner's edges
// (edge_stepper.h) and the trajectory optimiser's rollouts (control/trajectory_optimizer.h)
// are measured by it.

#include <Eigen/Core>

#include "quasidyn/geometry/geometry_model.h"
#include "quasidyn/kinematics/kinematics.h"
#include "quasidyn/model/scene.h"
#include "quasidyn/stepping/step_model.h"

namespace quasidyn {

class PenetrationMeter {
 public:
  // Compiles the scene's geometry (throws std::invalid_argument as GeometryModel does).
  explicit PenetrationMeter(ScenePtr scene);

  // depth(q) [m], >= 0; +∞ when the narrow phase fails at q (no depth can be vouched for).
  // Throws std::invalid_argument for a q of the wrong size or not finite (Kinematics::Update).
  // No heap allocation once a query of similar poses has sized the buffers.
  double Depth(const Eigen::VectorXd& q);

  // The deepest overlap of a step of `model` from q_start whose result is `result` (above): at
  // result.next.q, and along the step's path when it set large_motion [m], >= 0.
  double StepDepth(const StepModel& model, const Eigen::VectorXd& q_start,
                   const StepResult& result);

 private:
  Kinematics kinematics_;
  GeometryModel geometry_;
  GeometryData data_;
  Eigen::VectorXd inner_;  // a configuration inside a step's path
};

}  // namespace quasidyn
