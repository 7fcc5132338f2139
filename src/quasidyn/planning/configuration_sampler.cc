#include "quasidyn/planning/configuration_sampler.h"

#include <cmath>

#include "quasidyn/math/quaternion.h"

namespace quasidyn {

ConfigurationSampler::ConfigurationSampler(const Scene& scene, const ObjectSpace& space,
                                           const PlanningSettings& settings)
    : space_(&space),
      lower_(settings.lower),
      upper_(settings.upper),
      initial_(scene.q0.head(scene.nq_u)) {
  if (settings.rotation_axis) {
    about_axis_ = true;
    axis_ = settings.rotation_axis->normalized();
  }
}

Eigen::VectorXd ConfigurationSampler::Sample(Xoshiro256StarStar* generator) const {
  Eigen::VectorXd q = initial_;
  int b = 0;  // index into the bounds, 3 per object
  for (const ObjectSpace::Block& block : space_->blocks()) {
    for (int k = 0; k < 3; ++k, ++b)
      q[block.q_start + k] = lower_[b] + (upper_[b] - lower_[b]) * generator->NextUniform();
    if (!block.floating) continue;
    Eigen::Vector4d Q;
    if (about_axis_) {
      const double angle = M_PI * (2.0 * generator->NextUniform() - 1.0);
      Q = QuaternionProduct(QuaternionFromRotationVector(angle * axis_),
                            NormalizeQuaternion(initial_.segment<4>(block.q_start + 3)));
    } else {
      Eigen::Vector4d normal = StandardNormalVector(generator, 4);
      while (normal.norm() < 1e-6) normal = StandardNormalVector(generator, 4);
      Q = normal.normalized();
    }
    q.segment<4>(block.q_start + 3) = Q;
  }
  return q;
}

}  // namespace quasidyn
