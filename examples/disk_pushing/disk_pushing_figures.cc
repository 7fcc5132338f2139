// Halm & Posa 2018, §6.1, Fig. 3 and Fig. 4 (top): the disk pushes at varying feedback scaling.
//
//   * Fig. 3 top, Fig. 4 top: the symmetric, asymmetric and semicircular pushes and the push
//     against the wall (symmetric_push.yaml, asymmetric_push.yaml, scene.yaml (the semicircular
//     push), wall_push.yaml), each under perfect velocity control (c = 0) and with c_n = 2^(4 − n),
//     n = 2 … 14 (the paper gives no c_i; 2^(4 − n), n = 2 … 22, 14 drawn, is the authors' MATLAB
//     library's, slidingCircle.m of github.com/mshalm/quasistaticGrasping): the disk centre's
//     path and its final pose, coloured from yellow (low gain 1/c) to blue (high gain), c = 0
//     dashed black. The c = 0 push against the wall stops at
//     the first squeeze (no solution); the finite-feedback ones roll on.
//   * Fig. 3 bottom: e_n = ‖q_o(10 s; c_n) − q_o(10 s; c = 0)‖ against c_n, n = 2 … 20, on
//     log₂–log₂ axes, and the least-squares slope of log₂ e on log₂ c at high gain (n = 10 …
//     18, c from 2⁻⁶ to 2⁻¹⁴), printed and written.
//
// Writes into OUT_DIR: disk_pushing_trajectories.csv (scene, n (0 for c = 0), c, t [s], x, y
// [m], θ [rad] of the disk, the fingers' x, y [m], status), disk_convergence.csv (scene, n, c,
// e [m or rad], log2_c, log2_e), disk_convergence_slopes.csv (scene, slope), and the plots
// disk_<scene>.svg, disk_convergence.svg. Exit status 1 when a finite-feedback run fails.
//
// Usage: disk_pushing_figures OUT_DIR

#include <cmath>
#include <iostream>
#include <map>
#include <string>
#include <vector>

#include "common/halm_posa_figures.h"

namespace {

using namespace quasidyn;
using namespace quasidyn::examples;

struct Push {
  std::string name, file;
  double x_min, x_max, y_min, y_max;  // plot window [m]
};

const Push kPushes[] = {{"symmetric", "symmetric_push.yaml", -7, 7, -8, 6},
                        {"asymmetric", "asymmetric_push.yaml", -7, 7, -8, 9},
                        {"semicircular", "scene.yaml", -7, 7, -7, 3},
                        {"wall", "wall_push.yaml", -7, 7, -1, 6}};
constexpr int kPlotted = 14;      // n = 2 … 14 in the trajectory plots (slidingCircle.m's nplot)
constexpr int kConvergence = 20;  // n = 2 … 20 in the convergence plot
constexpr int kFitFirst = 10, kFitLast = 18;

double FeedbackScale(int n) { return std::pow(2.0, 4 - n); }

Trajectory Run(const ScenePtr& scene, double c) {
  FormulationChoice choice;  // the scene's own formulation (halm-posa) and parameters
  choice.parameters.Set("c", c);
  return RunExample(scene, choice);
}

void AddRows(const std::string& scene, int n, double c, const Trajectory& t, Csv* csv) {
  for (const TrajectoryStep& s : t.steps)
    csv->Row(scene, n, c, s.t, s.q[0], s.q[1], s.q[2], s.q[3], s.q[4], s.q[5], s.q[6],
             ToString(s.status));
}

// The disk's final outline and fingers, as plot series.
void AddFinalPose(const Trajectory& t, const std::string& color, LinePlot* plot) {
  const Eigen::VectorXd& q = t.FinalConfiguration();
  plot->series.push_back(Outline(Circle(q.head<2>(), 1.0), color));
  const Eigen::Vector2d mark = q.head<2>() + Eigen::Rotation2Dd(q[2]) * Eigen::Vector2d(1, 0);
  plot->series.push_back({"", {q[0], mark.x()}, {q[1], mark.y()}, color, false});
  for (int f = 0; f < 2; ++f)
    plot->series.push_back(Outline(Circle(q.segment<2>(3 + 2 * f), 0.12, 12), color));
}

// Least-squares slope of y on x.
double Slope(const std::vector<double>& x, const std::vector<double>& y) {
  const int n = static_cast<int>(x.size());
  double mx = 0, my = 0;
  for (int i = 0; i < n; ++i) mx += x[i] / n, my += y[i] / n;
  double sxy = 0, sxx = 0;
  for (int i = 0; i < n; ++i) sxy += (x[i] - mx) * (y[i] - my), sxx += (x[i] - mx) * (x[i] - mx);
  return sxy / sxx;
}

}  // namespace

int main(int argc, char** argv) {
  try {
    const std::filesystem::path out = OutputFolder(
        argc, argv,
        "Halm & Posa 2018, Fig. 3 and Fig. 4 (top): the disk pushes at varying feedback "
        "scaling; CSVs and SVGs into OUT_DIR");
    Csv trajectories("scene,n,c,t,x,y,theta,finger1_x,finger1_y,finger2_x,finger2_y,status");
    Csv convergence("scene,n,c,e,log2_c,log2_e");
    Csv slopes("scene,slope");
    LinePlot convergence_plot;
    convergence_plot.title = "Convergence to perfect velocity control (Theorem 4)";
    convergence_plot.x_label = "-log2(c_n)";
    convergence_plot.y_label = "log2(e_n), e_n = |q_o(10 s; c_n) - q_o(10 s; 0)|";
    bool ok = true;
    for (const Push& push : kPushes) {
      const ScenePtr scene = LoadExample("disk_pushing/" + push.file);
      LinePlot plot;
      plot.title = "Disk push: " + push.name + " (c = 0 dashed; c = 2^(4-n), n = 2..14)";
      plot.x_label = "x_W [m]";
      plot.y_label = "y_W [m]";
      MatchAspect(&plot, push.x_max - push.x_min, push.y_max - push.y_min);
      // The plot window, as two invisible corner points.
      plot.series.push_back({"", {push.x_min, push.x_max}, {push.y_min, push.y_max}, "#ffffff"});
      if (push.name == "wall")
        plot.series.push_back({"wall y = 0", {push.x_min, push.x_max}, {0, 0}, "#808080"});
      const Trajectory perfect = Run(scene, 0.0);
      AddRows(push.name, 0, 0.0, perfect, &trajectories);
      std::cout << push.name << ", c = 0: " << perfect.steps.size() << " of "
                << perfect.steps_requested << " steps"
                << (perfect.completed() ? "" : " (" + perfect.message + ")") << "\n";
      std::vector<double> log_c, log_e;
      for (int n = 2; n <= kConvergence; ++n) {
        const double c = FeedbackScale(n);
        const Trajectory run = Run(scene, c);
        if (!run.completed()) {
          std::cerr << push.name << ", c = " << c << ": " << run.message << "\n";
          ok = false;
          continue;
        }
        if (n <= kPlotted) {
          AddRows(push.name, n, c, run, &trajectories);
          const std::string color = Ramp(n - 2, kPlotted - 1);
          plot.series.push_back(PathOf(
              run, 0, n == 2 || n == kPlotted ? "c = 2^" + std::to_string(4 - n) : "", color));
          AddFinalPose(run, color, &plot);
        }
        if (push.name == "wall" || !perfect.completed()) continue;
        const double e =
            (run.FinalConfiguration().head<3>() - perfect.FinalConfiguration().head<3>()).norm();
        convergence.Row(push.name, n, c, e, std::log2(c), std::log2(e));
        if (n >= kFitFirst && n <= kFitLast) {
          log_c.push_back(std::log2(c));
          log_e.push_back(std::log2(e));
        }
        if (n == 2) convergence_plot.series.push_back({push.name, {}, {}, ""});
        convergence_plot.series.back().x.push_back(-std::log2(c));
        convergence_plot.series.back().y.push_back(std::log2(e));
      }
      plot.series.push_back(PathOf(perfect, 0, "c = 0", "#000000", true));
      AddFinalPose(perfect, "#000000", &plot);
      WriteLinePlotSvg(plot, out / ("disk_" + push.name + ".svg"));
      if (!log_c.empty()) {
        const double slope = Slope(log_c, log_e);
        slopes.Row(push.name, slope);
        std::cout << push.name << ": slope of log2 e on log2 c for c = 2^-" << kFitFirst - 4
                  << " ... 2^-" << kFitLast - 4 << ": " << slope << "\n";
      }
    }
    trajectories.Write(out / "disk_pushing_trajectories.csv");
    convergence.Write(out / "disk_convergence.csv");
    slopes.Write(out / "disk_convergence_slopes.csv");
    WriteLinePlotSvg(convergence_plot, out / "disk_convergence.svg");
    return ok ? 0 : 1;
  } catch (const std::exception& e) {
    std::cerr << "disk_pushing_figures: " << e.what() << "\n";
    return 2;
  }
}
