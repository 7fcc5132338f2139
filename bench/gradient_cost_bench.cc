// The cost of the step's derivatives relative to the step itself, single thread: CalcDiff
// (stepping/step_model.h) differentiates the step the last Calc solved, without solving it
// again. At arm_cubes' grasp state (t = 2 s: ≈ 52 contacts, 69 velocities) and planar_hand
// after 60 steps, for the exact pyramid QP (eq. (10) of Pang & Tedrake 2021) and its log
// barrier, and the exact-cone SOCP (Pang, Suh, Yang & Tedrake, T-RO 2023, eq. (27)) and its
// log barrier:
//   BM_Calc/<case>              the step;
//   BM_CalcDiff/<case>_<mode>   CalcDiff alone after one Calc (B only, A and B); reports heap
//                               allocations per CalcDiff;
//   BM_FiniteDifferenceAB/<case>  central differences of the step: 2·(n_q + n_q,a) steps;
//   BM_CostRatio/<case>         Calc, CalcDiff(B), CalcDiff(A+B) interleaved, one of each per
//                               iteration, each timed on its second call (warm caches); the
//                               medians of the per-iteration ratios B = t_B / t_Calc and
//                               AB = t_AB / t_Calc are the figures to quote (robust to load
//                               drifting on a shared machine).
// Run: build/release/gradient_cost_bench --benchmark_repetitions=5
//        --benchmark_report_aggregates_only=true
#include <benchmark/benchmark.h>

#include <algorithm>
#include <chrono>
#include <vector>

#include "bench_scenes.h"
#include "quasidyn/gradients/finite_difference.h"
#include "quasidyn/stepping/step_function.h"

namespace quasidyn::bench {
namespace {

void BM_Calc(benchmark::State& state, Example example, const char* formulation) {
  const std::shared_ptr<const StepModel> model = ModelOf(example, formulation);
  const SceneState& at = StateOf(example);
  const std::unique_ptr<StepData> data = model->CreateData();
  for (auto _ : state) {
    model->Calc(at.x, at.u, data.get());
    benchmark::DoNotOptimize(data->result.next.q.data());
  }
}

void BM_CalcDiff(benchmark::State& state, Example example, const char* formulation,
                 GradientMode mode) {
  const std::shared_ptr<const StepModel> model = ModelOf(example, formulation);
  const SceneState& at = StateOf(example);
  const std::unique_ptr<StepData> data = model->CreateData();
  model->Calc(at.x, at.u, data.get());
  model->CalcDiff(mode, data.get());
  if (!data->derivatives.ok()) {
    state.SkipWithError(data->derivatives.message.c_str());
    return;
  }
  long allocations = 0;
  {
    testing::MallocCounter counter;
    model->CalcDiff(mode, data.get());
    allocations = counter.count();
  }
  for (auto _ : state) {
    model->CalcDiff(mode, data.get());
    benchmark::DoNotOptimize(data->derivatives.B.data());
  }
  state.counters["active_rows"] = data->derivatives.active_rows;
  state.counters["allocations"] = static_cast<double>(allocations);
}

void BM_FiniteDifferenceAB(benchmark::State& state, Example example, const char* formulation) {
  const std::shared_ptr<const StepModel> model = ModelOf(example, formulation);
  const SceneState& at = StateOf(example);
  const StepFunction f = StepFunctionOf(model);
  for (auto _ : state) {
    Eigen::MatrixXd A = FiniteDifferenceA(model->scene(), f, at.x.q, at.u);
    Eigen::MatrixXd B = FiniteDifferenceB(f, at.x.q, at.u);
    benchmark::DoNotOptimize(A.data());
    benchmark::DoNotOptimize(B.data());
  }
}

void BM_CostRatio(benchmark::State& state, Example example, const char* formulation) {
  using Clock = std::chrono::steady_clock;
  const std::shared_ptr<const StepModel> model = ModelOf(example, formulation);
  const SceneState& at = StateOf(example);
  const std::unique_ptr<StepData> data = model->CreateData();
  std::vector<double> b_ratio, ab_ratio;
  const auto timed = [&](auto&& call) {
    double seconds = 0.0;
    for (int repeat = 0; repeat < 2; ++repeat) {  // the second call is timed
      const Clock::time_point start = Clock::now();
      call();
      seconds = std::chrono::duration<double>(Clock::now() - start).count();
    }
    return seconds;
  };
  for (auto _ : state) {
    const double calc = timed([&] { model->Calc(at.x, at.u, data.get()); });
    const double b = timed([&] { model->CalcDiff(GradientMode::kBOnly, data.get()); });
    const double ab = timed([&] { model->CalcDiff(GradientMode::kAAndB, data.get()); });
    if (!data->derivatives.ok()) {
      state.SkipWithError(data->derivatives.message.c_str());
      return;
    }
    b_ratio.push_back(b / calc);
    ab_ratio.push_back(ab / calc);
  }
  auto median = [](std::vector<double> x) {
    std::nth_element(x.begin(), x.begin() + x.size() / 2, x.end());
    return x[x.size() / 2];
  };
  if (!b_ratio.empty()) {
    state.counters["B_over_step"] = median(b_ratio);
    state.counters["AB_over_step"] = median(ab_ratio);
  }
}

#define QUASIDYN_GRADIENT_BENCHES(name, example, formulation)                                \
  BENCHMARK_CAPTURE(BM_Calc, name, example, formulation)->Unit(benchmark::kMicrosecond);     \
  BENCHMARK_CAPTURE(BM_CalcDiff, name##_B_only, example, formulation, GradientMode::kBOnly)  \
      ->Unit(benchmark::kMicrosecond);                                                       \
  BENCHMARK_CAPTURE(BM_CalcDiff, name##_A_and_B, example, formulation, GradientMode::kAAndB) \
      ->Unit(benchmark::kMicrosecond);                                                       \
  BENCHMARK_CAPTURE(BM_FiniteDifferenceAB, name, example, formulation)                       \
      ->Unit(benchmark::kMicrosecond);                                                       \
  BENCHMARK_CAPTURE(BM_CostRatio, name, example, formulation)->Unit(benchmark::kMicrosecond)

QUASIDYN_GRADIENT_BENCHES(arm_cubes_qp, Example::kArmCubes, "qp");
QUASIDYN_GRADIENT_BENCHES(arm_cubes_log_barrier, Example::kArmCubes, "log-barrier");
QUASIDYN_GRADIENT_BENCHES(planar_hand_qp, Example::kPlanarHand, "qp");
QUASIDYN_GRADIENT_BENCHES(planar_hand_log_barrier, Example::kPlanarHand, "log-barrier");
QUASIDYN_GRADIENT_BENCHES(arm_cubes_socp, Example::kArmCubes, "socp");
QUASIDYN_GRADIENT_BENCHES(arm_cubes_log_barrier_cone, Example::kArmCubes, "log-barrier-cone");
QUASIDYN_GRADIENT_BENCHES(planar_hand_socp, Example::kPlanarHand, "socp");

}  // namespace
}  // namespace quasidyn::bench

BENCHMARK_MAIN();
