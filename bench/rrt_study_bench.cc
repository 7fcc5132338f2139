// RRT through contact over many seeds (src/quasidyn/planning/rrt.h), not a Google Benchmark:
// each run is one planning query, and what matters is its distribution over seeds.
//
//   study     per example (its scene's planning block), seeds 0 … N−1: success rate, median and
//             max wall time, median and max nodes; one CSV row per run.
//   ablation  the talk's ablation at a fixed node budget: nearest node by the reachability
//             metric vs by the Euclidean distance in the objects' tangent space, with vs without
//             contact sampling (p_grasp = 0); success rate and nodes, and the tree of seed 0 of
//             every variant as CSV for scripts/plot_rrt_ablation.py (what each tree covers).
//
// Run (from the repository root):
//   build/release/rrt_study_bench --seeds 20 --out build/rrt_study
//   build/release/rrt_study_bench --ablation --seeds 20 --out build/rrt_study
//   /usr/bin/python3 scripts/plot_rrt_ablation.py build/rrt_study build/rrt_study/ablation.png
// Options: --examples a,b (default: all four planning examples), --threads T (default 1),
// --budget N (ablation node budget, default 3000); for the study, --regularization L (the
// metric's λ for every example, as in docs/planning.md's λ sweep) and --max-nodes N;
// --unchecked plans as before the physical-plan check (penetration_tolerance ∞, max_substeps 1:
// no substeps, no extension refused), to measure what it changes. Every run's path is replayed
// and its deepest overlap of two shapes (ReplayedPath::max_penetration) reported: the table's
// largest over the seeds and how many seeds exceed 1 mm.
#include <CLI/CLI.hpp>
#include <algorithm>
#include <cstdlib>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <limits>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "common/tool_options.h"
#include "quasidyn/planning/plan_path.h"
#include "quasidyn/planning/rrt.h"
#include "quasidyn/scenes/scene_loading.h"

namespace quasidyn::bench {
namespace {

struct Options {
  int seeds = 20;
  int threads = 1;
  int budget = 3000;
  bool ablation = false;
  double regularization = 0.0;  // > 0: the metric's λ for every run (the study's λ sweep)
  int max_nodes = 0;            // > 0: the study's node limit instead of each example's
  bool unchecked = false;       // penetration_tolerance ∞ and max_substeps 1 (the old planner)
  std::string out = "build/rrt_study";
  std::vector<std::string> examples = {"planar_hand", "planar_pushing_top_down", "planar_pushing",
                                       "box_turning"};
};

struct Run {
  bool found = false;
  double seconds = 0.0;      // wall time of the search [s]
  double cpu_seconds = 0.0;  // CPU time of the process during the search [s]
  int nodes = 0;
  double best_distance = 0.0;
  double replay_deviation = 0.0;
  double penetration = 0.0;  // the replayed path's deepest overlap [m]
};

double Median(std::vector<double> x) {
  std::sort(x.begin(), x.end());
  const size_t n = x.size();
  return n % 2 ? x[n / 2] : 0.5 * (x[n / 2 - 1] + x[n / 2]);
}

double Max(const std::vector<double>& x) { return *std::max_element(x.begin(), x.end()); }

Run PlanOnce(const ScenePtr& scene, const PlanningSettings& settings, int threads,
             PlanResult* keep = nullptr) {
  PlannerOptions options;
  options.threads = threads;
  const std::clock_t cpu_start = std::clock();
  PlanResult plan =
      PlanThroughContact(scene, PlanningFormulation(*scene, settings), settings, options);
  Run run;
  run.cpu_seconds = static_cast<double>(std::clock() - cpu_start) / CLOCKS_PER_SEC;
  run.found = plan.found();
  run.seconds = plan.statistics.wall_seconds;
  run.nodes = static_cast<int>(plan.nodes.size());
  run.best_distance = plan.best_distance;
  const ReplayedPath path = ReplayPlan(scene, plan);
  run.replay_deviation = path.max_node_deviation;
  run.penetration = path.max_penetration;
  if (keep) *keep = std::move(plan);
  return run;
}

// found k/N, rate, median and max wall time, median CPU time, median and max nodes, the
// largest replay deviation.
void PrintRow(const std::string& label, const std::vector<Run>& runs) {
  int found = 0;
  std::vector<double> seconds, cpu, nodes;
  double deviation = 0.0, penetration = 0.0;
  int penetrating = 0;
  for (const Run& r : runs) {
    found += r.found;
    penetration = std::max(penetration, r.penetration);
    penetrating += r.penetration > 1e-3;
    seconds.push_back(r.seconds);
    cpu.push_back(r.cpu_seconds);
    nodes.push_back(r.nodes);
    deviation = std::max(deviation, r.replay_deviation);
  }
  std::ostringstream count;
  count << found << "/" << runs.size();
  std::cout << std::left << std::setw(40) << label << std::right << std::setw(7) << count.str()
            << std::fixed << std::setprecision(0) << std::setw(7) << 100.0 * found / runs.size()
            << " %" << std::setprecision(3) << std::setw(11) << Median(seconds) << std::setw(11)
            << Max(seconds) << std::setw(12) << Median(cpu) << std::setprecision(0) << std::setw(10)
            << Median(nodes) << std::setw(10) << Max(nodes) << std::defaultfloat
            << std::setprecision(3) << std::setw(11) << deviation << std::fixed
            << std::setprecision(2) << std::setw(13) << 1e3 * penetration << std::setw(10)
            << penetrating << std::defaultfloat << std::endl;
}

void PrintHeader() {
  std::cout << std::left << std::setw(40) << "example / variant" << std::right << std::setw(7)
            << "found" << std::setw(9) << "rate" << std::setw(11) << "med t [s]" << std::setw(11)
            << "max t [s]" << std::setw(12) << "med cpu [s]" << std::setw(10) << "med nodes"
            << std::setw(10) << "max nodes" << std::setw(11) << "replay dev" << std::setw(13)
            << "max pen [mm]" << std::setw(10) << "> 1 mm"
            << "\n";
}

// The planner as it was before plans were checked: no substeps, no extension refused.
void Uncheck(PlanningSettings* settings) {
  settings->penetration_tolerance = std::numeric_limits<double>::infinity();
  settings->max_substeps = 1;
}

ScenePtr Load(const std::string& example) {
  return std::make_shared<const Scene>(LoadScene("examples/" + example + "/scene.yaml"));
}

void WriteTree(const PlanResult& plan, const Scene& scene, const std::string& path) {
  std::ofstream out(path);
  out << "parent,edge,goal_distance";
  for (int i = 0; i < scene.nq_u; ++i) out << ",q" << i;
  out << "\n" << std::setprecision(17);
  for (const PlanNode& node : plan.nodes) {
    out << node.parent << "," << EdgeKindName(node.edge) << "," << node.goal_distance;
    for (int i = 0; i < scene.nq_u; ++i) out << "," << node.q[i];
    out << "\n";
  }
}

void Study(const Options& options) {
  std::ofstream csv(options.out + "/study.csv");
  csv << "example,seed,found,wall_seconds,cpu_seconds,nodes,best_distance,replay_deviation,"
         "max_penetration\n";
  PrintHeader();
  for (const std::string& example : options.examples) {
    const ScenePtr scene = Load(example);
    PlanningSettings settings = *scene->planning;
    if (options.regularization > 0) settings.regularization = options.regularization;
    if (options.max_nodes > 0) settings.max_nodes = options.max_nodes;
    if (options.unchecked) Uncheck(&settings);
    std::vector<Run> runs;
    for (int seed = 0; seed < options.seeds; ++seed) {
      settings.seed = seed;
      runs.push_back(PlanOnce(scene, settings, options.threads));
      const Run& r = runs.back();
      csv << example << "," << seed << "," << r.found << "," << r.seconds << "," << r.cpu_seconds
          << "," << r.nodes << "," << r.best_distance << "," << r.replay_deviation << ","
          << r.penetration << "\n";
    }
    PrintRow(example, runs);
  }
}

void Ablation(const Options& options) {
  std::ofstream csv(options.out + "/ablation.csv");
  csv << "example,variant,seed,found,wall_seconds,cpu_seconds,nodes,best_distance\n";
  PrintHeader();
  struct Variant {
    const char* name;
    NearestRule nearest;
    bool grasp;
  };
  const Variant variants[] = {{"metric+grasp", NearestRule::kReachability, true},
                              {"euclidean+grasp", NearestRule::kEuclidean, true},
                              {"metric", NearestRule::kReachability, false},
                              {"euclidean", NearestRule::kEuclidean, false}};
  for (const std::string& example : options.examples) {
    const ScenePtr scene = Load(example);
    for (const Variant& variant : variants) {
      PlanningSettings settings = *scene->planning;
      settings.nearest = variant.nearest;
      if (!variant.grasp) settings.p_grasp = 0.0;
      settings.max_nodes = options.budget;
      if (options.unchecked) Uncheck(&settings);
      std::vector<Run> runs;
      for (int seed = 0; seed < options.seeds; ++seed) {
        settings.seed = seed;
        PlanResult plan;
        runs.push_back(PlanOnce(scene, settings, options.threads, seed == 0 ? &plan : nullptr));
        if (seed == 0)
          WriteTree(plan, *scene, options.out + "/tree_" + example + "_" + variant.name + ".csv");
        const Run& r = runs.back();
        csv << example << "," << variant.name << "," << seed << "," << r.found << "," << r.seconds
            << "," << r.cpu_seconds << "," << r.nodes << "," << r.best_distance << "\n";
      }
      PrintRow(example + " " + variant.name, runs);
    }
  }
}

int Main(int argc, char** argv) {
  Options options;
  bool quiet = false;
  CLI::App app{
      "rrt_study_bench: RRT through contact over many seeds (the study: success rate, times, "
      "nodes per example) or the ablation of the nearest-node rule and contact sampling; CSVs "
      "into --out, the table on stdout"};
  app.add_option("--seeds", options.seeds, "Seeds 0 ... N-1 per example, N >= 1 (default 20)");
  app.add_option("--threads", options.threads, "Threads of each planner T >= 1 (default 1)");
  app.add_option("--budget", options.budget, "The ablation's node budget (default 3000)");
  app.add_option("--out", options.out, "Output folder (created; default build/rrt_study)");
  app.add_option("--examples", options.examples,
                 "Planning examples, comma separated (default: all four)")
      ->delimiter(',');
  app.add_option("--regularization", options.regularization,
                 "The study's metric lambda for every example > 0 (default: each example's)");
  app.add_option("--max-nodes", options.max_nodes,
                 "The study's node limit (default: each example's)");
  app.add_flag("--ablation", options.ablation, "Run the ablation instead of the study");
  app.add_flag("--unchecked", options.unchecked,
               "Plan without the physical-plan check (penetration_tolerance inf, max_substeps 1)");
  tools::AddQuietFlag(&app, &quiet);
  tools::ParseOrExit(&app, argc, argv);
  if (quiet) tools::SilenceStdout();
  if (options.seeds < 1) throw std::invalid_argument("--seeds must be >= 1");
  std::filesystem::create_directories(options.out);
  if (options.ablation) {
    Ablation(options);
  } else {
    Study(options);
  }
  return 0;
}

}  // namespace
}  // namespace quasidyn::bench

int main(int argc, char** argv) {
  try {
    return quasidyn::bench::Main(argc, argv);
  } catch (const std::exception& e) {
    std::cerr << "rrt_study_bench: " << e.what() << "\n";
    return 2;
  }
}
