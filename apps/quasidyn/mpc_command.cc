#include "mpc_command.h"

#include <algorithm>
#include <cmath>
#include <iomanip>
#include <iostream>
#include <map>
#include <memory>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "log.h"
#include "output_paths.h"
#include "progress_bar.h"
#include "quasidyn/common/atomic_file_writer.h"
#include "quasidyn/common/closest_name.h"
#include "quasidyn/control/mpc_closed_loop.h"
#include "quasidyn/formulations/registry.h"
#include "quasidyn/scenes/scene_loading.h"
#include "quasidyn/simulation/trajectory_file.h"
#include "quasidyn/viewer/html_writer.h"
#include "scene_file.h"
#include "setting_flags.h"

namespace quasidyn::cli {
namespace {

struct MpcOptions {
  std::string scene_path, formulation, out_path, html_path, csv_path;
  int steps = 50;
  SettingOverrides overrides;  // mpc settings given as flags (the rest: the scene's block)
  CLI::Option* formulation_option = nullptr;
};

double Percentile(std::vector<double> values, double fraction) {
  if (values.empty()) return 0.0;
  std::sort(values.begin(), values.end());
  return values[static_cast<size_t>(std::floor(fraction * (values.size() - 1) + 0.5))];
}

// The per-step CSV: the controller's answer and the plant's contact forces, summed over its
// contacts (normal force and the norm of the friction force) [N].
std::string StepsCsv(const MpcRun& run) {
  std::ostringstream csv;
  csv << std::setprecision(10);
  csv << "step,t,status,cost,nodes,qp_iterations,solve_seconds,gap,relative_gap,contacts,"
         "binding_caps,force,normal_force,friction_force\n";
  for (size_t k = 0; k < run.steps.size(); ++k) {
    const MpcRunStep& s = run.steps[k];
    double normal = 0, friction = 0;
    if (k < run.trajectory.steps.size()) {
      for (const ContactRecord& c : run.trajectory.steps[k].contacts) {
        normal += c.normal_force;
        friction += c.friction_force.norm();
      }
    }
    std::ostringstream force;
    for (Eigen::Index i = 0; i < s.force.size(); ++i) force << (i ? " " : "") << s.force[i];
    csv << k + 1 << ',' << (k + 1) * run.trajectory.time_step << ',' << ToString(s.status) << ','
        << s.cost << ',' << s.nodes << ',' << s.qp_iterations << ',' << s.solve_seconds << ','
        << s.gap << ',' << s.relative_gap << ',' << s.contacts << ',' << s.binding_caps << ",\""
        << force.str() << "\"," << normal << ',' << friction << '\n';
  }
  return csv.str();
}

void PrintSummary(const MpcRun& run, const MpcSettings& settings, const Scene& scene,
                  std::ostream& out) {
  std::vector<double> times, nodes;
  std::map<std::string, int> statuses;
  double largest_gap = 0;
  int caps = 0;
  for (const MpcRunStep& s : run.steps) {
    times.push_back(s.solve_seconds);
    nodes.push_back(s.nodes);
    ++statuses[std::string(ToString(s.status))];
    if (s.has_solution) largest_gap = std::max(largest_gap, s.relative_gap);
    caps = std::max(caps, s.binding_caps);
  }
  const Trajectory& t = run.trajectory;
  out << "scene            " << scene.name << " (plant " << t.formulation << ", h = " << t.time_step
      << " s)\n"
      << "horizon          N = " << settings.horizon << "\n"
      << "steps            " << t.steps_done << " of " << t.steps_requested << "\n";
  if (!run.steps.empty()) {
    out << "cost J*          first " << run.steps.front().cost << ", last " << run.steps.back().cost
        << "\n";
  }
  out << std::setprecision(3) << "MIQP solve       median " << 1e3 * Percentile(times, 0.5)
      << " ms, max " << 1e3 * Percentile(times, 1.0) << " ms\n"
      << "MIQP nodes       median " << Percentile(nodes, 0.5) << ", max " << Percentile(nodes, 1.0)
      << "\n"
      << "largest gap      " << largest_gap << " (relative)\n"
      << std::setprecision(6) << "statuses        ";
  for (const auto& [name, count] : statuses) out << " " << name << " " << count;
  out << "\n";
  if (caps > 0) out << "impulse caps     binding at up to " << caps << " impulses (docs/mpc.md)\n";
  const Eigen::VectorXd& q = t.FinalConfiguration();
  out << "final q_a        " << q.tail(scene.nq_a).transpose() << " (target "
      << settings.target.head(scene.nq).tail(scene.nq_a).transpose() << ")\n";
}

void RunMpcCommand(const MpcOptions& options) {
  const ScenePtr scene = std::make_shared<const Scene>(LoadSceneFile(options.scene_path, "mpc"));
  if (!scene->mpc)
    throw std::invalid_argument(options.scene_path +
                                ": the scene has no mpc: block (docs/scene-format.md, \"MPC\")");
  MpcSettings settings = *scene->mpc;
  ApplySettingOverrides(MpcSettingsSchema(), options.overrides, &settings);
  if (options.steps < 0)
    throw std::invalid_argument("--steps must be >= 0 (got " + std::to_string(options.steps) + ")");
  // The plant: a formulation with a velocity state commanded by the robots' positions (the
  // MPC's model is second order, control/mpc_linear_model.h).
  const auto fits = [](const FormulationPlugin& p) {
    return p.info.capabilities.state == StateKind::kConfigurationAndVelocity &&
           p.info.capabilities.command == CommandKind::kRobotPositions;
  };
  std::vector<std::string> fit;  // the registered formulations the plant can be
  for (const FormulationPlugin* p : FormulationRegistry::Global().Plugins())
    if (fits(*p)) fit.push_back(p->info.name);
  FormulationChoice plant_choice;
  if (options.formulation_option->count() > 0) {
    plant_choice.name = options.formulation;
  } else if (!fits(ChosenFormulation(*scene, plant_choice)) && !fit.empty()) {
    plant_choice.name = fit.front();  // the scene's own cannot be the plant
  }
  const FormulationPlugin& plant_formulation = ChosenFormulation(*scene, plant_choice);
  if (!fits(plant_formulation)) {
    throw std::invalid_argument(
        "--formulation: the MPC's plant needs a velocity state and the robots' positions as "
        "its command; " +
        plant_formulation.info.name + " has a state of " +
        StateKindName(plant_formulation.info.capabilities.state) + " and commands " +
        CommandKindName(plant_formulation.info.capabilities.command) + " (give " +
        JoinNames(fit, " or ") + ")");
  }
  if (settings.time_step > 0) plant_choice.time_step = settings.time_step;
  std::vector<NamedPath> outputs;
  if (!options.out_path.empty())
    outputs.push_back({"--out", options.out_path, TrajectoryExtensions()});
  if (!options.html_path.empty())
    outputs.push_back({"--html", options.html_path, HtmlExtensions()});
  if (!options.csv_path.empty()) outputs.push_back({"--csv", options.csv_path, CsvExtensions()});
  CheckOutputPaths(SceneInputs(*scene, "SCENE"), outputs);

  ContactMpc controller(scene, settings);  // std::invalid_argument names a bad field
  const auto plant = MakeStepModel(scene, plant_choice);
  std::unique_ptr<ProgressBar> bar;
  if (ShowsProgress())
    bar = std::make_unique<ProgressBar>(LogStream(), "mpc " + scene->name, options.steps, "steps");
  MpcRunOptions run_options;
  run_options.steps = options.steps;
  run_options.progress = [&](int k, const MpcStep& answer) {
    if (bar) bar->Update(k);
    if (Logs(LogLevel::kDebug)) {
      LogStream() << "step " << k << ": " << ToString(answer.status) << ", J* " << answer.cost
                  << ", " << answer.info.nodes << " nodes, " << 1e3 * answer.info.solve_time_seconds
                  << " ms, gap " << answer.relative_gap << ", force " << answer.force.transpose()
                  << "\n";
    }
  };
  const MpcRun run = RunMpc(*plant, &controller, InitialState(*plant), run_options);
  if (bar) bar->Finish();
  if (!options.out_path.empty()) WriteTrajectory(run.trajectory, options.out_path);
  if (!options.html_path.empty()) {
    ViewerDataOptions viewer;  // the target x_d's configuration, robots included
    viewer.target_configuration = settings.target.head(scene->nq);
    viewer.target_label = "target";
    viewer.target_objects_only = false;
    WriteViewerHtml(*scene, run.trajectory, options.html_path, viewer);
  }
  if (!options.csv_path.empty()) WriteFileAtomically(options.csv_path, StepsCsv(run));
  PrintSummary(run, settings, *scene, std::cout);
  if (!options.out_path.empty()) std::cout << "trajectory       " << options.out_path << "\n";
  if (!options.html_path.empty()) std::cout << "viewer           " << options.html_path << "\n";
  if (!options.csv_path.empty()) std::cout << "per-step CSV     " << options.csv_path << "\n";
  std::cout << std::flush;
  if (!run.completed()) {
    std::cerr << "quasidyn: mpc: " << scene->name << ": " << run.message << "\n";
    throw CLI::RuntimeError(kStepFailedExitCode);
  }
}

}  // namespace

void AddMpcCommand(CLI::App& app) {
  auto o = std::make_shared<MpcOptions>();
  CLI::App* cmd = app.add_subcommand(
      "mpc",
      "Run the MPC through contact (an MIQP per step) in closed loop on a second-order plant");
  cmd->add_option("SCENE", o->scene_path, "Scene file with an mpc: block")->required();
  cmd->add_option("--steps", o->steps, "Control steps K >= 0 (default 50)");
  o->formulation_option = cmd->add_option(
      "--formulation", o->formulation,
      "The plant: a formulation with a velocity state commanded by positions (default: the "
      "scene's, else the first registered such)");
  // Every setting of the mpc block, as a flag (its default: the scene's block's value).
  AddSettingFlags(cmd, MpcSettingsSchema().specs(), &o->overrides);
  cmd->add_option("--out", o->out_path, "Write the plant's trajectory (.json, .npz or .csv)");
  cmd->add_option("--html", o->html_path, "Write a self-contained HTML viewer of the run");
  cmd->add_option("--csv", o->csv_path, "Write one row per control step (docs/mpc.md)");
  AddQuietFlag(cmd);
  cmd->callback([o] { RunMpcCommand(*o); });
}

}  // namespace quasidyn::cli
