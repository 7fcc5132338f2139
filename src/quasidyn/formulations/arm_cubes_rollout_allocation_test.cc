// The steps of the contact formulations (the pyramid QP and the friction-cone SOCP, quasi-dynamic
// and Anitescu's second-order ones; the pyramid and cone log barriers; the quasistatic and
// Stewart–Trinkle LCPs) along the arm_cubes grasp (examples/arm_cubes, 50 steps of its schedule
// from t = 2 s: the rollout step_bench's BM_RolloutRun times). Under the QP its contact count
// barely moves (3 values, 2 changes; under the LCPs 48–53, 28 changes of the LCP's size), but the
// set-up's row-sized buffers still meet many sizes from step to step (36 spares of up to 180
// doubles in one pool of the QP's when written), more than the pools kept until 2026-11-27 (32
// spares, 4096 doubles: 10 allocations per warm run of the quasi-dynamic QP, 16 of its SOCP, 12
// and 17–20 of Anitescu's). Once a first run has met every size, later runs allocate nothing
// (solvers/sized_storage_pool.h, solvers/view_storage.h).

#include <gtest/gtest.h>

#include <Eigen/Core>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "quasidyn/formulations/registry.h"
#include "quasidyn/stepping/step_model.h"
#include "quasidyn/testing/example_states.h"
#include "quasidyn/testing/malloc_counter.h"
#include "quasidyn/testing/test_names.h"

namespace quasidyn {
namespace {

constexpr int kArmStepsToTheGrasp = 200;  // t = 2 s at the scene's h = 0.01 s
constexpr int kArmRolloutSteps = 50;      // the rollout counted, 0.5 s
constexpr int kArmCountedRuns = 3;        // after one run of warm-up

struct ArmRollout {
  std::shared_ptr<const StepModel> model;
  State x0;                               // the state at the grasp
  std::vector<Eigen::VectorXd> commands;  // made before counting
};

ArmRollout MakeArmRollout(const ScenePtr& scene, const std::string& formulation) {
  ArmRollout rollout;
  rollout.model = MakeStepModel(scene, FormulationChoice(formulation));
  const double h = rollout.model->time_step();
  const testing::ExampleState at =
      testing::StateAfter(scene, testing::SceneProgramSettings(*scene), kArmStepsToTheGrasp);
  rollout.x0 = InitialState(*rollout.model);
  rollout.x0.q = at.q;
  for (int k = 0; k < kArmRolloutSteps; ++k)
    rollout.commands.push_back(scene->CommandAt((kArmStepsToTheGrasp + k + 1) * h));
  return rollout;
}

// `steps` steps of the rollout from the grasp, with a cleared warm start; the heap allocations
// they made.
long CountRolloutAllocations(const ArmRollout& rollout, int steps, StepData* data, State* x) {
  const StepModel& model = *rollout.model;
  testing::MallocCounter counter;
  model.ClearWarmStart(data);
  *x = rollout.x0;  // same size: storage reused
  for (int k = 0; k < steps; ++k) {
    model.Calc(*x, rollout.commands[static_cast<size_t>(k)], data);
    if (!data->result.ok()) {
      ADD_FAILURE() << "step " << k << ": " << data->result.message;
      return -1;
    }
    *x = data->result.next;  // same size: storage reused
  }
  return counter.count();
}

class ArmCubesRollout : public ::testing::TestWithParam<std::string> {};

TEST_P(ArmCubesRollout, WarmRunsAllocateNothingWhileTheSizesMove) {
  if (!testing::MallocCountingAvailable()) GTEST_SKIP() << "malloc counting is off (sanitizers)";
  const ArmRollout rollout = MakeArmRollout(testing::LoadExample("arm_cubes"), GetParam());
  State x = rollout.x0;
  // The test means something only if the rollout's later steps meet sizes its first step did
  // not: a data warmed on the first step alone allocates along the rollout.
  const std::unique_ptr<StepData> first_step_only = rollout.model->CreateData();
  CountRolloutAllocations(rollout, 1, first_step_only.get(), &x);
  CountRolloutAllocations(rollout, 1, first_step_only.get(), &x);
  ASSERT_EQ(CountRolloutAllocations(rollout, 1, first_step_only.get(), &x), 0);
  const long new_sizes =
      CountRolloutAllocations(rollout, kArmRolloutSteps, first_step_only.get(), &x);
  EXPECT_GT(new_sizes, 0);

  const std::unique_ptr<StepData> data = rollout.model->CreateData();
  CountRolloutAllocations(rollout, kArmRolloutSteps, data.get(), &x);  // warm-up
  for (int run = 1; run <= kArmCountedRuns; ++run) {
    EXPECT_EQ(CountRolloutAllocations(rollout, kArmRolloutSteps, data.get(), &x), 0)
        << "run " << run << " after the warm-up";
  }
  std::printf("%s: %ld allocations along the rollout after a warm-up on its first step alone\n",
              GetParam().c_str(), new_sizes);
}

// The convex programs' steps: the quasi-dynamic QP and SOCP, Anitescu's second-order ones and
// the log barriers (60 and 58 allocations per warm run until 2026-11-27: their solver's Setup,
// the problem's vectors, a cleared previous minimiser); and the LCPs solved by Lemke's method,
// quasistatic and Stewart–Trinkle (696 and 891 per warm run until 2026-11-27, then 174 and 162
// until their M, Jᵀ and P⁻¹Jᵀ became views on storage kept at its largest size, the same day).
INSTANTIATE_TEST_SUITE_P(ContactPrograms, ArmCubesRollout,
                         ::testing::Values("lcp", "stewart-trinkle", "qp", "socp", "anitescu",
                                           "anitescu-cone", "log-barrier", "log-barrier-cone"),
                         testing::NameOfParam());

}  // namespace
}  // namespace quasidyn
