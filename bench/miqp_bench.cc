// The MIQP of the MPC through contact (control/mpc_miqp.h, solvers/miqp.h) per control step of
// the 2D contact notes' example (examples/point_robot_walls), N = 5 and N = 20, beside Bonmin
// (COIN-OR, outer approximation: tests/reference/bonmin_miqp.h) on the same problems. Times are
// CPU time of the solving thread (MiqpInfo::cpu_seconds; Bonmin timed the same way), so that
// they do not depend on the machine's load.
//
// 1. The closed loop of QUASIDYN_MPC_STEPS control steps (default 60) on the stewart-trinkle
//    plant for each N, with the scene's solver settings (QUASIDYN_MPC_NODE_LIMIT > 0 overrides
//    its node limit per control step, QUASIDYN_MPC_TIME_LIMIT_MS > 0 its wall-clock time limit
//    per control step in ms); every step's MIQP and the controller's guesses are kept.
//    Printed: the controller's CPU time and nodes per step (median, max), how often the limit
//    bound and the largest relative gap then, how good the guesses were (the shifted solution's
//    objective against the answer's), and the realised cost of the closed loop.
//    QUASIDYN_MPC_STEP_LOG=1 prints each control step too: CPU time, nodes, strong-branching
//    and heuristic QPs, interior-point iterations, status and gap.
// 2. Side by side, one run, alternately per problem: every QUASIDYN_BONMIN_EVERY-th problem
//    (default 6) solved by ours as the controller does (its guesses, pseudo-cost seed and limits),
//    by ours bare (no guess, no limit but the gap), and by Bonmin bare with the same gap tolerances
//    and a CPU budget of QUASIDYN_BONMIN_TIME_LIMIT s (default 120; a solve that hits it counts at
//    the limit, so its ratio is a lower bound). Median and max, the ratios of medians (Bonmin /
//    ours in the loop, Bonmin / ours bare) and the agreement of the objectives.
// 3. Google Benchmark: our bare solve of the median and of the hardest problem of each N, with
//    its QP solves and their interior-point iterations.
// Run: build/release/miqp_bench --benchmark_repetitions=5 --benchmark_report_aggregates_only=true
#include <benchmark/benchmark.h>

#include <algorithm>
#include <cerrno>
#include <climits>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "quasidyn/control/mpc_closed_loop.h"
#include "quasidyn/formulations/registry.h"
#include "quasidyn/scenes/scene_loading.h"
#include "reference/bonmin_miqp.h"

namespace quasidyn::bench {
namespace {

struct MpcProblems {
  int horizon = 0;
  std::vector<MiqpProblem> problems;
  std::vector<std::vector<std::vector<signed char>>> guesses;  // the controller's, per problem
  // The controller's pseudo-cost seed per problem (contact_mpc.h), when it had one.
  std::vector<std::optional<MiqpPseudoCosts>> seeds;
  std::vector<double> loop_seconds, loop_nodes;  // the controller's own solves (CPU time)
  std::vector<double> limited_gaps;              // relative gaps of the solves a limit stopped
  std::vector<double> guess_excess;  // (guess objective − answer) / max(1, |answer|), per step
  int guessed = 0;                   // steps with a feasible guess
  double realised_cost = 0;  // Σ (x − x_d)ᵀQ(x − x_d) + τᵀRτ over the plant's run
  MiqpSettings settings;     // the controller's settings (bare solves: no node limit)
};

// The integer in environment variable `name`, or `fallback` when it is unset; anything else
// than a whole integer stops the bench with a message naming the variable.
int EnvInt(const char* name, int fallback) {
  const char* value = std::getenv(name);
  if (value == nullptr) return fallback;
  char* end = nullptr;
  errno = 0;
  const long parsed = std::strtol(value, &end, 10);
  if (end == value || *end != '\0' || errno != 0 || parsed < INT_MIN || parsed > INT_MAX) {
    std::fprintf(stderr, "miqp_bench: %s=\"%s\" is not an integer\n", name, value);
    std::exit(2);
  }
  return static_cast<int>(parsed);
}

double Median(std::vector<double> v) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

double Max(const std::vector<double>& v) {
  return v.empty() ? 0 : *std::max_element(v.begin(), v.end());
}

double ThreadCpu() {
  timespec t{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) + 1e-9 * static_cast<double>(t.tv_nsec);
}

MpcProblems Collect(int horizon, int steps) {
  const ScenePtr scene = std::make_shared<const Scene>(
      LoadScene(std::string(QUASIDYN_SOURCE_DIR) + "/examples/point_robot_walls/scene.yaml"));
  MpcSettings settings = *scene->mpc;
  settings.horizon = horizon;
  if (const int limit = EnvInt("QUASIDYN_MPC_NODE_LIMIT", 0); limit > 0)
    settings.node_limit = limit;
  if (const int limit = EnvInt("QUASIDYN_MPC_TIME_LIMIT_MS", 0); limit > 0)
    settings.time_limit = 1e-3 * limit;
  ContactMpc mpc(scene, settings);
  const auto plant = MakeStepModel(scene);
  MpcProblems out;
  out.horizon = horizon;
  out.settings = mpc.solver_settings();
  MpcRunOptions options;
  options.steps = steps;
  const bool log_steps = EnvInt("QUASIDYN_MPC_STEP_LOG", 0) != 0;
  options.progress = [&](int step, const MpcStep& answer) {
    if (log_steps) {
      const MiqpInfo& i = answer.info;
      std::printf(
          "N = %d step %3d: %8.2f ms CPU, %3d nodes, %3d strong-branching and %3d heuristic "
          "QPs, %5d iterations, %s, relative gap %.2e\n",
          horizon, step, 1e3 * i.cpu_seconds, i.nodes, i.strong_branching_solves,
          i.heuristic_solves, i.qp_iterations, std::string(ToString(answer.status)).c_str(),
          answer.relative_gap);
    }
    out.problems.push_back(mpc.miqp().problem);
    out.guesses.push_back(mpc.guesses());
    out.seeds.push_back(mpc.pseudo_cost_seed() != nullptr
                            ? std::optional<MiqpPseudoCosts>(*mpc.pseudo_cost_seed())
                            : std::nullopt);
    out.loop_seconds.push_back(answer.info.cpu_seconds);
    out.loop_nodes.push_back(answer.info.nodes);
    if (answer.status == MiqpStatus::kNodeLimit || answer.status == MiqpStatus::kTimeLimit)
      out.limited_gaps.push_back(answer.relative_gap);
    if (answer.has_solution && std::isfinite(answer.info.guess_objective)) {
      ++out.guessed;
      out.guess_excess.push_back((answer.info.guess_objective - answer.cost) /
                                 std::max(1.0, std::abs(answer.cost)));
    }
  };
  const MpcRun run = RunMpc(*plant, &mpc, InitialState(*plant), options);
  const Eigen::VectorXd& Q = settings.state_weight;
  const Eigen::VectorXd& R = settings.force_weight;
  for (size_t k = 0; k < run.trajectory.steps.size(); ++k) {
    const TrajectoryStep& s = run.trajectory.steps[k];
    Eigen::VectorXd e(s.q.size() + s.v.size());
    e << s.q, s.v;
    e -= settings.target;
    const Eigen::VectorXd& f = run.steps[k].force;
    out.realised_cost += e.dot(Q.cwiseProduct(e)) + f.dot(R.cwiseProduct(f));
  }
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

// The controller's pseudo-cost seed of problem k, or null.
const MiqpPseudoCosts* Seed(const MpcProblems& p, size_t k) {
  return p.seeds[k] ? &*p.seeds[k] : nullptr;
}

// Our settings for a bare solve: the controller's without its node and time limits.
MiqpSettings Bare(const MiqpSettings& settings) {
  MiqpSettings bare = settings;
  bare.node_limit = MiqpSettings().node_limit;
  bare.time_limit_seconds = MiqpSettings().time_limit_seconds;
  return bare;
}

void PrintSideBySide() {
  const int every = std::max(1, EnvInt("QUASIDYN_BONMIN_EVERY", 6));
  reference::BonminSettings bonmin;
  bonmin.time_limit_seconds = EnvInt("QUASIDYN_BONMIN_TIME_LIMIT", 120);
  std::printf("MPC through contact, point robot between three walls (notes' example); CPU time\n");
  for (const MpcProblems& p : Problems()) {
    std::printf(
        "N = %d: closed loop of %zu steps, node limit %d, controller's MIQP: median %.2f ms, "
        "max %.2f ms; nodes median %.0f, max %.0f; limit bound at %zu steps (largest relative "
        "gap %.2e); guesses feasible at %d steps, guess above the answer by median %.2e, max "
        "%.2e (relative); realised cost %.4f\n",
        p.horizon, p.problems.size(), p.settings.node_limit, 1e3 * Median(p.loop_seconds),
        1e3 * Max(p.loop_seconds), Median(p.loop_nodes), Max(p.loop_nodes), p.limited_gaps.size(),
        Max(p.limited_gaps), p.guessed, Median(p.guess_excess), Max(p.guess_excess),
        p.realised_cost);
    bonmin.absolute_gap = p.settings.absolute_gap_tolerance;
    bonmin.relative_gap = p.settings.relative_gap_tolerance;
    const MiqpSettings bare = Bare(p.settings);
    std::vector<double> loop_s, bare_s, bare_nodes, theirs_s;
    double worst_difference = 0;
    int limited = 0;
    for (size_t k = 0; k < p.problems.size(); k += every) {
      MiqpSolver solver;
      solver.Setup(p.problems[k], p.settings);
      const MiqpResult in_loop = solver.Solve(p.guesses[k], Seed(p, k));
      const MiqpResult ours = Solve(p.problems[k], bare);
      const double cpu_start = ThreadCpu();
      const reference::BonminResult theirs = reference::SolveWithBonmin(p.problems[k], bonmin);
      const double theirs_cpu = std::min(ThreadCpu() - cpu_start, bonmin.time_limit_seconds);
      loop_s.push_back(in_loop.info.cpu_seconds);
      bare_s.push_back(ours.info.cpu_seconds);
      bare_nodes.push_back(ours.info.nodes);
      theirs_s.push_back(theirs_cpu);
      if (!theirs.optimal) ++limited;
      if (theirs.optimal && ours.has_solution) {
        worst_difference =
            std::max(worst_difference, (ours.objective - theirs.objective) /
                                           std::max(1.0, std::abs(theirs.objective)));
      }
      std::printf(
          "  step %3zu: in loop %8.2f ms %5d nodes %-10s | bare %8.2f ms %5d nodes %-10s J "
          "%.6g | Bonmin %9.2f ms %6d nodes %-18s J %.6g\n",
          k + 1, 1e3 * in_loop.info.cpu_seconds, in_loop.info.nodes,
          std::string(ToString(in_loop.status)).c_str(), 1e3 * ours.info.cpu_seconds,
          ours.info.nodes, std::string(ToString(ours.status)).c_str(), ours.objective,
          1e3 * theirs_cpu, theirs.nodes, theirs.status.c_str(), theirs.objective);
    }
    std::printf(
        "N = %d, %zu problems: ours in the loop median %.2f ms (max %.2f); ours bare median "
        "%.2f ms (max %.2f), nodes median %.0f (max %.0f); Bonmin median %.2f ms (max %.2f)%s; "
        "ratio of medians Bonmin / ours in the loop %.1f, Bonmin / ours bare %.1f; largest "
        "(ours bare − Bonmin)/max(1, |J|) = %.2e\n",
        p.horizon, bare_s.size(), 1e3 * Median(loop_s), 1e3 * Max(loop_s), 1e3 * Median(bare_s),
        1e3 * Max(bare_s), Median(bare_nodes), Max(bare_nodes), 1e3 * Median(theirs_s),
        1e3 * Max(theirs_s),
        limited > 0
            ? (", " + std::to_string(limited) + " not proven optimal within its limit").c_str()
            : "",
        Median(theirs_s) / std::max(1e-12, Median(loop_s)),
        Median(theirs_s) / std::max(1e-12, Median(bare_s)), worst_difference);
  }
  std::fflush(stdout);
}

// QUASIDYN_MIQP_VARIANTS=1: every problem of the loop solved again with the controller's
// guesses (and, first, its pseudo-cost seeds) under variants of the solver's settings (each
// feature on or off), to measure what each one buys: CPU time and nodes per problem (median, max,
// total) and the largest difference of the objective from the controller's settings' (relative to
// max(1, |J|)).
void PrintVariants() {
  if (EnvInt("QUASIDYN_MIQP_VARIANTS", 0) == 0) return;
  struct Variant {
    const char* name;
    void (*apply)(MiqpSettings*);
    bool seeded = false;  // the controller's pseudo-cost seed
  };
  const Variant variants[] = {
      {"controller's settings and seeds", [](MiqpSettings*) {}, true},
      {"controller's settings, no seeds", [](MiqpSettings*) {}},
      {"no guesses, no seeds", nullptr},
      {"pseudo-cost, no strong branching",
       [](MiqpSettings* s) { s->strong_branching_candidates = 0; }},
      {"strong branching 4 candidates, reliability 1",
       [](MiqpSettings* s) {
         s->strong_branching_candidates = 4;
         s->strong_branching_reliability = 1;
       }},
      {"strong branching 8 candidates, reliability 2",
       [](MiqpSettings* s) {
         s->strong_branching_candidates = 8;
         s->strong_branching_reliability = 2;
       }},
      {"QP warm start from the parent", [](MiqpSettings* s) { s->warm_start = true; }},
      {"most fractional", [](MiqpSettings* s) { s->branching = BranchingRule::kMostFractional; }},
  };
  for (const MpcProblems& p : Problems()) {
    std::vector<double> reference;
    for (const Variant& v : variants) {
      MiqpSettings settings = Bare(p.settings);
      if (v.apply) v.apply(&settings);
      std::vector<double> seconds, nodes;
      double total = 0, worst = 0;
      for (size_t k = 0; k < p.problems.size(); ++k) {
        MiqpSolver solver;
        solver.Setup(p.problems[k], settings);
        const MiqpResult& r =
            v.apply ? solver.Solve(p.guesses[k], v.seeded ? Seed(p, k) : nullptr) : solver.Solve();
        seconds.push_back(r.info.cpu_seconds);
        nodes.push_back(r.info.nodes + r.info.strong_branching_solves);
        total += r.info.cpu_seconds;
        if (reference.size() < p.problems.size()) {
          reference.push_back(r.objective);
        } else {
          worst = std::max(
              worst, std::abs(r.objective - reference[k]) / std::max(1.0, std::abs(reference[k])));
        }
      }
      std::printf(
          "variant N = %d, %-46s: median %8.2f ms, max %9.2f ms, total %9.2f ms; relaxations "
          "median %4.0f, max %5.0f; largest |ΔJ|/max(1, |J|) %.1e\n",
          p.horizon, v.name, 1e3 * Median(seconds), 1e3 * Max(seconds), 1e3 * total, Median(nodes),
          Max(nodes), worst);
      std::fflush(stdout);
    }
  }
}

// Counters: nodes; qp_solves (node relaxations, the heuristic's and strong branching's QPs) and
// their interior-point iterations; the problem's size (variables, inequality and equality rows).
void BM_OurMiqp(benchmark::State& state, const MiqpProblem* problem, MiqpSettings settings) {
  MiqpSolver solver;
  MiqpInfo info;
  for (auto _ : state) {
    solver.Setup(*problem, settings);
    info = solver.Solve().info;
    benchmark::DoNotOptimize(info.nodes);
  }
  state.counters["nodes"] = info.nodes;
  state.counters["qp_solves"] = info.nodes + info.heuristic_solves + info.strong_branching_solves;
  state.counters["qp_iterations"] = info.qp_iterations;
  state.counters["variables"] = static_cast<double>(problem->continuous.Q.rows());
  state.counters["inequalities"] = static_cast<double>(problem->continuous.G.rows());
  state.counters["equalities"] = static_cast<double>(problem->continuous.A.rows());
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
                                 Bare(p.settings))
        ->Unit(benchmark::kMillisecond)
        ->MeasureProcessCPUTime();
    benchmark::RegisterBenchmark((n + "/hardest_step").c_str(), BM_OurMiqp, &p.problems[hardest],
                                 Bare(p.settings))
        ->Unit(benchmark::kMillisecond)
        ->MeasureProcessCPUTime();
  }
}

}  // namespace
}  // namespace quasidyn::bench

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  quasidyn::bench::PrintVariants();
  if (std::getenv("QUASIDYN_BONMIN_SKIP") == nullptr) quasidyn::bench::PrintSideBySide();
  quasidyn::bench::RegisterBenchmarks();
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
