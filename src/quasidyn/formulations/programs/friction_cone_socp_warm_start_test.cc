// The SOCP step's warm start (friction_cone_socp_warm_start.h) on the pick-and-place of
// examples/arm_cubes at h = 0.1 s, where the contact set changes between most steps: warm and
// cold steps agree to the solver's tolerance, a cleared data gives the bits of a fresh one, the
// iterations drop, and the multipliers follow their contacts when cones come and go.

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "quasidyn/formulations/programs/friction_cone_socp.h"
#include "quasidyn/formulations/quasi_dynamic/quasi_dynamic_model.h"
#include "quasidyn/testing/matrix_compare.h"
#include "quasidyn/testing/pick_place_rollout.h"

namespace quasidyn {
namespace {

const FrictionConeSocpWorkspace& SocpWorkspaceOfData(const StepData& data) {
  return dynamic_cast<const FrictionConeSocpWorkspace&>(
      static_cast<const QuasiDynamicData&>(data).workspace());
}

// The solver's agreement tolerance (testing::StepAgreementTolerance) for this step's settings.
double SocpAgreementTolerance(const StepData& data) {
  const SocpSettings settings;
  return testing::StepAgreementTolerance(data, settings.absolute_tolerance,
                                         settings.relative_tolerance);
}

// At every state of the warm rollout, the warm step and a cold step from the same state agree
// to the solver's tolerance (SocpAgreementTolerance), and the warm steps take fewer iterations
// in all.
TEST(FrictionConeSocpWarmStart, WarmAndColdStepsAgreeToTheSolverTolerance) {
  const auto model = testing::PickPlaceModel("socp");
  const auto warm = model->CreateData();
  const auto cold = model->CreateData();
  const testing::PickPlaceRun run = testing::RollPickPlace(*model, warm.get(), /*cold=*/false);
  int warm_iterations = 0, cold_iterations = 0;
  double largest = 0.0;
  const auto replay = model->CreateData();
  for (int k = 1; k <= testing::kPickPlaceSteps; ++k) {
    const Eigen::VectorXd u = model->scene().CommandAt(k * testing::kPickPlaceTimeStep);
    model->Calc(run.states[k - 1], u, replay.get());  // the warm step again, from the same start
    model->ClearWarmStart(cold.get());
    model->Calc(run.states[k - 1], u, cold.get());
    ASSERT_TRUE(cold->result.ok()) << cold->result.message;
    const Eigen::VectorXd& v_warm = replay->result.velocity;
    const Eigen::VectorXd& v_cold = cold->result.velocity;
    const double difference = (v_warm - v_cold).lpNorm<Eigen::Infinity>();
    largest = std::max(largest, difference);
    EXPECT_LE(difference, SocpAgreementTolerance(*cold)) << "step " << k;
    EXPECT_TRUE(testing::MatricesEqual(replay->result.next.q, run.states[k].q)) << "step " << k;
    warm_iterations += replay->result.solver.iterations;
    cold_iterations += cold->result.solver.iterations;
  }
  int run_iterations = 0;
  for (const int i : run.iterations) run_iterations += i;
  EXPECT_EQ(warm_iterations, run_iterations);
  EXPECT_LT(warm_iterations, cold_iterations);
  std::printf("iterations over %d steps: warm %d, cold %d; largest |v_warm - v_cold| %.3g\n",
              testing::kPickPlaceSteps, warm_iterations, cold_iterations, largest);
}

// ClearWarmStart makes a used data start as a fresh one: the rollout from it is bitwise the
// fresh data's, and a cleared step is bitwise a cold one.
TEST(FrictionConeSocpWarmStart, AClearedDataReproducesAFreshOneBitwise) {
  const auto model = testing::PickPlaceModel("socp");
  const auto used = model->CreateData();
  testing::RollPickPlace(*model, used.get(), /*cold=*/false);  // leaves the last answer in `used`
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

// Where the contact set changes, each cone of a contact the previous step had starts from that
// contact's dual, found by its geometry pair and its place among the pair's points; a new
// contact's cone starts at e / max(|t|, 1) (t its first row at the warm x), a joint-limit row
// from its bound's multiplier; x is the previous v.
TEST(FrictionConeSocpWarmStart, MultipliersFollowTheirContactsWhenConesComeAndGo) {
  const auto model = testing::PickPlaceModel("socp");
  const auto previous = model->CreateData();
  const auto current = model->CreateData();
  const testing::PickPlaceRun run =
      testing::RollPickPlace(*model, model->CreateData().get(), /*cold=*/true);
  int changed_steps = 0, mapped_cones = 0, new_cones = 0, limit_rows = 0;
  for (int k = 2; k <= testing::kPickPlaceSteps; ++k) {
    testing::CalcConsecutiveSteps(*model, run, k, previous.get(), current.get());
    const auto& pd = static_cast<const QuasiDynamicData&>(*previous);
    const auto& cd = static_cast<const QuasiDynamicData&>(*current);
    const ContactSet& before = pd.contact().contacts();
    const ContactSet& after = cd.contact().contacts();
    const SocpResult& answer = SocpWorkspaceOfData(*previous).solver.result();
    const SocpProblem& socp = SocpWorkspaceOfData(*current).socp;
    if (before.size() == after.size()) continue;
    ++changed_steps;
    FrictionConeSocpWarmStart warm;
    warm.Remember(model->ProblemOf(pd), answer);
    SocpWarmStart start;
    ASSERT_TRUE(warm.Start(model->ProblemOf(cd), socp, &start));
    EXPECT_TRUE(testing::MatricesEqual(start.x, answer.x));
    // Every contact of arm_cubes is a 3D one with friction: one cone of 3 rows each, in contact
    // order after the joint-limit rows (the only linear rows).
    const int linear = static_cast<int>(socp.G.rows());
    ASSERT_EQ(static_cast<int>(socp.cone_dims.size()), after.size());
    if (answer.linear_duals.size() == linear) {  // the same limits within reach
      for (int l = 0; l < linear; ++l) {
        EXPECT_EQ(start.z[l], answer.linear_duals[l]);
        ++limit_rows;
      }
    }
    const auto place = [](const ContactSet& set, int i) {
      int n = 0;
      for (int j = 0; j < i; ++j)
        n += set[j].geometry_a == set[i].geometry_a && set[j].geometry_b == set[i].geometry_b;
      return n;
    };
    Eigen::VectorXd Ax;
    socp.A.Multiply(start.x, &Ax);
    for (int i = 0; i < after.size(); ++i) {
      int match = -1;
      for (int j = 0; j < before.size() && match < 0; ++j) {
        if (before[j].geometry_a == after[i].geometry_a &&
            before[j].geometry_b == after[i].geometry_b && place(before, j) == place(after, i))
          match = j;
      }
      const auto z = start.z.segment(linear + 3 * i, 3);
      if (match >= 0) {
        EXPECT_TRUE(testing::MatricesEqual(z, answer.ConeDual(match))) << "step " << k;
        ++mapped_cones;
      } else {
        const double t = Ax[3 * i] + socp.b[3 * i];
        EXPECT_DOUBLE_EQ(z[0], 1.0 / std::max(std::abs(t), 1.0)) << "step " << k << " cone " << i;
        EXPECT_EQ(z[1], 0.0);
        EXPECT_EQ(z[2], 0.0);
        ++new_cones;
      }
    }
  }
  // The check above ran on both kinds of cones.
  EXPECT_GT(changed_steps, 0);
  EXPECT_GT(mapped_cones, 0);
  EXPECT_GT(new_cones, 0);
  EXPECT_GT(limit_rows, 0);
}

}  // namespace
}  // namespace quasidyn
