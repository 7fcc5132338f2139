// The second-order time step (formulations/second_order/second_order_model.h) beside the
// quasi-dynamic QP step on the same scenes, in the same run (docs/formulations.md, "Second-order
// time stepping"):
//   BM_Calc/<scene>_<formulation>      one step from the same state repeatedly: each model at its
//                                      own state after 200 steps of the scene's schedule
//                                      (arm_cubes, t = 2 s: the gripper holds the red cube) or 15
//                                      (planar_gripper: the fingers squeeze the sphere);
//   BM_Rollout/<scene>_<formulation>   the step along the trajectory from that state (50 steps,
//                                      then back), as a rollout runs it: Lemke's warm start
//                                      helps as much as consecutive steps keep their contacts'
//                                      modes;
//   BM_CalcDiff/<scene>_<formulation>  A and B of that step (CalcDiff after Calc);
//   BM_Slide/<formulation>_<rays>      the 3D box of formulations/anitescu_cone/
//                                      anitescu_cone_sliding_test.cc sliding at 0.8 m/s, 30° off
//                                      x, on the exact cone (anitescu-cone) or a pyramid of 4 or
//                                      16 rays (anitescu): its first 20 steps from the start,
//                                      over and over (docs/formulations.md, anitescu-cone).
// Run: build/release/second_order_bench --benchmark_repetitions=10
//      --benchmark_report_aggregates_only=true
// and read the *_median rows (the machine may be shared: compare ratios within one run).
#include <benchmark/benchmark.h>

#include <cmath>
#include <map>
#include <numbers>
#include <string>
#include <utility>

#include "bench_scenes.h"
#include "quasidyn/testing/second_order_scenes.h"

namespace quasidyn::bench {
namespace {

// The state of `formulation`'s own model after `steps` steps of the schedule from the scene's
// initial state (for the second-order models: v0 = 0, the examples give none), computed once.
const SceneState& OwnStateOf(Example example, const char* formulation, int steps) {
  static std::map<std::pair<int, std::string>, SceneState> states;
  const auto key = std::make_pair(static_cast<int>(example), std::string(formulation));
  const auto found = states.find(key);
  if (found != states.end()) return found->second;
  const std::shared_ptr<const StepModel> model = ModelOf(example, formulation);
  const std::unique_ptr<StepData> data = model->CreateData();
  State x = InitialState(*model);
  const double h = model->time_step();
  for (int k = 1; k <= steps; ++k) {
    model->Calc(x, model->ScheduledCommand(k * h, x), data.get());
    if (!data->result.ok())
      throw std::runtime_error(std::string(formulation) + " step " + std::to_string(k) + ": " +
                               data->result.message);
    x = data->result.next;
  }
  return states[key] = {x, model->ScheduledCommand((steps + 1) * h, x), steps * h};
}

int StepsOf(Example example) { return example == Example::kArmCubes ? 200 : 15; }

void BM_Calc(benchmark::State& state, Example example, const char* formulation) {
  const std::shared_ptr<const StepModel> model = ModelOf(example, formulation);
  const SceneState& at = OwnStateOf(example, formulation, StepsOf(example));
  const std::unique_ptr<StepData> data = model->CreateData();
  model->Calc(at.x, at.u, data.get());
  if (!data->result.ok()) {
    state.SkipWithError((std::string(formulation) + ": " + data->result.message).c_str());
    return;
  }
  for (auto _ : state) {
    model->Calc(at.x, at.u, data.get());
    benchmark::DoNotOptimize(data->result.next.q.data());
  }
  state.counters["contacts"] = static_cast<double>(data->result.contacts.size());
  state.counters["iterations"] = data->result.solver.iterations;
}

void BM_Rollout(benchmark::State& state, Example example, const char* formulation) {
  const std::shared_ptr<const StepModel> model = ModelOf(example, formulation);
  const SceneState& at = OwnStateOf(example, formulation, StepsOf(example));
  const std::unique_ptr<StepData> data = model->CreateData();
  const double h = model->time_step();
  constexpr int kStepsPerRun = 50;
  State x = at.x;
  int k = 0, failures = 0;
  long iterations = 0, steps = 0;
  for (auto _ : state) {
    model->Calc(x, model->ScheduledCommand(at.t + (k + 1) * h, x), data.get());
    failures += !data->result.ok();
    iterations += data->result.solver.iterations;
    ++steps;
    if (data->result.ok()) x = data->result.next;
    if (++k == kStepsPerRun) {
      k = 0;
      x = at.x;
    }
    benchmark::DoNotOptimize(x.q.data());
  }
  state.counters["failed_steps"] = failures;
  state.counters["mean_iterations"] = steps > 0 ? static_cast<double>(iterations) / steps : 0.0;
}

void BM_CalcDiff(benchmark::State& state, Example example, const char* formulation) {
  const std::shared_ptr<const StepModel> model = ModelOf(example, formulation);
  const SceneState& at = OwnStateOf(example, formulation, StepsOf(example));
  const std::unique_ptr<StepData> data = model->CreateData();
  model->Calc(at.x, at.u, data.get());
  model->CalcDiff(GradientMode::kAAndB, data.get());
  if (!data->derivatives.ok()) {
    state.SkipWithError(data->derivatives.message.c_str());
    return;
  }
  for (auto _ : state) {
    model->CalcDiff(GradientMode::kAAndB, data.get());
    benchmark::DoNotOptimize(data->derivatives.A.data());
  }
}

void BM_Slide(benchmark::State& state, const char* formulation, int rays) {
  testing::BoxOnGround box;
  box.planar = false;
  box.formulation = formulation;
  box.contact_tolerance = 0.02;  // as the test: keeps the hopping contact in the set
  const double angle = 30.0 * std::numbers::pi / 180, speed = 0.8;  // [rad], [m/s]
  box.velocity = {speed * std::cos(angle), speed * std::sin(angle), 0, 0, 0, 0};
  Scene scene = box.Build();
  scene.friction_rays = rays;
  const auto model = MakeStepModel(std::make_shared<const Scene>(std::move(scene)),
                                   FormulationChoice(formulation));
  const std::unique_ptr<StepData> data = model->CreateData();
  const State start = InitialState(*model);
  constexpr int kStepsPerRun = 20;  // the slide stops within about 20 steps
  State x = start;
  int k = 0, failures = 0;
  for (auto _ : state) {
    model->Calc(x, Eigen::VectorXd(), data.get());
    failures += !data->result.ok();
    if (data->result.ok()) x = data->result.next;
    if (++k == kStepsPerRun) {
      k = 0;
      x = start;
    }
    benchmark::DoNotOptimize(x.q.data());
  }
  state.counters["failed_steps"] = failures;
}
BENCHMARK_CAPTURE(BM_Slide, anitescu_cone, "anitescu-cone", 4)->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_Slide, anitescu_4, "anitescu", 4)->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_Slide, anitescu_16, "anitescu", 16)->Unit(benchmark::kMicrosecond);

#define QUASIDYN_SECOND_ORDER_BENCHES(name, example, formulation)                           \
  BENCHMARK_CAPTURE(BM_Calc, name, example, formulation)->Unit(benchmark::kMicrosecond);    \
  BENCHMARK_CAPTURE(BM_Rollout, name, example, formulation)->Unit(benchmark::kMicrosecond); \
  BENCHMARK_CAPTURE(BM_CalcDiff, name, example, formulation)->Unit(benchmark::kMicrosecond)

QUASIDYN_SECOND_ORDER_BENCHES(planar_gripper_stewart_trinkle, Example::kPlanarGripper,
                              "stewart-trinkle");
QUASIDYN_SECOND_ORDER_BENCHES(planar_gripper_anitescu, Example::kPlanarGripper, "anitescu");
QUASIDYN_SECOND_ORDER_BENCHES(planar_gripper_anitescu_cone, Example::kPlanarGripper,
                              "anitescu-cone");
QUASIDYN_SECOND_ORDER_BENCHES(planar_gripper_qp, Example::kPlanarGripper, "qp");
QUASIDYN_SECOND_ORDER_BENCHES(arm_cubes_stewart_trinkle, Example::kArmCubes, "stewart-trinkle");
QUASIDYN_SECOND_ORDER_BENCHES(arm_cubes_anitescu, Example::kArmCubes, "anitescu");
QUASIDYN_SECOND_ORDER_BENCHES(arm_cubes_anitescu_cone, Example::kArmCubes, "anitescu-cone");
QUASIDYN_SECOND_ORDER_BENCHES(arm_cubes_qp, Example::kArmCubes, "qp");

}  // namespace
}  // namespace quasidyn::bench

BENCHMARK_MAIN();
