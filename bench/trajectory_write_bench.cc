// The cost of writing the demo's trajectory against simulating it (writing the JSON
// took as long as the 1000 arm steps themselves). The demo scene (examples/arm_cubes, the
// scene `quasidyn demo` runs) is simulated to the end of its schedule with its own formulation
// (qp); then:
//   BM_SimulateDemo        the rollout itself (what `quasidyn demo` times)
//   BM_WriteJson           WriteTrajectory to .json (trajectory_json.h)
//   BM_WriteNpz            WriteTrajectory to .npz (trajectory_npz.h)
//   BM_ReadJson, BM_ReadNpz  reading them back
// counter MB: the file's size. Quote medians and the write/simulate ratios.
// Run: build/release/trajectory_write_bench --benchmark_repetitions=5
//        --benchmark_report_aggregates_only=true
#include <benchmark/benchmark.h>

#include <filesystem>
#include <string>

#include "quasidyn/formulations/registry.h"
#include "quasidyn/scenes/scene_loading.h"
#include "quasidyn/simulation/rollout.h"
#include "quasidyn/simulation/trajectory_file.h"

namespace quasidyn::bench {
namespace {

const ScenePtr& DemoScene() {
  static const ScenePtr scene = std::make_shared<const Scene>(
      LoadScene(std::string(QUASIDYN_SOURCE_DIR) + "/examples/arm_cubes/scene.yaml"));
  return scene;
}

Trajectory SimulateDemo() {
  const ScenePtr& scene = DemoScene();
  const std::shared_ptr<const StepModel> model = MakeStepModel(scene);
  RolloutOptions options;
  options.steps = StepCountForDuration(scene->ScheduleEnd(), model->time_step());
  return Rollout(*model, options);
}

const Trajectory& DemoTrajectory() {
  static const Trajectory trajectory = SimulateDemo();
  return trajectory;
}

std::string OutputPath(const char* extension) {
  return (std::filesystem::temp_directory_path() /
          ("quasidyn_trajectory_write_bench." + std::string(extension)))
      .string();
}

void BM_SimulateDemo(benchmark::State& state) {
  for (auto _ : state) benchmark::DoNotOptimize(SimulateDemo());
  state.counters["steps"] = static_cast<double>(DemoTrajectory().steps.size());
}

void BM_Write(benchmark::State& state, const char* extension) {
  const Trajectory& trajectory = DemoTrajectory();
  const std::string path = OutputPath(extension);
  for (auto _ : state) WriteTrajectory(trajectory, path);
  state.counters["MB"] = static_cast<double>(std::filesystem::file_size(path)) / 1e6;
}

void BM_Read(benchmark::State& state, const char* extension) {
  const std::string path = OutputPath(extension);
  WriteTrajectory(DemoTrajectory(), path);
  for (auto _ : state) benchmark::DoNotOptimize(ReadTrajectory(path));
  std::filesystem::remove(path);
}

BENCHMARK(BM_SimulateDemo)->Unit(benchmark::kMillisecond)->Iterations(1);
BENCHMARK_CAPTURE(BM_Write, Json, "json")->Unit(benchmark::kMillisecond)->Iterations(2);
BENCHMARK_CAPTURE(BM_Write, Npz, "npz")->Unit(benchmark::kMillisecond)->Iterations(2);
BENCHMARK_CAPTURE(BM_Read, Json, "json")->Unit(benchmark::kMillisecond)->Iterations(1);
BENCHMARK_CAPTURE(BM_Read, Npz, "npz")->Unit(benchmark::kMillisecond)->Iterations(1);

}  // namespace
}  // namespace quasidyn::bench

BENCHMARK_MAIN();
