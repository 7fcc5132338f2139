// Halm & Posa 2018, §6.2, Fig. 4 (bottom): the polygonal peg-in-hole run of scene.yaml (c = 0.01,
// B = I6, h = 0.05 s, 1 % clearance), drawn in four phases as the paper does: grasping (0 –
// 1.5 s), the first attempt that jams on the slot's corner (1.5 – 4 s), the reorientation about
// that corner (4 – 5.5 s), and the insertion with the final push from above (5.5 – 12 s): the
// peg (blue) and the fingers (red) every 0.25 s or 0.5 s of the phase, the slot grey.
//
// Writes into OUT_DIR: peg_in_hole.csv (t [s]; peg x, y [m], θ [rad]; the fingers' x, y, θ;
// contacts; Lemke pivots (0: warm start); LCP solve time [µs]; the largest penetration −φ at the
// step's end [m], 0 when none) and peg_in_hole_<phase>.svg for the phases grasp, jam, reorient,
// insert. Prints the run's summary (steps, median LCP time, pivots per solve, final pose).
// Exit status 1 when a step fails.
//
// Usage: peg_in_hole_figure OUT_DIR

#include <algorithm>
#include <iostream>
#include <string>
#include <vector>

#include "common/halm_posa_figures.h"

namespace {

using namespace quasidyn;
using namespace quasidyn::examples;

struct Phase {
  std::string name;
  double start, end, every;  // [s]
};

const std::vector<Eigen::Vector2d> kPeg = {{-1, -3}, {1, -3}, {1, 3}, {-1, 3}};
const std::vector<Eigen::Vector2d> kFinger = {{1, -1}, {1, 1}, {-1, 1}};

void AddSnapshot(const Eigen::VectorXd& q, const std::string& peg, const std::string& fingers,
                 LinePlot* plot) {
  plot->series.push_back(Outline(Placed(kPeg, q[0], q[1], q[2]), peg));
  for (int f = 0; f < 2; ++f)
    plot->series.push_back(
        Outline(Placed(kFinger, q[3 + 3 * f], q[4 + 3 * f], q[5 + 3 * f]), fingers));
}

}  // namespace

int main(int argc, char** argv) {
  try {
    const std::filesystem::path out = OutputFolder(
        argc, argv,
        "Halm & Posa 2018, Fig. 4 (bottom): the peg-in-hole run; a CSV and an SVG per phase "
        "into OUT_DIR");
    const ScenePtr scene = LoadExample("peg_in_hole/scene.yaml");
    const Trajectory run = RunExample(scene, FormulationChoice{});
    Csv csv(
        "t,peg_x,peg_y,peg_theta,finger1_x,finger1_y,finger1_theta,finger2_x,finger2_y,"
        "finger2_theta,contacts,pivots,lcp_time_us,penetration");
    std::vector<double> times, pivots;
    for (const TrajectoryStep& s : run.steps) {
      double penetration = 0;
      for (const ContactRecord& c : s.contacts) penetration = std::max(penetration, -c.phi_end);
      csv.Row(s.t, s.q[0], s.q[1], s.q[2], s.q[3], s.q[4], s.q[5], s.q[6], s.q[7], s.q[8],
              s.contacts.size(), s.solver.iterations, 1e6 * s.solver.solve_time_seconds,
              penetration);
      times.push_back(1e6 * s.solver.solve_time_seconds);
      pivots.push_back(s.solver.iterations);
    }
    csv.Write(out / "peg_in_hole.csv");
    const Phase phases[] = {{"grasp", 0.0, 1.5, 0.25},
                            {"jam", 1.5, 4.0, 0.5},
                            {"reorient", 4.0, 5.5, 0.25},
                            {"insert", 5.5, 12.0, 0.5}};
    for (const Phase& phase : phases) {
      LinePlot plot;
      plot.title = "Peg in hole, " + phase.name + " (" + std::to_string(phase.start).substr(0, 4) +
                   " - " + std::to_string(phase.end).substr(0, 4) + " s)";
      plot.x_label = "x_W [m]";
      plot.y_label = "y_W [m]";
      MatchAspect(&plot, 16, 18, 520);
      plot.series.push_back(Outline({{-8, -7}, {-1.01, -7}, {-1.01, 0}, {-8, 0}}, "#808080"));
      plot.series.push_back(Outline({{8, -7}, {1.01, -7}, {1.01, 0}, {8, 0}}, "#808080"));
      plot.series.push_back({"", {-8, 8}, {-7, 11}, "#ffffff"});  // the window
      const int count = static_cast<int>(std::lround((phase.end - phase.start) / phase.every));
      for (int k = 0; k <= count; ++k) {
        const double t = phase.start + k * phase.every;
        const int step = static_cast<int>(std::lround(t / run.time_step));
        if (step > static_cast<int>(run.steps.size())) break;
        const Eigen::VectorXd& q = step == 0 ? run.q0 : run.steps[step - 1].q;
        const bool last = k == count;
        AddSnapshot(q, last ? "#1f3fbf" : "#9fb0e8", last ? "#c0392b" : "#f0a8a0", &plot);
      }
      WriteLinePlotSvg(plot, out / ("peg_in_hole_" + phase.name + ".svg"));
    }
    std::vector<double> sorted = times;
    std::nth_element(sorted.begin(), sorted.begin() + sorted.size() / 2, sorted.end());
    double mean_pivots = 0;
    for (double p : pivots) mean_pivots += p / pivots.size();
    const Eigen::VectorXd& q = run.FinalConfiguration();
    std::cout << "peg_in_hole: " << run.steps.size() << " of " << run.steps_requested
              << " steps, LCP median " << sorted[sorted.size() / 2] << " us, " << mean_pivots
              << " pivots per solve; final peg (" << q[0] << ", " << q[1] << ", " << q[2] << ")\n";
    if (!run.completed()) {
      std::cerr << "peg_in_hole_figure: " << run.message << "\n";
      return 1;
    }
    return 0;
  } catch (const std::exception& e) {
    std::cerr << "peg_in_hole_figure: " << e.what() << "\n";
    return 2;
  }
}
