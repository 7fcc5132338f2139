// Kinematics update plus contact query on the arm + 10 cubes scene (Pang & Tedrake 2021,
// Fig. 1): the per-step front end every formulation pays before building its problem.
// Run: build/release/contact_query_bench --benchmark_repetitions=10
//        --benchmark_report_aggregates_only=true
#include <benchmark/benchmark.h>

#include "quasidyn/contact/contact_set.h"
#include "quasidyn/io/scene_loader.h"

namespace quasidyn {
namespace {

const Scene& ArmCubes() {
  static const Scene scene = LoadScene(QUASIDYN_SOURCE_DIR "/examples/arm_cubes/scene.yaml");
  return scene;
}

void BM_KinematicsUpdate(benchmark::State& state) {
  const Scene& scene = ArmCubes();
  Kinematics kinematics(scene);
  for (auto _ : state) {
    kinematics.Update(scene.q0);
    benchmark::DoNotOptimize(kinematics.BodyPoses().data());
  }
}
BENCHMARK(BM_KinematicsUpdate);

void BM_GeometryQuery(benchmark::State& state) {
  const Scene& scene = ArmCubes();
  Kinematics kinematics(scene);
  kinematics.Update(scene.q0);
  GeometryQuery query(scene);
  size_t count = 0;
  for (auto _ : state) {
    auto candidates = query.Query(kinematics.BodyPoses(), scene.contact_tolerance);
    count = candidates.size();
    benchmark::DoNotOptimize(candidates.data());
  }
  state.counters["contacts"] = static_cast<double>(count);
}
BENCHMARK(BM_GeometryQuery);

// The whole front end: kinematics, geometry, and the contact set with its Jacobians.
void BM_KinematicsAndContactSet(benchmark::State& state) {
  const Scene& scene = ArmCubes();
  ContactEngine engine(scene);
  int count = 0;
  for (auto _ : state) {
    const ContactSet& contacts = engine.Compute(scene.q0);
    count = contacts.size();
    benchmark::DoNotOptimize(&contacts);
  }
  state.counters["contacts"] = count;
  state.counters["nv"] = scene.nv;
}
BENCHMARK(BM_KinematicsAndContactSet);

}  // namespace
}  // namespace quasidyn

BENCHMARK_MAIN();
