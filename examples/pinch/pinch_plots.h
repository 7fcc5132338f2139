#pragma once
// The pinch figure (Halm & Posa 2018, §6.3, Fig. 5) from any set of runs: the square's pose
// (x, y [m], θ [rad]) over time per simulator, written as one CSV and two SVGs. Shared by
// examples/pinch/pinch_figure.cc (quasidyn's formulations) and bench/pinch_peer_comparison.cc
// (the same beside MuJoCo), so the plots are drawn by one piece of code. Header-only.

#include <iostream>
#include <string>
#include <vector>

#include "common/halm_posa_figures.h"

namespace quasidyn::examples {

// One simulator's run of the pinch: samples at t[0] = 0 (the initial pose) and after each step
// (or each recorded instant), the square's pose and the number of contacts then.
struct PinchRun {
  std::string name;   // the legend and the CSV's `formulation` column
  std::string color;  // SVG colour, "#rrggbb"
  std::vector<double> t, x, y, theta;
  std::vector<int> contacts;
  bool completed = true;
  std::string message;  // why it stopped, when not completed
};

// The square (q[0..2]) along a quasidyn trajectory, q0 first.
inline PinchRun PinchRunOf(const Trajectory& run, const std::string& name,
                           const std::string& color) {
  PinchRun out{name,        color, {0.0},           {run.q0[0]}, {run.q0[1]},
               {run.q0[2]}, {0},   run.completed(), run.message};
  for (const TrajectoryStep& s : run.steps) {
    out.t.push_back(s.t);
    out.x.push_back(s.q[0]);
    out.y.push_back(s.q[1]);
    out.theta.push_back(s.q[2]);
    out.contacts.push_back(static_cast<int>(s.contacts.size()));
  }
  return out;
}

// The scene's own pinch under quasidyn formulation `formulation` (its schedule to the end).
inline PinchRun RunPinchFormulation(const ScenePtr& scene, const std::string& formulation,
                                    const std::string& color) {
  return PinchRunOf(RunExample(scene, FormulationChoice(formulation)), formulation, color);
}

// Writes OUT_DIR/<stem>.csv (formulation, t [s], x, y [m], θ [rad], contacts: one row per
// sample after t = 0), <stem>_path.svg (the centre's path with the square's initial and final
// outlines) and <stem>_angle.svg (θ over t), and prints each run's final pose. Returns false
// when a run did not complete (its message on stderr, prefixed by `program`).
inline bool WritePinchFigure(const std::vector<PinchRun>& runs, const std::filesystem::path& out,
                             const std::string& stem, const std::string& program) {
  Csv csv("formulation,t,x,y,theta,contacts");
  LinePlot path;
  path.title = "Pinched square: the centre's path (outlines at 0 s and at the end)";
  path.x_label = "x_W [m]";
  path.y_label = "y_W [m]";
  MatchAspect(&path, 0.7, 0.7, 560);
  path.series.push_back({"", {-0.3, 0.4}, {-0.3, 0.4}, "#ffffff"});  // the window
  LinePlot angle;
  angle.title = "Pinched square: orientation";
  angle.x_label = "t [s]";
  angle.y_label = "theta [rad]";
  const std::vector<Eigen::Vector2d> square = {{-0.2, -0.2}, {0.2, -0.2}, {0.2, 0.2}, {-0.2, 0.2}};
  path.series.push_back(Outline(Placed(square, 0, 0, 0), "#808080"));
  bool ok = true;
  for (const PinchRun& run : runs) {
    for (size_t k = 1; k < run.t.size(); ++k)
      csv.Row(run.name, run.t[k], run.x[k], run.y[k], run.theta[k], run.contacts[k]);
    angle.series.push_back({run.name, run.t, run.theta, run.color, false});
    path.series.push_back({run.name, run.x, run.y, run.color, false});
    const double x = run.x.back(), y = run.y.back(), theta = run.theta.back();
    path.series.push_back(Outline(Placed(square, x, y, theta), run.color));
    std::cout << run.name << ": " << run.t.size() - 1 << " samples to t = " << run.t.back()
              << " s, final (" << x << ", " << y << ", " << theta << ")\n";
    if (!run.completed) {
      std::cerr << program << ": " << run.name << ": " << run.message << "\n";
      ok = false;
    }
  }
  csv.Write(out / (stem + ".csv"));
  WriteLinePlotSvg(path, out / (stem + "_path.svg"));
  WriteLinePlotSvg(angle, out / (stem + "_angle.svg"));
  return ok;
}

}  // namespace quasidyn::examples
