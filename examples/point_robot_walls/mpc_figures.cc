// The 2D frictional contact notes, §3 (Figs. 2–4): the MPC through contact drives the point
// robot of scene.yaml from (−2, −4) toward (3, −5), beyond the right wall, with Q = Q_f = I and
// R = 10 I, for N = 5 and N = 20, in closed loop on the stewart-trinkle plant.
//
// Writes into OUT_DIR:
//   mpc_runs.csv         one row per horizon and control step: the state, the controller's J*,
//                        nodes, solve time and gap, the force sent, the realised stage cost
//                        (x − x_d)ᵀQ(x − x_d) + τᵀRτ, and per wall the plant's normal and friction
//                        force [N]
//   contact_forces_N5.svg, contact_forces_N20.svg   (Figs. 2 and 3) per wall, normal and friction
//   optimal_cost.svg     (Fig. 4) J* per step for both horizons, and J*/N
//   paths.svg            the robot's path for both, with the walls (drawn on the MPC's box of
//                        x and y, which the scene puts on the walls) and the target (a dot)
// and prints per horizon the friction and normal impulses delivered by the walls, the peak
// normal and friction forces, the realised cost, the MIQP's solve time (CPU) and nodes, and the
// notes' claims checked on these numbers (a claim that fails is printed as not holding).
// Exit status 1 when a run stops early.
//
// Usage: mpc_figures OUT_DIR [--steps K] [--scene PATH]
//   K control steps, default 60 = 6 s; PATH a scene with an mpc: block and walls named
//   right_wall, left_wall, floor (default examples/point_robot_walls/scene.yaml)

#include <CLI/CLI.hpp>
#include <algorithm>
#include <cmath>
#include <filesystem>
#include <iomanip>
#include <iostream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "common/tool_options.h"
#include "quasidyn/common/atomic_file_writer.h"
#include "quasidyn/control/mpc_closed_loop.h"
#include "quasidyn/formulations/registry.h"
#include "quasidyn/scenes/scene_loading.h"
#include "quasidyn/viewer/svg_plot.h"

namespace {

using namespace quasidyn;

const char* const kWalls[] = {"right_wall", "left_wall", "floor"};
const char* const kColors[] = {"#d62728", "#1f77b4", "#2ca02c"};

struct Totals {
  double friction_impulse = 0, normal_impulse = 0, realised_cost = 0;
  double peak_normal = 0, peak_friction = 0;  // the largest per wall and step [N]
  double first_contact_t = -1;                // the first step with a normal force [s], or −1
  std::vector<double> solve_seconds, nodes;
};

double Median(std::vector<double> v) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

// Whether and where the series `longer` falls below `shorter` for good: "from step k on" (k the
// first step, 1-based, after which every step has longer < shorter), or by how much it does not
// (the smallest longer/shorter over the run and its step).
std::string CrossingReport(const std::vector<double>& shorter, const std::vector<double>& longer) {
  const int n = static_cast<int>(std::min(shorter.size(), longer.size()));
  int first_below = -1;
  for (int k = n - 1; k >= 0 && longer[k] < shorter[k]; --k) first_below = k;
  std::ostringstream out;
  out << std::setprecision(4);
  if (n == 0) {
    out << "not compared (no steps)";
  } else if (first_below >= 0) {
    out << "below from step " << first_below + 1 << " on";
  } else {
    int best = 0;
    for (int k = 1; k < n; ++k)
      if (longer[k] / shorter[k] < longer[best] / shorter[best]) best = k;
    out << "never below for good (ratio N = 20 / N = 5 at least " << longer[best] / shorter[best]
        << ", at step " << best + 1 << "; at the last step " << longer[n - 1] / shorter[n - 1]
        << ")";
  }
  return out.str();
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app(
      "The 2D contact notes' Figs. 2-4: MPC through contact (MIQP) on the point robot between "
      "three walls, N = 5 and N = 20; a CSV and SVGs into OUT_DIR");
  std::string out_dir;
  int steps = 60;
  app.add_option("OUT_DIR", out_dir, "Folder for the CSV and the SVGs")->required();
  app.add_option("--steps", steps, "Control steps K >= 1 (default 60)");
  std::string scene_path =
      std::string(QUASIDYN_SOURCE_DIR) + "/examples/point_robot_walls/scene.yaml";
  app.add_option("--scene", scene_path,
                 "Scene with an mpc: block (default examples/point_robot_walls/scene.yaml)");
  bool quiet = false;
  quasidyn::tools::AddQuietFlag(&app, &quiet);
  quasidyn::tools::ParseOrExit(&app, argc, argv);
  const bool progress = quasidyn::tools::ShowsProgress(quiet);
  try {
    if (quiet) quasidyn::tools::SilenceStdout();
    if (steps < 1) throw std::invalid_argument("--steps must be >= 1");
    std::filesystem::create_directories(out_dir);
    const ScenePtr scene = std::make_shared<const Scene>(LoadScene(scene_path));
    if (!scene->mpc) throw std::invalid_argument(scene_path + ": no mpc: block");
    const auto plant = MakeStepModel(scene);

    std::ostringstream csv;
    csv << std::setprecision(10)
        << "horizon,step,t,x,y,vx,vy,cost,nodes,solve_seconds,relative_gap,status,force_x,"
           "force_y,stage_cost";
    for (const char* wall : kWalls) csv << ',' << wall << "_normal," << wall << "_friction";
    csv << '\n';
    LinePlot cost_plot, per_step_plot, paths;
    cost_plot.title = "Optimal cost J* per control step (notes' Fig. 4)";
    cost_plot.x_label = "t [s]";
    cost_plot.y_label = "J* [-]";
    per_step_plot.title = "J*/N, the optimal cost per horizon step";
    per_step_plot.x_label = "t [s]";
    per_step_plot.y_label = "J*/N [-]";
    const MpcSettings& base = *scene->mpc;
    // The walls on the MPC's box of the robot's centre: right x_max, left x_min, floor y_min.
    const double x_lo = base.state_lower[0], x_hi = base.state_upper[0];
    const double y_lo = base.state_lower[1], y_hi = base.state_upper[1];
    std::ostringstream path_title;
    path_title << "The robot's path (walls: x = " << x_hi << ", x = " << x_lo << ", y = " << y_lo
               << "; target (" << base.target[0] << ", " << base.target[1] << "))";
    paths.title = path_title.str();
    paths.x_label = "x [m]";
    paths.y_label = "y [m]";
    paths.series.push_back(
        {"walls", {x_hi, x_hi, x_lo, x_lo}, {y_hi, y_lo, y_lo, y_hi}, "#808080"});
    std::map<int, Totals> totals;
    std::map<int, std::vector<double>> stage_costs, optimal_costs;
    bool ok = true;
    // The MPC's target position (x_d's first two entries), a dot (a one-point series).
    paths.series.push_back({"target", {base.target[0]}, {base.target[1]}, "#000000", false, true});
    const Eigen::VectorXd& Q = base.state_weight;
    const Eigen::VectorXd& R = base.force_weight;
    for (const int horizon : {5, 20}) {
      MpcSettings settings = base;
      settings.horizon = horizon;
      ContactMpc mpc(scene, settings);
      MpcRunOptions options;
      options.steps = steps;
      if (progress) {
        options.progress = [&](int k, const MpcStep& answer) {
          std::cerr << "\rN = " << horizon << ": step " << k << "/" << steps << ", J* "
                    << answer.cost << ", " << answer.info.nodes << " nodes, "
                    << answer.info.solve_time_seconds << " s      " << std::flush;
        };
      }
      const MpcRun run = RunMpc(*plant, &mpc, InitialState(*plant), options);
      if (progress) std::cerr << "\n";
      if (!run.completed()) {
        std::cerr << "N = " << horizon << ": " << run.message << "\n";
        ok = false;
      }
      Totals& total = totals[horizon];
      LinePlot forces;
      forces.title = "Contact and friction forces, N = " + std::to_string(horizon) +
                     " (notes' Fig. " + (horizon == 5 ? "2" : "3") + ")";
      forces.x_label = "t [s]";
      forces.y_label = "force [N]";
      std::vector<PlotSeries> normal(3), friction(3);
      for (int w = 0; w < 3; ++w) {
        normal[w] = {std::string(kWalls[w]) + " normal", {}, {}, kColors[w], false};
        friction[w] = {std::string(kWalls[w]) + " friction", {}, {}, kColors[w], true};
      }
      PlotSeries cost{
          "N = " + std::to_string(horizon), {}, {}, horizon == 5 ? "#1f77b4" : "#d62728"};
      PlotSeries per_step = cost;
      PlotSeries path{"N = " + std::to_string(horizon),
                      {run.trajectory.q0[0]},
                      {run.trajectory.q0[1]},
                      cost.color};
      for (size_t k = 0; k < run.trajectory.steps.size(); ++k) {
        const TrajectoryStep& s = run.trajectory.steps[k];
        const MpcRunStep& c = run.steps[k];
        Eigen::VectorXd x(4);
        x << s.q, s.v;
        const Eigen::VectorXd e = x - base.target;
        const double stage = e.dot(Q.cwiseProduct(e)) + c.force.dot(R.cwiseProduct(c.force));
        total.realised_cost += stage;
        total.solve_seconds.push_back(c.cpu_seconds);
        total.nodes.push_back(c.nodes);
        stage_costs[horizon].push_back(stage);
        optimal_costs[horizon].push_back(c.cost);
        double wall_normal[3] = {0, 0, 0}, wall_friction[3] = {0, 0, 0};
        for (const ContactRecord& r : s.contacts) {
          for (int w = 0; w < 3; ++w) {
            if (r.shape_a.find(kWalls[w]) == std::string::npos &&
                r.shape_b.find(kWalls[w]) == std::string::npos)
              continue;
            wall_normal[w] += r.normal_force;
            wall_friction[w] += r.friction_force.norm();
          }
        }
        csv << horizon << ',' << k + 1 << ',' << s.t << ',' << s.q[0] << ',' << s.q[1] << ','
            << s.v[0] << ',' << s.v[1] << ',' << c.cost << ',' << c.nodes << ',' << c.solve_seconds
            << ',' << c.relative_gap << ',' << ToString(c.status) << ',' << c.force[0] << ','
            << c.force[1] << ',' << stage;
        for (int w = 0; w < 3; ++w) {
          total.peak_normal = std::max(total.peak_normal, wall_normal[w]);
          total.peak_friction = std::max(total.peak_friction, wall_friction[w]);
          if (wall_normal[w] > 0 && total.first_contact_t < 0) total.first_contact_t = s.t;
          csv << ',' << wall_normal[w] << ',' << wall_friction[w];
          normal[w].x.push_back(s.t);
          normal[w].y.push_back(wall_normal[w]);
          friction[w].x.push_back(s.t);
          friction[w].y.push_back(wall_friction[w]);
          total.normal_impulse += wall_normal[w] * run.trajectory.time_step;
          total.friction_impulse += wall_friction[w] * run.trajectory.time_step;
        }
        csv << '\n';
        cost.x.push_back(s.t);
        cost.y.push_back(c.cost);
        per_step.x.push_back(s.t);
        per_step.y.push_back(c.cost / horizon);
        path.x.push_back(s.q[0]);
        path.y.push_back(s.q[1]);
      }
      for (int w = 0; w < 3; ++w) {
        forces.series.push_back(normal[w]);
        forces.series.push_back(friction[w]);
      }
      WriteLinePlotSvg(forces, out_dir + "/contact_forces_N" + std::to_string(horizon) + ".svg");
      cost_plot.series.push_back(cost);
      per_step_plot.series.push_back(per_step);
      paths.series.push_back(path);
    }
    WriteLinePlotSvg(cost_plot, out_dir + "/optimal_cost.svg");
    WriteLinePlotSvg(per_step_plot, out_dir + "/optimal_cost_per_step.svg");
    WriteLinePlotSvg(paths, out_dir + "/paths.svg");
    WriteFileAtomically(out_dir + "/mpc_runs.csv", csv.str());

    std::cout << std::setprecision(4);
    for (const auto& [horizon, t] : totals) {
      if (t.solve_seconds.empty()) {  // the run stopped at its first step (reported above)
        std::cout << "N = " << horizon << ": no step done\n";
        continue;
      }
      std::ostringstream first_contact;
      first_contact << std::setprecision(4) << "first contact at t = " << t.first_contact_t << " s";
      std::cout << "N = " << horizon << ": "
                << (t.first_contact_t < 0 ? std::string("no contact") : first_contact.str())
                << ", peak normal force " << t.peak_normal << " N, peak friction force "
                << t.peak_friction << " N, friction impulse " << t.friction_impulse
                << " N·s, normal impulse " << t.normal_impulse << " N·s, realised cost "
                << t.realised_cost << ", J* first " << optimal_costs[horizon].front() << " last "
                << optimal_costs[horizon].back() << ", MIQP median "
                << 1e3 * Median(t.solve_seconds) << " ms CPU (max "
                << 1e3 * *std::max_element(t.solve_seconds.begin(), t.solve_seconds.end())
                << " ms), nodes median " << Median(t.nodes) << " (max "
                << *std::max_element(t.nodes.begin(), t.nodes.end()) << ")\n";
    }
    // The notes' claims, checked on these runs (docs/mpc.md quotes the outcome).
    const bool both_touch = totals[5].peak_normal > 0 && totals[20].peak_normal > 0 &&
                            totals[5].peak_friction > 0 && totals[20].peak_friction > 0;
    const bool more_friction = totals[20].friction_impulse > totals[5].friction_impulse;
    // J* sums N stage terms and the terminal one: J*/N as in the notes' plots, J*/(N + 1) the
    // mean over the terms it sums; the realised stage cost is the same measure for both.
    std::vector<double> per_step5, per_step20, per_term5, per_term20;
    for (double j : optimal_costs[5]) {
      per_step5.push_back(j / 5);
      per_term5.push_back(j / 6);
    }
    for (double j : optimal_costs[20]) {
      per_step20.push_back(j / 20);
      per_term20.push_back(j / 21);
    }
    std::cout << "claim 0 (both horizons press on a wall with friction, Figs. 2, 3): "
              << (both_touch ? "holds" : "does not hold") << "\n"
              << "claim 1 (longer horizon uses more friction): "
              << (more_friction ? "holds" : "does not hold") << "\n"
              << "claim 2 (longer horizon reaches a lower cost after a few steps): realised cost "
              << (totals[20].realised_cost < totals[5].realised_cost ? "lower" : "not lower")
              << " with N = 20; realised stage cost of N = 20 "
              << CrossingReport(stage_costs[5], stage_costs[20]) << "; J* of N = 20 "
              << CrossingReport(optimal_costs[5], optimal_costs[20]) << "; J*/N of N = 20 "
              << CrossingReport(per_step5, per_step20) << "; J*/(N + 1) of N = 20 "
              << CrossingReport(per_term5, per_term20) << "\n";
    return ok ? 0 : 1;
  } catch (const std::exception& e) {
    std::cerr << "mpc_figures: " << e.what() << "\n";
    return 1;
  }
}
