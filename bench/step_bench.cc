// One quasi-dynamic time step, Calc of the step models (stepping/step_model.h), single thread:
//   BM_Calc/<scene>_<formulation>         the same state repeatedly (arm_cubes at the grasp,
//                                          t = 2 s, ≈ 52 contacts, 69 velocities; planar_hand
//                                          after 60 steps), the warm start cleared before each
//                                          call (the cold step); reports heap allocations per
//                                          Calc;
//   BM_RolloutStep/<scene>_<formulation>  the step along the trajectory from that state (50
//                                          steps, then back, cleared), as a rollout runs it:
//                                          each solve sees a new problem and starts from the
//                                          previous step's answer (the qp formulation,
//                                          pyramid_qp_warm_start.h); ..._cold clears the warm
//                                          start before each step; iterations per step in the
//                                          counters;
//   BM_Part_*                              the parts of one arm_cubes step: the contact query
//                                          (kinematics, geometry, contact set), the cost, the
//                                          QP and SOCP build, the solve;
//   BM_RolloutSolveQp/<start>              the QPs of a 50-step arm_cubes rollout solved in
//                                          sequence, cold or warm-started (iterations per
//                                          solve in its counters);
//   BM_HandSolveQp/{dense,sparse}          the 16-joint hand's contact QP (hand_ball_3d, 22
//                                          velocities) on either path of the QP solver;
//   BM_TrajoptShapedQp/{dense,sparse}      a QP of the trajectory optimiser's shape (160
//                                          corrections, dense Q, a box) on either path.
// Run: build/release/step_bench --benchmark_repetitions=10 --benchmark_report_aggregates_only=true
// and read the *_median rows (the machine may be shared: compare ratios in one run).
#include <benchmark/benchmark.h>

#include <algorithm>
#include <cstdlib>
#include <vector>

#include "bench_scenes.h"
#include "quasidyn/control/trajopt_qp.h"
#include "quasidyn/formulations/programs/friction_cone_socp.h"
#include "quasidyn/formulations/programs/log_barrier_pyramid.h"
#include "quasidyn/formulations/programs/pyramid_qp.h"
#include "quasidyn/formulations/quasi_dynamic/quasi_dynamic_model.h"

namespace quasidyn::bench {
namespace {

void BM_Calc(benchmark::State& state, Example example, const char* formulation) {
  const std::shared_ptr<const StepModel> model = ModelOf(example, formulation);
  const SceneState& at = StateOf(example);
  const std::unique_ptr<StepData> data = model->CreateData();
  model->Calc(at.x, at.u, data.get());
  if (!data->result.ok()) {
    state.SkipWithError((std::string(formulation) + ": " + data->result.message).c_str());
    return;
  }
  model->Calc(at.x, at.u, data.get());  // warm-up: every buffer has its size
  long allocations = 0;
  {
    testing::MallocCounter counter;
    model->ClearWarmStart(data.get());
    model->Calc(at.x, at.u, data.get());
    allocations = counter.count();
  }
  for (auto _ : state) {
    model->ClearWarmStart(data.get());  // each call a function of (x, u) alone: the cold step
    model->Calc(at.x, at.u, data.get());
    benchmark::DoNotOptimize(data->result.next.q.data());
  }
  state.counters["contacts"] = static_cast<double>(data->result.contacts.size());
  state.counters["iterations"] = data->result.solver.iterations;
  state.counters["allocations"] = static_cast<double>(allocations);
}

// cold: the warm start cleared before each step; otherwise each step starts from the previous
// step's answer as a rollout's steps do (the QP, pyramid_qp_warm_start.h).
void BM_RolloutStep(benchmark::State& state, Example example, const char* formulation, bool cold) {
  const std::shared_ptr<const StepModel> model = ModelOf(example, formulation);
  const Scene& scene = model->scene();
  const SceneState& at = StateOf(example);
  const std::unique_ptr<StepData> data = model->CreateData();
  const double h = model->time_step();
  constexpr int kStepsPerRun = 50;
  State x = at.x;
  Eigen::VectorXd u;  // the command, read into this buffer as a rollout does (no allocation)
  int k = 0, failures = 0;
  long steps = 0, iterations = 0;
  for (auto _ : state) {
    if (cold || k == 0) model->ClearWarmStart(data.get());  // each run of 50 steps alike
    scene.CommandAt(at.t + (k + 1) * h, &u);
    model->Calc(x, u, data.get());
    failures += !data->result.ok();
    iterations += data->result.solver.iterations;
    ++steps;
    x = data->result.next;
    if (++k == kStepsPerRun) {
      k = 0;
      x = at.x;
    }
    benchmark::DoNotOptimize(x.q.data());
  }
  state.counters["failed_steps"] = failures;
  state.counters["iterations_per_step"] = static_cast<double>(iterations) / std::max(1L, steps);
}

// The `steps` steps of BM_RolloutStep's run, from a cleared warm start; each command read into
// *u as a rollout does.
[[gnu::noinline]] void RunRollout(const StepModel& model, const SceneState& at, int steps,
                                  StepData* data, State* x, Eigen::VectorXd* u) {
  const Scene& scene = model.scene();
  const double h = model.time_step();
  model.ClearWarmStart(data);
  *x = at.x;
  for (int k = 0; k < steps; ++k) {
    scene.CommandAt(at.t + (k + 1) * h, u);
    model.Calc(*x, *u, data);
    *x = data->result.next;
  }
}

// RunRollout for valgrind's callgrind, whose inclusive count of this function divided by the
// steps is the instructions of a rollout step, whatever the load (BM_RolloutRun below; the
// warm-up calls RunRollout itself, so it is not counted).
[[gnu::noinline]] void MeasuredRollout(const StepModel& model, const SceneState& at, int steps,
                                       StepData* data, State* x, Eigen::VectorXd* u) {
  RunRollout(model, at, steps, data, x, u);
}

// BM_RolloutStep's 50-step run as one iteration, after one run of warm-up (every buffer has
// met the run's problem sizes). Counters: heap allocations per step in the last run (a warm
// rollout step allocates nothing), and steps per run. Instructions per step:
//   valgrind --tool=callgrind --toggle-collect='*MeasuredRollout*'
//     build/release/step_bench --benchmark_filter='BM_RolloutRun/planar_hand_qp$'
//     --benchmark_min_time=0
// then callgrind's "Collected" count (or MeasuredRollout's inclusive one) / 50: one iteration.
void BM_RolloutRun(benchmark::State& state, Example example, const char* formulation) {
  constexpr int kStepsPerRun = 50;
  const std::shared_ptr<const StepModel> model = ModelOf(example, formulation);
  const SceneState& at = StateOf(example);
  const std::unique_ptr<StepData> data = model->CreateData();
  State x = at.x;
  Eigen::VectorXd u;
  RunRollout(*model, at, kStepsPerRun, data.get(), &x, &u);  // warm-up
  long allocations = 0;
  for (auto _ : state) {
    testing::MallocCounter counter;
    MeasuredRollout(*model, at, kStepsPerRun, data.get(), &x, &u);
    allocations = counter.count();

    benchmark::DoNotOptimize(x.q.data());
  }
  state.counters["allocations_per_step"] = static_cast<double>(allocations) / kStepsPerRun;
  state.counters["steps_per_run"] = kStepsPerRun;
}
BENCHMARK_CAPTURE(BM_RolloutRun, arm_cubes_qp, Example::kArmCubes, "qp")
    ->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_RolloutRun, planar_hand_qp, Example::kPlanarHand, "qp")
    ->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_RolloutRun, arm_cubes_socp, Example::kArmCubes, "socp")
    ->Unit(benchmark::kMicrosecond);

#define QUASIDYN_STEP_BENCHES(name, example, formulation)                                \
  BENCHMARK_CAPTURE(BM_Calc, name, example, formulation)->Unit(benchmark::kMicrosecond); \
  BENCHMARK_CAPTURE(BM_RolloutStep, name, example, formulation, false)                   \
      ->Unit(benchmark::kMicrosecond);                                                   \
  BENCHMARK_CAPTURE(BM_RolloutStep, name##_cold, example, formulation, true)             \
      ->Unit(benchmark::kMicrosecond)

QUASIDYN_STEP_BENCHES(arm_cubes_qp, Example::kArmCubes, "qp");
QUASIDYN_STEP_BENCHES(arm_cubes_socp, Example::kArmCubes, "socp");
QUASIDYN_STEP_BENCHES(arm_cubes_log_barrier, Example::kArmCubes, "log-barrier");
QUASIDYN_STEP_BENCHES(arm_cubes_log_barrier_cone, Example::kArmCubes, "log-barrier-cone");
QUASIDYN_STEP_BENCHES(planar_hand_qp, Example::kPlanarHand, "qp");
QUASIDYN_STEP_BENCHES(planar_hand_socp, Example::kPlanarHand, "socp");
QUASIDYN_STEP_BENCHES(planar_hand_log_barrier, Example::kPlanarHand, "log-barrier");

// The parts of one arm_cubes QP / SOCP step, from what a Calc leaves in its data.
struct GraspParts {
  std::shared_ptr<const QuasiDynamicModel> model;
  std::unique_ptr<StepData> data;
  double kappa = 0.0;  // κ of the scene's log barrier (its kappa, else DefaultKappa)
  QuasiDynamicData& qd() { return static_cast<QuasiDynamicData&>(*data); }
  GraspParts() {
    model = std::dynamic_pointer_cast<const QuasiDynamicModel>(
        MakeStepModel(SceneOf(Example::kArmCubes)));  // the scene's own formulation, qp
    if (!model) throw std::runtime_error("arm_cubes: not a quasi-dynamic formulation");
    kappa = ModelOf(Example::kArmCubes, "log-barrier")->parameters().Find("kappa")->value(0, 0);
    data = model->CreateData();
    model->Calc(StateOf(Example::kArmCubes).x, StateOf(Example::kArmCubes).u, data.get());
  }
};

GraspParts& Parts() {
  static GraspParts parts;
  return parts;
}

void BM_Part_ContactQuery(benchmark::State& state) {
  const ContactModel& model = Parts().model->contact_model();
  ContactData data = model.CreateData();
  const Eigen::VectorXd& q = StateOf(Example::kArmCubes).x.q;
  for (auto _ : state) {
    model.Compute(q, &data);
    benchmark::DoNotOptimize(&data);
  }
  state.counters["contacts"] = data.contacts().size();
}
BENCHMARK(BM_Part_ContactQuery)->Unit(benchmark::kMicrosecond);

void BM_Part_Cost(benchmark::State& state) {
  GraspParts& p = Parts();
  QuasiDynamicCost cost;
  for (auto _ : state) {
    BuildQuasiDynamicCost(p.qd().contact().kinematics(), p.qd().u(), p.model->actuated_stiffness(),
                          p.model->cost_parameters(), &cost);
    benchmark::DoNotOptimize(cost.tau_h.data());
  }
}
BENCHMARK(BM_Part_Cost)->Unit(benchmark::kMicrosecond);

void BM_Part_BuildQp(benchmark::State& state) {
  GraspParts& p = Parts();
  const StepProblem problem = p.model->ProblemOf(p.qd());
  QpProblem qp;
  for (auto _ : state) {
    BuildPyramidQp(problem, &qp);
    benchmark::DoNotOptimize(qp.h.data());
  }
  state.counters["rows"] = qp.G.rows();
}
BENCHMARK(BM_Part_BuildQp)->Unit(benchmark::kMicrosecond);

void BM_Part_BuildSocp(benchmark::State& state) {
  GraspParts& p = Parts();
  const StepProblem problem = p.model->ProblemOf(p.qd());
  SocpProblem socp;
  for (auto _ : state) {
    BuildFrictionConeSocp(problem, &socp);
    benchmark::DoNotOptimize(socp.b.data());
  }
  state.counters["cones"] = static_cast<double>(socp.cone_dims.size());
}
BENCHMARK(BM_Part_BuildSocp)->Unit(benchmark::kMicrosecond);

void BM_Part_SolveQp(benchmark::State& state) {
  GraspParts& p = Parts();
  QpProblem qp;
  BuildPyramidQp(p.model->ProblemOf(p.qd()), &qp);
  QpSolver solver;
  solver.Setup(qp, ContactQpSettings());
  for (auto _ : state) {
    const QpResult& r = solver.Solve();
    benchmark::DoNotOptimize(r.x.data());
  }
  state.counters["iterations"] = solver.result().info.iterations;
  state.counters["sparse"] = solver.result().info.used_sparse_path;
  // Rows the polish left at an exact zero multiplier: inactive at this step's answer.
  state.counters["rows"] = qp.G.rows();
  state.counters["inactive_rows"] = static_cast<double>((solver.result().z.array() == 0.0).count());
}
BENCHMARK(BM_Part_SolveQp)->Unit(benchmark::kMicrosecond);

void BM_Part_SolveSocp(benchmark::State& state) {
  GraspParts& p = Parts();
  SocpProblem socp;
  BuildFrictionConeSocp(p.model->ProblemOf(p.qd()), &socp);
  SocpSolver solver;
  solver.Setup(socp);
  for (auto _ : state) {
    const SocpResult& r = solver.Solve();
    benchmark::DoNotOptimize(r.x.data());
  }
  state.counters["iterations"] = solver.result().info.iterations;
  state.counters["sparse"] = solver.result().info.used_sparse_path;
}
BENCHMARK(BM_Part_SolveSocp)->Unit(benchmark::kMicrosecond);

// The QPs of a 50-step arm_cubes rollout from the grasp (the step model's own QPs, built from
// what each Calc leaves), solved in sequence cold or warm-started from the previous step's
// answer: x always (the velocities keep their meaning), z when the row count is unchanged
// (rows are contact-major; a changed contact set shifts them, so z is then left out). The warm
// point's slacks and multipliers are lifted to at least `lift` (QpSettings::
// warm_start_min_value, units of h [m/s] and of the impulses [N·s]): a safeguard in the spirit
// of Mehrotra's starting point, which keeps the iterate off the boundary. lift <= 0: cold.
// Counters: iterations per solve, solves not kSolved, the share of solves given z, and the largest
// ‖x − x_cold‖∞ over the rollout [m/s or rad/s] (the same answers to the solver's tolerance).
struct RolloutQps {
  std::vector<QpProblem> qps;
  std::vector<Eigen::VectorXd> cold_x;
  RolloutQps() {
    GraspParts& p = Parts();
    const Scene& scene = p.model->scene();
    const SceneState& at = StateOf(Example::kArmCubes);
    const std::unique_ptr<StepData> data = p.model->CreateData();
    State x = at.x;
    for (int k = 0; k < 50; ++k) {
      p.model->Calc(x, scene.CommandAt(at.t + (k + 1) * p.model->time_step()), data.get());
      if (!data->result.ok()) break;
      QpProblem qp;
      BuildPyramidQp(p.model->ProblemOf(static_cast<QuasiDynamicData&>(*data)), &qp);
      qps.push_back(std::move(qp));
      x = data->result.next;
    }
    QpSolver solver;
    for (const QpProblem& qp : qps) {
      SetupOrUpdate(qp, ContactQpSettings(), &solver);
      cold_x.push_back(solver.Solve().x);
    }
  }
};

void BM_RolloutSolveQp(benchmark::State& state, double lift) {
  static const RolloutQps rollout;
  QpSettings settings = ContactQpSettings();
  if (lift > 0) settings.warm_start_min_value = lift;
  QpSolver solver;
  QpWarmStart warm;
  long solves = 0, iterations = 0, with_z = 0, failures = 0;
  double difference = 0.0;
  for (auto _ : state) {
    warm = QpWarmStart();
    for (size_t k = 0; k < rollout.qps.size(); ++k) {
      const QpProblem& qp = rollout.qps[k];
      SetupOrUpdate(qp, settings, &solver);
      if (lift > 0 && warm.z.size() != qp.G.rows()) warm.z.resize(0);
      with_z += warm.z.size() > 0;
      const QpResult& r = solver.Solve(warm);
      ++solves;
      failures += r.status != SolverStatus::kSolved;
      iterations += r.info.iterations;
      difference = std::max(difference, (r.x - rollout.cold_x[k]).lpNorm<Eigen::Infinity>());
      if (lift > 0) {
        warm.x = r.x;
        warm.z = r.z;
      }
    }
  }
  state.counters["iterations_per_solve"] = static_cast<double>(iterations) / std::max(1L, solves);
  state.counters["not_solved"] = static_cast<double>(failures);
  state.counters["share_with_z"] = static_cast<double>(with_z) / std::max(1L, solves);
  state.counters["max_dx_vs_cold"] = difference;
  state.counters["solves_per_run"] = static_cast<double>(rollout.qps.size());
}
BENCHMARK_CAPTURE(BM_RolloutSolveQp, cold, 0.0)->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_RolloutSolveQp, warm_floor_1em6, 1e-6)->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_RolloutSolveQp, warm_floor_1em3, 1e-3)->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_RolloutSolveQp, warm_floor_1em1, 1e-1)->Unit(benchmark::kMicrosecond);

// warm = false: every solve starts cold (no previous minimiser), so phase 1 runs each time.
void BM_Part_SolveLogBarrier(benchmark::State& state, bool warm) {
  GraspParts& p = Parts();
  LogBarrierProblem barrier;
  BuildPyramidLogBarrier(p.model->ProblemOf(p.qd()), p.kappa, &barrier);
  LogBarrierSolver solver;
  solver.Setup(barrier);
  for (auto _ : state) {
    if (!warm) solver.ClearPreviousSolution();
    const LogBarrierResult& r = solver.Solve();
    benchmark::DoNotOptimize(r.x.data());
  }
  state.counters["iterations"] = solver.result().info.newton_iterations;
  state.counters["phase_one"] = solver.result().info.used_phase_one;
}
BENCHMARK_CAPTURE(BM_Part_SolveLogBarrier, warm, true)->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_Part_SolveLogBarrier, cold, false)->Unit(benchmark::kMicrosecond);

// The 16-joint hand's contact QP (examples/hand_ball_3d: 22 velocities; the ball on the palm,
// the four fingertips within the contact tolerance) at the planner's h = 0.1 s, on the dense
// path (Eigen's LLT of Q + Gᵀ diag(z/s) G, the polish with its own normal matrix) and on the
// sparse path that ContactQpSettings takes from 16 velocities (a pyramid row touches the ball's
// 6 and one finger's 4: docs/performance.md, "The QP step").
QpProblem HandQp() {
  const ScenePtr scene = std::make_shared<const Scene>(
      LoadScene(std::string(QUASIDYN_SOURCE_DIR) + "/examples/hand_ball_3d/scene.yaml"));
  FormulationChoice choice("qp");
  choice.time_step = 0.1;  // the scene's planning block's
  const auto model =
      std::dynamic_pointer_cast<const QuasiDynamicModel>(MakeStepModel(scene, choice));
  if (!model) throw std::runtime_error("hand_ball_3d: not a quasi-dynamic formulation");
  const std::unique_ptr<StepData> data = model->CreateData();
  model->Calc(InitialState(*scene), scene->CommandAt(0.0), data.get());
  if (!data->result.ok()) throw std::runtime_error("hand_ball_3d: " + data->result.message);
  QpProblem qp;
  BuildPyramidQp(model->ProblemOf(static_cast<QuasiDynamicData&>(*data)), &qp);
  return qp;
}

void BM_HandSolveQp(benchmark::State& state, bool sparse) {
  static const QpProblem qp = HandQp();
  QpSettings settings = ContactQpSettings();
  if (!sparse) settings.sparse_min_variables = static_cast<int>(qp.Q.rows()) + 1;
  QpSolver solver;
  solver.Setup(qp, settings);
  for (auto _ : state) {
    const QpResult& r = solver.Solve();
    benchmark::DoNotOptimize(r.x.data());
  }
  state.counters["variables"] = static_cast<double>(qp.Q.rows());
  state.counters["rows"] = qp.G.rows();
  state.counters["iterations"] = solver.result().info.iterations;
  state.counters["sparse"] = solver.result().info.used_sparse_path;
}
BENCHMARK_CAPTURE(BM_HandSolveQp, dense, false)->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_HandSolveQp, sparse, true)->Unit(benchmark::kMicrosecond);

// The shape of the trajectory optimiser's condensed QP (control/trajopt_qp.h) at the 16-joint
// hand's goal connection: n = 10 steps × 16 joints = 160 corrections, Q dense (here MᵀM/n + I,
// M uniform in [−1, 1], seed fixed), c uniform, the trust region's box |x_i| <= 0.05 (2n rows of
// one entry), on the dense path (TrajoptQpSettings: Eigen's LLT, Gᵀ diag(z/s) G summed by rows)
// and on the sparse path (an LDLᵀ of the dense Q).
void BM_TrajoptShapedQp(benchmark::State& state, bool sparse) {
  constexpr int n = 160;
  std::srand(7);
  const Eigen::MatrixXd M = Eigen::MatrixXd::Random(n, n);
  const Eigen::MatrixXd Q = M.transpose() * M / n + Eigen::MatrixXd::Identity(n, n);
  Eigen::MatrixXd G(2 * n, n);
  G << Eigen::MatrixXd::Identity(n, n), -Eigen::MatrixXd::Identity(n, n);
  QpProblem qp;
  qp.Q = SparseRowMatrix::FromDense(Q);
  qp.c = Eigen::VectorXd::Random(n);
  qp.G = SparseRowMatrix::FromDense(G);
  qp.h = Eigen::VectorXd::Constant(2 * n, -0.05);
  qp.A = SparseRowMatrix::FromDense(Eigen::MatrixXd::Zero(0, n));
  QpSettings settings = TrajoptQpSettings();  // the optimiser's own: the dense path
  if (sparse) {
    settings.sparse_min_variables = 0;
    settings.sparse_max_density = 1.0;
  }
  QpSolver solver;
  solver.Setup(qp, settings);
  for (auto _ : state) {
    const QpResult& r = solver.Solve();
    benchmark::DoNotOptimize(r.x.data());
  }
  state.counters["iterations"] = solver.result().info.iterations;
  state.counters["sparse"] = solver.result().info.used_sparse_path;
  state.counters["solved"] = solver.result().status == SolverStatus::kSolved;
}
BENCHMARK_CAPTURE(BM_TrajoptShapedQp, dense, false)->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_TrajoptShapedQp, sparse, true)->Unit(benchmark::kMicrosecond);

}  // namespace
}  // namespace quasidyn::bench

BENCHMARK_MAIN();
