#include "quasidyn/viewer/trajectory_plots.h"

#include <stdexcept>
#include <string>

namespace quasidyn {
namespace {

// The indices kept of `count` points: all when count <= max_points, else an even stride
// through them with the last one added.
std::vector<size_t> KeptIndices(size_t count, int max_points) {
  std::vector<size_t> kept;
  const size_t limit = static_cast<size_t>(max_points);
  const size_t stride = count <= limit ? 1 : (count - 1 + limit - 2) / (limit - 1);
  for (size_t i = 0; i < count; i += stride) kept.push_back(i);
  if (count > 0 && kept.back() != count - 1) kept.push_back(count - 1);
  return kept;
}

// One line per coordinate in [first, first + count) of q, over the kept points.
LinePlot CoordinatePlot(const Trajectory& trajectory, int first, int count, const char* title,
                        const char* y_label, const std::vector<size_t>& kept) {
  LinePlot plot{title, "t [s]", y_label, {}};
  for (int i = first; i < first + count; ++i) {
    PlotSeries series;
    series.label = i < static_cast<int>(trajectory.coordinate_names.size())
                       ? trajectory.coordinate_names[static_cast<size_t>(i)]
                       : "q[" + std::to_string(i) + "]";
    for (size_t point : kept) {
      const bool start = point == 0;
      series.x.push_back(start ? 0.0 : trajectory.steps[point - 1].t);
      series.y.push_back(start ? trajectory.q0[i] : trajectory.steps[point - 1].q[i]);
    }
    plot.series.push_back(std::move(series));
  }
  return plot;
}

// A per-step plot: one line of value(step) over the kept steps.
template <typename Value>
LinePlot StepPlot(const Trajectory& trajectory, const char* title, const char* y_label,
                  const std::string& label, const std::vector<size_t>& kept, Value value) {
  PlotSeries series;
  series.label = label;
  for (size_t k : kept) {
    series.x.push_back(trajectory.steps[k].t);
    series.y.push_back(value(trajectory.steps[k]));
  }
  return LinePlot{title, "t [s]", y_label, {series}};
}

}  // namespace

std::vector<LinePlot> TrajectoryPlots(const Trajectory& trajectory, int max_points) {
  if (max_points < 2)
    throw std::invalid_argument("TrajectoryPlots: max_points must be >= 2 (got " +
                                std::to_string(max_points) + ")");
  if (trajectory.q0.size() != trajectory.nq)
    throw std::invalid_argument("TrajectoryPlots: q0 has size " +
                                std::to_string(trajectory.q0.size()) +
                                ", expected n_q = " + std::to_string(trajectory.nq));
  for (const TrajectoryStep& step : trajectory.steps)
    if (step.q.size() != trajectory.nq)
      throw std::invalid_argument("TrajectoryPlots: step " + std::to_string(step.k) +
                                  ": q has size " + std::to_string(step.q.size()) +
                                  ", expected n_q = " + std::to_string(trajectory.nq));
  std::vector<LinePlot> plots;
  const std::vector<size_t> points = KeptIndices(trajectory.steps.size() + 1, max_points);
  const int nq_a = trajectory.nq - trajectory.nq_u;
  if (trajectory.nq_u > 0)
    plots.push_back(CoordinatePlot(trajectory, 0, trajectory.nq_u, "objects' coordinates q_u",
                                   "q_u [m, rad; quaternion -]", points));
  if (nq_a > 0)
    plots.push_back(CoordinatePlot(trajectory, trajectory.nq_u, nq_a, "robots' coordinates q_a",
                                   "q_a [m, rad]", points));
  if (trajectory.steps.empty()) return plots;
  const std::vector<size_t> steps = KeptIndices(trajectory.steps.size(), max_points);
  const std::string& formulation = trajectory.formulation;
  plots.push_back(StepPlot(trajectory, "contacts per step", "contacts [-]", "", steps,
                           [](const TrajectoryStep& s) { return double(s.contacts.size()); }));
  plots.push_back(StepPlot(trajectory, "total normal force per step", "sum of c_n [N]", "", steps,
                           [](const TrajectoryStep& s) {
                             double total = 0.0;
                             for (const ContactRecord& c : s.contacts) total += c.normal_force;
                             return total;
                           }));
  plots.push_back(StepPlot(trajectory, "solver iterations per step", "iterations [-]", formulation,
                           steps,
                           [](const TrajectoryStep& s) { return double(s.solver.iterations); }));
  return plots;
}

}  // namespace quasidyn
