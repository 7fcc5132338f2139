// RRT through contact on a 3D scene over many seeds (issue 39, "Benchmark"): not a Google
// Benchmark, each run is one planning query, as in rrt_study_bench.cc.
//
// For a scene with a planning block (default examples/hand_ball_3d/scene.yaml; any scene path,
// e.g. examples/bimanual_box/scene.yaml) and seeds S ... S+N−1, one line per seed, then the
// summary: success rate, median and worst wall and CPU time, median and worst nodes,
// linearisations per second (all seeds' linearisations over all seeds' wall time), the share of
// the wall time spent stepping (the extensions' steps, substeps and overlap checks),
// linearising (new nodes and regrasp candidates), contact sampling (IK and settling),
// in nearest-node queries and elsewhere (PlanStatistics, rrt.h), and the deepest overlap of two
// shapes over every returned plan replayed after its start (ReplayedPath::path_penetration, with
// the start's own overlap printed apart: a given q0 may overlap; the path to the goal
// node, or to the best node when not found). The ablation flags change one thing on the same
// seeds: --euclidean (nearest node by the Euclidean distance in the objects' tangent space),
// --no-contact-sampling (p_grasp = 0), --no-goal-connection (the scene's goal_connection removed;
// with it, the trajectory optimiser connects near nodes to the goal, docs/planning.md "Goal
// connection", and its share of the time is a column of its own). --threads T and
// --extension-batch B (PlanningSettings::extension_batch: B samples per round, their extensions
// and linearisations side by side on the T threads, docs/planning.md "Batched extensions") change
// how the search uses the machine; the CPU time is the process's, over all its threads.
//
// Run (from the repository root; --json writes every seed and the summary):
//   build/release/plan_3d_bench --seeds 20 --time-limit 60 --json build/plan_3d/hand.json
//   build/release/plan_3d_bench --seeds 20 --time-limit 60 --euclidean
//   build/release/plan_3d_bench examples/bimanual_box/scene.yaml --seeds 20
//   build/release/plan_3d_bench --seeds 20 --threads 2 --extension-batch 4
// Wall times depend on the machine's load (quote `uptime` with them); a run stopped by the node
// limit grows the same tree on any machine, one stopped by the time limit does not.
#include <CLI/CLI.hpp>
#include <algorithm>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "common/tool_options.h"
#include "quasidyn/control/trajopt_goal_connector.h"
#include "quasidyn/io/package_folders.h"
#include "quasidyn/planning/plan_path.h"
#include "quasidyn/planning/rrt.h"
#include "quasidyn/scenes/scene_loading.h"

namespace quasidyn::bench {
namespace {

using nlohmann::json;

struct Options {
  std::string scene = "examples/hand_ball_3d/scene.yaml";
  int seeds = 20;
  int first_seed = 0;
  double time_limit = 0.0;  // [s] > 0: per seed, instead of the scene's
  int max_nodes = 0;        // > 0: per seed, instead of the scene's
  int threads = 1;
  int extension_batch = 0;  // > 0: instead of the scene's
  bool euclidean = false;
  bool no_contact_sampling = false;
  bool no_goal_connection = false;
  std::string json_path;                        // empty: no JSON
  std::map<std::string, std::string> packages;  // --package NAME=DIR
};

struct Run {
  int seed = 0;
  bool found = false;
  double wall = 0.0;  // [s] of the search
  double cpu = 0.0;   // [s] of the process during the search
  int nodes = 0;
  int regrasps = 0;
  double best_distance = 0.0;
  double penetration = 0.0;        // [m] the replayed path's deepest overlap after its start
  double start_penetration = 0.0;  // [m] the start's own overlap
  PlanStatistics statistics;
};

double Median(std::vector<double> x) {
  std::sort(x.begin(), x.end());
  const size_t n = x.size();
  return n % 2 ? x[n / 2] : 0.5 * (x[n / 2 - 1] + x[n / 2]);
}

double Max(const std::vector<double>& x) { return *std::max_element(x.begin(), x.end()); }

Run PlanOnce(const ScenePtr& scene, const PlanningSettings& settings, int threads) {
  PlannerOptions options;
  options.threads = threads;
  UseGoalConnection(settings, &options);  // the scene's goal_connection, if any
  const std::clock_t cpu_start = std::clock();
  const PlanResult plan =
      PlanThroughContact(scene, PlanningFormulation(*scene, settings), settings, options);
  Run run;
  run.cpu = static_cast<double>(std::clock() - cpu_start) / CLOCKS_PER_SEC;
  run.seed = static_cast<int>(settings.seed);
  run.found = plan.found();
  run.statistics = plan.statistics;
  run.wall = plan.statistics.wall_seconds;
  run.nodes = static_cast<int>(plan.nodes.size());
  run.regrasps = plan.statistics.regrasps;
  run.best_distance = plan.best_distance;
  const ReplayedPath replayed = ReplayPlan(scene, plan);
  run.penetration = replayed.path_penetration;
  run.start_penetration = replayed.start_penetration;
  return run;
}

// The shares of the wall time [-]: stepping, linearising, contact sampling, nearest node, goal
// connection (the optimiser; its replay is in stepping and linearising), rest.
std::vector<double> Shares(const PlanStatistics& s) {
  const double wall = std::max(s.wall_seconds, 1e-12);
  const std::vector<double> parts = {s.stepping_seconds, s.linearize_seconds, s.grasp_seconds,
                                     s.nearest_seconds, s.connection_seconds};
  std::vector<double> shares;
  double rest = wall;
  for (const double part : parts) {
    shares.push_back(part / wall);
    rest -= part;
  }
  shares.push_back(std::max(0.0, rest) / wall);
  return shares;
}

void PrintRunHeader() {
  std::cout << std::right << std::setw(5) << "seed" << std::setw(7) << "found" << std::setw(9)
            << "wall [s]" << std::setw(9) << "cpu [s]" << std::setw(8) << "nodes" << std::setw(7)
            << "lin/s" << std::setw(8) << "step %" << std::setw(7) << "lin %" << std::setw(8)
            << "grasp %" << std::setw(7) << "nn %" << std::setw(8) << "conn %" << std::setw(9)
            << "other %" << std::setw(9) << "best D" << std::setw(10) << "pen [mm]"
            << "\n";
}

void PrintRun(const Run& r) {
  const std::vector<double> shares = Shares(r.statistics);
  std::cout << std::right << std::setw(5) << r.seed << std::setw(7) << (r.found ? "yes" : "no")
            << std::fixed << std::setprecision(2) << std::setw(9) << r.wall << std::setw(9) << r.cpu
            << std::setw(8) << r.nodes << std::setprecision(0) << std::setw(7)
            << r.statistics.linearizations / std::max(r.wall, 1e-12) << std::setprecision(1);
  const int widths[] = {8, 7, 8, 7, 8, 9};
  for (size_t k = 0; k < shares.size(); ++k) std::cout << std::setw(widths[k]) << 100 * shares[k];
  std::cout << std::setprecision(3) << std::setw(9) << r.best_distance << std::setw(10)
            << 1e3 * r.penetration << std::defaultfloat << std::endl;
}

json Summary(const std::vector<Run>& runs) {
  int found = 0;
  std::vector<double> wall, cpu, nodes, found_wall, found_cpu;
  PlanStatistics total;
  double penetration = 0.0, found_penetration = 0.0, start_penetration = 0.0;
  for (const Run& r : runs) {
    start_penetration = std::max(start_penetration, r.start_penetration);
    found += r.found;
    wall.push_back(r.wall);
    cpu.push_back(r.cpu);
    nodes.push_back(r.nodes);
    total.wall_seconds += r.statistics.wall_seconds;
    total.stepping_seconds += r.statistics.stepping_seconds;
    total.linearize_seconds += r.statistics.linearize_seconds;
    total.grasp_seconds += r.statistics.grasp_seconds;
    total.nearest_seconds += r.statistics.nearest_seconds;
    total.connection_seconds += r.statistics.connection_seconds;
    total.connection_attempts += r.statistics.connection_attempts;
    total.connections += r.statistics.connections;
    if (r.found) {
      found_wall.push_back(r.wall);
      found_cpu.push_back(r.cpu);
    }
    total.linearizations += r.statistics.linearizations;
    penetration = std::max(penetration, r.penetration);
    if (r.found) found_penetration = std::max(found_penetration, r.penetration);
  }
  const std::vector<double> shares = Shares(total);
  return {{"seeds", runs.size()},
          {"found", found},
          {"success_rate", static_cast<double>(found) / runs.size()},
          {"median_wall_seconds", Median(wall)},
          {"worst_wall_seconds", Max(wall)},
          {"median_cpu_seconds", Median(cpu)},
          {"worst_cpu_seconds", Max(cpu)},
          {"median_nodes", Median(nodes)},
          {"worst_nodes", Max(nodes)},
          {"linearizations_per_second", total.linearizations / std::max(total.wall_seconds, 1e-12)},
          {"share_stepping", shares[0]},
          {"share_linearizing", shares[1]},
          {"share_contact_sampling", shares[2]},
          {"share_nearest_node", shares[3]},
          {"share_goal_connection", shares[4]},
          {"share_other", shares[5]},
          {"connection_attempts", total.connection_attempts},
          {"connections", total.connections},
          {"median_wall_seconds_found", found_wall.empty() ? 0.0 : Median(found_wall)},
          {"worst_wall_seconds_found", found_wall.empty() ? 0.0 : Max(found_wall)},
          {"median_cpu_seconds_found", found_cpu.empty() ? 0.0 : Median(found_cpu)},
          {"worst_cpu_seconds_found", found_cpu.empty() ? 0.0 : Max(found_cpu)},
          {"max_penetration", penetration},
          {"max_penetration_found", found_penetration},
          {"start_penetration", start_penetration}};
}

void PrintSummary(const json& s, const std::string& label) {
  const auto number = [&](const char* key, int precision, double scale = 1.0) {
    std::ostringstream out;
    out << std::fixed << std::setprecision(precision) << scale * s[key].get<double>();
    return out.str();
  };
  std::cout << "\n| variant | found | median / worst wall [s] | median / worst CPU [s] | median / "
               "worst nodes | lin/s | stepping | linearising | contact sampling | nearest node "
               "| goal connection | other | deepest penetration [mm] (found plans) | found: median "
               "/ worst "
               "CPU [s] | found: median / worst wall [s] |\n"
            << "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n"
            << "| " << label << " | " << s["found"].get<int>() << "/" << s["seeds"].get<int>()
            << " (" << number("success_rate", 0, 100) << " %) | "
            << number("median_wall_seconds", 2) << " / " << number("worst_wall_seconds", 2) << " | "
            << number("median_cpu_seconds", 2) << " / " << number("worst_cpu_seconds", 2) << " | "
            << number("median_nodes", 0) << " / " << number("worst_nodes", 0) << " | "
            << number("linearizations_per_second", 0) << " | " << number("share_stepping", 1, 100)
            << " % | " << number("share_linearizing", 1, 100) << " % | "
            << number("share_contact_sampling", 1, 100) << " % | "
            << number("share_nearest_node", 1, 100) << " % | "
            << number("share_goal_connection", 1, 100) << " % | " << number("share_other", 1, 100)
            << " % | " << number("max_penetration", 3, 1e3) << " ("
            << number("max_penetration_found", 3, 1e3) << ") | "
            << number("median_cpu_seconds_found", 2) << " / "
            << number("worst_cpu_seconds_found", 2) << " | "
            << number("median_wall_seconds_found", 2) << " / "
            << number("worst_wall_seconds_found", 2) << " |" << std::endl;
  std::cout << "\nThe penetration columns are the deepest overlap of two shapes after the start; "
               "the start's own overlap (q0 as given, separated by the first step): "
            << number("start_penetration", 3, 1e3) << " mm" << std::endl;
}

json RunToJson(const Run& r) {
  const PlanStatistics& s = r.statistics;
  return {{"seed", r.seed},
          {"found", r.found},
          {"wall_seconds", r.wall},
          {"cpu_seconds", r.cpu},
          {"nodes", r.nodes},
          {"regrasps", r.regrasps},
          {"iterations", s.iterations},
          {"linearizations", s.linearizations},
          {"stepping_seconds", s.stepping_seconds},
          {"linearize_seconds", s.linearize_seconds},
          {"grasp_seconds", s.grasp_seconds},
          {"nearest_seconds", s.nearest_seconds},
          {"nearest_distances", s.nearest_distances},
          {"connection_seconds", s.connection_seconds},
          {"connection_attempts", s.connection_attempts},
          {"connections", s.connections},
          {"connection_extensions", s.connection_extensions},
          {"connection_regrasps", s.connection_regrasps},
          {"best_distance", r.best_distance},
          {"max_penetration", r.penetration},
          {"start_penetration", r.start_penetration}};
}

int Main(int argc, char** argv) {
  Options options;
  bool quiet = false;
  CLI::App app{
      "plan_3d_bench: RRT through contact on a scene over many seeds: per seed and summary "
      "(success, wall and CPU time, nodes, linearisations per second, where the time goes, the "
      "deepest replayed penetration); table on stdout, JSON with --json"};
  app.add_option("scene", options.scene,
                 "Scene with a planning block (default examples/hand_ball_3d/scene.yaml)");
  app.add_option("--seeds", options.seeds, "Number of seeds N >= 1 (default 20)");
  app.add_option("--first-seed", options.first_seed, "The first seed S >= 0 (default 0)");
  CLI::Option* time_limit = app.add_option(
      "--time-limit", options.time_limit, "Per seed [s] > 0 (default: the scene's planning limit)");
  CLI::Option* max_nodes =
      app.add_option("--max-nodes", options.max_nodes,
                     "Per seed node limit >= 1 (default: the scene's planning limit)");
  app.add_option("--threads", options.threads, "Threads of each planner T >= 1 (default 1)");
  app.add_option("--extension-batch", options.extension_batch,
                 "Samples per round B >= 1 (default: the scene's extension_batch)");
  app.add_flag("--euclidean", options.euclidean,
               "Ablation: nearest node by the Euclidean distance, not the reachability metric");
  app.add_flag("--no-contact-sampling", options.no_contact_sampling,
               "Ablation: no contact sampling (p_grasp = 0)");
  app.add_flag("--no-goal-connection", options.no_goal_connection,
               "Without the scene's goal connection (docs/planning.md, \"Goal connection\")");
  app.add_option("--json", options.json_path, "Write every seed and the summary to this file");
  app.add_option_function<std::vector<std::string>>(
         "--package",
         [&options](const std::vector<std::string>& values) {
           for (const std::string& value : values) {
             const auto [name, folder] = ParsePackageArgument(value);
             options.packages[name] = folder;
           }
         },
         "NAME=DIR: the folder of package NAME for package://NAME/... (e.g. a qsim side file's "
         "base; repeatable)")
      ->type_name("NAME=DIR")
      ->allow_extra_args(false);
  tools::AddQuietFlag(&app, &quiet);
  tools::ParseOrExit(&app, argc, argv);
  if (quiet) tools::SilenceStdout();
  if (options.seeds < 1) throw std::invalid_argument("--seeds must be >= 1");
  if (options.first_seed < 0) throw std::invalid_argument("--first-seed must be >= 0");
  // Given, a limit must be one (0 stands for "not given"; NaN compares false).
  if (time_limit->count() > 0 && !(options.time_limit > 0))
    throw std::invalid_argument("--time-limit must be > 0 (got " + time_limit->as<std::string>() +
                                ")");
  if (max_nodes->count() > 0 && options.max_nodes < 1)
    throw std::invalid_argument("--max-nodes must be >= 1 (got " +
                                std::to_string(options.max_nodes) + ")");

  const ScenePtr scene = std::make_shared<const Scene>(LoadScene(options.scene, options.packages));
  if (!scene->planning)
    throw std::invalid_argument(options.scene + ": the scene has no planning block");
  PlanningSettings settings = *scene->planning;
  if (options.time_limit > 0) settings.time_limit = options.time_limit;
  if (options.max_nodes > 0) settings.max_nodes = options.max_nodes;
  if (options.euclidean) settings.nearest = NearestRule::kEuclidean;
  if (options.no_contact_sampling) settings.p_grasp = 0.0;
  if (options.no_goal_connection) settings.goal_connection.reset();
  if (options.extension_batch != 0) settings.extension_batch = options.extension_batch;
  ValidatePlanningSettings(settings, *scene);
  std::string label = options.euclidean ? "euclidean" : "metric";
  label += options.no_contact_sampling ? ", no contact sampling" : " + contact sampling";
  if (settings.goal_connection) label += " + goal connection";

  std::cout << options.scene << ": " << label << ", seeds " << options.first_seed << "-"
            << options.first_seed + options.seeds - 1 << ", per seed " << settings.max_nodes
            << " nodes / " << settings.time_limit << " s, " << options.threads
            << " thread(s), extension batch " << settings.extension_batch << "\n";
  PrintRunHeader();
  std::vector<Run> runs;
  json seeds = json::array();
  // The JSON is rewritten after every seed, so a run cut short keeps what it measured.
  const auto write_json = [&](const json& summary) {
    if (options.json_path.empty()) return;
    const std::filesystem::path path(options.json_path);
    if (path.has_parent_path()) std::filesystem::create_directories(path.parent_path());
    std::ofstream out(path);
    if (!out) throw std::runtime_error("cannot write " + options.json_path);
    out << json{{"scene", options.scene},
                {"variant", label},
                {"euclidean", options.euclidean},
                {"contact_sampling", !options.no_contact_sampling},
                {"goal_connection", settings.goal_connection.has_value()},
                {"max_nodes", settings.max_nodes},
                {"time_limit", settings.time_limit},
                {"threads", options.threads},
                {"extension_batch", settings.extension_batch},
                {"runs", seeds},
                {"summary", summary}}
               .dump(2)
        << "\n";
  };
  for (int k = 0; k < options.seeds; ++k) {
    settings.seed = static_cast<std::uint64_t>(options.first_seed + k);
    runs.push_back(PlanOnce(scene, settings, options.threads));
    PrintRun(runs.back());
    seeds.push_back(RunToJson(runs.back()));
    write_json(Summary(runs));
  }
  PrintSummary(Summary(runs), label);
  return 0;
}

}  // namespace
}  // namespace quasidyn::bench

int main(int argc, char** argv) {
  try {
    return quasidyn::bench::Main(argc, argv);
  } catch (const std::exception& e) {
    std::cerr << "plan_3d_bench: " << e.what() << "\n";
    return 2;
  }
}
