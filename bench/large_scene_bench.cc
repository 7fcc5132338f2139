// Memory and time of one step on a large planar scene (memory grew with the square of
// the scene, 3.1 GB for one step of 3,000 spheres). N planar spheres (radius 0.05 m, 0.1 kg) in a
// square pile on the table, no robot; n_v = 3N. For N = 100, 300, 1000 and each convex
// formulation:
//   BM_LargePlanarStep/<formulation>/N   Calc along the rollout from the pile's initial state;
// counters: heap_MB, the heap in use once the model, its data and a first step exist (the step
// keeps its buffers, so this is its peak), minus the heap
// before the scene was loaded; heap_KB_per_object = heap_MB / N (flat in N: memory linear in
// the scene); contacts, those of the first step.
// Run: build/release/large_scene_bench --benchmark_repetitions=5
//        --benchmark_report_aggregates_only=true   (read the *_median rows)
#include <benchmark/benchmark.h>
#include <malloc.h>

#include "quasidyn/formulations/registry.h"
#include "quasidyn/testing/planar_pile.h"

namespace quasidyn::bench {
namespace {

// Bytes allocated from the heap and in use: the arena's (uordblks) and the blocks glibc maps
// separately (hblkhd: every allocation above its mmap threshold, 128 KiB at first).
double HeapInUseBytes() {
  const struct mallinfo2 info = mallinfo2();
  return static_cast<double>(info.uordblks + info.hblkhd);
}

void BM_LargePlanarStep(benchmark::State& state, const char* formulation) {
  const int n = static_cast<int>(state.range(0));
  const double heap_before = HeapInUseBytes();
  const auto scene = std::make_shared<const Scene>(testing::PlanarPile(n));
  const std::shared_ptr<const StepModel> model =
      MakeStepModel(scene, FormulationChoice(formulation));
  const std::unique_ptr<StepData> data = model->CreateData();
  State x = InitialState(*scene);
  const Eigen::VectorXd u;  // no robot
  model->Calc(x, u, data.get());
  if (!data->result.ok()) {
    state.SkipWithError(data->result.message.c_str());
    return;
  }
  const double heap_bytes = HeapInUseBytes() - heap_before;
  // The first step's contacts: the loop below steps the pile on for as many iterations as the
  // timing takes, so a count after it would depend on the machine's speed.
  const double first_step_contacts = static_cast<double>(data->result.contacts.size());
  for (auto _ : state) {
    model->Calc(x, u, data.get());
    if (data->result.ok()) x = data->result.next;
    benchmark::DoNotOptimize(x.q.data());
  }
  state.counters["heap_MB"] = heap_bytes / 1e6;
  state.counters["heap_KB_per_object"] = heap_bytes / 1e3 / n;
  state.counters["contacts"] = first_step_contacts;
}

BENCHMARK_CAPTURE(BM_LargePlanarStep, qp, "qp")
    ->Arg(100)
    ->Arg(300)
    ->Arg(1000)
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_LargePlanarStep, socp, "socp")
    ->Arg(100)
    ->Arg(300)
    ->Arg(1000)
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_LargePlanarStep, log_barrier, "log-barrier")
    ->Arg(100)
    ->Arg(300)
    ->Arg(1000)
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_LargePlanarStep, log_barrier_cone, "log-barrier-cone")
    ->Arg(100)
    ->Arg(300)
    ->Arg(1000)
    ->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace quasidyn::bench

BENCHMARK_MAIN();
