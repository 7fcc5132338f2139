// A warm CalcDiff allocates nothing (issue 38): on the planar hand with the fingers on the ball
// (the state of bench/gradient_cost_bench.cc, 60 QP steps of the schedule), a CalcDiff in the
// mode of the previous one, on the same step, reuses every buffer of the data: the contraction's
// (contact_data_derivative.h), the sensitivity's (qp_gradient.h, socp_gradient.h,
// log_barrier_gradient.h) and A and B themselves (stepping/step_outcome.h).

#include <gtest/gtest.h>

#include <memory>
#include <string>

#include "quasidyn/formulations/registry.h"
#include "quasidyn/stepping/step_model.h"
#include "quasidyn/testing/example_states.h"
#include "quasidyn/testing/malloc_counter.h"
#include "quasidyn/testing/program_settings.h"
#include "quasidyn/testing/test_names.h"

namespace quasidyn {
namespace {

class WarmCalcDiff : public ::testing::TestWithParam<const char*> {};

TEST_P(WarmCalcDiff, AllocatesNothingOnThePlanarHand) {
  if (!testing::MallocCountingAvailable()) GTEST_SKIP() << "malloc counting is off (sanitizers)";
  const ScenePtr scene = testing::LoadExample("planar_hand");
  const testing::ExampleState at =
      testing::StateAfter(scene, testing::SceneProgramSettings(*scene), 60);
  const std::shared_ptr<const StepModel> model =
      MakeStepModel(scene, FormulationChoice(GetParam()));
  const std::unique_ptr<StepData> data = model->CreateData();
  model->Calc(State{at.q, {}}, at.u, data.get());
  ASSERT_TRUE(data->result.ok()) << data->result.message;
  // The test means something only with contacts that bind: the contraction and the active set
  // have work to do.
  ASSERT_GE(data->result.contacts.size(), 2u);
  for (const GradientMode mode : {GradientMode::kAAndB, GradientMode::kBOnly}) {
    model->CalcDiff(mode, data.get());  // warm-up: every buffer meets this step's sizes
    long allocations = 0;
    {
      testing::MallocCounter counter;
      model->CalcDiff(mode, data.get());
      model->CalcDiff(mode, data.get());
      allocations = counter.count();
    }
    const StepDerivatives& d = data->derivatives;
    ASSERT_TRUE(d.ok()) << d.message;
    EXPECT_GT(d.active_rows, 0);
    EXPECT_EQ(d.B.rows(), scene->nq);
    EXPECT_EQ(d.A.rows(), mode == GradientMode::kAAndB ? scene->nq : 0);
    EXPECT_EQ(allocations, 0) << GetParam() << ", mode " << static_cast<int>(mode);
  }
}

INSTANTIATE_TEST_SUITE_P(Formulations, WarmCalcDiff, ::testing::Values("qp", "socp", "log-barrier"),
                         testing::NameOfParam());

}  // namespace
}  // namespace quasidyn
