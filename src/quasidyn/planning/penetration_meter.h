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

#include <Eigen/Core>

#include "quasidyn/geometry/geometry_model.h"
#include "quasidyn/kinematics/kinematics.h"
#include "quasidyn/model/scene.h"

namespace quasidyn {

class PenetrationMeter {
 public:
  // Compiles the scene's geometry (throws std::invalid_argument as GeometryModel does).
  explicit PenetrationMeter(ScenePtr scene);

  // depth(q) [m], >= 0; +∞ when the narrow phase fails at q (no depth can be vouched for).
  // Throws std::invalid_argument for a q of the wrong size or not finite (Kinematics::Update).
  // No heap allocation once a query of similar poses has sized the buffers.
  double Depth(const Eigen::VectorXd& q);

 private:
  Kinematics kinematics_;
  GeometryModel geometry_;
  GeometryData data_;
};

}  // namespace quasidyn
