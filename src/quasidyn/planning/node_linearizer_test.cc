#include "quasidyn/planning/node_linearizer.h"

#include <gtest/gtest.h>

#include "quasidyn/formulations/registry.h"
#include "quasidyn/planning/rrt.h"
#include "quasidyn/stepping/randomized_smoothing.h"
#include "quasidyn/testing/example_states.h"
#include "quasidyn/testing/matrix_compare.h"
#include "quasidyn/testing/program_settings.h"

namespace quasidyn {
namespace {

// A planar_hand configuration with the fingers touching the ball (after the squeeze).
Eigen::VectorXd Touching(const ScenePtr& scene) {
  testing::ProgramSettings settings = testing::SceneProgramSettings(*scene);
  return testing::StateAfter(scene, settings, 60).q;
}

// Each method is the StepModel it names, at u = q_a: the same bits as stepping and
// differentiating that model directly (exact: the scene's QP; log-barrier: the pyramid barrier
// of weight κ; randomized: the bundled first-order smoothing of the QP).
TEST(NodeLinearizer, EachMethodIsTheModelItNames) {
  const ScenePtr scene = testing::LoadExample("planar_hand");
  const Eigen::VectorXd q = Touching(scene);
  const Eigen::VectorXd u = q.tail(scene->nq_a);
  PlanningSettings settings = *scene->planning;
  settings.kappa = 50.0;
  settings.samples = 6;
  const std::shared_ptr<const StepModel> stepping =
      MakeStepModel(scene, PlanningFormulation(*scene, settings));
  testing::ProgramSettings scene_settings = testing::SceneProgramSettings(*scene);
  scene_settings.time_step = stepping->time_step();  // the planning block's h
  for (const ReachabilityMethod method :
       {ReachabilityMethod::kExact, ReachabilityMethod::kLogBarrier,
        ReachabilityMethod::kRandomized}) {
    SCOPED_TRACE(ReachabilityMethodName(method));
    settings.method = method;
    NodeLinearizer linearizer(*stepping, settings, 2);
    const NodeLinearization got = linearizer.Linearize({q}, {17}).front();
    ASSERT_TRUE(got.ok()) << got.message;
    testing::ProgramSettings reference = scene_settings;
    reference.type = method == ReachabilityMethod::kLogBarrier ? "log-barrier" : "qp";
    reference.kappa = method == ReachabilityMethod::kLogBarrier ? 50.0 : scene_settings.kappa;
    BatchStepper batch(MakeStepModel(scene, reference), 1);
    if (method == ReachabilityMethod::kRandomized) {
      RandomizedSmoothingSettings smoothing;
      smoothing.samples = 6;
      smoothing.u_std = settings.sample_std;
      smoothing.seed = 17;
      const SmoothedLinearization s =
          FirstOrderSmoothing(&batch, q, u, GradientMode::kBOnly, smoothing);
      EXPECT_TRUE(testing::MatricesEqual(got.mu, s.q_next));
      EXPECT_TRUE(testing::MatricesEqual(got.B, s.B));
    } else {
      const StepEvaluation e = batch.Run({{State{q, {}}, u}}, GradientMode::kBOnly).front();
      EXPECT_TRUE(testing::MatricesEqual(got.mu, e.result.next.q));
      EXPECT_TRUE(testing::MatricesEqual(got.B, e.derivatives.B));
    }
  }
}

TEST(NodeLinearizer, TheLogBarrierSeesContactsTheExactGradientDoesNot) {
  // At q0 of planar_hand the fingertips are ~1 cm from the ball: the exact B has zero object
  // rows, the barrier's do not (the talk's reason to smooth the metric).
  const ScenePtr scene = testing::LoadExample("planar_hand");
  PlanningSettings settings = *scene->planning;
  const std::shared_ptr<const StepModel> stepping =
      MakeStepModel(scene, PlanningFormulation(*scene, settings));
  settings.method = ReachabilityMethod::kExact;
  NodeLinearizer exact(*stepping, settings, 1);
  settings.method = ReachabilityMethod::kLogBarrier;
  NodeLinearizer barrier(*stepping, settings, 1);
  const NodeLinearization e = exact.Linearize({scene->q0}, {0}).front();
  const NodeLinearization b = barrier.Linearize({scene->q0}, {0}).front();
  ASSERT_TRUE(e.ok() && b.ok());
  EXPECT_EQ(e.B.topRows(3).cwiseAbs().maxCoeff(), 0.0);
  EXPECT_GT(b.B.topRows(3).cwiseAbs().maxCoeff(), 1e-3);
}

}  // namespace
}  // namespace quasidyn
