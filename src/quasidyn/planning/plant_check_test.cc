// The plant check of extensions (plant_check.h; docs/planning.md, "Plans a plant of another time
// step executes"): an extension is kept only if its command at h/k, held over k substeps, ends
// within the tolerance of the planner's end. A constructed case (a ball falling in the air,
// which a quasi-dynamic step of h moves by h²·g and k steps of h/k by h²·g/k) is refused, a ball
// at rest is kept, the planner's tree holds only extensions that pass, and its plans replay bit
// for bit.

#include "quasidyn/planning/plant_check.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "quasidyn/formulations/registry.h"
#include "quasidyn/model/scene.h"
#include "quasidyn/planning/object_space.h"
#include "quasidyn/planning/plan_path.h"
#include "quasidyn/planning/rrt.h"
#include "quasidyn/testing/example_states.h"

namespace quasidyn {
namespace {

// The planar hand's planning block with the check at h/2 (tolerance as given).
PlanningSettings CheckedSettings(const Scene& scene, double tolerance) {
  PlanningSettings settings = *scene.planning;
  settings.plant_check = PlantCheckSettings{2, tolerance};
  return settings;
}

// One step of the planner's model from `start` under u: the end configuration.
Eigen::VectorXd PlannerStep(const StepModel& model, const State& start, const Eigen::VectorXd& u) {
  std::unique_ptr<StepData> data = model.CreateData();
  model.Calc(start, u, data.get());
  EXPECT_TRUE(data->result.ok()) << data->result.message;
  return data->result.next.q;
}

TEST(PlantCheck, RefusesAFallWhoseEndsDifferAndKeepsARestThatAgrees) {
  const ScenePtr scene = testing::LoadExample("planar_hand");
  const PlanningSettings base = *scene->planning;
  const std::shared_ptr<const StepModel> model =
      MakeStepModel(scene, PlanningFormulation(*scene, base));
  const double h = model->time_step();
  const double g = std::abs(scene->gravity.y());
  const ObjectSpace space(*scene);
  const Eigen::VectorXd hold = scene->q0.tail(scene->nq_a);  // the fingers stay where they are

  // A ball released 0.5 m up, far from the fingers (reach <= 0.36 m from the bases at
  // x = ±0.12): the step of h drops it by h²·g, the two steps of h/2 by 2·(h/2)²·g = h²·g/2.
  State air{scene->q0, Eigen::VectorXd()};
  air.q.head(2) = Eigen::Vector2d(0.6, 0.5);
  const Eigen::VectorXd q_h = PlannerStep(*model, air, hold);
  EXPECT_NEAR(air.q(1) - q_h(1), h * h * g, 1e-6 * h * h * g);  // the solver's tolerance
  const double gap = 0.5 * h * h * g;                           // [m] = D with w_p = 1
  ASSERT_EQ(base.position_weight, 1.0);

  // A tolerance below the gap refuses the fall, one above keeps it; D is the gap.
  PlantCheck tight(*model, space, CheckedSettings(*scene, 0.5 * gap));
  EXPECT_FALSE(tight.Agrees(air, hold, 1, q_h));
  EXPECT_NEAR(tight.Distance(q_h), gap, 1e-6 * gap);
  EXPECT_NEAR(air.q(1) - tight.state().q(1), gap, 1e-6 * gap);
  PlantCheck loose(*model, space, CheckedSettings(*scene, 2.0 * gap));
  EXPECT_TRUE(loose.Agrees(air, hold, 1, q_h));

  // The ball at rest on the ground under fingers that move in the air: both ends have it where
  // it was, so even the tight check keeps it.
  const State rest{scene->q0, Eigen::VectorXd()};
  Eigen::VectorXd open = hold;
  open(0) -= 0.1;  // the left finger swings outward [rad]
  const Eigen::VectorXd q_rest = PlannerStep(*model, rest, open);
  EXPECT_TRUE(tight.Agrees(rest, open, 1, q_rest));
  EXPECT_LT(tight.Distance(q_rest), 1e-6);  // the solver's tolerance, against a gap of 4.9 cm
  // Two steps of the edge are 2k plant steps.
  EXPECT_TRUE(tight.Run(air, hold, 2));
  EXPECT_NEAR(air.q(1) - tight.state().q(1), 2.0 * gap, 1e-6 * gap);
}

TEST(PlantCheck, BadSettingsAreNamed) {
  const ScenePtr scene = testing::LoadExample("planar_hand");
  PlanningSettings settings = *scene->planning;
  const auto problem = [&](int substeps, double tolerance) {
    settings.plant_check = PlantCheckSettings{substeps, tolerance};
    const auto p = CheckPlanningSettings(settings, *scene, /*complete=*/true);
    return p ? p->field + ": " + p->problem : std::string();
  };
  EXPECT_EQ(problem(2, 0.05), "");
  EXPECT_EQ(problem(1, 0.05), "plant_check.substeps: must be >= 2 (got 1)");
  EXPECT_EQ(problem(2000, 0.05), "plant_check.substeps: must be <= 1024 (got 2000)");
  EXPECT_EQ(problem(2, 0.0), "plant_check.tolerance: must be in [1e-12, 1000] (got 0)");
  EXPECT_EQ(problem(2, std::numeric_limits<double>::infinity()),
            "plant_check.tolerance: must be finite");
  EXPECT_EQ(problem(2, std::nan("")), "plant_check.tolerance: must be finite");
  const std::shared_ptr<const StepModel> model =
      MakeStepModel(scene, PlanningFormulation(*scene, *scene->planning));
  const ObjectSpace space(*scene);
  EXPECT_THROW(PlantCheck(*model, space, *scene->planning), std::invalid_argument);  // none set
  PlantCheck check(*model, space, CheckedSettings(*scene, 0.05));
  EXPECT_THROW(check.Run(State{scene->q0, Eigen::VectorXd()}, scene->q0.tail(scene->nq_a), 0),
               std::invalid_argument);
}

// A budget that leaves the tree a few hundred extensions in a fraction of a second.
constexpr int kCheckedTreeNodes = 300;

TEST(PlantCheck, EveryExtensionOfTheTreePassesAndThePathReplaysExactly) {
  const ScenePtr scene = testing::LoadExample("planar_hand");
  PlanningSettings settings = CheckedSettings(*scene, 0.02);
  settings.regrasp = RegraspExecution::kPhysical;
  settings.max_nodes = kCheckedTreeNodes;
  const PlanResult plan =
      PlanThroughContact(scene, PlanningFormulation(*scene, settings), settings);
  // The check refused some: otherwise this tree would not test it.
  EXPECT_GT(plan.statistics.plant_check_rejections, 0);
  const std::shared_ptr<const StepModel> replayed = MakeStepModel(scene, plan.stepping);
  const ObjectSpace space(*scene);
  PlantCheck check(*replayed, space, settings);
  int extensions = 0;
  for (const PlanNode& node : plan.nodes) {
    if (node.edge != EdgeKind::kExtend) continue;
    ++extensions;
    const State start{plan.nodes[node.parent].q, Eigen::VectorXd()};
    EXPECT_TRUE(check.Agrees(start, node.u, node.steps, node.q)) << check.Distance(node.q);
  }
  EXPECT_EQ(extensions, plan.statistics.extensions);
  const ReplayedPath replay = ReplayPath(*replayed, plan.nodes, plan.path);
  ASSERT_EQ(replay.trajectory.status, SolverStatus::kSolved) << replay.trajectory.message;
  EXPECT_EQ(replay.max_node_deviation, 0.0);
  EXPECT_EQ(replay.trajectory.steps.back().q, plan.nodes[plan.best_node].q);
}

// A tolerance no extension reaches changes nothing: the tree of the planner without the check.
TEST(PlantCheck, AToleranceNoEndReachesGivesTheUncheckedTree) {
  const ScenePtr scene = testing::LoadExample("planar_hand");
  PlanningSettings settings = *scene->planning;
  settings.max_nodes = kCheckedTreeNodes;
  const FormulationChoice stepping = PlanningFormulation(*scene, settings);
  const PlanResult unchecked = PlanThroughContact(scene, stepping, settings);
  settings.plant_check = PlantCheckSettings{2, 1e3};  // the range's top: D of a planar hand is < 10
  const PlanResult checked = PlanThroughContact(scene, stepping, settings);
  EXPECT_EQ(checked.statistics.plant_check_rejections, 0);
  ASSERT_EQ(checked.nodes.size(), unchecked.nodes.size());
  for (size_t i = 0; i < checked.nodes.size(); ++i)
    ASSERT_EQ(checked.nodes[i].q, unchecked.nodes[i].q) << "node " << i;
}

}  // namespace
}  // namespace quasidyn
