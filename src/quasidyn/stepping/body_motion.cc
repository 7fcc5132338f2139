#include "quasidyn/stepping/body_motion.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "quasidyn/common/argument_check.h"

namespace quasidyn {

double ShapeBoundingRadius(const Shape& shape) {
  switch (shape.type) {
    case ShapeType::kSphere:
      return shape.radius;
    case ShapeType::kBox:
      return 0.5 * shape.size.norm();
    case ShapeType::kCylinder:
      return std::hypot(shape.radius, 0.5 * shape.length);
    case ShapeType::kCapsule:
      return 0.5 * shape.length + shape.radius;
    case ShapeType::kHalfSpace:
      return std::numeric_limits<double>::infinity();
    case ShapeType::kConvex: {
      double r = 0.0;
      for (const Eigen::Vector3d& v : shape.vertices) r = std::max(r, v.norm());
      return r;
    }
  }
  return std::numeric_limits<double>::infinity();
}

BodyMotionMeter::BodyMotionMeter(const Scene& scene, double contact_distance)
    : contact_distance_(contact_distance) {
  QUASIDYN_CHECK_ARGUMENT(std::isfinite(contact_distance) && contact_distance >= 0,
                          "BodyMotionMeter",
                          "the contact distance must be finite and >= 0 [m] (got " +
                              std::to_string(contact_distance) + ")");
  std::vector<double> radius(scene.bodies.size(), -1.0);
  for (const CollisionGeometry& g : scene.geometries) {
    if (g.body <= 0) continue;  // the world does not move
    radius[g.body] =
        std::max(radius[g.body], g.X_BS.translation().norm() + ShapeBoundingRadius(g.shape));
  }
  for (int b = 1; b < static_cast<int>(radius.size()); ++b) {
    if (radius[b] < 0 || !std::isfinite(radius[b])) continue;
    bodies_.push_back(b);
    radii_.push_back(radius[b]);
  }
}

double BodyMotionMeter::Motion(const Eigen::Isometry3d& start, const Eigen::Isometry3d& end,
                               double radius) {
  // θ = ∠(R⁺ Rᵀ) from atan2(sin θ, cos θ): sin θ = ‖vee(S − Sᵀ)‖/2 and cos θ = (tr S − 1)/2 for
  // S = R⁺ Rᵀ (Rodrigues' formula), accurate at small and large angles alike.
  const Eigen::Matrix3d S = end.linear() * start.linear().transpose();
  const Eigen::Vector3d axis(S(2, 1) - S(1, 2), S(0, 2) - S(2, 0), S(1, 0) - S(0, 1));
  const double angle = std::atan2(0.5 * axis.norm(), 0.5 * (S.trace() - 1.0));
  return (end.translation() - start.translation()).norm() + angle * radius;
}

void BodyMotionMeter::Measure(const Kinematics& start, const Eigen::VectorXd& q_next,
                              Kinematics* end, StepResult* result) const {
  end->Update(q_next);
  double motion = 0.0;
  for (size_t k = 0; k < bodies_.size(); ++k) {
    const int b = bodies_[k];
    motion = std::max(motion, Motion(start.BodyPose(b), end->BodyPose(b), radii_[k]));
  }
  result->max_body_motion = motion;
  result->large_motion = motion > contact_distance_;
}

}  // namespace quasidyn
