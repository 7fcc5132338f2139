// A warm CalcDiff allocates nothing whatever the active set (issue 38): a batch of
// linearisations (stepping/batch_step.h, randomized smoothing) visits points whose active rows
// differ, so the blocks of the range-space solve (range_space_kkt.h) and the factor of the
// cost it whitens by (positive_definite_factor.h) change shape from one call to the next.
// Each buffer keeps the storage of its largest use: once every point has been seen, a second
// pass over the same points allocates nothing, and gives the A and B of a fresh data object
// bit for bit.
//
// The points are made as bench/batch_bench.cc's: the benchmark state (planar_hand after 60 QP
// steps of its schedule, arm_cubes after 200) with its own command and with the command moved
// by −3.5 … 3.5 mm (or mrad) along one actuated coordinate per point.

#include <gtest/gtest.h>

#include <algorithm>
#include <memory>
#include <set>
#include <stdexcept>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "quasidyn/formulations/registry.h"
#include "quasidyn/stepping/step_model.h"
#include "quasidyn/testing/example_states.h"
#include "quasidyn/testing/malloc_counter.h"
#include "quasidyn/testing/program_settings.h"
#include "quasidyn/testing/test_names.h"

namespace quasidyn {
namespace {

struct Point {
  Eigen::VectorXd q, u;
};

// The states of the scene's scheduled QP rollout at `steps` (increasing; the rollout's contacts
// come and go), then `count` points at the last of them that move the command's coordinate
// i mod n_q,a by 1e-3 · ((i mod 8) − 3.5) [m or rad] (point i): at one configuration the
// contacts are the same and the active rows differ.
std::vector<Point> PointsOf(const ScenePtr& scene, const std::vector<int>& steps, int count) {
  testing::ProgramSettings settings = testing::SceneProgramSettings(*scene);
  settings.type = "qp";
  const std::shared_ptr<const StepModel> model = MakeStepModel(scene, settings);
  const std::unique_ptr<StepData> data = model->CreateData();
  const double h = settings.time_step;
  std::vector<Point> points;
  State x = InitialState(*model);
  for (int k = 0; k <= steps.back(); ++k) {
    const Eigen::VectorXd u = scene->CommandAt((k + 1) * h);
    if (std::find(steps.begin(), steps.end(), k) != steps.end()) points.push_back({x.q, u});
    model->Calc(x, u, data.get());
    if (!data->result.ok()) throw std::runtime_error("rollout failed: " + data->result.message);
    x = data->result.next;
  }
  const Point at = points.back();
  for (int i = 0; i < count; ++i) {
    Eigen::VectorXd u = at.u;
    u[i % u.size()] += 1e-3 * ((i % 8) - 3.5);
    points.push_back({at.q, u});
  }
  return points;
}

// scene, the rollout's steps, the moved commands at the last, formulation
using Case = std::tuple<const char*, std::vector<int>, int, const char*>;

class WarmCalcDiffOverContactSets : public ::testing::TestWithParam<Case> {};

TEST_P(WarmCalcDiffOverContactSets, ASecondPassAllocatesNothing) {
  if (!testing::MallocCountingAvailable()) GTEST_SKIP() << "malloc counting is off (sanitizers)";
  const auto& [scene_name, steps, count, formulation] = GetParam();
  const ScenePtr scene = testing::LoadExample(scene_name);
  const std::vector<Point> points = PointsOf(scene, steps, count);
  const std::shared_ptr<const StepModel> model =
      MakeStepModel(scene, FormulationChoice(formulation));
  const std::unique_ptr<StepData> data = model->CreateData();
  // Each mode on its own (A is empty in mode kBOnly, so alternating modes resizes A itself).
  for (const GradientMode mode : {GradientMode::kAAndB, GradientMode::kBOnly}) {
    std::vector<long> allocations(points.size(), 0);
    std::set<std::pair<int, int>> contact_sets;  // (contacts, active rows) met
    for (int pass = 0; pass < 2; ++pass) {
      for (size_t i = 0; i < points.size(); ++i) {
        // Each point on its own, as in a batch (stepping/batch_step.h): no warm start from the
        // point before.
        model->ClearWarmStart(data.get());
        model->Calc(State{points[i].q, {}}, points[i].u, data.get());
        ASSERT_TRUE(data->result.ok()) << "point " << i << ": " << data->result.message;
        long counted = 0;
        {
          testing::MallocCounter counter;
          model->CalcDiff(mode, data.get());
          counted = counter.count();
        }
        ASSERT_TRUE(data->derivatives.ok()) << "point " << i << ": " << data->derivatives.message;
        if (pass == 1) {
          allocations[i] = counted;
          // Storage met at other shapes gives a fresh data object's numbers, bit for bit.
          const std::unique_ptr<StepData> fresh = model->CreateData();
          model->Calc(State{points[i].q, {}}, points[i].u, fresh.get());
          model->CalcDiff(mode, fresh.get());
          EXPECT_EQ(data->derivatives.A, fresh->derivatives.A) << "point " << i;
          EXPECT_EQ(data->derivatives.B, fresh->derivatives.B) << "point " << i;
        }
        contact_sets.insert(
            {static_cast<int>(data->result.contacts.size()), data->derivatives.active_rows});
      }
    }
    // The test means something only when the points' active sets differ (the sizes the
    // buffers take change from call to call).
    ASSERT_GE(contact_sets.size(), 2u) << "the points share one contact set";
    for (size_t i = 0; i < points.size(); ++i)
      EXPECT_EQ(allocations[i], 0) << scene_name << ", " << formulation << ", mode "
                                   << static_cast<int>(mode) << ", point " << i;
  }
}

std::string CaseName(const ::testing::TestParamInfo<Case>& param) {
  return testing::GtestName(std::string(std::get<0>(param.param)) + "_" + std::get<3>(param.param));
}

// The barriers are not here: their sensitivities weigh every row (no active set), and these
// points share one configuration, so one contact set.
INSTANTIATE_TEST_SUITE_P(PlanarHand, WarmCalcDiffOverContactSets,
                         ::testing::Combine(::testing::Values("planar_hand"),
                                            ::testing::Values(std::vector<int>{60}),
                                            ::testing::Values(16), ::testing::Values("qp", "socp")),
                         CaseName);

INSTANTIATE_TEST_SUITE_P(ArmCubes, WarmCalcDiffOverContactSets,
                         ::testing::Combine(::testing::Values("arm_cubes"),
                                            ::testing::Values(std::vector<int>{200}),
                                            ::testing::Values(8), ::testing::Values("qp", "socp")),
                         CaseName);

}  // namespace
}  // namespace quasidyn
