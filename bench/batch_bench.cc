// Batch evaluation (stepping/batch_step.h): N = 8 points (the state of bench_scenes.h with its
// command moved by a few millimetres per point), Calc and CalcDiff(A and B) of the exact QP
// model, on T = 1 or 2 threads, on arm_cubes at the grasp and planar_hand after 60 steps.
// Real time; items_per_second is the batch throughput. Ratio of interest: time(T = 1) /
// time(T = 2) (the machine has 2 cores, and its other load shows directly in the 2-thread rows).
// Run: build/release/batch_bench --benchmark_repetitions=5 --benchmark_report_aggregates_only=true
#include <benchmark/benchmark.h>

#include <vector>

#include "bench_scenes.h"
#include "quasidyn/stepping/batch_step.h"

namespace quasidyn::bench {
namespace {

constexpr int kBatchSize = 8;

std::vector<StepPoint> BatchPoints(const SceneState& at) {
  std::vector<StepPoint> points;
  for (int i = 0; i < kBatchSize; ++i) {
    Eigen::VectorXd u = at.u;
    u[i % u.size()] += 1e-3 * (i - 3.5);  // ±3.5 mm or mrad: near the nominal contact modes
    points.push_back({at.x, u});
  }
  return points;
}

void BM_BatchAAndB(benchmark::State& state, Example example) {
  const int threads = static_cast<int>(state.range(0));
  BatchStepper batch(ModelOf(example, "qp"), threads);
  const std::vector<StepPoint> points = BatchPoints(StateOf(example));
  int failed = 0;
  for (const StepEvaluation& e : batch.Run(points, GradientMode::kAAndB)) failed += !e.ok();
  for (auto _ : state) {
    std::vector<StepEvaluation> results = batch.Run(points, GradientMode::kAAndB);
    benchmark::DoNotOptimize(results.data());
  }
  state.SetItemsProcessed(state.iterations() * kBatchSize);
  state.counters["failed_items"] = failed;
  state.counters["threads"] = threads;
}
BENCHMARK_CAPTURE(BM_BatchAAndB, arm_cubes, Example::kArmCubes)
    ->Arg(1)
    ->Arg(2)
    ->UseRealTime()
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_BatchAAndB, planar_hand, Example::kPlanarHand)
    ->Arg(1)
    ->Arg(2)
    ->UseRealTime()
    ->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace quasidyn::bench

BENCHMARK_MAIN();
