#include "plan_command.h"

#include <functional>
#include <iomanip>
#include <iostream>
#include <memory>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

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

namespace quasidyn::cli {
namespace {

constexpr int kNotFoundExitCode = 4;

struct PlanOptions {
  std::string scene_path;
  PlanningOverrides overrides;  // every field of the planning block (unset: the scene's)
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
  out << "result           " << (plan.found() ? "found" : "not found") << ": " << plan.message
      << "\n";
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
  const PlanResult plan =
      PlanThroughContact(scene, PlanningFormulation(*scene, settings), settings, planner);
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
  if (!plan.found()) {
    std::cerr << "quasidyn: plan: " << scene->name << ": goal not reached: " << plan.message
              << "\n";
    throw CLI::RuntimeError(kNotFoundExitCode);
  }
}

}  // namespace

void AddPlanCommand(CLI::App& app) {
  auto options = std::make_shared<PlanOptions>();
  PlanningOverrides* o = &options->overrides;
  CLI::App* plan = app.add_subcommand(
      "plan", "Plan through contact (RRT with the reachability metric and contact sampling)");
  plan->add_option("SCENE", options->scene_path, "Scene file (YAML) with a planning: block")
      ->required();
  const char* block = " (default: the scene's planning block)";
  plan->add_option("--goal", o->goal, std::string("The objects' goal q_u") + block)
      ->expected(1, 1 << 20);
  plan->add_option("--lower", o->lower, std::string("Sampling bounds, 3 per object") + block)
      ->expected(1, 1 << 20);
  plan->add_option("--upper", o->upper, std::string("Sampling bounds, 3 per object") + block)
      ->expected(1, 1 << 20);
  plan->add_option("--rotation-axis", o->rotation_axis,
                   std::string("3D: sample rotations about this axis") + block)
      ->expected(3);
  plan->add_option("--goal-tolerance", o->goal_tolerance, "Goal distance tolerance > 0");
  plan->add_option("--position-weight", o->position_weight, "Goal distance weight [1/m] >= 0");
  plan->add_option("--rotation-weight", o->rotation_weight, "Goal distance weight [1/rad] >= 0");
  plan->add_option("--goal-bias", o->goal_bias, "Probability of sampling the goal, in [0, 1]");
  plan->add_option("--metric", o->metric, "exact | log-barrier | randomized");
  plan->add_option("--nearest", o->nearest, "reachability | euclidean (the ablation)");
  plan->add_option("--regrasp", o->regrasp,
                   "reset | physical: a regrasp jumps the robots, or is a motion the plant can "
                   "execute (docs/planning.md)");
  plan->add_option("--grasp-anchors", o->grasp_anchors,
                   "fingers | all_links | robot/link ...: the links contact sampling places")
      ->expected(1, 1 << 20);
  plan->add_option("--kappa", o->kappa, "Log-barrier weight of the metric > 0");
  plan->add_option("--samples", o->samples, "Randomized-smoothing samples >= 1");
  plan->add_option("--std", o->sample_std, "Randomized-smoothing std of u > 0 [m or rad]");
  plan->add_option("--regularization", o->regularization, "The metric's lambda > 0");
  plan->add_option("--step-size", o->step_size, "Largest command change per extension > 0");
  plan->add_option("--extend-steps", o->extend_steps, "Stepper steps per extension >= 1");
  plan->add_option("--h", o->time_step, "The planner's time step [s] > 0");
  plan->add_option("--penetration-tolerance", o->penetration_tolerance,
                   "Deepest overlap of two shapes a plan may keep [m] > 0 (default 0.001)");
  plan->add_option("--max-substeps", o->max_substeps,
                   "Substeps of a step that moves a body past the contact tolerance, 1-1024");
  plan->add_option("--plant-check-substeps", o->plant_check_substeps,
                   "Keep an extension only if the plant at h/k, k in 2-1024, ends within the "
                   "check's tolerance (docs/planning.md)");
  plan->add_option("--plant-check-tolerance", o->plant_check_tolerance,
                   "The plant check's tolerance on D between the two ends > 0 (default 0.05)");
  plan->add_option("--p-grasp", o->p_grasp, "Probability of a regrasp, in [0, 1]");
  plan->add_option("--grasp-candidates", o->grasp_candidates, "Regrasp candidates K >= 1");
  plan->add_option("--settle-steps", o->settle_steps, "Settling steps of a candidate >= 1");
  plan->add_option("--max-nodes", o->max_nodes, "Node limit >= 1");
  plan->add_option("--time-limit", o->time_limit, "Wall-time limit [s] > 0");
  plan->add_option("--seed", o->seed, "Seed >= 0 of the planner's random numbers");
  plan->add_option("--threads", options->threads, "Threads for batch evaluations >= 1 (default 1)");
  plan->add_option("-o,--out", options->out_path, "The plan file to write (JSON)")->required();
  plan->add_option("--html", options->html_path,
                   "Also write an HTML page of the path and the tree");
  AddQuietFlag(plan);
  plan->callback([options] { RunPlan(*options); });
}

}  // namespace quasidyn::cli
