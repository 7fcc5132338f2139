// The StepModel interface (step_model.h) of the quasi-dynamic models: one model shared by
// several data objects, the caller's mistakes that throw and their messages, the warm-start
// reset. What every formulation's model must do (allocation-free warm steps, failed steps that
// keep the state, the caller's mistakes, batches on threads, derivatives against finite
// differences) is the conformance suite's, over the registry (tests/conformance/).

#include <gtest/gtest.h>

#include <limits>
#include <memory>
#include <stdexcept>
#include <string>

#include "quasidyn/formulations/registry.h"
#include "quasidyn/scenes/scene_loading.h"
#include "quasidyn/testing/matrix_compare.h"
#include "quasidyn/testing/program_settings.h"
#include "quasidyn/testing/shared_scene.h"

namespace quasidyn {
namespace {

ScenePtr Example(const std::string& name) {
  return testing::Shared(
      LoadScene(std::string(QUASIDYN_SOURCE_DIR) + "/examples/" + name + "/scene.yaml"));
}

std::shared_ptr<const StepModel> StepModelModelOf(const ScenePtr& scene, std::string type) {
  testing::ProgramSettings settings = testing::SceneProgramSettings(*scene);
  settings.type = type;
  return MakeStepModel(scene, settings);
}

TEST(StepModel, TwoDataObjectsOfOneModelGiveTheSameStep) {
  const ScenePtr scene = Example("planar_hand");
  const auto model = StepModelModelOf(scene, "qp");
  const auto a = model->CreateData();
  const auto b = model->CreateData();
  const Eigen::VectorXd u = scene->CommandAt(scene->time_step);
  model->Calc(InitialState(*scene), u, a.get());
  model->Calc(InitialState(*scene), u, b.get());
  ASSERT_TRUE(a->result.ok()) << a->result.message;
  EXPECT_TRUE(testing::MatricesEqual(a->result.next.q, b->result.next.q));
}

TEST(StepModel, TheModelOutlivesWhatTheCallerDropped) {
  std::shared_ptr<const StepModel> model;
  {
    model = StepModelModelOf(Example("planar_hand"), "qp");  // the only owner of the scene
  }
  const auto data = model->CreateData();
  model->Calc(InitialState(model->scene()), model->scene().CommandAt(0.01), data.get());
  EXPECT_TRUE(data->result.ok()) << data->result.message;
}

TEST(StepModel, CallerMistakesThrowWithTheArgumentNamed) {
  const ScenePtr scene = Example("planar_hand");
  const auto model = StepModelModelOf(scene, "qp");
  const auto other = StepModelModelOf(scene, "qp");
  const auto data = model->CreateData();
  const auto others_data = other->CreateData();
  const Eigen::VectorXd u = scene->CommandAt(0.01);
  const State x = InitialState(*scene);
  const auto message_of = [](auto&& call) {
    try {
      call();
    } catch (const std::invalid_argument& e) {
      return std::string(e.what());
    }
    return std::string("no exception");
  };
  EXPECT_NE(
      message_of([&] { model->Calc(x, u, others_data.get()); }).find("not made by this model"),
      std::string::npos);
  EXPECT_NE(
      message_of([&] { model->CalcDiff(GradientMode::kBOnly, data.get()); }).find("call Calc"),
      std::string::npos);
  EXPECT_NE(message_of([&] {
              model->Calc(State{x.q.head(2), {}}, u, data.get());
            }).find("x.q has size 2, expected n_q"),
            std::string::npos);
  EXPECT_NE(message_of([&] {
              model->Calc(State{x.q, Eigen::VectorXd::Zero(3)}, u, data.get());
            }).find("x.v must be empty"),
            std::string::npos);
  Eigen::VectorXd bad_u = u;
  bad_u[0] = std::numeric_limits<double>::quiet_NaN();
  EXPECT_NE(message_of([&] { model->Calc(x, bad_u, data.get()); }).find("u[0] is not finite"),
            std::string::npos);
  EXPECT_THROW(model->Calc(x, u, nullptr), std::invalid_argument);
  testing::ProgramSettings bad = testing::SceneProgramSettings(*scene);
  bad.time_step = -0.01;
  EXPECT_NE(message_of([&] {
              MakeStepModel(scene, bad);
            }).find("time step h must lie within [1e-06, 10] s, got -0.01"),
            std::string::npos);
  EXPECT_THROW(MakeStepModel(nullptr, testing::SceneProgramSettings(*scene)),
               std::invalid_argument);
}

TEST(StepModel, TheLcpHasNoDerivativeAndSaysWhichModelHas) {
  const ScenePtr scene = Example("planar_hand");
  const auto model = StepModelModelOf(scene, "lcp");
  const auto data = model->CreateData();
  model->Calc(InitialState(*scene), scene->CommandAt(0.01), data.get());
  EXPECT_THROW(model->CalcDiff(GradientMode::kBOnly, data.get()), std::invalid_argument);
  model->CalcDiff(GradientMode::kNone, data.get());  // nothing to compute: allowed
  EXPECT_TRUE(data->derivatives.ok());
  EXPECT_FALSE(model->capabilities().differentiable());
  EXPECT_EQ(model->capabilities().exact_linearization, "qp");
}

// The next step may start from the data's own result (x aliases data->result.next).
TEST(StepModel, StepsFromItsOwnResult) {
  const ScenePtr scene = Example("planar_gripper");
  const auto model = StepModelModelOf(scene, "qp");
  const auto data = model->CreateData();
  const auto reference = model->CreateData();
  State x = InitialState(*scene);
  model->Calc(x, scene->CommandAt(0.01), data.get());
  model->Calc(x, scene->CommandAt(0.01), reference.get());
  x = reference->result.next;
  model->Calc(data->result.next, scene->CommandAt(0.02), data.get());
  model->Calc(x, scene->CommandAt(0.02), reference.get());
  EXPECT_TRUE(testing::MatricesEqual(data->result.next.q, reference->result.next.q));
}

// ClearWarmStart makes the next step a function of (x, u) alone: the log barrier started
// from a previous minimiser and started cold agree to its Newton tolerance, and two cleared
// data objects agree bit for bit.
TEST(StepModel, ClearedWarmStartsGiveTheSameBits) {
  const ScenePtr scene = Example("planar_hand");
  const auto model = StepModelModelOf(scene, "log-barrier");
  const auto warm = model->CreateData();
  const auto cold = model->CreateData();
  State x = InitialState(*scene);
  for (int k = 1; k <= 5; ++k) {  // warm has a previous minimiser from each step
    model->Calc(x, scene->CommandAt(k * 0.01), warm.get());
    x = warm->result.next;
  }
  const Eigen::VectorXd u = scene->CommandAt(0.06);
  model->ClearWarmStart(warm.get());
  model->Calc(x, u, warm.get());
  model->Calc(x, u, cold.get());
  EXPECT_TRUE(testing::MatricesEqual(warm->result.next.q, cold->result.next.q));
}

}  // namespace
}  // namespace quasidyn
