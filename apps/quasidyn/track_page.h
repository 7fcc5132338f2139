#pragma once
// What `quasidyn track --html` writes (viewer/execution_page.h): the plant's run with each plan
// it executed (the given plan, then every replan from where the plant was) drawn over it, the
// distance to the goal D of both over time in the planner's metric, and the command's summary
// as the panel's notes.

#include <Eigen/Core>
#include <optional>
#include <string>
#include <vector>

#include "quasidyn/model/planning_settings.h"
#include "quasidyn/model/scene.h"
#include "quasidyn/simulation/trajectory.h"

namespace quasidyn::cli {

// One plan as the plant ran it.
struct TrackedPlan {
  const std::vector<Eigen::VectorXd>* q = nullptr;  // the plan's q_0 … q_T; kept alive
  int steps_run = 0;                                // of its steps, those the plant ran
  bool found = false;                               // it reached the goal in the planner's model
  double max_penetration = 0.0;                     // the plant's deepest overlap meanwhile [m]
};

// Writes the page to `path`. `plant_scene` draws the bodies, `plant` is the plant's run at the
// control steps (PlanToTrajectory), the plans start one after the other where the previous one's
// run ended; `planning` (the plan's settings, when known) with the planner's `model_scene` gives D
// and the goal's tolerance, the page shows no D without it. Throws as WriteExecutionHtml.
void WriteTrackPage(const Scene& plant_scene, const Scene& model_scene, const Trajectory& plant,
                    const std::vector<TrackedPlan>& plans,
                    const std::optional<PlanningSettings>& planning, const std::string& notes,
                    const std::string& path);

}  // namespace quasidyn::cli
