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
//     18, c from 2⁻⁶ to 2⁻¹⁴), printed and written. The wall push has no c = 0 run to 10 s (it
//     stops at the squeeze): its e_n is the difference of successive runs, ‖q_o(10 s; c_n) −
//     q_o(10 s; c_(n−1))‖, which is ∝ c_n too when q_o(10 s; c) = q_∞ + a c + o(c) (§6.1: "still
//     exhibits convergent behavior thereafter"), fitted over the same c.
//   * §7's "numerical precision may however be lost for small c": the same e_n for n = 21 … 56
//     (c down to 2⁻⁵²), the local slope log₂(e_(n−1)/e_n) of each n, and the first c below the
//     fit's range at which it leaves 1 by more than 0.1 (or a run fails), printed and written.
//   * Theorems 2 and 3 and the c = 0 (B = 0) reduction, checked on every step of every run
//     (B = I4 in the four scenes, `B: 1`; A from the scene's limit surface): c‖F_m‖ ≤ ‖u‖/λ_min(B)
//     (Theorem 2), with c F_m = B⁻¹(Δq_m − h u)/h; c‖F_o‖ = c‖A⁻¹Δq_o‖/h → 0 while c‖F_m‖ does
//     not, so that c λ tends to an internal force (Theorem 3); under perfect velocity control the
//     fingers follow the command exactly, Δq_m = h u (§5: B = 0 is the program of Zhou et al.).
//
// Writes into OUT_DIR: disk_pushing_trajectories.csv (scene, n (0 for c = 0), c, t [s], x, y
// [m], θ [rad] of the disk, the fingers' x, y [m], status), disk_convergence.csv (scene, n, c,
// e [m or rad], log2_c, log2_e), disk_convergence_slopes.csv (scene, slope), disk_precision.csv
// (scene, n, c, e, log2_c, log2_e, local_slope, status), disk_theorems.csv (scene, n, c,
// max_c_Fo, max_c_Fm, theorem2_ratio: the largest c‖F_o‖, c‖F_m‖ [N, B in m s⁻¹ N⁻¹] and
// c‖F_m‖ λ_min(B)/‖u‖ over the run's steps) and the plots disk_<scene>.svg,
// disk_convergence.svg. Exit status 1 when a finite-feedback run of n <= 20 fails.
//
// Usage: disk_pushing_figures OUT_DIR

#include <algorithm>
#include <cmath>
#include <iomanip>
#include <iostream>
#include <map>
#include <string>
#include <vector>

#include "common/halm_posa_figures.h"
#include "quasidyn/formulations/halm_posa/limit_surface.h"

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
constexpr int kPrecisionLast = 56;  // c = 2⁻⁵²: §7's precision loss, n = 21 … 56
constexpr double kSlopeDeparture = 0.1;

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

// Theorems 2 and 3 on one run: the largest c‖F_o‖ and c‖F_m‖ over its steps and the largest
// c‖F_m‖ λ_min(B)/‖u‖, from the step's displacements (Δq_o = h A J_oᵀλ, Δq_m = h u + h c B
// J_mᵀλ, the time-stepping LCP's, eqs. (32)-(33)); B = I4 (the scenes' `B: 1`), so λ_min(B) = 1.
struct ForceBounds {
  double max_c_fo = 0, max_c_fm = 0, theorem2_ratio = 0;
  double max_tracking_error = 0;  // max ‖Δq_m − h u‖ [m] (c = 0: 0 up to rounding)
};

ForceBounds Forces(const ScenePtr& scene, const Trajectory& t, double c) {
  const std::vector<ObjectLimitSurface> surfaces = ObjectLimitSurfaces(*scene);
  const double h = scene->time_step;
  ForceBounds out;
  Eigen::VectorXd previous = t.q0;
  for (const TrajectoryStep& s : t.steps) {
    const Eigen::Vector3d dq_o = s.q.head<3>() - previous.head<3>();
    const Eigen::VectorXd tracking = s.q.tail(4) - previous.tail(4) - h * s.u;
    const Eigen::Matrix3d A = WorldLimitSurface(surfaces.front().body, previous[2]);
    out.max_c_fo = std::max(out.max_c_fo, c * A.ldlt().solve(dq_o).norm() / h);
    out.max_c_fm = std::max(out.max_c_fm, tracking.norm() / h);
    out.max_tracking_error = std::max(out.max_tracking_error, tracking.norm());
    if (s.u.norm() > 0)
      out.theorem2_ratio = std::max(out.theorem2_ratio, tracking.norm() / (h * s.u.norm()));
    previous = s.q;
  }
  return out;
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
    Csv precision("scene,n,c,e,log2_c,log2_e,local_slope,status");
    Csv theorems("scene,n,c,max_c_Fo,max_c_Fm,theorem2_ratio");
    double theorem2_worst = 0, perfect_tracking_worst = 0;
    int theorem_runs = 0;
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
      perfect_tracking_worst =
          std::max(perfect_tracking_worst, Forces(scene, perfect, 0.0).max_tracking_error);
      // The reference of e_n: the c = 0 run, or, where it stops (the wall), the previous c.
      const bool successive = !perfect.completed();
      std::vector<double> log_c, log_e;
      Eigen::Vector3d previous_final;
      bool have_previous = false;
      double previous_log2_e = NAN;
      int departure = 0;  // the first n > kFitLast whose local slope leaves 1 (0: none)
      double departure_slope = NAN, departure_e = NAN;
      bool in_plot = false;              // this push's series of the convergence plot is started
      std::string departure_status;      // the failed run's status, when a failure is the departure
      int failures = 0, smallest_n = 0;  // failed runs of n > kConvergence; the n of the least e
      double smallest_e = INFINITY;
      for (int n = 2; n <= kPrecisionLast; ++n) {
        const double c = FeedbackScale(n);
        const Trajectory run = Run(scene, c);
        if (!run.completed()) {
          if (n <= kConvergence) {
            std::cerr << push.name << ", c = " << c << ": " << run.message << "\n";
            ok = false;
          } else {
            precision.Row(push.name, n, c, NAN, std::log2(c), NAN, NAN, ToString(run.status));
            ++failures;
            if (departure == 0) departure = n, departure_status = ToString(run.status);
          }
          have_previous = false;
          previous_log2_e = NAN;
          continue;
        }
        if (n <= kConvergence) {
          const ForceBounds forces = Forces(scene, run, c);
          theorems.Row(push.name, n, c, forces.max_c_fo, forces.max_c_fm, forces.theorem2_ratio);
          theorem2_worst = std::max(theorem2_worst, forces.theorem2_ratio);
          ++theorem_runs;
        }
        if (n <= kPlotted) {
          AddRows(push.name, n, c, run, &trajectories);
          const std::string color = Ramp(n - 2, kPlotted - 1);
          plot.series.push_back(PathOf(
              run, 0, n == 2 || n == kPlotted ? "c = 2^" + std::to_string(4 - n) : "", color));
          AddFinalPose(run, color, &plot);
        }
        const Eigen::Vector3d final_pose = run.FinalConfiguration().head<3>();
        const bool have_reference = successive ? have_previous : true;
        const Eigen::Vector3d reference =
            successive ? previous_final : Eigen::Vector3d(perfect.FinalConfiguration().head<3>());
        previous_final = final_pose;
        have_previous = true;
        if (!have_reference) continue;
        const double e = (final_pose - reference).norm();
        const double log2_e = std::log2(e);
        if (n > kConvergence) {
          const double local = previous_log2_e - log2_e;  // log₂ c_(n−1) − log₂ c_n = 1
          precision.Row(push.name, n, c, e, std::log2(c), log2_e, local, ToString(run.status));
          if (e < smallest_e) smallest_e = e, smallest_n = n;
          if (departure == 0 && !(std::abs(local - 1) <= kSlopeDeparture)) {
            departure = n;
            departure_slope = local;
            departure_e = e;
          }
          previous_log2_e = log2_e;
          continue;
        }
        previous_log2_e = log2_e;
        convergence.Row(push.name, n, c, e, std::log2(c), log2_e);
        if (n >= kFitFirst && n <= kFitLast) {
          log_c.push_back(std::log2(c));
          log_e.push_back(log2_e);
        }
        if (!in_plot)
          convergence_plot.series.push_back(
              {successive ? push.name + " (against the previous c)" : push.name, {}, {}, ""});
        convergence_plot.series.back().x.push_back(-std::log2(c));
        convergence_plot.series.back().y.push_back(log2_e);
        in_plot = true;
      }
      std::cout << push.name << ": local slope of log2 e within " << kSlopeDeparture
                << " of 1 down to c = 2^-" << (departure > 0 ? departure : kPrecisionLast + 1) - 5;
      if (departure > 0 && !departure_status.empty())
        std::cout << "; at c = 2^-" << departure - 4 << " the run fails (" << departure_status
                  << ")";
      else if (departure > 0)
        std::cout << "; at c = 2^-" << departure - 4 << ": local slope " << departure_slope
                  << ", e " << departure_e;
      std::cout << "; " << failures << " of " << kPrecisionLast - kConvergence << " runs of c = 2^-"
                << kConvergence - 3 << " ... 2^-" << kPrecisionLast - 4 << " fail";
      if (smallest_n > 0)
        std::cout << "; least e " << smallest_e << " at c = 2^-" << smallest_n - 4;
      std::cout << "\n";
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
    precision.Write(out / "disk_precision.csv");
    theorems.Write(out / "disk_theorems.csv");
    WriteLinePlotSvg(convergence_plot, out / "disk_convergence.svg");
    std::cout << std::setprecision(17) << "Theorem 2: largest c|F_m| lambda_min(B)/|u| over the "
              << theorem_runs << " finite-c runs (n = 2 ... " << kConvergence
              << ") and their steps: " << theorem2_worst << " (bound 1)\n"
              << "c = 0 (B = 0): largest |dq_m - h u| over the runs' steps: "
              << perfect_tracking_worst << " m\n";
    return ok ? 0 : 1;
  } catch (const std::exception& e) {
    std::cerr << "disk_pushing_figures: " << e.what() << "\n";
    return 2;
  }
}
