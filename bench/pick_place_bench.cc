// Issue 38's row "pick-and-place (arm_cubes) at h = 0.1, wall time per simulated second": the
// whole pick-and-place of examples/arm_cubes (the arm picks the red cube and places it on the
// stack, to the end of the command schedule: 104 steps, 10.4 s) as `quasidyn simulate
// examples/arm_cubes/scene.yaml --formulation qp --h 0.1` runs it (simulation/rollout.h:
// Rollout, the trajectory recorded). Google Benchmark; counters:
//   ms_per_simulated_second   time per run / simulated time [ms/s] (CPU time of this thread;
//                             the wall time is Google Benchmark's Time column divided by the
//                             simulated time, shown as wall_ms_per_simulated_second);
//   solve_share               the solvers' own time (StepResult's solver.solve_time_seconds,
//                             summed) over the run's wall time;
//   iterations_per_step       the solver's mean iterations (11.1 for the QP, as simulate's
//                             summary prints);
//   steps, simulated_seconds  104 and 10.4 s.
// Run: build/release/pick_place_bench --benchmark_repetitions=5
//      --benchmark_report_aggregates_only=true
#include <benchmark/benchmark.h>

#include <chrono>
#include <ctime>

#include "bench_scenes.h"
#include "quasidyn/simulation/rollout.h"

namespace quasidyn::bench {
namespace {

constexpr double kTimeStep = 0.1;  // h [s], the issue's

double ThreadCpuSeconds() {
  timespec now{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now);
  return static_cast<double>(now.tv_sec) + 1e-9 * static_cast<double>(now.tv_nsec);
}

void BM_PickAndPlace(benchmark::State& state, const char* formulation) {
  const std::shared_ptr<const StepModel> model =
      MakeStepModel(SceneOf(Example::kArmCubes), FormulationChoice(formulation, {}, kTimeStep));
  RolloutOptions options;
  options.steps = StepCountForDuration(model->scene().ScheduleEnd(), kTimeStep);
  const double simulated = options.steps * kTimeStep;
  double cpu = 0, wall = 0, solve = 0, iterations = 0;
  long failed = 0;
  for (auto _ : state) {
    const auto wall_start = std::chrono::steady_clock::now();
    const double cpu_start = ThreadCpuSeconds();
    const Trajectory run = Rollout(*model, options);
    cpu += ThreadCpuSeconds() - cpu_start;
    wall += std::chrono::duration<double>(std::chrono::steady_clock::now() - wall_start).count();
    failed += !run.completed();
    for (const TrajectoryStep& step : run.steps) {
      solve += step.solver.solve_time_seconds;
      iterations += step.solver.iterations;
    }
  }
  const double runs = static_cast<double>(state.iterations());
  state.counters["ms_per_simulated_second"] = 1e3 * cpu / (runs * simulated);
  state.counters["wall_ms_per_simulated_second"] = 1e3 * wall / (runs * simulated);
  state.counters["solve_share"] = solve / wall;
  state.counters["iterations_per_step"] = iterations / (runs * options.steps);
  state.counters["steps"] = options.steps;
  state.counters["simulated_seconds"] = simulated;
  state.counters["failed_runs"] = static_cast<double>(failed);
}
BENCHMARK_CAPTURE(BM_PickAndPlace, qp, "qp")->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_PickAndPlace, socp, "socp")->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace quasidyn::bench

BENCHMARK_MAIN();
