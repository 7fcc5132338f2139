#include "quasidyn/planning/penetration_meter.h"

#include <algorithm>
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

}  // namespace quasidyn
