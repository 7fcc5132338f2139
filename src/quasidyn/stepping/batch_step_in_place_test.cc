// BatchStepper::RunInPlace (batch_step.h): the stepper's own evaluations refilled in place are
// bitwise Run's, whatever the earlier batch left in them, and once warm a batch allocates
// nothing (MallocCounter).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "quasidyn/stepping/batch_step.h"
#include "quasidyn/testing/example_states.h"
#include "quasidyn/testing/malloc_counter.h"
#include "quasidyn/testing/program_settings.h"
#include "quasidyn/testing/stepper.h"

namespace quasidyn {
namespace {

// `count` points of the planar hand from q0, the command moved by i·0.5 mm (or mrad) per point
// along coordinate i mod n_q,a.
std::vector<StepPoint> HandPoints(const StepModel& model, int count) {
  const Scene& scene = model.scene();
  const State x0 = InitialState(model);
  std::vector<StepPoint> points;
  for (int i = 0; i < count; ++i) {
    Eigen::VectorXd u = x0.q.segment(scene.nq_u, scene.nq_a);
    u[i % scene.nq_a] += 5e-4 * i;
    points.push_back({x0, u});
  }
  return points;
}

std::shared_ptr<const StepModel> HandModel() {
  const ScenePtr scene = testing::LoadExample("planar_hand");
  return MakeStepModel(scene, testing::SceneProgramSettings(*scene));
}

TEST(BatchStepperInPlace, IsBitwiseRunWhateverTheEarlierBatchLeft) {
  const auto model = HandModel();
  for (int threads : {1, 2}) {
    BatchStepper in_place(model, threads), fresh(model, threads);
    // more points, then fewer; derivatives, then none, then B only
    for (const auto& [count, mode] :
         {std::pair{12, GradientMode::kAAndB}, std::pair{5, GradientMode::kNone},
          std::pair{9, GradientMode::kBOnly}, std::pair{12, GradientMode::kAAndB}}) {
      const std::vector<StepPoint> points = HandPoints(*model, count);
      const std::vector<StepEvaluation>& a = in_place.RunInPlace(points, mode);
      const std::vector<StepEvaluation> b = fresh.Run(points, mode);
      ASSERT_EQ(a.size(), b.size());
      for (size_t i = 0; i < b.size(); ++i) {
        const std::string at = "T " + std::to_string(threads) + ", " + std::to_string(count) +
                               " points, item " + std::to_string(i);
        EXPECT_TRUE(b[i].ok()) << at << ": " << b[i].result.message;
        EXPECT_EQ(a[i].result.status, b[i].result.status) << at;
        EXPECT_EQ(a[i].result.next.q, b[i].result.next.q) << at;
        EXPECT_EQ(a[i].result.velocity, b[i].result.velocity) << at;
        EXPECT_EQ(a[i].result.contacts.size(), b[i].result.contacts.size()) << at;
        EXPECT_EQ(a[i].derivatives.status, b[i].derivatives.status) << at;
        EXPECT_EQ(a[i].derivatives.A, b[i].derivatives.A) << at;
        EXPECT_EQ(a[i].derivatives.B, b[i].derivatives.B) << at;
      }
    }
  }
}

// A and B of 32 planar-hand points on one thread: once the stepper's buffers have the batch's
// sizes, the next batch allocates exactly what a lone data object's Calc and CalcDiff allocate
// on the same points (the QP step's own, docs/performance.md "Threads"): the batch and its
// results add nothing (Run, which makes its results anew, adds ~7 per item).
TEST(BatchStepperInPlace, AWarmBatchAllocatesOnlyWhatTheStepItselfDoes) {
  if (!testing::MallocCountingAvailable()) GTEST_SKIP() << "malloc counting is off (sanitizers)";
  const auto model = HandModel();
  const std::vector<StepPoint> points = HandPoints(*model, 32);
  BatchStepper batch(model, 1);
  batch.RunInPlace(points, GradientMode::kAAndB);  // warm-up: sizes everything
  batch.RunInPlace(points, GradientMode::kAAndB);
  long batch_allocations = 0;
  {
    testing::MallocCounter counter;
    batch.RunInPlace(points, GradientMode::kAAndB);
    batch_allocations = counter.count();
  }
  const std::unique_ptr<StepData> data = model->CreateData();
  long step_allocations = 0;
  for (int pass = 0; pass < 3; ++pass) {  // the third pass counted, as the batch's
    for (const StepPoint& p : points) {
      model->ClearWarmStart(data.get());
      testing::MallocCounter counter;
      model->Calc(p.x, p.u, data.get());
      model->CalcDiff(GradientMode::kAAndB, data.get());
      if (pass == 2) step_allocations += counter.count();
    }
  }
  EXPECT_EQ(batch_allocations, step_allocations);
}

}  // namespace
}  // namespace quasidyn
