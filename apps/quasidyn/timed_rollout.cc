#include "timed_rollout.h"

#include <chrono>
#include <cmath>
#include <iostream>
#include <optional>

#include "log.h"
#include "progress_bar.h"

namespace quasidyn::cli {

TimedRollout RunRolloutWithProgress(const StepModel& model, int steps, const std::string& label) {
  std::optional<ProgressBar> bar;
  RolloutOptions rollout_options;
  rollout_options.steps = steps;
  if (ShowsProgress()) {
    bar.emplace(std::cerr, label, steps, "steps");
    bar->Update(0);
    rollout_options.progress = [&bar, steps](double fraction) {
      bar->Update(static_cast<int>(std::lround(fraction * steps)));
    };
  }
  const auto start = std::chrono::steady_clock::now();
  TimedRollout result{Rollout(model, rollout_options), 0.0};
  result.wall_seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (bar) bar->Finish();
  if (Logs(LogLevel::kDebug)) {
    for (const TrajectoryStep& step : result.trajectory.steps)
      LogStream() << label << ": step " << step.k << " t = " << step.t << " s "
                  << ToString(step.status) << ", " << step.solver.iterations << " iterations, "
                  << step.contacts.size() << " contacts\n";
  }
  return result;
}

}  // namespace quasidyn::cli
