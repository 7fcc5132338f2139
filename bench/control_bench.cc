// The control layer's timing figures (docs/control.md): wall time of 20 iterations of the
// iterative MPC on planar pushing and on the planar hand (issue 16 quotes 2.17 s and 5.20 s for
// "the reference" on a 32-thread CPU, a figure none of the papers in ../shared/papers states;
// targets 0.2 s and 0.5 s here) and on the 3D box-turning task, the
// stabiliser's time per control step on the planar hand (target 0.2 ms), and the
// shrinking-horizon MPC's on the box. Open vs closed loop over 20 perturbed plants is
// control_study_bench's (a table and plots, not a timing).

#include <benchmark/benchmark.h>

#include <algorithm>
#include <cstdio>
#include <vector>

#include "quasidyn/control/shrinking_horizon_mpc.h"
#include "quasidyn/control/stabilizer.h"
#include "quasidyn/control/trajectory_optimizer.h"
#include "quasidyn/testing/control_tasks.h"

namespace quasidyn {
namespace {

void Optimize20(benchmark::State& state, testing::ControlTask task) {
  task.settings.iterations = 20;
  task.settings.trust_region_min = 1e-12;  // always 20 iterations
  double cost = 0.0;
  for (auto _ : state) {
    TrajectoryOptimizer optimizer(task.model, task.settings);
    const OptimizationResult r = optimizer.Optimize(task.q0, task.u0);
    cost = r.best_cost / r.initial_cost;
  }
  state.counters["best_over_initial_cost"] = cost;
}

void BM_Optimize20PlanarPushing(benchmark::State& state) {
  Optimize20(state, testing::PlanarPushingGoal(QUASIDYN_SOURCE_DIR));
}
void BM_Optimize20PlanarHand(benchmark::State& state) {
  Optimize20(state, testing::PlanarHandTurn(QUASIDYN_SOURCE_DIR));
}

const OptimizationResult& HandPlan() {
  static const OptimizationResult plan = [] {
    testing::ControlTask task = testing::PlanarHandTurn(QUASIDYN_SOURCE_DIR);
    return TrajectoryOptimizer(task.model, task.settings).Optimize(task.q0, task.u0);
  }();
  return plan;
}

void BM_StabilizerStepPlanarHand(benchmark::State& state) {
  const auto model = testing::PlanarHandTurn(QUASIDYN_SOURCE_DIR).model;
  Stabilizer stabilizer(model, HandPlan().q, HandPlan().u, {});
  Eigen::VectorXd q = HandPlan().q[5];
  q(0) += 0.003;
  for (auto _ : state) benchmark::DoNotOptimize(stabilizer.Command(5, q).data());
}

void BM_Optimize20BoxTurning3D(benchmark::State& state) {
  Optimize20(state, testing::BoxTurn(QUASIDYN_SOURCE_DIR));
}

// One control step of the shrinking-horizon MPC on the 3D box plan at t = 0 (the longest window:
// T·n_u = 36 variables), the box 3 mm off sideways.
void BM_ShrinkingHorizonMpcStepBoxTurning3D(benchmark::State& state) {
  testing::ControlTask task = testing::BoxTurn(QUASIDYN_SOURCE_DIR);
  const OptimizationResult plan =
      TrajectoryOptimizer(task.model, task.settings).Optimize(task.q0, task.u0);
  ShrinkingHorizonMpcSettings settings;
  settings.object_goal = task.settings.object_goal;
  settings.object_weight = task.settings.object_weight;
  settings.rate_weight = task.settings.rate_weight;
  settings.max_deviation = task.settings.trust_region;
  ShrinkingHorizonMpc mpc(task.model, plan.q, plan.u, settings);
  Eigen::VectorXd q = plan.q[0];
  q(1) += 0.003;
  for (auto _ : state) benchmark::DoNotOptimize(mpc.Command(0, q).data());
}

BENCHMARK(BM_Optimize20PlanarPushing)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Optimize20PlanarHand)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_StabilizerStepPlanarHand)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_Optimize20BoxTurning3D)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_ShrinkingHorizonMpcStepBoxTurning3D)->Unit(benchmark::kMicrosecond);

}  // namespace
}  // namespace quasidyn

BENCHMARK_MAIN();
