// One quasi-dynamic time step on the arm + 10 cubes scene (Pang & Tedrake 2021, Fig. 1) at
// t = 2 s, while the gripper holds the red cube (≈ 52 contacts, 69 velocities): the full
// step through QuasiDynamicStepper for each formulation, and its parts (contact engine,
// cost, problem build, solve). Single-threaded.
// Run: build-bench/step_bench --benchmark_repetitions=10 --benchmark_report_aggregates_only=true
// and read the *_median rows (CPU column; the machine may be shared). BM_FullStep repeats one
// state, so the log barrier's previous-minimiser start is exact there after the first solve;
// BM_RolloutStep is the honest per-step time along a trajectory.
#include <benchmark/benchmark.h>

#include "arm_cubes_grasp.h"
#include "quasidyn/dynamics/quasi_dynamic_qp.h"

namespace quasidyn::bench {
namespace {

void SetSceneCounters(benchmark::State& state, const ContactSet& contacts) {
  state.counters["contacts"] = contacts.size();
  state.counters["nv"] = contacts.nv;
}

// The whole step, q⁺ = f(q, u), as a user runs it.
void BM_FullStep(benchmark::State& state, FormulationType type) {
  const Scene& scene = ArmCubesScene();
  const SceneState& at = GraspState();
  FormulationSettings settings = SettingsFromScene(scene);
  settings.type = type;
  QuasiDynamicStepper stepper(scene, settings);
  const StepResult first = stepper.Step(at.q, at.u);
  if (!first.ok()) {
    state.SkipWithError((std::string(FormulationName(type)) + ": " + first.message).c_str());
    return;
  }
  for (auto _ : state) {
    StepResult r = stepper.Step(at.q, at.u);
    benchmark::DoNotOptimize(r.q_next.data());
  }
  state.counters["contacts"] = static_cast<double>(first.contacts.size());
  state.counters["iterations"] = first.info.iterations;
}
BENCHMARK_CAPTURE(BM_FullStep, qp, FormulationType::kQp)->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_FullStep, socp, FormulationType::kSocp)->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_FullStep, log_barrier, FormulationType::kLogBarrierPyramid)
    ->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_FullStep, log_barrier_cone, FormulationType::kLogBarrierCone)
    ->Unit(benchmark::kMicrosecond);

// The step along a trajectory, as a rollout runs it: from the grasp state, steps k = 0 … 49
// under the scene's commands (then back to the grasp state), so each solve sees a new problem
// and warm starts (the log barrier's previous minimiser, the sparse symbolic analysis) help
// only as much as consecutive steps are alike. Reported time is per step.
void BM_RolloutStep(benchmark::State& state, FormulationType type) {
  const Scene& scene = ArmCubesScene();
  const SceneState& at = GraspState();
  FormulationSettings settings = SettingsFromScene(scene);
  settings.type = type;
  QuasiDynamicStepper stepper(scene, settings);
  const double h = settings.time_step;
  const double t0 = 2.0;  // GraspState's time
  constexpr int kStepsPerRun = 50;
  Eigen::VectorXd q = at.q;
  int k = 0, failures = 0;
  for (auto _ : state) {
    const StepResult r = stepper.Step(q, k == 0 ? at.u : scene.CommandAt(t0 + (k + 1) * h));
    failures += !r.ok();
    q = r.q_next;
    if (++k == kStepsPerRun) {
      k = 0;
      q = at.q;
    }
    benchmark::DoNotOptimize(q.data());
  }
  state.counters["failed_steps"] = failures;
}
BENCHMARK_CAPTURE(BM_RolloutStep, qp, FormulationType::kQp)->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_RolloutStep, socp, FormulationType::kSocp)->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_RolloutStep, log_barrier, FormulationType::kLogBarrierPyramid)
    ->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_RolloutStep, log_barrier_cone, FormulationType::kLogBarrierCone)
    ->Unit(benchmark::kMicrosecond);

// Part 1: kinematics update, geometry query and the contact set with its Jacobians.
void BM_ContactEngine(benchmark::State& state) {
  ContactEngine engine(ArmCubesScene());
  for (auto _ : state) {
    const ContactSet& contacts = engine.Compute(GraspState().q);
    benchmark::DoNotOptimize(&contacts);
  }
  SetSceneCounters(state, engine.Compute(GraspState().q));
}
BENCHMARK(BM_ContactEngine)->Unit(benchmark::kMicrosecond);

// Part 2: the quasi-dynamic cost P, τ_h (mass matrix, gravity Jacobians).
void BM_CostBuild(benchmark::State& state) {
  const Scene& scene = ArmCubesScene();
  ContactEngine engine(scene);
  engine.Compute(GraspState().q);
  const FormulationSettings settings = SettingsFromScene(scene);
  for (auto _ : state) {
    QuasiDynamicCost cost = BuildQuasiDynamicCost(engine.kinematics(), GraspState().u, settings);
    benchmark::DoNotOptimize(cost.P.data());
  }
}
BENCHMARK(BM_CostBuild)->Unit(benchmark::kMicrosecond);

// Everything one step's solve needs, computed once.
struct GraspProblems {
  FormulationSettings settings;
  ContactEngine engine;
  ContactSet contacts;
  QuasiDynamicCost cost;
  QpProblem qp;
  SocpProblem socp;
  explicit GraspProblems(const Scene& scene) : settings(SettingsFromScene(scene)), engine(scene) {
    contacts = engine.Compute(GraspState().q);
    cost = BuildQuasiDynamicCost(engine.kinematics(), GraspState().u, settings);
    qp = PyramidQp(contacts, cost, settings.time_step);
    socp = ConeSocp(contacts, cost, settings.time_step);
  }
};

const GraspProblems& Problems() {
  static const GraspProblems problems(ArmCubesScene());
  return problems;
}

// Part 3: the convex program from the contact set and the cost.
void BM_ProblemBuild_qp(benchmark::State& state) {
  const GraspProblems& p = Problems();
  const StepProblem problem{ArmCubesScene(), p.contacts, p.cost, p.settings};
  for (auto _ : state) {
    QpProblem qp = BuildPyramidQp(problem);
    benchmark::DoNotOptimize(qp.G.data());
  }
  state.counters["rows"] = static_cast<double>(p.qp.G.rows());
}
BENCHMARK(BM_ProblemBuild_qp)->Unit(benchmark::kMicrosecond);

void BM_ProblemBuild_socp(benchmark::State& state) {
  const GraspProblems& p = Problems();
  for (auto _ : state) {
    SocpProblem socp = ConeSocp(p.contacts, p.cost, p.settings.time_step);
    benchmark::DoNotOptimize(socp.cones.data());
  }
  state.counters["cones"] = static_cast<double>(p.socp.cones.size());
}
BENCHMARK(BM_ProblemBuild_socp)->Unit(benchmark::kMicrosecond);

// Part 4: the solve alone, with a reused solver workspace (as the stepper does).
void BM_Solve_qp(benchmark::State& state) {
  const GraspProblems& p = Problems();
  QpSolver solver;
  const QpSettings settings = ContactQpSettings();
  QpResult r = solver.Solve(p.qp, settings);
  if (r.status != SolverStatus::kSolved) state.SkipWithError(r.message.c_str());
  for (auto _ : state) {
    r = solver.Solve(p.qp, settings);
    benchmark::DoNotOptimize(r.x.data());
  }
  state.counters["iterations"] = r.info.iterations;
  state.counters["sparse"] = r.used_sparse_path;
}
BENCHMARK(BM_Solve_qp)->Unit(benchmark::kMicrosecond);

void BM_Solve_socp(benchmark::State& state) {
  const GraspProblems& p = Problems();
  SocpSolver solver;
  SocpResult r = solver.Solve(p.socp);
  if (r.status != SolverStatus::kSolved) state.SkipWithError(r.message.c_str());
  for (auto _ : state) {
    r = solver.Solve(p.socp);
    benchmark::DoNotOptimize(r.x.data());
  }
  state.counters["iterations"] = r.info.iterations;
  state.counters["sparse"] = r.used_sparse_path;
}
BENCHMARK(BM_Solve_socp)->Unit(benchmark::kMicrosecond);

// warm = false: every solve starts cold (no previous minimiser), so phase 1 runs each time.
void BM_Solve_log_barrier(benchmark::State& state, bool cone, bool warm) {
  const GraspProblems& p = Problems();
  const LogBarrierProblem problem =
      cone ? ConeLogBarrier(p.socp, p.settings.kappa) : PyramidLogBarrier(p.qp, p.settings.kappa);
  LogBarrierSolver solver;
  LogBarrierSettings settings;
  settings.use_previous_solution = warm;
  LogBarrierResult r = solver.Solve(problem, settings);
  if (r.status != SolverStatus::kSolved) state.SkipWithError(r.message.c_str());
  for (auto _ : state) {
    r = solver.Solve(problem, settings);
    benchmark::DoNotOptimize(r.x.data());
  }
  state.counters["iterations"] = r.info.iterations;
  state.counters["phase_one"] = r.used_phase_one;
  state.counters["sparse"] = r.used_sparse_path;
  state.counters["continuation"] = r.used_continuation;
}
BENCHMARK_CAPTURE(BM_Solve_log_barrier, pyramid, false, true)->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_Solve_log_barrier, cone, true, true)->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_Solve_log_barrier, pyramid_cold, false, false)->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_Solve_log_barrier, cone_cold, true, false)->Unit(benchmark::kMicrosecond);

}  // namespace
}  // namespace quasidyn::bench

BENCHMARK_MAIN();
