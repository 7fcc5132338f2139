#pragma once
// A rollout of the scene's command schedule with a progress bar on stderr (unless quiet) and
// its wall time: what `quasidyn simulate` and `quasidyn demo` both run.

#include <string>

#include "quasidyn/simulation/rollout.h"

namespace quasidyn::cli {

struct TimedRollout {
  Trajectory trajectory;
  double wall_seconds = 0.0;  // [s], the rollout alone
};

// steps >= 1; label names the bar ("simulate <scene>").
TimedRollout RunRolloutWithProgress(const ScenePtr& scene, const FormulationSettings& settings,
                                    int steps, bool quiet, const std::string& label);

}  // namespace quasidyn::cli
