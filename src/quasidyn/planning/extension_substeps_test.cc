// PlanningSettings::extension_substeps: every extension step taken as n substeps of h/n with the
// objects' mass scale s/n (EdgeStepper's scale_mass), the same quasi-dynamic motion as a step of
// h, discretised finer. Checked on a free fall against its closed form, and on a plan whose every
// extend edge is substepped and whose path replays.

#include <gtest/gtest.h>

#include <stdexcept>
#include <string>

#include "quasidyn/formulations/registry.h"
#include "quasidyn/planning/edge_stepper.h"
#include "quasidyn/planning/plan_path.h"
#include "quasidyn/planning/rrt.h"
#include "quasidyn/testing/example_states.h"

namespace quasidyn {
namespace {

// The planar hand's ball 2 m above its start, nothing within reach: a quasi-dynamic step of h
// from rest moves it h² g / s (no velocity carried, s the mass scale); n substeps of h/n with
// s/n move it n (h/n)² g / (s/n), the same; with s kept, n (h/n)² g / s, 1/n of it.
TEST(ExtensionSubsteps, AFreeFallOverSubstepsWithScaledMassIsTheStepOfH) {
  const ScenePtr scene = testing::LoadExample("planar_hand");
  const auto model = MakeStepModel(scene, PlanningFormulation(*scene, *scene->planning));
  Eigen::VectorXd up = scene->q0;
  const int ball_y = scene->instances[scene->InstanceIndex("ball")].q_start + 1;
  up(ball_y) += 2.0;
  const State x{up, Eigen::VectorXd()};
  const Eigen::VectorXd held = model->HoldingCommand(x);
  constexpr int kSubsteps = 8;
  double one_step = 0.0;
  {
    EdgeStepper edges(*model, /*measure_depth=*/false);
    edges.Begin(x, held, 1);
    ASSERT_TRUE(edges.Step()) << edges.result().message;
    one_step = up(ball_y) - edges.state().q(ball_y);
  }
  const double h = model->time_step(), g = -scene->gravity.y();
  const double s = model->parameters().Find("object_mass_scale")->value(0, 0);
  EXPECT_NEAR(one_step, h * h * g / s, 1e-9 * one_step);
  for (const bool scale_mass : {true, false}) {
    SCOPED_TRACE(scale_mass ? "s/n" : "s kept");
    EdgeStepper edges(*model, /*measure_depth=*/false, scale_mass);
    edges.Begin(x, held, kSubsteps);
    ASSERT_TRUE(edges.Step()) << edges.result().message;
    const double fall = up(ball_y) - edges.state().q(ball_y);
    EXPECT_NEAR(fall, scale_mass ? one_step : one_step / kSubsteps, 1e-9 * one_step);
  }
}

// With extension_substeps n every extend edge of the tree is taken with n substeps or more, and
// the path replays node by node (1e-9: the replay repeats the planner's computations, with the
// substeps' scaled mass).
TEST(ExtensionSubsteps, EveryExtensionIsSubsteppedAndThePathReplays) {
  const ScenePtr scene = testing::LoadExample("planar_hand");
  PlanningSettings settings = *scene->planning;
  settings.extension_substeps = 4;
  settings.max_nodes = 60;
  settings.seed = 3;
  const PlanResult plan =
      PlanThroughContact(scene, PlanningFormulation(*scene, settings), settings);
  int extensions = 0;
  for (const PlanNode& node : plan.nodes) {
    if (node.edge != EdgeKind::kExtend) continue;
    ++extensions;
    EXPECT_GE(node.substeps, settings.extension_substeps);
  }
  EXPECT_GT(extensions, 10);
  const ReplayedPath path = ReplayPlan(scene, plan);
  ASSERT_TRUE(path.trajectory.completed()) << path.trajectory.message;
  EXPECT_GT(plan.path.size(), 2u);
  EXPECT_LE(path.max_node_deviation, 1e-9);
}

TEST(ExtensionSubsteps, ZeroIsRefusedByName) {
  const ScenePtr scene = testing::LoadExample("planar_hand");
  PlanningSettings settings = *scene->planning;
  settings.extension_substeps = 0;
  try {
    PlanThroughContact(scene, PlanningFormulation(*scene, settings), settings);
    ADD_FAILURE() << "no error for extension_substeps 0";
  } catch (const std::invalid_argument& e) {
    EXPECT_EQ(std::string(e.what()).rfind("planning.extension_substeps: must be >= 1", 0), 0u)
        << e.what();
  }
}

}  // namespace
}  // namespace quasidyn
