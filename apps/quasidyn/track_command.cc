#include "track_command.h"

#include <algorithm>
#include <cmath>
#include <iostream>
#include <memory>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "interrupt.h"
#include "log.h"
#include "output_paths.h"
#include "quasidyn/control/plan_tracking.h"
#include "quasidyn/control/plan_trajectory.h"
#include "quasidyn/control/planner_metric.h"
#include "quasidyn/control/replanning.h"
#include "quasidyn/control/stabilizer.h"
#include "quasidyn/control/trajopt_goal_connector.h"
#include "quasidyn/formulations/registry.h"
#include "quasidyn/planning/plan_json.h"
#include "quasidyn/planning/planning_overrides.h"
#include "quasidyn/scenes/scene_loading.h"
#include "quasidyn/simulation/rollout.h"
#include "quasidyn/simulation/trajectory_file.h"
#include "scene_file.h"
#include "setting_flags.h"
#include "track_page.h"

namespace quasidyn::cli {
namespace {

struct TrackOptions {
  std::string plan_path, plant_path, scene_path, out_path, html_path, plant_formulation;
  std::vector<double> offset;
  double friction_scale = 1.0;
  int substeps = 1;
  bool open_loop = false;
  int replan = 0;  // plans made after the first from where the plant ended (replanning.h)
  double replan_time_limit = 0.0;  // > 0: each new plan's wall-time limit [s]; 0: the plan's
  // Settings given as flags: the stabiliser's (stabilizer.h), tracking's (plan_tracking.h) and
  // replanning's own (replanning.h).
  SettingOverrides stabilizer, tracking, replanning;
};

// The planning settings the plan was made with: the plan file's (`plan_file`), else the model
// scene's planning block, else none.
std::optional<PlanningSettings> PlanSettingsOf(const TrackOptions& options, bool plan_file,
                                               const Scene& model_scene) {
  if (plan_file) return PlanningSettingsOfPlanFile(options.plan_path, model_scene);
  if (model_scene.planning) return ResolvePlanningSettings(model_scene, {});
  return std::nullopt;
}

// The stabiliser's settings: the flags' (`given`, checked), with the object cost
// --object-weight, else the planner's metric of `planning` (PlanSettingsOf; with the command
// weight scaled to it: StabilizerInPlannerMetric), else all 1 (StabilizerSettings).
StabilizerSettings StabilizerSettingsOf(StabilizerSettings given,
                                        const std::optional<PlanningSettings>& planning,
                                        const Scene& model_scene) {
  if (given.object_weight.size() == 0 && planning)
    return StabilizerInPlannerMetric(given, model_scene, *planning);
  return given;
}

// "after STEPS control steps: wrote OUT (the trajectory so far)" (without --out: nothing
// written).
std::string InterruptedTrackText(const std::string& steps, const std::string& out_path) {
  return "after " + steps + " control steps: " +
         (out_path.empty() ? std::string("no --out, nothing written")
                           : "wrote " + out_path + " (the trajectory so far)");
}

// `--replan N`: the plan, then up to N plans from where the plant ended (control/replanning.h),
// with the plan file's own settings (a trajectory file: the model scene's planning block); prints
// one line per plan.
void RunReplanning(const TrackOptions& options, ReplanningSettings settings, bool plan_file,
                   ScenePtr model_scene, std::shared_ptr<const StepModel> model,
                   const PlanToTrack& first, const StepModel& plant,
                   const Eigen::VectorXd& plant_q0) {
  if (std::isnan(options.replan_time_limit) || options.replan_time_limit < 0.0)
    throw std::invalid_argument("--replan-time-limit must be > 0 [s] (got " +
                                std::to_string(options.replan_time_limit) + ")");
  const std::optional<PlanningSettings> made_with =
      PlanSettingsOf(options, plan_file, *model_scene);
  if (!made_with)
    throw std::invalid_argument("--replan: " + options.plan_path +
                                " is not a plan file and the model's scene " + model_scene->name +
                                " has no planning: block to plan again with");
  PlanningSettings planning = *made_with;
  if (options.replan_time_limit > 0.0) planning.time_limit = options.replan_time_limit;
  PlannerOptions planner;
  UseGoalConnection(planning, &planner);
  settings.max_plans = options.replan + 1;
  settings.substeps = options.substeps;
  settings.closed_loop = !options.open_loop;
  settings.stabilizer = StabilizerSettingsOf(settings.stabilizer, made_with, *model_scene);
  if (plan_file)
    settings.first_plan_found = ReadPlanFile(options.plan_path).status == PlanStatus::kFound;
  ReplanningResult result;
  {
    InterruptScope interrupt;  // Ctrl-C keeps the steps the plant made (docs/cli.md)
    planner.cancel = settings.tracking.cancel = interrupt.token();
    result = ExecuteWithReplanning(model_scene, model, planning, planner, first, plant, plant_q0,
                                   settings);
  }
  std::optional<Trajectory> executed;  // for --out and --html
  if (!options.out_path.empty() || !options.html_path.empty())
    executed = PlanToTrajectory(*model, result.q, result.u, result.regrasp_steps);
  if (!options.out_path.empty()) WriteTrajectory(*executed, options.out_path);
  std::ostringstream report;  // printed, and the page's notes
  report << "plant            " << plant.scene().name << " (h = " << plant.scene().time_step
         << " s, " << plant.formulation().name << "), loop "
         << (options.open_loop ? "open" : "closed") << "\n"
         << "plan  found  steps(run) regrasps  planning[s]  D start -> D end  position[m] "
            "angle[rad] penetration[m]\n";
  for (size_t r = 0; r < result.rounds.size(); ++r) {
    const ReplanningRound& round = result.rounds[r];
    const TrackingResult& run = round.tracking;
    report << r << "     " << (round.plan_found ? "yes" : "no ") << "    " << round.steps << "("
           << round.steps_run << ")  " << round.regrasps << "  " << round.planning_seconds << "  "
           << round.start_distance << " -> " << round.distance << "  " << run.final_position_error
           << "  " << run.final_angle_error << "  " << run.max_penetration << "\n";
    if (run.regrasp_refused) report << "      stopped: " << run.message << "\n";
  }
  report << "goal             " << (result.reached ? "reached" : "not reached") << " (D "
         << result.rounds.back().distance << ", tolerance " << planning.goal_tolerance << ") after "
         << result.rounds.size() << " plan(s)\n";
  if (!options.out_path.empty()) report << "trajectory       " << options.out_path << "\n";
  if (!options.html_path.empty()) {
    std::vector<TrackedPlan> plans;
    for (const ReplanningRound& round : result.rounds)
      plans.push_back(
          {&round.plan.q, round.steps_run, round.plan_found, round.tracking.max_penetration});
    WriteTrackPage(plant.scene(), *model_scene, *executed, plans, planning, report.str(),
                   options.html_path);
    report << "viewer           " << options.html_path << "\n";
  }
  std::cout << report.str();
  if (result.interrupted)
    ReportInterrupted(
        "track", InterruptedTrackText(std::to_string(result.u.size()), options.out_path) + "; " +
                     result.message);
  if (!result.message.empty()) std::cerr << "quasidyn: track: " << result.message << "\n";
}

void RunTrack(const TrackOptions& options) {
  // The settings given as flags, checked before anything is read ("stabilizer.kappa: ...").
  ReplanningSettings settings;
  ApplySettingOverrides(StabilizerSettingsSchema(), options.stabilizer, &settings.stabilizer);
  ApplySettingOverrides(TrackingSettingsSchema(), options.tracking, &settings.tracking);
  ApplySettingOverrides(ReplanningSettingsSchema(), options.replanning, &settings);
  // A trajectory file, or a planner's plan file with its regrasp steps (plan.path.step_edges).
  const GuessFile read = ReadGuessFile(options.plan_path);
  const Trajectory& plan = read.trajectory;
  const std::string model_path = options.scene_path.empty() ? plan.scene_file : options.scene_path;
  if (model_path.empty())
    throw std::invalid_argument(options.plan_path + ": the plan names no scene file; give --scene");
  if (plan.steps.empty()) throw std::invalid_argument(options.plan_path + ": the plan has no step");
  const ScenePtr model_scene = std::make_shared<const Scene>(LoadSceneFile(model_path, "track"));
  const auto model = MakeStepModel(model_scene, ChoiceOf(plan));

  Scene plant_base = LoadSceneFile(options.plant_path, "track");
  CheckSameCoordinates(*model_scene, plant_base);
  plant_base.time_step = plan.time_step;
  if (!(options.offset.size() == 0 || options.offset.size() == 2 || options.offset.size() == 3))
    throw std::invalid_argument("--offset: give 2 (planar) or 3 numbers [m]");
  PlantPerturbation perturbation;
  for (size_t i = 0; i < options.offset.size(); ++i)
    perturbation.object_offset(i) = options.offset[i];
  perturbation.friction_scale = options.friction_scale;
  perturbation.substeps = options.substeps;
  const ScenePtr plant_scene = PerturbedScene(plant_base, perturbation);
  FormulationChoice plant_choice;
  if (!options.plant_formulation.empty()) plant_choice.name = options.plant_formulation;
  const CommandKind plant_command =
      ChosenFormulation(*plant_scene, plant_choice).info.capabilities.command;
  if (plant_command != model->capabilities().command)
    throw std::invalid_argument(
        "--plant-formulation: " + ChosenFormulation(*plant_scene, plant_choice).info.name +
        " is commanded by " + CommandKindName(plant_command) + "; the plan's commands are " +
        CommandKindName(model->capabilities().command));
  const auto plant = MakeStepModel(plant_scene, plant_choice);
  std::vector<NamedPath> outputs;
  if (!options.out_path.empty())
    outputs.push_back({"--out", options.out_path, TrajectoryExtensions()});
  if (!options.html_path.empty())
    outputs.push_back({"--html", options.html_path, HtmlExtensions()});
  if (!outputs.empty()) CheckOutputPaths({{"PLAN", options.plan_path}}, outputs);

  const PlanToTrack to_track = PlanToTrackOf(plan, read.step_edges, read.physical_regrasp_steps);
  if (options.replan > 0) {
    RunReplanning(options, settings, !read.step_edges.empty(), model_scene, model, to_track, *plant,
                  plant_scene->q0);
    return;
  }
  const std::vector<Eigen::VectorXd>& q_ref = to_track.q;
  const std::vector<Eigen::VectorXd>& u_ref = to_track.u;
  const std::vector<bool>& regrasp_steps = to_track.regrasp_steps;
  const int regrasps =
      static_cast<int>(std::count(regrasp_steps.begin(), regrasp_steps.end(), true));
  TrackingSettings tracking = settings.tracking;
  tracking.regrasp_steps = regrasp_steps;
  std::unique_ptr<Stabilizer> stabilizer;
  const std::optional<PlanningSettings> made_with =
      PlanSettingsOf(options, !read.step_edges.empty(), *model_scene);
  if (!options.open_loop) {
    StabilizerSettings s = StabilizerSettingsOf(settings.stabilizer, made_with, *model_scene);
    s.regrasp_steps = regrasp_steps;
    s.open_loop_steps = to_track.physical_regrasp_steps;
    s.open_loop_where_linearization_fails = true;
    stabilizer = std::make_unique<Stabilizer>(model, q_ref, u_ref, s);
    if (Logs(LogLevel::kWarning)) {
      for (const std::string& reason : stabilizer->open_loop_reasons())
        LogStream() << "quasidyn: track: " << reason << "; that step is sent open loop\n";
    }
  }
  TrackingResult result;
  {
    InterruptScope interrupt;  // Ctrl-C keeps the steps the plant made (docs/cli.md)
    tracking.cancel = interrupt.token();
    result = TrackPlan(*plant, perturbation.substeps, plant_scene->q0, q_ref, u_ref,
                       stabilizer.get(), tracking);
  }
  std::optional<Trajectory> executed;  // for --out and --html
  const size_t done = result.q.size() - 1;
  if (!options.out_path.empty() || !options.html_path.empty()) {
    std::vector<Eigen::VectorXd> u(result.u.begin(), result.u.begin() + done);
    std::vector<bool> kinds(regrasp_steps.begin(), regrasp_steps.begin() + done);
    executed = PlanToTrajectory(*model, result.q, u, kinds);
  }
  if (!options.out_path.empty()) WriteTrajectory(*executed, options.out_path);
  std::ostringstream report;  // printed, and the page's notes
  report << "plan             " << options.plan_path << " (" << u_ref.size()
         << " steps, h = " << plan.time_step << " s)\n"
         << "plant            " << plant_scene->name << " (h = " << plant_scene->time_step << " s, "
         << plant->formulation().name << ", friction x" << perturbation.friction_scale
         << ", offset " << perturbation.object_offset.transpose() << " m)\n"
         << "loop             " << (options.open_loop ? "open" : "closed");
  if (stabilizer && !stabilizer->open_loop_steps().empty())
    report << " (" << stabilizer->open_loop_steps().size() << " steps open loop: no linearisation)";
  report << "\n";
  if (regrasps > 0 && tracking.regrasp_jump) {
    // The diagnostic: no motion, so no motion's figures (plan_tracking.h).
    report << "regrasps         " << result.regrasps << " of " << regrasps
           << " jumped (--regrasp-jump: the plant's robots put at each new grasp, no plant "
              "step; a diagnostic, no plant makes it)\n";
    for (const RegraspRecord& r : result.regrasp_records)
      report << "regrasp at step  " << r.step << ": " << r.fingers_moved
             << " finger(s) jumped; the objects are " << r.error_after.position << " m, "
             << r.error_after.angle << " rad from the plan\n";
  } else if (regrasps > 0) {
    report << "regrasps         " << result.regrasps << " of " << regrasps << " executed, "
           << result.regrasp_plant_steps << " plant steps (release, transfer, close)\n"
           << "regrasp motion   object moved <= " << result.max_regrasp_object_motion << " m, "
           << result.max_regrasp_object_rotation << " rad; deepest overlap "
           << result.max_regrasp_penetration
           << " m; lifted clearance >= " << result.min_lifted_distance << " m\n";
    // Each regrasp as the plant ran it: where a plant loses the objects (plan_tracking.h).
    for (const RegraspRecord& r : result.regrasp_records)
      report << "regrasp at step  " << r.step << ": " << r.fingers_moved << " finger(s), "
             << r.plant_steps << " plant steps; the objects moved " << r.moved.position << " m, "
             << r.moved.angle << " rad, and end " << r.error_after.position << " m, "
             << r.error_after.angle << " rad from the plan\n";
  }
  report << "penetration      " << result.max_penetration << " m (deepest overlap, plant)\n";
  if (result.start_penetration > 0.0)
    report << "start overlap    " << result.start_penetration
           << " m at q0 as given (not counted above)\n";
  report << "final object err " << result.final_object_error.transpose() << "\n"
         << "position error   " << result.final_position_error << " m\n"
         << "angle error      " << result.final_angle_error << " rad\n";
  if (!options.out_path.empty()) report << "trajectory       " << options.out_path << "\n";
  if (!options.html_path.empty()) {
    const bool found =
        !read.step_edges.empty() && ReadPlanFile(options.plan_path).status == PlanStatus::kFound;
    WriteTrackPage(*plant_scene, *model_scene, *executed,
                   {{&q_ref, static_cast<int>(done), found, result.max_penetration}}, made_with,
                   report.str(), options.html_path);
    report << "viewer           " << options.html_path << "\n";
  }
  std::cout << report.str();
  if (result.interrupted) {
    ReportInterrupted("track", InterruptedTrackText(std::to_string(result.q.size() - 1) + " of " +
                                                        std::to_string(u_ref.size()),
                                                    options.out_path));
  }
  if (!result.message.empty()) {
    std::cerr << "quasidyn: track: " << result.message << "\n";
    throw CLI::RuntimeError(kStepFailedExitCode);
  }
}

}  // namespace

void AddTrackCommand(CLI::App& app) {
  auto o = std::make_shared<TrackOptions>();
  CLI::App* cmd = app.add_subcommand(
      "track", "Run a plan open or closed loop on a plant that differs from the model");
  cmd->add_option("PLAN", o->plan_path, "Trajectory file of the plan")->required();
  cmd->add_option("--plant-scene", o->plant_path, "Scene file of the plant")->required();
  cmd->add_option("--scene", o->scene_path, "Planning model's scene (default: the plan's)");
  cmd->add_option("--offset", o->offset, "Objects' start offset [m] (2 or 3 numbers)")
      ->expected(2, 3);
  cmd->add_option("--friction-scale", o->friction_scale, "Plant friction factor > 0 (default 1)");
  cmd->add_option("--substeps", o->substeps, "Plant steps per command N >= 1 (h_plant = h/N)");
  cmd->add_option("--plant-formulation", o->plant_formulation,
                  "The plant's formulation (default: the plant scene's), commanded by positions");
  cmd->add_flag("--open-loop", o->open_loop, "Send the plan's commands unchanged");
  cmd->add_option("--replan", o->replan,
                  "Plan again from where the plant ended, up to N more plans, with the model "
                  "scene's planning block (docs/control.md)")
      ->check(CLI::Range(0, 1000));
  cmd->add_option("--replan-time-limit", o->replan_time_limit,
                  "With --replan: each new plan's wall-time limit [s] (default: the plan's)")
      ->check(CLI::PositiveNumber);
  // The stabiliser's and tracking's settings as flags (`quasidyn settings stabilizer`,
  // `quasidyn settings tracking`), and replanning's own (with --replan) but those the command
  // sets: max_plans (--replan), substeps (--substeps) and closed_loop (--open-loop).
  AddSettingFlags(cmd, StabilizerSettingsSchema().specs(), &o->stabilizer);
  AddSettingFlags(cmd, TrackingSettingsSchema().specs(), &o->tracking);
  std::vector<SettingSpec> replanning;  // its own, not its stabilizer.* and tracking.*
  for (const SettingSpec& spec : ReplanningSettingsSchema().specs())
    if (spec.path.find('.') == std::string::npos) replanning.push_back(spec);
  AddSettingFlags(cmd, replanning, &o->replanning, {"max_plans", "substeps", "closed_loop"});
  cmd->add_option("--out", o->out_path,
                  "Write the executed trajectory to this file (.json, .npz or .csv)");
  cmd->add_option("--html", o->html_path,
                  "Write an HTML viewer of the plant's run with each plan it ran over it and D "
                  "over time (docs/viewer.md)");
  AddQuietFlag(cmd);
  cmd->callback([o] { RunTrack(*o); });
}

}  // namespace quasidyn::cli
