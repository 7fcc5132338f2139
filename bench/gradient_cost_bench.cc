// The cost of the step's gradients relative to the step itself (issue 4, Benchmarks), single
// thread: the forward step q⁺ = f(q, u) (Linearizer, mode kNone, and QuasiDynamicStepper),
// B only and A + B, exact (pyramid QP, eq. (10) of Pang & Tedrake 2021) and smoothed (the
// log-barrier pyramid), and the central finite-difference A + B (2·(n_q + n_q,a) steps), on
//   arm_cubes    at t = 2 s (the gripper holds the red cube: ≈ 52 contacts, 69 velocities),
//   planar_hand  after 60 steps (the object turns in the fingers).
// Run: build/gradient_cost_bench --benchmark_repetitions=5 --benchmark_report_aggregates_only=true
// and divide the *_median rows by the forward step of the same scene and method, or read the
// ratios of the *_interleaved rows (B_extra, AB_extra), which are robust to a drifting load.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <chrono>
#include <string>
#include <vector>

#include "arm_cubes_grasp.h"
#include "quasidyn/gradients/finite_difference.h"
#include "quasidyn/gradients/linearize.h"

namespace quasidyn::bench {
namespace {

enum class Example { kArmCubes, kPlanarHand };

const Scene& PlanarHandScene() {
  static const Scene scene = LoadScene(QUASIDYN_SOURCE_DIR "/examples/planar_hand/scene.yaml");
  return scene;
}

const Scene& SceneOf(Example example) {
  return example == Example::kArmCubes ? ArmCubesScene() : PlanarHandScene();
}

const SceneState& StateOf(Example example) {
  if (example == Example::kArmCubes) return GraspState();
  static const SceneState hand = AdvanceWithQp(PlanarHandScene(), 60);
  return hand;
}

FormulationSettings SettingsFor(Example example, GradientMethod method) {
  FormulationSettings settings = SettingsFromScene(SceneOf(example));
  settings.type =
      method == GradientMethod::kExact ? FormulationType::kQp : FormulationType::kLogBarrierPyramid;
  return settings;
}

void BM_Linearize(benchmark::State& state, Example example, GradientMethod method,
                  GradientMode mode) {
  const Scene& scene = SceneOf(example);
  const SceneState& at = StateOf(example);
  Linearizer linearizer(scene, SettingsFor(example, method));
  Linearization l = linearizer.Linearize(at.q, at.u, mode, method);
  if (!l.ok()) {
    state.SkipWithError(l.message.c_str());
    return;
  }
  for (auto _ : state) {
    l = linearizer.Linearize(at.q, at.u, mode, method);
    benchmark::DoNotOptimize(l.q_next.data());
  }
  state.counters["nv"] = scene.nv;
  state.counters["active_rows"] = l.active_rows;
}

// The stepper's step, for comparison with the forward Linearize (same program and solver).
void BM_StepperStep(benchmark::State& state, Example example, GradientMethod method) {
  const Scene& scene = SceneOf(example);
  const SceneState& at = StateOf(example);
  QuasiDynamicStepper stepper(scene, SettingsFor(example, method));
  for (auto _ : state) {
    StepResult r = stepper.Step(at.q, at.u);
    benchmark::DoNotOptimize(r.q_next.data());
  }
}

// Central finite differences of the stepper's step: A and B (finite_difference.h).
void BM_FiniteDifferenceAB(benchmark::State& state, Example example, GradientMethod method) {
  const Scene& scene = SceneOf(example);
  const SceneState& at = StateOf(example);
  QuasiDynamicStepper stepper(scene, SettingsFor(example, method));
  const StepFunction f = StepFunctionOf(&stepper);
  for (auto _ : state) {
    Eigen::MatrixXd A = FiniteDifferenceA(scene, f, at.q, at.u);
    Eigen::MatrixXd B = FiniteDifferenceB(f, at.q, at.u);
    benchmark::DoNotOptimize(A.data());
    benchmark::DoNotOptimize(B.data());
  }
}

// The same three calls interleaved, one of each per iteration, so that load drifting on a
// shared machine hits all three alike. Each call is made twice in a row and the second is
// timed, so that every mode is measured with warm caches, as in its own row (timing the
// first calls charged the forward step with the cache misses left by the A+B call before it:
// the ratios came out ≈ 0.3 lower than those of the separate rows). The medians of the
// per-iteration ratios
//   B_extra  = (t_B-only − t_forward) / t_forward,   AB_extra = (t_A+B − t_forward) / t_forward,
// i.e. the cost of the gradients on top of the forward step in units of the step (issue 4's
// targets: 0.5 and 1.5). The reported time is that of the six calls together.
void BM_InterleavedCostRatio(benchmark::State& state, Example example, GradientMethod method) {
  using Clock = std::chrono::steady_clock;
  const Scene& scene = SceneOf(example);
  const SceneState& at = StateOf(example);
  Linearizer linearizer(scene, SettingsFor(example, method));
  std::vector<double> b_extra, ab_extra;
  for (auto _ : state) {
    double seconds[3];
    const GradientMode modes[3] = {GradientMode::kNone, GradientMode::kBOnly, GradientMode::kAAndB};
    for (int i = 0; i < 3; ++i) {
      for (int repeat = 0; repeat < 2; ++repeat) {  // the second call is timed
        const Clock::time_point start = Clock::now();
        const Linearization l = linearizer.Linearize(at.q, at.u, modes[i], method);
        benchmark::DoNotOptimize(l.q_next.data());
        seconds[i] = std::chrono::duration<double>(Clock::now() - start).count();
        if (!l.ok()) {
          state.SkipWithError(l.message.c_str());
          return;
        }
      }
    }
    b_extra.push_back((seconds[1] - seconds[0]) / seconds[0]);
    ab_extra.push_back((seconds[2] - seconds[0]) / seconds[0]);
  }
  auto median = [](std::vector<double> x) {
    std::nth_element(x.begin(), x.begin() + x.size() / 2, x.end());
    return x[x.size() / 2];
  };
  if (!b_extra.empty()) {
    state.counters["B_extra"] = median(b_extra);
    state.counters["AB_extra"] = median(ab_extra);
  }
}

#define QUASIDYN_GRADIENT_BENCHES(name, example, method)                                 \
  BENCHMARK_CAPTURE(BM_StepperStep, name##_stepper, example, method)                     \
      ->Unit(benchmark::kMicrosecond);                                                   \
  BENCHMARK_CAPTURE(BM_Linearize, name##_forward, example, method, GradientMode::kNone)  \
      ->Unit(benchmark::kMicrosecond);                                                   \
  BENCHMARK_CAPTURE(BM_Linearize, name##_B_only, example, method, GradientMode::kBOnly)  \
      ->Unit(benchmark::kMicrosecond);                                                   \
  BENCHMARK_CAPTURE(BM_Linearize, name##_A_and_B, example, method, GradientMode::kAAndB) \
      ->Unit(benchmark::kMicrosecond);                                                   \
  BENCHMARK_CAPTURE(BM_FiniteDifferenceAB, name##_finite_differences, example, method)   \
      ->Unit(benchmark::kMicrosecond);                                                   \
  BENCHMARK_CAPTURE(BM_InterleavedCostRatio, name##_interleaved, example, method)        \
      ->Unit(benchmark::kMicrosecond)

QUASIDYN_GRADIENT_BENCHES(arm_cubes_qp, Example::kArmCubes, GradientMethod::kExact);
QUASIDYN_GRADIENT_BENCHES(arm_cubes_log_barrier, Example::kArmCubes, GradientMethod::kLogBarrier);
QUASIDYN_GRADIENT_BENCHES(planar_hand_qp, Example::kPlanarHand, GradientMethod::kExact);
QUASIDYN_GRADIENT_BENCHES(planar_hand_log_barrier, Example::kPlanarHand,
                          GradientMethod::kLogBarrier);

}  // namespace
}  // namespace quasidyn::bench

BENCHMARK_MAIN();
