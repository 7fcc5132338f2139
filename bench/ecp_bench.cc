// The ecp formulation (Xie & Chakraborty; formulations/ecp/ecp_model.h, docs/ecp.md), single
// thread, on the example scenes of scenarios 1–3 (examples/ecp_cube_sliding, ecp_cylinder_rolling,
// ecp_cube_toppling):
//
//   BM_EcpStep/<scene>          one Calc along the scenario (then again from the start): time per
//                               step and Newton iterations per step (the counter `iterations`);
//   BM_EcpNcp/<scene>/ours      the scenario's step NCPs, recorded from a run (the steps solved
//                               from their warm start without a restart), solved in turn by our
//                               semismooth Newton (solvers/mixed_ncp_newton.h) from the same start
//                               (counters per NCP: iterations, evaluations of F with or without J,
//                               line-search backtracks, Newton steps by the active-set switch,
//                               chord steps with the last Newton system's factor);
//   BM_EcpNcp/<scene>/siconos   the same NCPs by Siconos' mcp_newton_FB_FBLSA (Newton on the
//                               Fischer–Burmeister reformulation with a line search), side by
//                               side, with the same F and Jacobian; `solved` counts its successes;
//   BM_EcpFunction/<scene>_with_jacobian  one evaluation of F and J at those starts (shared by
//                               both solvers); BM_EcpFunction/<scene> F alone at the same points;
//   BM_DenseLuSolve/<n>                a dense LU and solve of size n (Eigen, partial pivoting);
//   BM_EcpNcpPass/<scene>/<solver>     one pass over all the scenario's recorded NCPs per
//                               benchmark iteration (for instruction counts: run it under
//                               valgrind --tool=callgrind and divide the inclusive count of
//                               MixedNcpSolver::Solve, or of mcp_newton_FB_FBLSA, by its calls).
//
// Run: build/release/ecp_bench --benchmark_repetitions=5 --benchmark_report_aggregates_only=true
// and read the *_median rows (the machine may be shared: compare ratios within one run).
#include <benchmark/benchmark.h>

#include <Eigen/LU>
#include <memory>
#include <string>
#include <vector>

#include "quasidyn/formulations/ecp/ecp_model.h"
#include "quasidyn/formulations/registry.h"
#include "quasidyn/scenes/scene_loading.h"
#include "quasidyn/testing/siconos_mcp.h"

namespace quasidyn::bench {
namespace {

const char* const kScenes[] = {"ecp_cube_sliding", "ecp_cylinder_rolling", "ecp_cube_toppling"};
const double kDurations[] = {4.0, 10.0, 4.0};

ScenePtr Example(const std::string& name) {
  return std::make_shared<const Scene>(
      LoadScene(std::string(QUASIDYN_SOURCE_DIR) + "/examples/" + name + "/scene.yaml"));
}

// The model of the scene's own formulation, ecp, as its registration makes it.
std::shared_ptr<const EcpModel> EcpModelOf(const ScenePtr& scene) {
  auto model = std::dynamic_pointer_cast<const EcpModel>(MakeStepModel(scene));
  if (!model) throw std::runtime_error("the scene's formulation is not ecp");
  return model;
}

// A scenario's model and the step NCPs of one run (function with its inputs, starting point).
struct Recorded {
  std::shared_ptr<const EcpModel> model;
  std::vector<EcpStepFunction> functions;
  std::vector<Eigen::VectorXd> starts;
};

const Recorded& Record(int scenario) {
  static Recorded recorded[3];
  Recorded& r = recorded[scenario];
  if (r.model) return r;
  const ScenePtr scene = Example(kScenes[scenario]);
  r.model = EcpModelOf(scene);
  const std::unique_ptr<StepData> data = r.model->CreateData();
  const auto& d = static_cast<const EcpData&>(*data);
  State x = InitialState(*r.model);
  const int steps = static_cast<int>(std::lround(kDurations[scenario] / r.model->time_step()));
  for (int k = 1; k <= steps; ++k) {
    r.model->Calc(x, r.model->ScheduledCommand(k * r.model->time_step(), x), data.get());
    if (!data->result.ok()) throw std::runtime_error(kScenes[scenario] + data->result.message);
    if (d.restarts() == 0) {  // reference() holds the start of the solve that succeeded
      r.functions.push_back(d.function());
      r.starts.push_back(d.function().reference());
    }
    x = data->result.next;
  }
  return r;
}

void BM_EcpStep(benchmark::State& state, int scenario) {
  const ScenePtr scene = Example(kScenes[scenario]);
  const std::shared_ptr<const EcpModel> model_ptr = EcpModelOf(scene);
  const EcpModel& model = *model_ptr;
  const std::unique_ptr<StepData> data = model.CreateData();
  const int steps = static_cast<int>(std::lround(kDurations[scenario] / model.time_step()));
  State x = InitialState(model);
  int k = 1;
  double iterations = 0, count = 0;
  for (auto _ : state) {
    model.Calc(x, model.ScheduledCommand(k * model.time_step(), x), data.get());
    if (!data->result.ok()) {
      state.SkipWithError(data->result.message.c_str());
      return;
    }
    iterations += data->result.solver.iterations;
    ++count;
    x = data->result.next;
    if (++k > steps) {  // again from the start
      k = 1;
      x = InitialState(model);
      model.ClearWarmStart(data.get());
    }
  }
  state.counters["iterations"] = iterations / count;
}

void BM_EcpNcpOurs(benchmark::State& state, int scenario) {
  Recorded& r = const_cast<Recorded&>(Record(scenario));
  MixedNcpSolver solver;
  solver.Setup(r.model->system().kinds(), r.model->solver_settings());
  size_t k = 0;
  double iterations = 0, solved = 0, count = 0, evaluations = 0, backtracks = 0, switches = 0,
         chords = 0;
  for (auto _ : state) {
    const MixedNcpResult& result = solver.Solve(r.functions[k], r.starts[k]);
    benchmark::DoNotOptimize(result.z.data());
    iterations += result.info.iterations;
    switches += result.info.switch_steps;
    chords += result.info.chord_steps;
    evaluations += result.info.function_evaluations;
    backtracks += result.info.line_search_steps;
    solved += Succeeded(result.status);
    ++count;
    k = (k + 1) % r.functions.size();
  }
  state.counters["iterations"] = iterations / count;
  state.counters["evaluations"] = evaluations / count;  // calls of F (with or without J)
  state.counters["backtracks"] = backtracks / count;
  state.counters["switches"] = switches / count;  // Newton steps by the active-set switch
  state.counters["chords"] = chords / count;      // chord steps (the last factor kept)
  state.counters["solved"] = solved / count;
  state.counters["problems"] = static_cast<double>(r.functions.size());
}

void BM_EcpNcpSiconos(benchmark::State& state, int scenario) {
  Recorded& r = const_cast<Recorded&>(Record(scenario));
  std::vector<testing::SiconosMcp> siconos;
  siconos.reserve(r.functions.size());
  for (EcpStepFunction& f : r.functions) siconos.emplace_back(f, r.model->system().kinds());
  size_t k = 0;
  double iterations = 0, solved = 0, count = 0;
  for (auto _ : state) {
    // The same tolerance on its own error measure (the FB merit), iteration limit as ours.
    const testing::SiconosMcpSolution s =
        siconos[k].Solve(r.starts[k], r.model->solver_settings().tolerance,
                         r.model->solver_settings().max_iterations);
    benchmark::DoNotOptimize(s.z.data());
    iterations += s.iterations;
    solved += s.info == 0;
    ++count;
    k = (k + 1) % r.functions.size();
  }
  state.counters["iterations"] = iterations / count;
  state.counters["solved"] = solved / count;
}

// Every recorded NCP once per benchmark iteration, by ours or by Siconos.
void BM_EcpNcpPass(benchmark::State& state, int scenario, bool siconos) {
  Recorded& r = const_cast<Recorded&>(Record(scenario));
  MixedNcpSolver solver;
  solver.Setup(r.model->system().kinds(), r.model->solver_settings());
  std::vector<testing::SiconosMcp> reference;
  reference.reserve(r.functions.size());
  for (EcpStepFunction& f : r.functions) reference.emplace_back(f, r.model->system().kinds());
  double solved = 0, count = 0;
  for (auto _ : state) {
    for (size_t k = 0; k < r.functions.size(); ++k) {
      if (siconos) {
        const testing::SiconosMcpSolution s =
            reference[k].Solve(r.starts[k], r.model->solver_settings().tolerance,
                               r.model->solver_settings().max_iterations);
        solved += s.info == 0;
      } else {
        solved += Succeeded(solver.Solve(r.functions[k], r.starts[k]).status);
      }
      ++count;
    }
  }
  state.counters["solved"] = solved / count;
  state.counters["problems"] = static_cast<double>(r.functions.size());
}

// What both solvers share: one evaluation of F, with its Jacobian (each Newton iteration of
// either solver makes at least one) or without (the evaluation that confirms convergence), at
// the recorded starts, to split the NCP's time into the function's and the solver's own.
void BM_EcpFunction(benchmark::State& state, int scenario, bool with_jacobian) {
  Recorded& r = const_cast<Recorded&>(Record(scenario));
  Eigen::VectorXd F;
  Eigen::MatrixXd J;
  size_t k = 0;
  for (auto _ : state) {
    const Eigen::Index n = r.starts[k].size();  // Evaluate writes into F, J of the right size
    F.resize(n);
    if (with_jacobian) J.resize(n, n);
    r.functions[k].Evaluate(r.starts[k], &F, with_jacobian ? &J : nullptr);
    benchmark::DoNotOptimize(F.data());
    k = (k + 1) % r.functions.size();
  }
  state.counters["unknowns"] = static_cast<double>(F.size());
}

// A dense LU with partial pivoting and one solve of the NCPs' sizes (22, 25): what every
// iteration of a dense Newton method pays beside F and J (docs/ecp.md, the 5x floor).
void BM_DenseLuSolve(benchmark::State& state) {
  const int n = static_cast<int>(state.range(0));
  Eigen::MatrixXd A = Eigen::MatrixXd::Random(n, n) + n * Eigen::MatrixXd::Identity(n, n);
  const Eigen::VectorXd b = Eigen::VectorXd::Random(n);
  Eigen::VectorXd x(n);
  Eigen::PartialPivLU<Eigen::MatrixXd> lu(n);
  for (auto _ : state) {
    A(0, 0) += 1e-12;  // a new matrix each time
    lu.compute(A);
    x = lu.solve(b);
    benchmark::DoNotOptimize(x.data());
  }
}
BENCHMARK(BM_DenseLuSolve)->Arg(22)->Arg(25);

BENCHMARK_CAPTURE(BM_EcpStep, ecp_cube_sliding, 0);
BENCHMARK_CAPTURE(BM_EcpStep, ecp_cylinder_rolling, 1);
BENCHMARK_CAPTURE(BM_EcpStep, ecp_cube_toppling, 2);
BENCHMARK_CAPTURE(BM_EcpNcpOurs, ecp_cube_sliding, 0);
BENCHMARK_CAPTURE(BM_EcpNcpSiconos, ecp_cube_sliding, 0);
BENCHMARK_CAPTURE(BM_EcpNcpOurs, ecp_cylinder_rolling, 1);
BENCHMARK_CAPTURE(BM_EcpNcpSiconos, ecp_cylinder_rolling, 1);
BENCHMARK_CAPTURE(BM_EcpNcpOurs, ecp_cube_toppling, 2);
BENCHMARK_CAPTURE(BM_EcpNcpSiconos, ecp_cube_toppling, 2);
BENCHMARK_CAPTURE(BM_EcpNcpPass, ecp_cube_sliding_ours, 0, false);
BENCHMARK_CAPTURE(BM_EcpNcpPass, ecp_cube_sliding_siconos, 0, true);
BENCHMARK_CAPTURE(BM_EcpNcpPass, ecp_cylinder_rolling_ours, 1, false);
BENCHMARK_CAPTURE(BM_EcpNcpPass, ecp_cylinder_rolling_siconos, 1, true);
BENCHMARK_CAPTURE(BM_EcpNcpPass, ecp_cube_toppling_ours, 2, false);
BENCHMARK_CAPTURE(BM_EcpNcpPass, ecp_cube_toppling_siconos, 2, true);
BENCHMARK_CAPTURE(BM_EcpFunction, ecp_cube_sliding_with_jacobian, 0, true);
BENCHMARK_CAPTURE(BM_EcpFunction, ecp_cylinder_rolling_with_jacobian, 1, true);
BENCHMARK_CAPTURE(BM_EcpFunction, ecp_cube_toppling_with_jacobian, 2, true);
BENCHMARK_CAPTURE(BM_EcpFunction, ecp_cube_sliding, 0, false);
BENCHMARK_CAPTURE(BM_EcpFunction, ecp_cylinder_rolling, 1, false);
BENCHMARK_CAPTURE(BM_EcpFunction, ecp_cube_toppling, 2, false);

}  // namespace
}  // namespace quasidyn::bench

BENCHMARK_MAIN();
