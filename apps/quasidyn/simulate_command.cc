#include "simulate_command.h"

#include <algorithm>
#include <chrono>
#include <iomanip>
#include <iostream>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "formulation_options.h"
#include "log.h"
#include "output_paths.h"
#include "quasidyn/formulations/registry.h"
#include "quasidyn/scenes/scene_loading.h"
#include "quasidyn/simulation/rollout.h"
#include "quasidyn/simulation/rollout_settings.h"
#include "quasidyn/simulation/trajectory_file.h"
#include "quasidyn/viewer/html_writer.h"
#include "scene_file.h"
#include "setting_flags.h"
#include "timed_rollout.h"

namespace quasidyn::cli {
namespace {

struct SimulateOptions {
  std::string scene_path;
  FormulationOptions formulation;
  SettingOverrides overrides;  // the rollout block's settings given as flags
  std::string out_path;
  std::string html_path;
  // Set by CLI11: which options were given.
  CLI::Option* out_option = nullptr;
  CLI::Option* html_option = nullptr;
};

int ResolveStepCount(const RolloutSettings& settings, const StepModel& model) {
  if (const std::optional<int> steps = RolloutStepCount(settings, model)) return *steps;
  throw std::invalid_argument("scene '" + model.scene().name +
                              "' has no command schedule to run to its end: give --steps or "
                              "--duration");
}

void PrintSummary(const Trajectory& trajectory, double wall_seconds, const std::string& out_path,
                  std::ostream& out) {
  const int done = static_cast<int>(trajectory.steps.size());
  long long iterations = 0;
  int max_iterations = 0;
  size_t max_contacts = 0;
  for (const TrajectoryStep& step : trajectory.steps) {
    iterations += step.solver.iterations;
    max_iterations = std::max(max_iterations, step.solver.iterations);
    max_contacts = std::max(max_contacts, step.contacts.size());
  }
  out << "scene            " << trajectory.scene_name << " (formulation " << trajectory.formulation
      << ", h = " << trajectory.time_step << " s)\n";
  out << "steps            " << done << " of " << trajectory.steps_requested << "\n";
  out << "simulated time   " << done * trajectory.time_step << " s\n";
  out << "wall time        " << std::setprecision(3) << wall_seconds << " s";
  if (done > 0) out << " (" << 1e3 * wall_seconds / done << " ms per step)";
  out << std::setprecision(6) << "\n";
  out << "solver iters     mean " << std::fixed << std::setprecision(1)
      << (done > 0 ? static_cast<double>(iterations) / done : 0.0) << std::defaultfloat
      << std::setprecision(6) << ", max " << max_iterations << "\n";
  out << "max contacts     " << max_contacts << "\n";
  out << "final status     " << (trajectory.completed() ? "" : "stopped: ")
      << ToString(trajectory.status) << "\n";
  // StepResult::large_motion (stepping/body_motion.h): a warning, the run is not a failure.
  if (trajectory.large_motion_steps > 0)
    out << "warning          " << trajectory.large_motion_steps
        << " steps moved a body further than the contact tolerance: a contact may have been "
           "missed (a smaller h resolves it)\n";
  if (!out_path.empty()) out << "trajectory       " << out_path << "\n";
}

void RunSimulate(const SimulateOptions& options) {
  RolloutSettings settings;  // checked here: a bad value is named before the scene loads
  ApplyRolloutSettingOverrides(options.overrides, &settings);
  const ScenePtr scene_ptr =
      std::make_shared<const Scene>(LoadSceneFile(options.scene_path, "simulate"));
  const Scene& scene = *scene_ptr;
  const std::shared_ptr<const StepModel> model =
      MakeStepModel(scene_ptr, ChoiceFrom(options.formulation));
  const int steps = ResolveStepCount(settings, *model);
  // Before the run: a bad output path is found before minutes of simulation, not after.
  std::vector<NamedPath> outputs;
  if (options.out_option->count() > 0)
    outputs.push_back({"--out", options.out_path, TrajectoryExtensions()});
  if (options.html_option->count() > 0)
    outputs.push_back({"--html", options.html_path, HtmlExtensions()});
  CheckOutputPaths(SceneInputs(scene, "SCENE"), outputs);

  const TimedRollout run = RunRolloutWithProgress(*model, steps, "simulate " + scene.name);
  const Trajectory& trajectory = run.trajectory;
  const double wall_seconds = run.wall_seconds;

  // Written before reporting a failure: the steps done are worth keeping.
  if (!options.out_path.empty()) {
    TrajectoryWriteOptions write_options;
    write_options.every = settings.every;
    WriteTrajectory(trajectory, options.out_path, write_options);
  }
  if (!options.html_path.empty()) WriteViewerHtml(scene, trajectory, options.html_path);
  PrintSummary(trajectory, wall_seconds, options.out_path, std::cout);
  if (!options.html_path.empty()) std::cout << "viewer           " << options.html_path << "\n";
  std::cout << std::flush;
  if (!trajectory.completed()) {
    std::cerr << "quasidyn: simulate: " << scene.name << ": " << trajectory.message << "\n";
    throw CLI::RuntimeError(kStepFailedExitCode);  // main returns its exit code silently
  }
}

}  // namespace

void AddSimulateCommand(CLI::App& app) {
  auto options = std::make_shared<SimulateOptions>();
  CLI::App* simulate = app.add_subcommand(
      "simulate", "Run a scene's command schedule and write the trajectory (.json, .npz or .csv)");
  simulate->add_option("SCENE", options->scene_path, "Scene file (YAML)")->required();
  AddFormulationOptions(simulate, &options->formulation);
  // --steps, --duration and --every: the rollout block's settings (simulation/rollout_settings.h);
  // not --gradients: simulate's run (RunRolloutWithProgress) records no derivatives.
  AddSettingFlags(simulate, RolloutSettingsSchema().specs(), &options->overrides, {"gradients"});
  options->out_option = simulate->add_option(
      "--out", options->out_path,
      "Write the trajectory to this file, in the format of its extension: .json, .npz (NumPy "
      "arrays, compact and fast) or .csv (one row per step) (docs/trajectory-format.md); its "
      "folder is created");
  options->html_option = simulate->add_option(
      "--html", options->html_path,
      "Write a self-contained HTML viewer of the run to this file (its folder is created)");
  AddQuietFlag(simulate);
  simulate->callback([options] { RunSimulate(*options); });
}

}  // namespace quasidyn::cli
