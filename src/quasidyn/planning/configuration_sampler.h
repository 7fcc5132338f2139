#pragma once
// Random object configurations inside the planner's bounds (model/planning_settings.h): the
// samples RRT through contact grows its tree toward. Per movable object, uniformly:
//   planar   x, y [m] and θ [rad] in [lower, upper] (the SE(2) box);
//   floating x, y, z [m] in [lower, upper], and the orientation uniform on SO(3) (a normalised
//            4D standard normal, Shoemake, "Uniform random rotations", Graphics Gems III, 1992)
//            or, with a rotation axis a, exp(½ α a) ⊗ Q_0 with α uniform in [−π, π) and Q_0
//            the object's orientation in the scene's q0.
// Draws come from the caller's generator (gradients/randomized_smoothing_sampler.h), so a
// seeded planner samples the same sequence on every run.

#include <Eigen/Core>

#include "quasidyn/gradients/randomized_smoothing_sampler.h"
#include "quasidyn/model/planning_settings.h"
#include "quasidyn/model/scene.h"
#include "quasidyn/planning/object_space.h"

namespace quasidyn {

class ConfigurationSampler {
 public:
  // settings.lower, upper must have been checked (CheckPlanningSettings).
  ConfigurationSampler(const Scene& scene, const ObjectSpace& space,
                       const PlanningSettings& settings);

  // A random q_u (size n_q,u).
  Eigen::VectorXd Sample(Xoshiro256StarStar* generator) const;

 private:
  const ObjectSpace* space_;
  Eigen::VectorXd lower_, upper_;
  Eigen::VectorXd initial_;  // q0's object part (n_q,u)
  bool about_axis_ = false;
  Eigen::Vector3d axis_ = Eigen::Vector3d::UnitZ();
};

}  // namespace quasidyn
