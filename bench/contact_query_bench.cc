// The contact query of the arm + 10 cubes scene (Pang & Tedrake 2021, Fig. 1) at q0 and at the
// grasp (bench_scenes.h): the front end every formulation pays before building its problem.
//   BM_KinematicsUpdate     forward kinematics;
//   BM_GeometryModelQuery   broad and narrow phase into the model's compiled geometry;
//   BM_ContactQuery         kinematics, geometry and the contact set with its Jacobians
//                           (ContactModel::Compute); reports heap allocations per query.
// Run: build/release/contact_query_bench --benchmark_repetitions=10
//        --benchmark_report_aggregates_only=true
#include <benchmark/benchmark.h>

#include "bench_scenes.h"
#include "quasidyn/contact/contact_model.h"

namespace quasidyn::bench {
namespace {

const Eigen::VectorXd& ConfigurationOf(bool grasp) {
  static const Eigen::VectorXd q0 = SceneOf(Example::kArmCubes)->q0;
  return grasp ? StateOf(Example::kArmCubes).x.q : q0;
}

void BM_KinematicsUpdate(benchmark::State& state, bool grasp) {
  Kinematics kinematics(SceneOf(Example::kArmCubes));
  const Eigen::VectorXd& q = ConfigurationOf(grasp);
  for (auto _ : state) {
    kinematics.Update(q);
    benchmark::DoNotOptimize(kinematics.BodyPoses().data());
  }
}
BENCHMARK_CAPTURE(BM_KinematicsUpdate, q0, false);
BENCHMARK_CAPTURE(BM_KinematicsUpdate, grasp, true);

void BM_GeometryModelQuery(benchmark::State& state, bool grasp) {
  const ScenePtr scene = SceneOf(Example::kArmCubes);
  Kinematics kinematics(scene);
  kinematics.Update(ConfigurationOf(grasp));
  const GeometryModel geometry(scene);
  GeometryData data = geometry.CreateData();
  for (auto _ : state) {
    geometry.Query(kinematics.BodyPoses(), scene->contact_tolerance, &data);
    benchmark::DoNotOptimize(&data);
  }
  state.counters["contacts"] = static_cast<double>(data.candidates().size());
}
BENCHMARK_CAPTURE(BM_GeometryModelQuery, q0, false)->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_GeometryModelQuery, grasp, true)->Unit(benchmark::kMicrosecond);

void BM_ContactQuery(benchmark::State& state, bool grasp) {
  const ContactModel model(SceneOf(Example::kArmCubes));
  ContactData data = model.CreateData();
  const Eigen::VectorXd& q = ConfigurationOf(grasp);
  model.Compute(q, &data);
  long allocations = 0;
  {
    testing::MallocCounter counter;
    model.Compute(q, &data);
    allocations = counter.count();
  }
  for (auto _ : state) {
    model.Compute(q, &data);
    benchmark::DoNotOptimize(&data);
  }
  state.counters["contacts"] = data.contacts().size();
  state.counters["allocations"] = static_cast<double>(allocations);
}
BENCHMARK_CAPTURE(BM_ContactQuery, q0, false)->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_ContactQuery, grasp, true)->Unit(benchmark::kMicrosecond);

}  // namespace
}  // namespace quasidyn::bench

BENCHMARK_MAIN();
