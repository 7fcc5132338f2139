#include "plan_command.h"

#include <functional>
#include <iomanip>
#include <iostream>
#include <memory>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "interrupt.h"
#include "log.h"
#include "output_paths.h"
#include "plan_page.h"
#include "quasidyn/control/trajopt_goal_connector.h"
#include "quasidyn/planning/plan_json.h"
#include "quasidyn/planning/plan_path.h"
#include "quasidyn/planning/planning_overrides.h"
#include "quasidyn/planning/rrt.h"
#include "quasidyn/scenes/scene_loading.h"
#include "quasidyn/viewer/html_writer.h"
#include "scene_file.h"
#include "setting_flags.h"

namespace quasidyn::cli {
namespace {

constexpr int kNotFoundExitCode = 4;

struct PlanOptions {
  std::string scene_path;
  SettingOverrides overrides;  // planning settings given as flags (the rest: the scene's)
  int threads = 1;
  std::string out_path, html_path;
};

// The planner's progress on stderr (log.h): one line redrawn with a carriage return when stderr
// is a terminal, at level info; plain lines at most once a second at level debug when it
// is not; nothing otherwise, so a redirected stderr gets no `\r` frames.
std::function<void(const PlanProgress&)> ProgressReporter(const std::string& scene, int max_nodes,
                                                          bool* drew_line) {
  const auto line = [scene, max_nodes](const PlanProgress& p) {
    std::ostringstream text;
    text << "plan " << scene << ": " << p.nodes << "/" << max_nodes << " nodes, best goal distance "
         << std::setprecision(4) << p.best_distance << ", " << std::setprecision(3)
         << p.elapsed_seconds << " s";
    return text.str();
  };
  if (ShowsProgress()) {
    return [line, drew_line](const PlanProgress& p) {
      LogStream() << "\r" << line(p) << "   " << std::flush;
      *drew_line = true;
    };
  }
  if (!Logs(LogLevel::kDebug)) return {};
  auto last = std::make_shared<double>(-1.0);
  return [line, last](const PlanProgress& p) {
    if (*last >= 0 && p.elapsed_seconds < *last + 1.0) return;
    *last = p.elapsed_seconds;
    LogStream() << line(p) << "\n";
  };
}

void RunPlan(const PlanOptions& options) {
  const ScenePtr scene = std::make_shared<const Scene>(LoadSceneFile(options.scene_path, "plan"));
  if (options.threads < 1)
    throw std::invalid_argument("--threads must be >= 1 (got " + std::to_string(options.threads) +
                                ")");
  const PlanningSettings settings = ResolvePlanningSettings(*scene, options.overrides);
  std::vector<NamedPath> outputs = {{"--out", options.out_path, JsonExtensions()}};
  if (!options.html_path.empty())
    outputs.push_back({"--html", options.html_path, HtmlExtensions()});
  CheckOutputPaths(SceneInputs(*scene, "SCENE"), outputs);

  PlannerOptions planner;
  planner.threads = options.threads;
  UseGoalConnection(settings, &planner);  // when the query asks for it (docs/planning.md)
  bool drew_line = false;
  planner.progress = ProgressReporter(scene->name, settings.max_nodes, &drew_line);
  PlanResult plan;
  {
    InterruptScope interrupt;  // Ctrl-C stops the search and writes the tree (docs/cli.md)
    planner.cancel = interrupt.token();
    plan = PlanThroughContact(scene, PlanningFormulation(*scene, settings), settings, planner);
  }
  if (drew_line) LogStream() << "\n" << std::flush;
  const ReplayedPath path = ReplayPlan(scene, plan);
  const PlanRunFacts facts{options.threads, options.out_path, options.html_path};
  WritePlanFile(plan, path, options.out_path);
  if (!options.html_path.empty()) {
    WriteViewerHtml(*scene, path.trajectory, options.html_path,
                    PlanViewerOptions(*scene, plan, path, facts));
  }
  PrintPlanSummary(*scene, plan, path, facts, std::cout);
  std::cout << std::flush;
  if (plan.status == PlanStatus::kInterrupted) {
    std::ostringstream what;
    what << std::setprecision(3) << "after " << plan.nodes.size() << " nodes ("
         << plan.statistics.wall_seconds << " s): wrote " << options.out_path
         << " (status interrupted, best node " << plan.best_distance << " from the goal, path of "
         << plan.path.size() - 1 << " edges)";
    ReportInterrupted("plan", what.str());
  }
  if (!plan.found()) {
    std::cerr << "quasidyn: plan: " << scene->name << ": goal not reached: " << plan.message
              << "\n";
    throw CLI::RuntimeError(kNotFoundExitCode);
  }
}

}  // namespace

void AddPlanCommand(CLI::App& app) {
  auto options = std::make_shared<PlanOptions>();
  CLI::App* plan = app.add_subcommand(
      "plan", "Plan through contact (RRT with the reachability metric and contact sampling)");
  plan->add_option("SCENE", options->scene_path, "Scene file (YAML) with a planning: block")
      ->required();
  // Every setting of the planning block, as a flag (its default: the scene's block's value).
  AddSettingFlags(plan, PlanningSettingsSchema().specs(), &options->overrides);
  plan->add_option("--threads", options->threads, "Threads for batch evaluations >= 1 (default 1)");
  plan->add_option("-o,--out", options->out_path, "The plan file to write (JSON)")->required();
  plan->add_option("--html", options->html_path,
                   "Also write an HTML page of the path and the tree");
  AddQuietFlag(plan);
  plan->callback([options] { RunPlan(*options); });
}

}  // namespace quasidyn::cli
