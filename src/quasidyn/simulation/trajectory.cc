#include "quasidyn/simulation/trajectory.h"

namespace quasidyn {

bool HasTorsionalFriction(const Trajectory& trajectory) {
  for (const TrajectoryStep& step : trajectory.steps)
    for (const ContactRecord& c : step.contacts)
      if (c.torsional_impulse != 0.0 || c.torsional_moment != 0.0) return true;
  return false;
}

}  // namespace quasidyn
