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

// The objects' positions of every tree node, for the page's markers.
void AddTreeMarkers(const Scene& scene, const PlanResult& plan, ViewerDataOptions* options) {
  for (const ModelInstance& instance : scene.instances) {
    if (instance.actuated || instance.nq == 0) continue;
    const int offset = static_cast<int>(options->marker_points.size());
    for (const PlanNode& node : plan.nodes) {
      const Eigen::VectorXd& q = node.q;
      options->marker_points.emplace_back(q[instance.q_start], q[instance.q_start + 1],
                                          instance.nq == 7 ? q[instance.q_start + 2] : 0.0);
      options->marker_parents.push_back(node.parent < 0 ? -1 : offset + node.parent);
    }
  }
  options->marker_label = "tree (" + std::to_string(plan.nodes.size()) + " nodes)";
}

void PrintSummary(const Scene& scene, const PlanResult& plan, const ReplayedPath& path,
                  const PlanOptions& options, std::ostream& out) {
  const PlanningSettings& s = plan.settings;
  const PlanStatistics& st = plan.statistics;
  int regrasps = 0;  // regrasp edges of the path (a physical one spans several steps)
  for (size_t k = 1; k < plan.path.size(); ++k)
    regrasps += plan.nodes[plan.path[k]].edge == EdgeKind::kRegrasp;
  const PathLength length = ObjectPathLength(scene, path.trajectory);
  out << "scene            " << scene.name << " (formulation " << plan.stepping.name
      << ", h = " << plan.stepping.time_step.value_or(0.0) << " s)\n";
  out << "metric           " << ReachabilityMethodName(s.method) << " (lambda " << s.regularization
      << "), nearest node by " << NearestRuleName(s.nearest) << "\n";
  out << "result           "
      << (plan.found()                              ? "found"
          : plan.status == PlanStatus::kInterrupted ? "interrupted"
                                                    : "not found")
      << ": " << plan.message << "\n";
  out << "nodes            " << plan.nodes.size() << " (" << st.extensions << " extensions, "
      << st.regrasps << " " << RegraspExecutionName(s.regrasp) << " regrasps) in " << st.iterations
      << " iterations; failed: " << st.failed_steps << " steps, " << st.failed_grasps
      << " regrasps (" << st.dropped_grasps << " candidates dropped), " << st.failed_linearizations
      << " linearisations\n";
  out << std::setprecision(3) << "wall time        " << st.wall_seconds << " s (linearisations "
      << st.linearize_seconds << " s, contact sampling " << st.grasp_seconds << " s, stepping "
      << st.stepping_seconds << " s, nearest node " << st.nearest_seconds << " s, "
      << options.threads << " thread" << (options.threads > 1 ? "s" : "") << ")\n";
  if (s.goal_connection)  // docs/planning.md, "Goal connection"
    out << "goal connection  " << st.connection_attempts << " attempts, " << st.connections
        << " added a chain (" << st.connection_extensions << " one-step extensions); optimiser "
        << st.connection_seconds << " s\n";
  if (s.plant_check)  // docs/planning.md, "Plans a plant of another time step executes"
    out << "plant check      h/" << s.plant_check->substeps << ", tolerance "
        << s.plant_check->tolerance << ": " << st.plant_check_rejections << " extensions refused; "
        << st.plant_check_seconds << " s\n";
  out << "path             " << plan.path.size() - 1 << " edges, " << path.trajectory.steps.size()
      << " steps (" << regrasps << " regrasps); objects move " << length.position << " m and "
      << length.rotation << " rad\n";
  out << "goal distance    " << plan.best_distance << " (tolerance " << s.goal_tolerance
      << "); replay deviation " << path.max_node_deviation << "\n";
  out << "penetration      deepest " << 1e3 * path.max_penetration
      << " mm along the path (tolerance " << 1e3 * s.penetration_tolerance
      << " mm); extensions refused " << st.penetrating_extensions << ", with substeps "
      << st.substepped_extensions << "\n";
  if (s.region_lower.size() > 0)
    out << "object region    " << st.outside_region
        << " extensions, connection steps or regrasps refused: an object left it\n";
  out << std::setprecision(6);
  out << "plan             " << options.out_path << "\n";
  if (!options.html_path.empty()) out << "viewer           " << options.html_path << "\n";
}

// The page's notes: the tree's statistics (the summary printed) and where the time went.
std::string PageNotes(const Scene& scene, const PlanResult& plan, const ReplayedPath& path,
                      const PlanOptions& options) {
  std::ostringstream notes;
  PrintSummary(scene, plan, path, options, notes);
  const PlanStatistics& st = plan.statistics;
  if (st.wall_seconds > 0.0) {
    const double rest =
        st.wall_seconds - st.linearize_seconds - st.grasp_seconds - st.connection_seconds;
    notes << std::setprecision(3) << "time shares      linearisations "
          << 100.0 * st.linearize_seconds / st.wall_seconds << " %, contact sampling "
          << 100.0 * st.grasp_seconds / st.wall_seconds << " %, ";
    if (plan.settings.goal_connection)
      notes << "goal connection " << 100.0 * st.connection_seconds / st.wall_seconds << " %, ";
    notes << "the rest (steps, checks, "
          << "nearest nodes) " << 100.0 * rest / st.wall_seconds << " %\n";
  }
  return notes.str();
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
  WritePlanFile(plan, path, options.out_path);
  if (!options.html_path.empty()) {
    ViewerDataOptions viewer;
    AddTreeMarkers(*scene, plan, &viewer);
    viewer.target_configuration = path.trajectory.FinalConfiguration();  // the objects' goal
    viewer.target_configuration.head(scene->nq_u) = settings.goal;
    viewer.target_label = "goal";
    viewer.notes = PageNotes(*scene, plan, path, options);
    WriteViewerHtml(*scene, path.trajectory, options.html_path, viewer);
  }
  PrintSummary(*scene, plan, path, options, std::cout);
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
