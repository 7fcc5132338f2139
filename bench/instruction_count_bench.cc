// Fixed work for valgrind's callgrind, whose instruction counts do not depend on the load of a
// shared machine (Google Benchmark's times do): at the states of bench_scenes.h, after two
// warm-up calls of each, `repeats` calls of each of
//   MeasuredCalc          the step (StepModel::Calc),
//   MeasuredCalcDiffB     CalcDiff(B only) after that step,
//   MeasuredCalcDiffAB    CalcDiff(A and B),
// each in a function of its own, so that its inclusive instruction count divided by `repeats`
// is the cost of one call. Run (scripts/instruction_counts.sh does this and prints the ratios):
//   valgrind --tool=callgrind --callgrind-out-file=out
//     build/release/instruction_count_bench arm_cubes qp 5
//   callgrind_annotate --inclusive=yes out | grep Measured
// Scenes: arm_cubes, planar_hand, planar_gripper; formulations: those of formulations/registry.h.
#include <CLI/CLI.hpp>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "bench_scenes.h"
#include "common/tool_options.h"

namespace quasidyn::bench {
namespace {

// cold: the warm start cleared before each call (StepModel::ClearWarmStart), the step as a
// function of (x, u) alone; otherwise each call starts from the previous call's answer at the
// same state, which for the qp formulation is a re-solve from its own answer.
[[gnu::noinline]] void MeasuredCalc(const StepModel& model, const SceneState& at, StepData* data,
                                    int repeats, bool cold) {
  for (int i = 0; i < repeats; ++i) {
    if (cold) model.ClearWarmStart(data);
    model.Calc(at.x, at.u, data);
  }
}

[[gnu::noinline]] void MeasuredCalcDiffB(const StepModel& model, StepData* data, int repeats) {
  for (int i = 0; i < repeats; ++i) model.CalcDiff(GradientMode::kBOnly, data);
}

[[gnu::noinline]] void MeasuredCalcDiffAB(const StepModel& model, StepData* data, int repeats) {
  for (int i = 0; i < repeats; ++i) model.CalcDiff(GradientMode::kAAndB, data);
}

int Run(int argc, char** argv) {
  std::string scene, formulation;
  int repeats = 0;
  bool quiet = false, cold = false;
  CLI::App app{
      "instruction_count_bench: fixed work for valgrind's callgrind (MeasuredCalc, "
      "MeasuredCalcDiffB, MeasuredCalcDiffAB, each called REPEATS times)"};
  app.add_option("SCENE", scene, "arm_cubes | planar_hand | planar_gripper")->required();
  app.add_option("FORMULATION", formulation, "A registered formulation")->required();
  app.add_option("REPEATS", repeats, "Calls of each measured function >= 1")->required();
  app.add_flag("--cold", cold, "Clear the warm start before each measured Calc");
  tools::AddQuietFlag(&app, &quiet);
  tools::ParseOrExit(&app, argc, argv);
  if (quiet) tools::SilenceStdout();
  Example example;
  if (scene == "arm_cubes") {
    example = Example::kArmCubes;
  } else if (scene == "planar_hand") {
    example = Example::kPlanarHand;
  } else if (scene == "planar_gripper") {
    example = Example::kPlanarGripper;
  } else {
    std::fprintf(stderr, "unknown scene %s\n", scene.c_str());
    return 2;
  }
  FormulationRegistry::Global().Get(formulation);  // throws naming the known ones
  if (repeats < 1) {
    std::fprintf(stderr, "REPEATS must be >= 1\n");
    return 2;
  }
  const std::shared_ptr<const StepModel> model = ModelOf(example, formulation);
  const SceneState& at = StateOf(example);
  const std::unique_ptr<StepData> data = model->CreateData();
  const bool derivatives = model->capabilities().differentiable();
  for (int warm = 0; warm < 2; ++warm) {
    model->Calc(at.x, at.u, data.get());
    if (derivatives) {
      model->CalcDiff(GradientMode::kBOnly, data.get());
      model->CalcDiff(GradientMode::kAAndB, data.get());
    }
  }
  if (!data->result.ok()) {
    std::fprintf(stderr, "the step failed: %s\n", data->result.message.c_str());
    return 1;
  }
  MeasuredCalc(*model, at, data.get(), repeats, cold);
  if (derivatives) {
    MeasuredCalcDiffB(*model, data.get(), repeats);
    MeasuredCalcDiffAB(*model, data.get(), repeats);
    if (!data->derivatives.ok()) {
      std::fprintf(stderr, "CalcDiff failed: %s\n", data->derivatives.message.c_str());
      return 1;
    }
  }
  std::printf("%s %s: %d calls of each measured\n", scene.c_str(), formulation.c_str(), repeats);
  return 0;
}

}  // namespace
}  // namespace quasidyn::bench

int main(int argc, char** argv) {
  try {
    return quasidyn::bench::Run(argc, argv);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "instruction_count_bench: %s\n", e.what());
    return 2;
  }
}
