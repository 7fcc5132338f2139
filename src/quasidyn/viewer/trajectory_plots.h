#pragma once
// The plots of a trajectory over time, as svg_plot.h's LinePlots (Python's Trajectory.plots()
// shows them in a notebook, docs/python.md "In a notebook"):
//   "objects' coordinates q_u" [m, rad; quaternion components -] (when n_q,u > 0),
//   "robots' coordinates q_a" [m, rad] (when n_q,a > 0), each a line per coordinate named as
//   Trajectory::coordinate_names, from q0 at t = 0 to the last step;
//   and, per step (when there is one): "contacts per step" [-], "total normal force per step"
//   (the sum of the contacts' normal forces) [N] and "solver iterations per step" [-].

#include <vector>

#include "quasidyn/simulation/trajectory.h"
#include "quasidyn/viewer/svg_plot.h"

namespace quasidyn {

// Most points a line of a trajectory plot keeps, >= 2: a longer trajectory is drawn at an
// even stride through its points (the first and the last always kept), so that an SVG stays
// small (about 14 bytes a point) whatever the length of the run.
inline constexpr int kTrajectoryPlotMaxPoints = 1000;

// The plots, in the order above. Throws std::invalid_argument naming the problem for
// max_points < 2 or a step whose q does not have n_q entries.
std::vector<LinePlot> TrajectoryPlots(const Trajectory& trajectory,
                                      int max_points = kTrajectoryPlotMaxPoints);

}  // namespace quasidyn
