// The MIQP of the MPC through contact (control/mpc_miqp.h, solvers/miqp.h) per control step of
// the 2D contact notes' example (examples/point_robot_walls), N = 5 and N = 20, beside Bonmin
// (COIN-OR, outer approximation: tests/reference/bonmin_miqp.h) on the same problems.
//
// 1. The closed loop of QUASIDYN_MPC_STEPS control steps (default 60) on the stewart-trinkle
//    plant for each N; every step's MIQP is kept, with the controller's own solve time and
//    nodes (it tries the previous solution shifted, docs/mpc.md).
// 2. Side by side, one run: every QUASIDYN_BONMIN_EVERY-th problem (default 6) solved bare (no
//    guess) by ours and by Bonmin with the same gap tolerances and a time limit of
//    QUASIDYN_BONMIN_TIME_LIMIT s (default 120; a Bonmin solve that hits it counts at the limit,
//    so its ratio is a lower bound). Median and max time, nodes, the ratio of medians and the
//    agreement of the objectives.
// 3. Google Benchmark: our bare solve of the median and of the hardest problem of each N.
// Run: build/release/miqp_bench --benchmark_repetitions=5 --benchmark_report_aggregates_only=true
#include <benchmark/benchmark.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

#include "quasidyn/control/mpc_closed_loop.h"
#include "quasidyn/formulations/registry.h"
#include "quasidyn/formulations/scene_loading.h"
#include "reference/bonmin_miqp.h"

namespace quasidyn::bench {
namespace {

struct MpcProblems {
  int horizon = 0;
  std::vector<MiqpProblem> problems;
  std::vector<double> loop_seconds, loop_nodes;  // the controller's own solves (with guesses)
  MiqpSettings settings;
};

int EnvInt(const char* name, int fallback) {
  const char* value = std::getenv(name);
  return value ? std::atoi(value) : fallback;
}

double Median(std::vector<double> v) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

double Max(const std::vector<double>& v) {
  return v.empty() ? 0 : *std::max_element(v.begin(), v.end());
}

MpcProblems Collect(int horizon, int steps) {
  const ScenePtr scene = std::make_shared<const Scene>(
      LoadScene(std::string(QUASIDYN_SOURCE_DIR) + "/examples/point_robot_walls/scene.yaml"));
  MpcSettings settings = *scene->mpc;
  settings.horizon = horizon;
  ContactMpc mpc(scene, settings);
  const auto plant = MakeStepModel(scene);
  MpcProblems out;
  out.horizon = horizon;
  out.settings.node_limit = settings.node_limit;
  out.settings.time_limit_seconds = settings.time_limit;
  out.settings.absolute_gap_tolerance = settings.absolute_gap;
  out.settings.relative_gap_tolerance = settings.relative_gap;
  MpcRunOptions options;
  options.steps = steps;
  options.progress = [&](int, const MpcStep& answer) {
    out.problems.push_back(mpc.miqp().problem);
    out.loop_seconds.push_back(answer.info.solve_time_seconds);
    out.loop_nodes.push_back(answer.info.nodes);
  };
  RunMpc(*plant, &mpc, InitialState(*plant), options);
  return out;
}

std::vector<MpcProblems>& Problems() {
  static std::vector<MpcProblems> problems = [] {
    const int steps = EnvInt("QUASIDYN_MPC_STEPS", 60);
    std::vector<MpcProblems> p;
    for (const int horizon : {5, 20}) p.push_back(Collect(horizon, steps));
    return p;
  }();
  return problems;
}

void PrintSideBySide() {
  const int every = std::max(1, EnvInt("QUASIDYN_BONMIN_EVERY", 6));
  reference::BonminSettings bonmin;
  bonmin.time_limit_seconds = EnvInt("QUASIDYN_BONMIN_TIME_LIMIT", 120);
  std::printf("MPC through contact, point robot between three walls (notes' example)\n");
  for (const MpcProblems& p : Problems()) {
    std::printf(
        "N = %d: closed loop of %zu steps, controller's MIQP (with guesses): median %.2f ms, "
        "max %.2f ms; nodes median %.0f, max %.0f\n",
        p.horizon, p.problems.size(), 1e3 * Median(p.loop_seconds), 1e3 * Max(p.loop_seconds),
        Median(p.loop_nodes), Max(p.loop_nodes));
    bonmin.absolute_gap = p.settings.absolute_gap_tolerance;
    bonmin.relative_gap = p.settings.relative_gap_tolerance;
    std::vector<double> ours_s, ours_nodes, theirs_s, theirs_nodes;
    double worst_difference = 0;
    int limited = 0;
    for (size_t k = 0; k < p.problems.size(); k += every) {
      const MiqpResult ours = Solve(p.problems[k], p.settings);
      const reference::BonminResult theirs = reference::SolveWithBonmin(p.problems[k], bonmin);
      ours_s.push_back(ours.info.solve_time_seconds);
      ours_nodes.push_back(ours.info.nodes);
      theirs_s.push_back(std::min(theirs.seconds, bonmin.time_limit_seconds));
      theirs_nodes.push_back(theirs.nodes);
      if (!theirs.optimal) ++limited;
      if (theirs.optimal && ours.has_solution) {
        worst_difference =
            std::max(worst_difference, (ours.objective - theirs.objective) /
                                           std::max(1.0, std::abs(theirs.objective)));
      }
      std::printf(
          "  step %3zu: ours %9.2f ms %6d nodes %-10s J %.6g | Bonmin %9.2f ms %6d nodes "
          "%-18s J %.6g\n",
          k + 1, 1e3 * ours.info.solve_time_seconds, ours.info.nodes,
          std::string(ToString(ours.status)).c_str(), ours.objective, 1e3 * theirs.seconds,
          theirs.nodes, theirs.status.c_str(), theirs.objective);
    }
    std::printf(
        "N = %d bare solves of %zu problems: ours median %.2f ms (max %.2f), nodes median %.0f "
        "(max %.0f); Bonmin median %.2f ms (max %.2f)%s; ratio of medians %.1f; largest "
        "(ours − Bonmin)/max(1, |J|) = %.2e\n",
        p.horizon, ours_s.size(), 1e3 * Median(ours_s), 1e3 * Max(ours_s), Median(ours_nodes),
        Max(ours_nodes), 1e3 * Median(theirs_s), 1e3 * Max(theirs_s),
        limited > 0
            ? (", " + std::to_string(limited) + " not proven optimal within its limit").c_str()
            : "",
        Median(theirs_s) / std::max(1e-12, Median(ours_s)), worst_difference);
  }
  std::fflush(stdout);
}

void BM_OurMiqp(benchmark::State& state, const MiqpProblem* problem, const MiqpSettings* settings) {
  MiqpSolver solver;
  int nodes = 0;
  for (auto _ : state) {
    solver.Setup(*problem, *settings);
    nodes = solver.Solve().info.nodes;
    benchmark::DoNotOptimize(nodes);
  }
  state.counters["nodes"] = nodes;
}

void RegisterBenchmarks() {
  for (const MpcProblems& p : Problems()) {
    if (p.problems.empty()) continue;
    std::vector<size_t> order(p.problems.size());
    for (size_t k = 0; k < order.size(); ++k) order[k] = k;
    std::sort(order.begin(), order.end(),
              [&](size_t a, size_t b) { return p.loop_seconds[a] < p.loop_seconds[b]; });
    const size_t median = order[order.size() / 2], hardest = order.back();
    // Appended, not "N" + std::string&&: that trips GCC 12's -Wrestrict (GCC bug 105329).
    std::string n = "N";
    n += std::to_string(p.horizon);
    benchmark::RegisterBenchmark((n + "/median_step").c_str(), BM_OurMiqp, &p.problems[median],
                                 &p.settings)
        ->Unit(benchmark::kMillisecond);
    benchmark::RegisterBenchmark((n + "/hardest_step").c_str(), BM_OurMiqp, &p.problems[hardest],
                                 &p.settings)
        ->Unit(benchmark::kMillisecond);
  }
}

}  // namespace
}  // namespace quasidyn::bench

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  quasidyn::bench::PrintSideBySide();
  quasidyn::bench::RegisterBenchmarks();
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
