#pragma once
// One viewer page of a plan executed on a plant (`quasidyn track --html`, Python's
// quasidyn.view(..., plans=...)): the plant's run is the page's own trajectory (its bodies solid,
// its contacts and force arrows as on every page), each plan of the replanning loop is drawn over
// it as translucent ghosts from the time the plant had reached when the plan was made, one time
// slider plays both, and the panel plots the distance to the goal D of the plant and of the plan
// over time with where each plan starts and the deepest overlap (`execution` in the page data,
// viewer_data.h; viewer/src/execution.js draws it).
//
// Time: both are aligned by time. Plan r's q_j is drawn at start_time_r + j·h (h the plan's
// time step) and the plant's frames at their own times: `quasidyn track` records the plant at
// the control steps, t_k = k·h (a plant at h/N substeps, every N-th of its own steps).

#include <Eigen/Core>
#include <string>
#include <vector>

#include "quasidyn/model/scene.h"
#include "quasidyn/simulation/trajectory.h"
#include "quasidyn/viewer/viewer_data.h"

namespace quasidyn {

// One plan of the execution, as the planner's model made it.
struct ExecutedPlan {
  // q_0 … q_T at the plan's control steps, each of size n_q; q_0 is where the plant was when
  // the plan was made.
  std::vector<Eigen::VectorXd> q;
  double time_step = 0.0;   // the plan's h [s], > 0: q_j is drawn at start_time + j·h
  double start_time = 0.0;  // the plant's time when the plan began [s], >= 0; the first plan's 0
  int steps_run = 0;        // of its T steps, those the plant ran, in [0, T]
  bool found = false;       // the planner reached the goal with it (in its own model)
  // D of q_0 … q_T to the goal (T + 1 entries, >= 0), or empty when there is no goal.
  std::vector<double> distance;
  double max_penetration = 0.0;  // the deepest overlap of the plant while it ran the plan [m]
};

struct ExecutionView {
  const Trajectory* plant = nullptr;  // the plant's run at the control steps; kept alive
  std::vector<ExecutedPlan> plans;    // in order of their start times, at least one
  // D of the plant's configurations q_0 … q_K (K = the run's steps) to the goal, or empty: no
  // goal (then the plans' distances are empty too).
  std::vector<double> plant_distance;
  double goal_tolerance = 0.0;  // the goal's tolerance on D [-], >= 0 (drawn with the distances)
  std::string notes;            // preformatted text below the panel (the command's summary)
};

// The page as text (html_writer.h, ViewerHtmlToString: its errors). Also
// std::invalid_argument naming what is wrong (which plan, which configuration) when the view
// does not fit the scene: no plant or no plan, a configuration of another size than the scene's
// n_q or not finite, start times not from 0, decreasing or past the run's end, steps_run out of
// [0, T], a time step not > 0, distances of the wrong count, negative or not finite, a negative
// tolerance.
std::string ExecutionHtmlToString(const Scene& scene, const ExecutionView& view);

// Writes the page to `path` atomically (html_writer.h, WriteViewerHtml: its errors; and the
// above).
void WriteExecutionHtml(const Scene& scene, const ExecutionView& view, const std::string& path);

}  // namespace quasidyn
