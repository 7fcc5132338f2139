#include "optimize_command.h"

#include <cstdio>
#include <iomanip>
#include <iostream>
#include <memory>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "interrupt.h"
#include "log.h"
#include "output_paths.h"
#include "quasidyn/control/plan_trajectory.h"
#include "quasidyn/control/planner_metric.h"
#include "quasidyn/control/trajectory_optimizer.h"
#include "quasidyn/formulations/registry.h"
#include "quasidyn/planning/object_space.h"
#include "quasidyn/planning/refined_plan_file.h"
#include "quasidyn/scenes/scene_loading.h"
#include "quasidyn/simulation/rollout.h"
#include "quasidyn/simulation/trajectory_file.h"
#include "quasidyn/viewer/html_writer.h"
#include "quasidyn/viewer/svg_plot.h"
#include "scene_file.h"
#include "setting_flags.h"

namespace quasidyn::cli {
namespace {

// The objects' final error q_u ⊖ goal in their tangent space (planning/object_space.h):
// positions [m], a planar angle wrapped to [−π, π] [rad], a floating object's rotation vector
// [rad] (so a turn by 2π, or a quaternion of the other sign, is no error). Scenes ObjectSpace
// does not take (articulated objects) get the raw difference of coordinates.
Eigen::VectorXd ObjectError(const Scene& scene, const Eigen::VectorXd& q,
                            const Eigen::VectorXd& goal) {
  try {
    return ObjectSpace(scene).Difference(q, goal);
  } catch (const std::invalid_argument&) {
    return q.head(scene.nq_u) - goal;
  }
}

struct OptimizeOptions {
  std::string scene_path, initial_path, out_path, html_path, plot_path;
  double time_step = 0.0;
  SettingOverrides overrides;  // the optimizer block's settings given as flags
  CLI::Option* time_step_option = nullptr;
};

bool Given(const SettingOverrides& overrides, const std::string& name) {
  for (const SettingOverride& o : overrides)
    if (o.name == name) return true;
  return false;
}

bool IsRegraspOf(const std::vector<bool>& regrasp_steps, int k) {
  return !regrasp_steps.empty() && regrasp_steps[k];
}

bool HasExtension(const std::string& path, const std::string& extension) {
  return path.size() >= extension.size() &&
         path.compare(path.size() - extension.size(), extension.size(), extension) == 0;
}

void WriteCostPlot(const OptimizationResult& result, const std::string& path) {
  LinePlot plot;
  plot.title = "iterative MPC: exact cost per iteration";
  plot.x_label = "iteration";
  plot.y_label = "J [-]";
  PlotSeries candidate{"candidate", {}, {}, "", false}, best{"best", {}, {}, "", false};
  best.x.push_back(0);
  best.y.push_back(result.initial_cost);
  for (const OptimizerIteration& it : result.iterations) {
    if (std::isfinite(it.cost)) {
      candidate.x.push_back(it.index + 1);
      candidate.y.push_back(it.cost);
    }
    best.x.push_back(it.index + 1);
    best.y.push_back(it.best_cost);
  }
  plot.series = {best, candidate};
  WriteLinePlotSvg(plot, path);
}

void RunOptimize(const OptimizeOptions& options) {
  TrajectoryOptimizerSettings s;  // checked here: a bad value is named before the scene loads
  ApplyOptimizerSettingOverrides(options.overrides, &s);
  const ScenePtr scene =
      std::make_shared<const Scene>(LoadSceneFile(options.scene_path, "optimize"));
  // Without --goal, the goal of the scene's planning: block (a side file's, docs/qsim-files.md).
  bool in_planner_metric = false;
  if (!Given(options.overrides, "goal")) {
    if (!scene->planning || scene->planning->goal.size() == 0)
      throw std::invalid_argument("--goal is required: the scene " + options.scene_path +
                                  " has no planning: block with a goal");
    s.object_goal = scene->planning->goal;
    // The goal's cost in the metric that defines it (control/planner_metric.h), unless given;
    // weights 1 for objects the planner's metric does not take (articulated ones).
    if (!Given(options.overrides, "object_weight")) {
      try {
        s = OptimizerInPlannerMetric(s, *scene, *scene->planning);
        in_planner_metric = true;
      } catch (const std::invalid_argument&) {
      }
    }
  }
  FormulationChoice stepping;
  GuessFile initial;
  if (!options.initial_path.empty()) {
    // The initial guess's stepper (a planner's h, formulation and parameters), so that its path
    // is reproduced; --h overrides the time step.
    initial = ReadGuessFile(options.initial_path);
    stepping = ChoiceOf(initial.trajectory);
  }
  if (options.time_step_option->count() > 0) {
    if (!std::isfinite(options.time_step) || !(options.time_step > 0))
      throw std::invalid_argument("--h: the time step must be a finite number > 0 s");
    stepping.time_step = options.time_step;
  }
  std::vector<NamedPath> outputs{{"--out", options.out_path, TrajectoryExtensions()}};
  if (!options.html_path.empty())
    outputs.push_back({"--html", options.html_path, HtmlExtensions()});
  if (!options.plot_path.empty()) outputs.push_back({"--plot", options.plot_path, SvgExtensions()});
  CheckOutputPaths(SceneInputs(*scene, "SCENE"), outputs);
  const auto model = MakeStepModel(scene, stepping);

  if (!options.initial_path.empty() && !Given(options.overrides, "horizon"))
    s.horizon = std::max(1, static_cast<int>(initial.trajectory.steps.size()));
  if (Logs(LogLevel::kInfo)) {  // not with --quiet
    // The header with the first row: settings the optimiser refuses print no table.
    s.progress = [](const OptimizerIteration& it) {
      if (it.index == 0) {
        std::printf("%4s %10s %10s %12s %12s %9s  %s\n", "iter", "kappa/std", "trust", "cost",
                    "best", "time[ms]", "note");
      }
      std::printf("%4d %10.4g %10.4g %12.6g %12.6g %9.2f  %s\n", it.index, it.parameter,
                  it.trust_region, it.cost, it.best_cost, 1e3 * it.seconds, it.message.c_str());
      std::fflush(stdout);
    };
  }
  const Eigen::VectorXd q0 = scene->q0;
  std::vector<Eigen::VectorXd> u0;
  int regrasps = 0;
  if (!options.initial_path.empty()) {
    const InitialGuess guess =
        GuessFromTrajectory(initial.trajectory, initial.step_edges, *model, s.horizon);
    u0 = guess.u;
    for (bool r : guess.regrasp) regrasps += r;
    if (regrasps > 0) s.regrasp_steps = guess.regrasp;
  } else {
    for (int k = 0; k < s.horizon; ++k) {
      u0.push_back(model->ScheduledCommand((k + 1) * model->time_step(), State{q0, {}}));
    }
  }
  OptimizationResult result;
  {
    InterruptScope interrupt;  // Ctrl-C keeps the best iterate so far (docs/cli.md)
    s.cancel = interrupt.token();
    TrajectoryOptimizer optimizer(model, s);  // sizes against the scene: "optimizer.<field>: ..."
    result = optimizer.Optimize(q0, u0);
  }
  int accepted = 0;
  for (const OptimizerIteration& it : result.iterations) accepted += it.accepted;
  // With each step's contacts and forces (solved again), for the page and the file.
  const Trajectory trajectory = PlanToTrajectory(*model, result.q, result.u, s.regrasp_steps);
  const bool plan_file = !initial.step_edges.empty();
  if (plan_file && HasExtension(options.out_path, ".json")) {
    // A plan file again, with its step kinds and settings (planning/refined_plan_file.h).
    std::vector<EdgeKind> kinds;
    for (int k = 0; k < s.horizon; ++k)
      kinds.push_back(IsRegraspOf(s.regrasp_steps, k) ? EdgeKind::kRegrasp : EdgeKind::kExtend);
    PlanRefinement refinement;
    refinement.initial_guess = options.initial_path;
    refinement.initial_cost = result.initial_cost;
    refinement.cost = result.best_cost;
    refinement.iterations = static_cast<int>(result.iterations.size());
    refinement.accepted = accepted;
    refinement.initial_penetration = result.initial_penetration;
    refinement.max_penetration = result.max_penetration;
    refinement.seconds = result.seconds;
    WriteRefinedPlanFile(options.initial_path, trajectory, kinds, refinement, options.out_path);
  } else {
    if (plan_file && regrasps > 0 && Logs(LogLevel::kWarning)) {
      LogStream() << "quasidyn: optimize: " << options.out_path
                  << " is not a .json plan file: its regrasp steps are written as plain steps "
                     "(track would command them as motions of the fingers only)\n";
    }
    WriteTrajectory(trajectory, options.out_path);
  }
  if (!options.html_path.empty()) {
    ViewerDataOptions viewer;  // the objects' goal drawn on the page, the robots where they end
    viewer.target_configuration = result.q.back();
    viewer.target_configuration.head(scene->nq_u) = s.object_goal;
    viewer.target_label = "goal";
    WriteViewerHtml(*scene, trajectory, options.html_path, viewer);
  }
  if (!options.plot_path.empty()) WriteCostPlot(result, options.plot_path);
  double linearize_seconds = 0.0, qp_seconds = 0.0;
  int qps = 0;
  for (const OptimizerIteration& it : result.iterations) {
    linearize_seconds += it.linearize_seconds;
    qp_seconds += it.qp_seconds;
    qps += it.qps;
  }
  const Eigen::VectorXd error = ObjectError(*scene, result.q.back(), s.object_goal);
  std::cout << "scene            " << scene->name << " (h = " << model->time_step()
            << " s, T = " << s.horizon << ", smoothing " << SmoothingMethodName(s.smoothing.method)
            << (s.shrinking_horizon ? ", shrinking horizon" : "")
            << (s.per_segment ? ", one QP per segment" : "") << ")\n";
  if (!options.initial_path.empty()) {
    std::cout << "initial guess    " << options.initial_path << " (" << regrasps
              << " regrasp steps kept)\n";
  }
  if (in_planner_metric) {
    std::cout << "goal weights     the planner's metric: w = " << s.object_weight.transpose()
              << ", rate weight " << s.rate_weight << "\n";
  }
  std::cout << "iterations       " << result.iterations.size() << " (" << accepted << " accepted)\n"
            << "cost             " << result.initial_cost << " -> " << result.best_cost << "\n"
            << "final object err " << error.transpose() << "\n"
            << "penetration      deepest " << 1e3 * result.max_penetration << " mm (initial guess "
            << 1e3 * result.initial_penetration << " mm, tolerance "
            << 1e3 * s.penetration_tolerance << " mm)\n"
            << "wall time        " << result.seconds << " s (linearising " << linearize_seconds
            << " s, " << qps << " QPs " << qp_seconds << " s)\n";
  if (!result.message.empty()) std::cout << "stopped          " << result.message << "\n";
  std::cout << "trajectory       " << options.out_path << "\n";
  if (result.interrupted) {
    std::ostringstream what;
    what << "after " << result.iterations.size() << " iterations (" << std::setprecision(3)
         << result.seconds << " s): wrote " << options.out_path << " (the best iterate: cost "
         << result.initial_cost << " -> " << result.best_cost << ", " << accepted << " accepted)";
    ReportInterrupted("optimize", what.str());
  }
}

}  // namespace

void AddOptimizeCommand(CLI::App& app) {
  auto o = std::make_shared<OptimizeOptions>();
  CLI::App* cmd = app.add_subcommand(
      "optimize", "Trajectory optimisation through contact (iterative MPC) to an object goal");
  cmd->add_option("SCENE", o->scene_path, "Scene file (YAML)")->required();
  o->time_step_option = cmd->add_option(
      "--h", o->time_step, "Time step h [s] > 0 (default: the scene's; with --initial its h)");
  cmd->add_option("--initial", o->initial_path,
                  "Initial guess: the commands of this trajectory or plan file (a plan's "
                  "regrasps kept; the horizon, unless given, its steps)");
  // Every setting of the optimizer block, as a flag (trajectory_optimizer.h; `quasidyn settings
  // optimizer`); --goal, unless the scene's planning: block has a goal.
  AddSettingFlags(cmd, TrajectoryOptimizerSettingsSchema().specs(), &o->overrides);
  cmd->add_option("--out", o->out_path,
                  "Write the best plan to this trajectory file (.json, .npz or .csv)")
      ->required();
  cmd->add_option("--html", o->html_path, "Write an HTML viewer of the best plan");
  cmd->add_option("--plot", o->plot_path, "Write the cost per iteration as an SVG plot");
  AddQuietFlag(cmd);  // and no per-iteration lines
  cmd->callback([o] { RunOptimize(*o); });
}

}  // namespace quasidyn::cli
