// The QP step's warm start (pyramid_qp_warm_start.h) on the pick-and-place of examples/arm_cubes
// at h = 0.1 s, where the contact set changes between most steps: warm and cold steps agree to
// the solver's tolerance, a cleared data gives the bits of a fresh one, the iterations drop, and
// the multipliers follow their contacts when rows come and go.

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "quasidyn/formulations/programs/pyramid_qp.h"
#include "quasidyn/formulations/quasi_dynamic/quasi_dynamic_model.h"
#include "quasidyn/testing/matrix_compare.h"
#include "quasidyn/testing/pick_place_rollout.h"

namespace quasidyn {
namespace {

const PyramidQpWorkspace& WorkspaceOfData(const StepData& data) {
  return dynamic_cast<const PyramidQpWorkspace&>(
      static_cast<const QuasiDynamicData&>(data).workspace());
}

int SumOf(const std::vector<int>& v) {
  int sum = 0;
  for (const int x : v) sum += x;
  return sum;
}

// The solver's agreement tolerance (testing::StepAgreementTolerance) for this step's settings.
double AgreementTolerance(const StepData& data) {
  const QpSettings settings = ContactQpSettings();
  return testing::StepAgreementTolerance(data, settings.absolute_tolerance,
                                         settings.relative_tolerance);
}

// At every state of the warm rollout, the warm step and a cold step from the same state agree
// to the solver's tolerance (AgreementTolerance), and the warm steps take fewer iterations in
// all.
TEST(PyramidQpWarmStart, WarmAndColdStepsAgreeToTheSolverTolerance) {
  const auto model = testing::PickPlaceModel("qp");
  const auto warm = model->CreateData();
  const auto cold = model->CreateData();
  const testing::PickPlaceRun run = testing::RollPickPlace(*model, warm.get(), /*cold=*/false);
  int warm_iterations = 0, cold_iterations = 0;
  const auto replay = model->CreateData();
  for (int k = 1; k <= testing::kPickPlaceSteps; ++k) {
    const Eigen::VectorXd u = model->scene().CommandAt(k * testing::kPickPlaceTimeStep);
    model->Calc(run.states[k - 1], u, replay.get());  // the warm step again, from the same start
    model->ClearWarmStart(cold.get());
    model->Calc(run.states[k - 1], u, cold.get());
    ASSERT_TRUE(cold->result.ok()) << cold->result.message;
    const Eigen::VectorXd& v_warm = replay->result.velocity;
    const Eigen::VectorXd& v_cold = cold->result.velocity;
    EXPECT_LE((v_warm - v_cold).lpNorm<Eigen::Infinity>(), AgreementTolerance(*cold))
        << "step " << k;
    EXPECT_TRUE(testing::MatricesEqual(replay->result.next.q, run.states[k].q)) << "step " << k;
    warm_iterations += replay->result.solver.iterations;
    cold_iterations += cold->result.solver.iterations;
  }
  EXPECT_EQ(warm_iterations, SumOf(run.iterations));
  EXPECT_LT(warm_iterations, cold_iterations);
  std::printf("iterations over %d steps: warm %d, cold %d\n", testing::kPickPlaceSteps,
              warm_iterations, cold_iterations);
}

// ClearWarmStart makes a used data start as a fresh one: the rollout from it is bitwise the
// fresh data's, and a cleared step is bitwise a cold one.
TEST(PyramidQpWarmStart, AClearedDataReproducesAFreshOneBitwise) {
  const auto model = testing::PickPlaceModel("qp");
  const auto used = model->CreateData();
  testing::RollPickPlace(*model, used.get(),
                         /*cold=*/false);  // leaves the last step's answer in `used`
  model->ClearWarmStart(used.get());
  const auto fresh = model->CreateData();
  const testing::PickPlaceRun again = testing::RollPickPlace(*model, used.get(), /*cold=*/false);
  const testing::PickPlaceRun first = testing::RollPickPlace(*model, fresh.get(), /*cold=*/false);
  for (int k = 0; k <= testing::kPickPlaceSteps; ++k)
    ASSERT_TRUE(testing::MatricesEqual(again.states[k].q, first.states[k].q)) << "state " << k;
  EXPECT_EQ(again.iterations, first.iterations);
  // Cold rollouts, each step cleared: the same bits from a used data and a fresh one.
  const auto other = model->CreateData();
  const testing::PickPlaceRun cold_used = testing::RollPickPlace(*model, used.get(), /*cold=*/true);
  const testing::PickPlaceRun cold_fresh =
      testing::RollPickPlace(*model, other.get(), /*cold=*/true);
  for (int k = 0; k <= testing::kPickPlaceSteps; ++k)
    ASSERT_TRUE(testing::MatricesEqual(cold_used.states[k].q, cold_fresh.states[k].q))
        << "state " << k;
}

// At every step, and where the contact set changes in particular, each row of a contact the
// previous step had starts from that contact's multiplier, found by its geometry pair and its
// place among the pair's points, and a new contact's rows start as the cold start does; x is the
// previous v.
TEST(PyramidQpWarmStart, MultipliersFollowTheirContactsWhenRowsComeAndGo) {
  const auto model = testing::PickPlaceModel("qp");
  const auto previous = model->CreateData();
  const auto current = model->CreateData();
  const testing::PickPlaceRun run =
      testing::RollPickPlace(*model, model->CreateData().get(), /*cold=*/true);
  int changed_steps = 0, mapped_rows = 0, new_rows = 0;
  for (int k = 2; k <= testing::kPickPlaceSteps; ++k) {
    testing::CalcConsecutiveSteps(*model, run, k, previous.get(), current.get());
    const auto& pd = static_cast<const QuasiDynamicData&>(*previous);
    const auto& cd = static_cast<const QuasiDynamicData&>(*current);
    const ContactSet& before = pd.contact().contacts();
    const ContactSet& after = cd.contact().contacts();
    const QpResult& answer = WorkspaceOfData(*previous).solver.result();
    const QpProblem& qp = WorkspaceOfData(*current).qp;
    changed_steps += before.size() != after.size();  // the other steps are checked too
    PyramidQpWarmStart warm;
    warm.Remember(model->ProblemOf(pd), answer);
    QpWarmStart start;
    ASSERT_TRUE(warm.Start(model->ProblemOf(cd), qp, &start));
    EXPECT_TRUE(testing::MatricesEqual(start.x, answer.x));
    Eigen::VectorXd Gx;
    qp.G.Multiply(start.x, &Gx);
    const int rays = after.ray_count();
    // The k-th point of a geometry pair, in the order the set lists them.
    const auto place = [](const ContactSet& set, int i) {
      int n = 0;
      for (int j = 0; j < i; ++j)
        n += set[j].geometry_a == set[i].geometry_a && set[j].geometry_b == set[i].geometry_b;
      return n;
    };
    for (int i = 0; i < after.size(); ++i) {
      int match = -1;
      for (int j = 0; j < before.size() && match < 0; ++j) {
        if (before[j].geometry_a == after[i].geometry_a &&
            before[j].geometry_b == after[i].geometry_b && place(before, j) == place(after, i))
          match = j;
      }
      for (int r = 0; r < rays; ++r) {
        const int row = i * rays + r;
        if (match >= 0) {
          EXPECT_EQ(start.z[row], answer.z[match * rays + r]) << "step " << k << " row " << row;
          ++mapped_rows;
        } else {
          EXPECT_EQ(start.z[row], 1.0 / std::max(std::abs(Gx[row] - qp.h[row]), 1.0));
          ++new_rows;
        }
      }
    }
  }
  // The check above ran on both kinds of rows.
  EXPECT_GT(changed_steps, 0);
  EXPECT_GT(mapped_rows, 0);
  EXPECT_GT(new_rows, 0);
}

// Remember takes the row keys of the last Start only for that Start's problem: after a Start of
// the current step's problem, remembering the previous step's answer with its own (other) rows
// gives the same start as a warm start that never saw the current problem before.
TEST(PyramidQpWarmStart, RememberFormsTheKeysOfAProblemItsStartDidNotSee) {
  const auto model = testing::PickPlaceModel("qp");
  const auto previous = model->CreateData();
  const auto current = model->CreateData();
  const testing::PickPlaceRun run =
      testing::RollPickPlace(*model, model->CreateData().get(), /*cold=*/true);
  int changed_steps = 0;
  for (int k = 2; k <= testing::kPickPlaceSteps; ++k) {
    testing::CalcConsecutiveSteps(*model, run, k, previous.get(), current.get());
    const auto& pd = static_cast<const QuasiDynamicData&>(*previous);
    const auto& cd = static_cast<const QuasiDynamicData&>(*current);
    if (pd.contact().contacts().size() == cd.contact().contacts().size()) continue;
    ++changed_steps;
    const StepProblem before = model->ProblemOf(pd);
    const StepProblem after = model->ProblemOf(cd);
    const QpResult& answer = WorkspaceOfData(*previous).solver.result();
    const QpProblem& qp = WorkspaceOfData(*current).qp;
    PyramidQpWarmStart fresh, reused;
    QpWarmStart expected, start;
    fresh.Remember(before, answer);
    ASSERT_TRUE(fresh.Start(after, qp, &expected));
    reused.Remember(before, answer);
    ASSERT_TRUE(reused.Start(after, qp, &start));  // keys of `after` formed here
    reused.Remember(before, answer);               // another problem: its own keys
    ASSERT_TRUE(reused.Start(after, qp, &start)) << "step " << k;
    EXPECT_EQ(reused.mapped_rows(), fresh.mapped_rows()) << "step " << k;
    EXPECT_TRUE(testing::MatricesEqual(start.z, expected.z)) << "step " << k;
    EXPECT_TRUE(testing::MatricesEqual(start.x, expected.x)) << "step " << k;
  }
  EXPECT_GT(changed_steps, 0);
}

}  // namespace
}  // namespace quasidyn
