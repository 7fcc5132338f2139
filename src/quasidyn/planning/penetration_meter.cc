#include "quasidyn/planning/penetration_meter.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace quasidyn {

PenetrationMeter::PenetrationMeter(ScenePtr scene)
    : kinematics_(scene), geometry_(scene), data_(geometry_.CreateData()) {}

double PenetrationMeter::Depth(const Eigen::VectorXd& q) {
  kinematics_.Update(q);
  if (!geometry_.Query(kinematics_.BodyPoses(), 0.0, &data_))
    return std::numeric_limits<double>::infinity();
  double depth = 0.0;
  for (const ContactCandidate& c : data_.candidates()) depth = std::max(depth, -c.point.phi);
  return depth;
}

double PenetrationMeter::StepDepth(const StepModel& model, const Eigen::VectorXd& q_start,
                                   const StepResult& result) {
  double depth = Depth(result.next.q);
  if (!result.large_motion) return depth;
  // An inner point no deeper than the start is the start's own overlap on its way out (a given
  // q0 may overlap, and the step separates it): not counted as the step's (the header).
  const double start_depth = Depth(q_start);
  // k − 1 inner points, k = ⌈m / d⌉, at most 1024 (the header).
  const double distance = std::max(model.scene().contact_tolerance, 1e-6);
  const int k = static_cast<int>(std::min(std::ceil(result.max_body_motion / distance), 1024.0));
  for (int j = 1; j < k; ++j) {
    IntegrateConfiguration(model.scene(), q_start, result.velocity,
                           model.time_step() * j / static_cast<double>(k), &inner_);
    const double inner = Depth(inner_);
    if (inner > start_depth) depth = std::max(depth, inner);
  }
  return depth;
}

}  // namespace quasidyn
