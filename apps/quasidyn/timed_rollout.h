#pragma once
// A rollout of the scene's command schedule with its wall time, what `quasidyn simulate` and
// `quasidyn demo` both run: a progress bar on stderr when log.h's ShowsProgress() (level info
// and a terminal), one line per step at level debug.

#include <string>

#include "quasidyn/simulation/rollout.h"

namespace quasidyn::cli {

struct TimedRollout {
  Trajectory trajectory;
  double wall_seconds = 0.0;  // [s], the rollout alone
};

// steps >= 1; label names the bar ("simulate <scene>").
TimedRollout RunRolloutWithProgress(const StepModel& model, int steps, const std::string& label);

}  // namespace quasidyn::cli
