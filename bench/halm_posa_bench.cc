// The halm-posa formulation (Halm & Posa 2018; formulations/halm_posa/halm_posa_model.h), single
// thread:
//
//   BM_PegInHoleLcp/lemke_cold    every LCP of the peg-in-hole run (examples/peg_in_hole, 240
//                                 steps of h = 50 ms; the steps with a contact) solved by our Lemke
//                                 from scratch, one LCP per iteration in turn: time per LCP and
//                                 pivots per solve (the paper: PATH, 1.51 ms per LCP on average);
//   BM_PegInHoleLcp/lemke_warm    the same sequence through HalmPosaLcpSolver as the rollout
//                                 runs it (the previous step's basis tried first);
//   BM_PegInHoleLcp/siconos       the same LCPs by Siconos' lexicographic Lemke (side by side);
//   BM_DiskPushStep/<push>        one Calc along the disk pushes of examples/disk_pushing (400
//                                 steps of 25 ms, then again from the start): time per step,
//                                 pivots per solve, the share of steps solved by the warm start;
//   BM_DiskPushStep/<push>_c0     the same under perfect velocity control (c = 0, the program
//                                 of Zhou et al. that B = 0 reduces to, §5), side by side: the
//                                 paper's "as computationally efficient as previous methods"
//                                 (§7). Not for the wall push, which has no c = 0 solution at
//                                 its squeeze.
//
// Run: build/release/halm_posa_bench --benchmark_repetitions=5
// --benchmark_report_aggregates_only=true and read the *_median rows (the machine may be shared:
// compare ratios within one run).
#include <benchmark/benchmark.h>

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "quasidyn/formulations/halm_posa/halm_posa_model.h"
#include "quasidyn/formulations/registry.h"
#include "quasidyn/scenes/scene_loading.h"
#include "quasidyn/simulation/rollout.h"
#include "quasidyn/testing/siconos_lcp.h"

namespace quasidyn::bench {
namespace {

ScenePtr Example(const std::string& path) {
  return std::make_shared<const Scene>(
      LoadScene(std::string(QUASIDYN_SOURCE_DIR) + "/examples/" + path));
}

// The LCPs of the peg-in-hole run, with the contact sets they were built from.
struct RecordedLcps {
  std::vector<ContactSet> contacts;
  std::vector<HalmPosaLcp> lcps;
};

const RecordedLcps& PegInHoleLcps() {
  static const RecordedLcps recorded = [] {
    RecordedLcps r;
    const ScenePtr scene = Example("peg_in_hole/scene.yaml");
    const auto model = MakeStepModel(scene);  // the scene's own formulation, halm-posa
    const std::unique_ptr<StepData> data = model->CreateData();
    State x = InitialState(*scene);
    const int steps = StepCountForDuration(scene->ScheduleEnd(), model->time_step());
    for (int k = 1; k <= steps; ++k) {
      model->Calc(x, model->ScheduledCommand(k * model->time_step(), x), data.get());
      if (!data->result.ok()) throw std::runtime_error("peg_in_hole: " + data->result.message);
      const auto& d = static_cast<const HalmPosaData&>(*data);
      if (d.lcp().lcp.q.size() > 0) {  // steps without contact have no LCP to solve
        r.contacts.push_back(d.contact().contacts());
        r.lcps.push_back(d.lcp());
      }
      x = data->result.next;
    }
    return r;
  }();
  return recorded;
}

void BM_PegInHoleLcpLemkeCold(benchmark::State& state) {
  const RecordedLcps& r = PegInHoleLcps();
  std::map<int, LemkeSolver> solvers;  // one per size, set up once
  for (const HalmPosaLcp& lcp : r.lcps)
    solvers[static_cast<int>(lcp.lcp.q.size())].Setup(static_cast<int>(lcp.lcp.q.size()));
  size_t k = 0;
  double pivots = 0, solves = 0;
  for (auto _ : state) {
    const LcpProblem& p = r.lcps[k].lcp;
    const LcpResult& result = solvers[static_cast<int>(p.q.size())].Solve(p);
    benchmark::DoNotOptimize(result.z.data());
    pivots += result.info.pivots;
    ++solves;
    k = (k + 1) % r.lcps.size();
  }
  state.counters["pivots_per_solve"] = pivots / solves;
  state.counters["lcps"] = static_cast<double>(r.lcps.size());
}

void BM_PegInHoleLcpLemkeWarm(benchmark::State& state) {
  const RecordedLcps& r = PegInHoleLcps();
  std::vector<HalmPosaLcp> lcps = r.lcps;  // Solve may keep penetrations in q: a copy
  HalmPosaLcpSolver solver;
  size_t k = 0;
  double pivots = 0, solves = 0, warm = 0;
  for (auto _ : state) {
    bool warm_started = false;
    const LcpResult& result = solver.Solve(r.contacts[k], &lcps[k], &warm_started);
    benchmark::DoNotOptimize(result.z.data());
    pivots += result.info.pivots;
    warm += warm_started;
    ++solves;
    if (++k == r.lcps.size()) {
      k = 0;
      solver.ClearWarmStart();  // the run starts afresh
    }
  }
  state.counters["pivots_per_solve"] = pivots / solves;
  state.counters["warm_share"] = warm / solves;
}

void BM_PegInHoleLcpSiconos(benchmark::State& state) {
  const RecordedLcps& r = PegInHoleLcps();
  size_t k = 0;
  for (auto _ : state) {
    const testing::SiconosSolution s = testing::SolveWithSiconos(r.lcps[k].lcp);
    benchmark::DoNotOptimize(s.z.data());
    k = (k + 1) % r.lcps.size();
  }
}

// c < 0: the scene's c.
void BM_DiskPushStep(benchmark::State& state, const std::string& file, double c) {
  const ScenePtr scene = Example("disk_pushing/" + file);
  FormulationChoice choice;
  if (c >= 0) choice.parameters.Set("c", c);
  const auto model = MakeStepModel(scene, choice);
  const std::unique_ptr<StepData> data = model->CreateData();
  const int steps = StepCountForDuration(scene->ScheduleEnd(), model->time_step());
  State x = InitialState(*scene);
  int k = 0;
  double pivots = 0, calcs = 0, warm = 0;
  for (auto _ : state) {
    if (k == steps) {
      k = 0;
      x = InitialState(*scene);
      model->ClearWarmStart(data.get());
    }
    ++k;
    model->Calc(x, model->ScheduledCommand(k * model->time_step(), x), data.get());
    if (!data->result.ok()) {
      state.SkipWithError(data->result.message.c_str());
      return;
    }
    x = data->result.next;
    pivots += data->result.solver.iterations;
    warm += static_cast<const HalmPosaData&>(*data).warm_started();
    ++calcs;
  }
  state.counters["pivots_per_solve"] = pivots / calcs;
  state.counters["warm_share"] = warm / calcs;
}

BENCHMARK(BM_PegInHoleLcpLemkeCold)
    ->Name("BM_PegInHoleLcp/lemke_cold")
    ->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_PegInHoleLcpLemkeWarm)
    ->Name("BM_PegInHoleLcp/lemke_warm")
    ->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_PegInHoleLcpSiconos)->Name("BM_PegInHoleLcp/siconos")->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_DiskPushStep, symmetric, std::string("symmetric_push.yaml"), -1.0)
    ->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_DiskPushStep, asymmetric, std::string("asymmetric_push.yaml"), -1.0)
    ->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_DiskPushStep, semicircular, std::string("scene.yaml"), -1.0)
    ->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_DiskPushStep, wall, std::string("wall_push.yaml"), -1.0)
    ->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_DiskPushStep, symmetric_c0, std::string("symmetric_push.yaml"), 0.0)
    ->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_DiskPushStep, asymmetric_c0, std::string("asymmetric_push.yaml"), 0.0)
    ->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_DiskPushStep, semicircular_c0, std::string("scene.yaml"), 0.0)
    ->Unit(benchmark::kMicrosecond);

}  // namespace
}  // namespace quasidyn::bench

BENCHMARK_MAIN();
