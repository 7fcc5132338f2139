// Open loop against closed loop over perturbed plants (control/plant_study.h), not a Google
// Benchmark: what matters is the distribution of the final error over the plants. Per task
// (the planar hand turning its ball by 30°, the 3D pusher turning a box), the plan is optimised
// (iterative MPC, testing/control_tasks.h), then run open loop and closed loop with two
// controllers, the talk's one-step stabiliser (κ = 5000, ours: the talk states no κ) and the
// shrinking-horizon MPC (the plan's own cost re-solved from each measured state, κ = 5000), both
// bounded to the optimiser's initial trust region (|u − u_ref|∞ <= 0.1 rad, 0.01 m), on plants
// 0 … N−1: the objects' start 3 mm off in a random direction (horizontal for the box on its table),
// friction × U[0.8, 1.2], plant time step h/N (N = 2; the talk's disturbance is the 3 mm offset,
// the friction factor and h/N are ours). Writes per task
//   plants_<task>.csv   one row per plant: perturbation, open and closed loop errors
//   plants_<task>.svg   the final error per plant of the three, with their means
// and prints the table as Markdown (docs/control.md). Regenerate the figures with
//   build/release/control_study_bench --out build/control_study
// Options: --plants N (default 20), --tasks planar_hand,box_turning, --substeps N (default 2),
// --plant-formulation F (the plants' stepper: any formulation commanded by positions; default
// the model's), --ramp (each command ramped over the substeps, `track`'s default; without it
// held, the study's figures).
#include <CLI/CLI.hpp>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include "common/tool_options.h"
#include "quasidyn/control/plant_study.h"
#include "quasidyn/control/shrinking_horizon_mpc.h"
#include "quasidyn/control/stabilizer.h"
#include "quasidyn/control/trajectory_optimizer.h"
#include "quasidyn/formulations/registry.h"
#include "quasidyn/testing/control_tasks.h"
#include "quasidyn/viewer/svg_plot.h"

namespace quasidyn::bench {
namespace {

struct Options {
  int plants = 20;
  int substeps = 2;
  bool ramp = false;              // PlantStudySettings::ramp_substeps
  std::string plant_formulation;  // empty: the model's
  std::string out = "build/control_study";
  std::vector<std::string> tasks = {"planar_hand", "box_turning"};
};

struct Task {
  std::string name, title;
  testing::ControlTask task;
  PlantStudySettings study;
};

Task MakeTask(const std::string& name, const Options& options) {
  Task t;
  t.name = name;
  t.study.plants = options.plants;
  t.study.substeps = options.substeps;
  t.study.ramp_substeps = options.ramp;
  if (name == "planar_hand") {
    t.title = "planar hand, ball turned by 30 deg";
    t.task = testing::PlanarHandTurn(QUASIDYN_SOURCE_DIR);
  } else if (name == "box_turning") {
    t.title = "3D pusher turning a box by 0.3 rad";
    t.study.horizontal_offset = true;  // the box stays on its table
    t.task = testing::BoxTurn(QUASIDYN_SOURCE_DIR);
  } else {
    throw std::invalid_argument("unknown task '" + name + "' (planar_hand, box_turning)");
  }
  return t;
}

// The open loop and the closed loop of each controller on the same plants.
struct Study {
  std::vector<PlantTrial> stabilizer, mpc;  // open_loop of both is the same run
  PlantStudySummary stabilizer_summary, mpc_summary;
};

void WriteCsv(const Study& study, const std::string& path) {
  std::ofstream csv(path);
  csv << "plant,offset_x,offset_y,offset_z,friction_scale,substeps,open_position_m,"
         "open_angle_rad,open_error_m,stabilizer_position_m,stabilizer_angle_rad,"
         "stabilizer_error_m,mpc_position_m,mpc_angle_rad,mpc_error_m\n"
      << std::setprecision(10);
  for (size_t i = 0; i < study.stabilizer.size(); ++i) {
    const PlantTrial& a = study.stabilizer[i];
    const PlantTrial& b = study.mpc[i];
    const PlantPerturbation& p = a.perturbation;
    csv << a.seed << "," << p.object_offset(0) << "," << p.object_offset(1) << ","
        << p.object_offset(2) << "," << p.friction_scale << "," << p.substeps << ","
        << a.open_loop.final_position_error << "," << a.open_loop.final_angle_error << ","
        << a.open_error << "," << a.closed_loop.final_position_error << ","
        << a.closed_loop.final_angle_error << "," << a.closed_error << ","
        << b.closed_loop.final_position_error << "," << b.closed_loop.final_angle_error << ","
        << b.closed_error << "\n";
  }
  if (!csv) throw std::runtime_error("cannot write " + path);
}

PlotSeries Errors(const std::string& label, const std::vector<PlantTrial>& trials, bool open,
                  const std::string& color) {
  PlotSeries series{label, {}, {}, color, false};
  for (const PlantTrial& t : trials) {
    const double e = open ? t.open_error : t.closed_error;
    if (!std::isfinite(e)) continue;  // a failed plant step: in the CSV and the table
    series.x.push_back(static_cast<double>(t.seed));
    series.y.push_back(1e3 * e);
  }
  return series;
}

PlotSeries Mean(const std::string& label, double mean, double last, const std::string& color) {
  return PlotSeries{label, {0.0, last}, {1e3 * mean, 1e3 * mean}, color, true};
}

void WriteSvg(const Task& task, const Study& study, const std::string& path) {
  LinePlot plot;
  plot.title = task.title + ": final object error, " + std::to_string(study.mpc.size()) +
               " perturbed plants";
  plot.x_label = "plant (seed)";
  plot.y_label = "position + 0.05 m x angle [mm]";
  const double last = static_cast<double>(study.mpc.size() - 1);
  plot.series = {Errors("open loop", study.stabilizer, true, "#d62728"),
                 Errors("stabiliser (one step)", study.stabilizer, false, "#1f77b4"),
                 Errors("shrinking-horizon MPC", study.mpc, false, "#2ca02c"),
                 Mean("open loop mean", study.stabilizer_summary.open_mean, last, "#d62728"),
                 Mean("stabiliser mean", study.stabilizer_summary.closed_mean, last, "#1f77b4"),
                 Mean("MPC mean", study.mpc_summary.closed_mean, last, "#2ca02c")};
  plot.width = 800;
  plot.height = 400;
  WriteLinePlotSvg(plot, path);
}

void PrintTable(const Task& task, const Study& study) {
  std::cout << "\n"
            << task.title << " (error = position + 0.05 m x angle [mm])\n\n"
            << "| plant | offset [mm] | friction x | open loop | stabiliser | MPC |\n"
            << "|---|---|---|---|---|---|\n"
            << std::fixed;
  for (size_t i = 0; i < study.mpc.size(); ++i) {
    const PlantTrial& t = study.stabilizer[i];
    const Eigen::Vector3d mm = 1e3 * t.perturbation.object_offset;
    std::cout << "| " << t.seed << " | (" << std::setprecision(2) << mm(0) << ", " << mm(1);
    if (!task.task.model->scene().planar) std::cout << ", " << mm(2);
    std::cout << ") | " << std::setprecision(3) << t.perturbation.friction_scale << " | "
              << std::setprecision(2) << 1e3 * t.open_error << " | " << 1e3 * t.closed_error
              << " | " << 1e3 * study.mpc[i].closed_error << " |\n";
  }
  const PlantStudySummary& a = study.stabilizer_summary;
  const PlantStudySummary& b = study.mpc_summary;
  std::cout << "| mean | | | " << 1e3 * a.open_mean << " | " << 1e3 * a.closed_mean << " | "
            << 1e3 * b.closed_mean << " |\n"
            << "| median | | | " << 1e3 * a.open_median << " | " << 1e3 * a.closed_median << " | "
            << 1e3 * b.closed_median << " |\n"
            << "| better than open loop | | | | " << a.closed_wins << "/" << study.mpc.size()
            << " | " << b.closed_wins << "/" << study.mpc.size() << " |\n"
            << std::defaultfloat;
}

void Run(const Options& options, const std::string& name) {
  Task task = MakeTask(name, options);
  const testing::ControlTask& c = task.task;
  TrajectoryOptimizer optimizer(c.model, c.settings);
  const OptimizationResult plan = optimizer.Optimize(c.q0, c.u0);
  const Eigen::VectorXd error = plan.q.back().head(c.model->scene().nq_u) - c.settings.object_goal;
  std::cout << "\n"
            << name << ": plan cost " << plan.initial_cost << " -> " << plan.best_cost << " in "
            << plan.seconds << " s, final object error " << error.transpose() << "\n";
  // Both controllers may move the commands by the optimiser's initial trust region at most.
  StabilizerSettings stabilizer_settings;
  stabilizer_settings.max_deviation = c.settings.trust_region;
  Stabilizer stabilizer(c.model, plan.q, plan.u, stabilizer_settings);
  ShrinkingHorizonMpcSettings mpc_settings;
  mpc_settings.object_goal = c.settings.object_goal;
  mpc_settings.object_weight = c.settings.object_weight;
  mpc_settings.terminal_weight = c.settings.terminal_weight;
  mpc_settings.rate_weight = c.settings.rate_weight;
  mpc_settings.max_deviation = c.settings.trust_region;
  ShrinkingHorizonMpc mpc(c.model, plan.q, plan.u, mpc_settings);
  PlantFactory make_plant;
  if (!options.plant_formulation.empty()) {
    // The model's parameter values, the plant formulation's others resolved once on the
    // model's scene (a barrier's κ: the scene's kappa, else its DefaultKappa); each plant
    // steps with its own scene's time step.
    FormulationChoice nominal = ChoiceOf(*c.model);
    nominal.name = options.plant_formulation;
    nominal.use_scene_parameters = true;
    const FormulationChoice plant_choice = ChoiceOf(*MakeStepModel(c.model->scene_ptr(), nominal));
    make_plant = [plant_choice](const ScenePtr& scene) {
      FormulationChoice choice = plant_choice;
      choice.time_step = scene->time_step;
      return MakeStepModel(scene, choice);
    };
    std::cout << "plants stepped with " << options.plant_formulation << "\n";
  }
  Study study;
  study.stabilizer =
      CompareOpenAndClosedLoop(*c.model, plan.q, plan.u, &stabilizer, task.study, make_plant);
  study.mpc = CompareOpenAndClosedLoop(*c.model, plan.q, plan.u, &mpc, task.study, make_plant);
  study.stabilizer_summary = SummarizePlantStudy(study.stabilizer);
  study.mpc_summary = SummarizePlantStudy(study.mpc);
  WriteCsv(study, options.out + "/plants_" + name + ".csv");
  WriteSvg(task, study, options.out + "/plants_" + name + ".svg");
  PrintTable(task, study);
}

int Main(int argc, char** argv) {
  Options options;
  bool quiet = false;
  CLI::App app{
      "control_study_bench: open loop against closed loop (stabiliser, shrinking-horizon MPC) "
      "over perturbed plants; plants_<task>.csv and .svg into --out, the table on stdout"};
  app.add_option("--out", options.out, "Output folder (created; default build/control_study)");
  app.add_option("--plants", options.plants, "Perturbed plants N >= 1 per task (default 20)");
  app.add_option("--tasks", options.tasks,
                 "planar_hand, box_turning (comma separated; default both)")
      ->delimiter(',');
  app.add_option("--substeps", options.substeps, "Plant steps per command N >= 1 (default 2)");
  app.add_flag("--ramp", options.ramp,
               "Ramp each command over the substeps, as `quasidyn track` does by default "
               "(default: held, the study's figures)");
  app.add_option("--plant-formulation", options.plant_formulation,
                 "The plants' formulation, commanded by positions (default: the model's)");
  tools::AddQuietFlag(&app, &quiet);
  tools::ParseOrExit(&app, argc, argv);
  if (quiet) tools::SilenceStdout();
  if (!options.plant_formulation.empty()) {
    const CommandKind command = FormulationRegistry::Global()
                                    .Get(options.plant_formulation)  // throws naming the known
                                    .info.capabilities.command;
    if (command != CommandKind::kRobotPositions)
      throw std::invalid_argument("--plant-formulation: " + options.plant_formulation +
                                  " is commanded by " + CommandKindName(command) +
                                  "; the plans' are positions");
  }
  if (options.plants < 1) throw std::invalid_argument("--plants must be >= 1");
  if (options.substeps < 1) throw std::invalid_argument("--substeps must be >= 1");
  for (const std::string& name : options.tasks) MakeTask(name, options);  // names first
  std::filesystem::create_directories(options.out);
  for (const std::string& name : options.tasks) Run(options, name);
  return 0;
}

}  // namespace
}  // namespace quasidyn::bench

int main(int argc, char** argv) {
  try {
    return quasidyn::bench::Main(argc, argv);
  } catch (const std::exception& e) {
    std::cerr << "control_study_bench: " << e.what() << "\n";
    return 2;
  }
}
