// Batch linearisation (gradients/batch_linearize.h) and the cost of gradients against central
// finite differences (gradients/finite_difference.h), on the arm + 10 cubes scene at t = 2 s
// (the gripper holds the red cube, arm_cubes_grasp.h) and on the planar hand after 60 steps
// (the object turning between the fingers).
//
// * BM_BatchAAndB/<scene>/<T>: N = 8 points (the state with its command moved by a few
//   millimetres per point), A and B exact, on T = 1 or 2 threads. Real time; items_per_second
//   is the batch throughput. Ratio of interest: time(T = 1) / time(T = 2).
// * BM_ExactAAndB/<scene> vs BM_FiniteDifferenceAAndB/<scene>: one exact linearisation against
//   2·(n_q + n_q,a) steps of central differences. Ratio of interest: FD / exact.
// Run: build-sim/batch_bench --benchmark_repetitions=5 --benchmark_report_aggregates_only=true
// and read the *_median rows. The machine's other load shows directly in the 2-thread rows.
#include <benchmark/benchmark.h>

#include <string>
#include <vector>

#include "arm_cubes_grasp.h"
#include "quasidyn/gradients/batch_linearize.h"
#include "quasidyn/gradients/finite_difference.h"
#include "quasidyn/gradients/linearize.h"

namespace quasidyn::bench {
namespace {

constexpr int kBatchSize = 8;

const Scene& PlanarHandScene() {
  static const Scene scene = LoadScene(QUASIDYN_SOURCE_DIR "/examples/planar_hand/scene.yaml");
  return scene;
}

const SceneState& PlanarHandState() {
  static const SceneState state = AdvanceWithQp(PlanarHandScene(), 60);
  return state;
}

struct Case {
  const Scene& scene;
  const SceneState& state;
};

Case CaseOf(bool arm) {
  return arm ? Case{ArmCubesScene(), GraspState()} : Case{PlanarHandScene(), PlanarHandState()};
}

FormulationSettings QpFormulation(const Scene& scene) {
  FormulationSettings settings = SettingsFromScene(scene);
  settings.type = FormulationType::kQp;
  return settings;
}

std::vector<LinearizationPoint> BatchPoints(const Case& c) {
  std::vector<LinearizationPoint> points;
  for (int i = 0; i < kBatchSize; ++i) {
    Eigen::VectorXd u = c.state.u;
    u[i % u.size()] += 1e-3 * (i - 3.5);  // ±3.5 mm or mrad: near the nominal contact modes
    points.push_back({c.state.q, u});
  }
  return points;
}

void BM_BatchAAndB(benchmark::State& state, bool arm) {
  const Case c = CaseOf(arm);
  const int threads = static_cast<int>(state.range(0));
  BatchLinearizer batch(c.scene, QpFormulation(c.scene), threads);
  const std::vector<LinearizationPoint> points = BatchPoints(c);
  int failed = 0;
  for (const Linearization& l : batch.Run(points, GradientMode::kAAndB, GradientMethod::kExact))
    failed += !l.ok();
  for (auto _ : state) {
    std::vector<Linearization> results =
        batch.Run(points, GradientMode::kAAndB, GradientMethod::kExact);
    benchmark::DoNotOptimize(results.data());
  }
  state.SetItemsProcessed(state.iterations() * kBatchSize);
  state.counters["failed_items"] = failed;
  state.counters["threads"] = threads;
}
BENCHMARK_CAPTURE(BM_BatchAAndB, arm_cubes, true)
    ->Arg(1)
    ->Arg(2)
    ->UseRealTime()
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_BatchAAndB, planar_hand, false)
    ->Arg(1)
    ->Arg(2)
    ->UseRealTime()
    ->Unit(benchmark::kMillisecond);

void BM_ExactAAndB(benchmark::State& state, bool arm) {
  const Case c = CaseOf(arm);
  Linearizer linearizer(c.scene, QpFormulation(c.scene));
  const Linearization first =
      linearizer.Linearize(c.state.q, c.state.u, GradientMode::kAAndB, GradientMethod::kExact);
  if (!first.ok()) {
    state.SkipWithError(first.message.c_str());
    return;
  }
  for (auto _ : state) {
    Linearization l =
        linearizer.Linearize(c.state.q, c.state.u, GradientMode::kAAndB, GradientMethod::kExact);
    benchmark::DoNotOptimize(l.A.data());
  }
}
BENCHMARK_CAPTURE(BM_ExactAAndB, arm_cubes, true)->UseRealTime()->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_ExactAAndB, planar_hand, false)->UseRealTime()->Unit(benchmark::kMillisecond);

// The whole step differentiated by central differences: 2·n_q steps for A, 2·n_q,a for B.
void BM_FiniteDifferenceAAndB(benchmark::State& state, bool arm) {
  const Case c = CaseOf(arm);
  QuasiDynamicStepper stepper(c.scene, QpFormulation(c.scene));
  const StepFunction f = StepFunctionOf(&stepper);
  for (auto _ : state) {
    Eigen::MatrixXd A = FiniteDifferenceA(c.scene, f, c.state.q, c.state.u);
    Eigen::MatrixXd B = FiniteDifferenceB(f, c.state.q, c.state.u);
    benchmark::DoNotOptimize(A.data());
    benchmark::DoNotOptimize(B.data());
  }
  state.counters["steps"] = 2 * (c.scene.nq + c.scene.nq_a);
}
BENCHMARK_CAPTURE(BM_FiniteDifferenceAAndB, arm_cubes, true)
    ->UseRealTime()
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_FiniteDifferenceAAndB, planar_hand, false)
    ->UseRealTime()
    ->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace quasidyn::bench

BENCHMARK_MAIN();
