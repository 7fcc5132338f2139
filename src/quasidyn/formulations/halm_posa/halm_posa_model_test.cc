// The halm-posa step model (halm_posa_model.h) behind the StepModel interface: its command from
// the schedule, the caller's mistakes and the scenes it refuses, a step without solution,
// warm starts, no allocation after warm-up, and CalcDiff against central finite differences.

#include "quasidyn/formulations/halm_posa/halm_posa_model.h"

#include <gtest/gtest.h>

#include <fstream>
#include <memory>
#include <sstream>
#include <string>

#include "quasidyn/formulations/registry.h"
#include "quasidyn/gradients/finite_difference.h"
#include "quasidyn/scenes/scene_loading.h"
#include "quasidyn/testing/malloc_counter.h"
#include "quasidyn/testing/matrix_compare.h"
#include "quasidyn/testing/program_settings.h"

namespace quasidyn {
namespace {

ScenePtr HalmPosaModelDiskScene(const std::string& file) {
  return std::make_shared<const Scene>(
      LoadScene(std::string(QUASIDYN_SOURCE_DIR) + "/examples/disk_pushing/" + file));
}

std::shared_ptr<const StepModel> ModelOf(const ScenePtr& scene, double c) {
  testing::ProgramSettings settings = testing::SceneProgramSettings(*scene);
  settings.feedback_scale = c;
  return MakeStepModel(scene, settings);
}

// The state after `steps` scheduled steps, and the command of the next one.
struct StateAndCommand {
  Eigen::VectorXd q, u;
};
StateAndCommand After(const StepModel& model, int steps) {
  const std::unique_ptr<StepData> data = model.CreateData();
  State x = InitialState(model.scene());
  for (int k = 1; k <= steps; ++k) {
    model.Calc(x, model.ScheduledCommand(k * model.time_step(), x), data.get());
    EXPECT_TRUE(data->result.ok()) << data->result.message;
    x = data->result.next;
  }
  return {x.q, model.ScheduledCommand((steps + 1) * model.time_step(), x)};
}

std::string MessageOf(const std::function<void()>& call) {
  try {
    call();
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "no exception";
}

TEST(HalmPosaModel, ScheduleBecomesTheVelocityThatAFreeRobotFollowsExactly) {
  const ScenePtr scene = HalmPosaModelDiskScene("scene.yaml");
  const auto model = ModelOf(scene, 0.01);
  const double h = model->time_step();
  EXPECT_TRUE(testing::MatricesNear(model->ScheduledCommand(0.35, InitialState(*scene)),
                                    (scene->CommandAt(0.35) - scene->CommandAt(0.35 - h)) / h,
                                    1e-12));
  // Without the disk's resistance (fingers only: the disk filtered out by moving it away) the
  // fingers are at q̄_a(t_k) after every step, to rounding.
  Scene free_scene = *scene;
  free_scene.q0.head<3>() << 100, 100, 0;
  const auto free_model = ModelOf(std::make_shared<const Scene>(free_scene), 0.01);
  const std::unique_ptr<StepData> data = free_model->CreateData();
  State x = InitialState(free_scene);
  for (int k = 1; k <= 100; ++k) {
    free_model->Calc(x, free_model->ScheduledCommand(k * h, x), data.get());
    ASSERT_TRUE(data->result.ok());
    x = data->result.next;
    ASSERT_TRUE(testing::MatricesNear(x.q.tail(4), free_scene.CommandAt(k * h), 1e-12)) << k;
  }
}

TEST(HalmPosaModel, SqueezeWithoutSolutionAtPerfectVelocityControlKeepsTheState) {
  const ScenePtr scene = HalmPosaModelDiskScene("wall_push.yaml");
  const auto perfect = ModelOf(scene, 0.0);
  // The first squeeze of the disk against the wall comes at step 94 (t = 2.35 s).
  const StateAndCommand s = After(*perfect, 93);
  const std::unique_ptr<StepData> data = perfect->CreateData();
  perfect->Calc(State{s.q, {}}, s.u, data.get());
  EXPECT_EQ(data->result.status, SolverStatus::kInfeasible);
  EXPECT_EQ(data->result.next.q, s.q);
  EXPECT_EQ(data->result.velocity, Eigen::VectorXd::Zero(7));
  const std::string& message = data->result.message;
  EXPECT_NE(message.find("secondary ray"), std::string::npos) << message;
  EXPECT_NE(message.find("c = 0 is perfect velocity control"), std::string::npos) << message;
  EXPECT_NE(message.find("most violated: contact 1 (finger1/tip/0 / disk/rim"), std::string::npos)
      << message;
  perfect->CalcDiff(GradientMode::kAAndB, data.get());
  EXPECT_EQ(data->derivatives.status, SolverStatus::kInfeasible);
  // Finite feedback solves the same step.
  const auto finite = ModelOf(scene, 0.01);
  const std::unique_ptr<StepData> finite_data = finite->CreateData();
  finite->Calc(State{s.q, {}}, s.u, finite_data.get());
  EXPECT_TRUE(finite_data->result.ok()) << finite_data->result.message;
}

TEST(HalmPosaModel, RefusesScenesAndSettingsItDoesNotModel) {
  const ScenePtr disk = HalmPosaModelDiskScene("symmetric_push.yaml");
  testing::ProgramSettings settings = testing::SceneProgramSettings(*disk);
  settings.feedback_scale = -1;
  EXPECT_NE(MessageOf([&] { MakeStepModel(disk, settings); }).find("feedback scaling c"),
            std::string::npos);
  settings = testing::SceneProgramSettings(*disk);
  settings.feedback_gains = Eigen::Vector3d(1, 1, 1);
  EXPECT_NE(MessageOf([&] {
              MakeStepModel(disk, settings);
            }).find("formulation.B: B has 3 diagonal entries; the scene has 4"),
            std::string::npos);
  settings.feedback_gains = -Eigen::MatrixXd::Identity(4, 4);
  EXPECT_NE(MessageOf([&] { MakeStepModel(disk, settings); }).find("positive definite"),
            std::string::npos);
  // A vertical-plane scene (gravity in the plane) and a 3D scene.
  const ScenePtr gripper = std::make_shared<const Scene>(
      LoadScene(std::string(QUASIDYN_SOURCE_DIR) + "/examples/planar_gripper/scene.yaml"));
  settings = testing::SceneProgramSettings(*gripper);
  settings.type = "halm-posa";
  EXPECT_NE(MessageOf([&] { MakeStepModel(gripper, settings); }).find("gravity: halm-posa"),
            std::string::npos);
  Scene three_d = *disk;
  three_d.planar = false;
  EXPECT_NE(MessageOf([&] {
              MakeStepModel(std::make_shared<const Scene>(three_d),
                            testing::SceneProgramSettings(*disk));
            }).find("formulation.type: halm-posa is a planar model"),
            std::string::npos);
  // The caller's mistakes of Calc.
  const auto model = ModelOf(disk, 0.01);
  const auto data = model->CreateData();
  EXPECT_NE(MessageOf([&] {
              model->Calc(InitialState(*disk), Eigen::VectorXd(3), data.get());
            }).find("u has size 3"),
            std::string::npos);
  EXPECT_NE(MessageOf([&] {
              model->CalcDiff(GradientMode::kBOnly, data.get());
            }).find("call Calc on this data first"),
            std::string::npos);
  // Its registration: its own derivative, no log-barrier smoothing.
  EXPECT_TRUE(model->capabilities().differentiable());
  EXPECT_EQ(model->capabilities().exact_linearization, "halm-posa");
  EXPECT_TRUE(model->capabilities().smoothed_linearization.empty());
}

TEST(HalmPosaModel, WarmStartDoesNotChangeTheStepsAndCalcDoesNotAllocate) {
  const ScenePtr scene = HalmPosaModelDiskScene("asymmetric_push.yaml");
  const auto model = ModelOf(scene, 0.01);
  const auto warm = model->CreateData();
  const auto cold = model->CreateData();
  State x = InitialState(*scene);
  int warm_hits = 0;
  for (int k = 1; k <= 400; ++k) {
    const Eigen::VectorXd u = model->ScheduledCommand(k * model->time_step(), x);
    model->Calc(x, u, warm.get());
    model->ClearWarmStart(cold.get());
    model->Calc(x, u, cold.get());
    ASSERT_TRUE(warm->result.ok() && cold->result.ok()) << k;
    // The same solution to Lemke's accuracy (1e-10 of the LCP's scale, here ~1 m).
    ASSERT_TRUE(testing::MatricesNear(warm->result.next.q, cold->result.next.q, 1e-9)) << k;
    warm_hits += static_cast<const HalmPosaData&>(*warm).warm_started();
    x = warm->result.next;
  }
  EXPECT_GT(warm_hits, 300);  // of 400: every step whose contacts keep their mode
  if (!testing::MallocCountingAvailable()) GTEST_SKIP() << "allocation counting is off";
  // Mid-push: each step counted after a step with the same contacts (as step_model_test.cc).
  const auto data = model->CreateData();
  x = InitialState(*scene);
  for (int k = 1; k <= 200; ++k) {
    const Eigen::VectorXd u = model->ScheduledCommand(k * model->time_step(), x);
    model->Calc(x, u, data.get());
    if (k > 150) {
      testing::MallocCounter counter;
      model->Calc(x, u, data.get());
      EXPECT_EQ(counter.count(), 0) << "step " << k;
    }
    x = data->result.next;
  }
}

// Exact A and B (gradients/halm_posa_gradient.h) against central differences of the step. The
// step is an LCP solved to rounding (1e-15 relative), so the FD error is ≈ 1e-15/6e-6 ≈ 2e-10
// plus the truncation O(δ²) ≈ 4e-11, and the data contractions' own differences ≈ 1e-10;
// 1e-6 relative leaves a margin while an omitted term (∂J/∂q, ∂A/∂θ, ∂φ/∂q) changes entries by
// O(0.01 – 1).
constexpr double kFdTolerance = 1e-6;

struct DiffCase {
  std::string file;
  int steps;
  int min_active;            // active LCP variables at that state
  bool anisotropic = false;  // the disk's A = Ã (below) instead of I3, so that ∂A/∂θ ≠ 0
};

// The disk scene `file`, its limit surface anisotropic and off its centre when asked.
ScenePtr DiffScene(const DiffCase& c) {
  if (!c.anisotropic) return HalmPosaModelDiskScene(c.file);
  std::ifstream file(std::string(QUASIDYN_SOURCE_DIR) + "/examples/disk_pushing/" + c.file);
  std::stringstream text;
  text << file.rdbuf();
  std::string yaml = text.str();
  const std::string isotropic = "limit_surface: {principal: [1, 1, 1]}";
  yaml.replace(yaml.find(isotropic), isotropic.size(),
               "limit_surface: {matrix: [[2, 0.3, 0.2], [0.3, 1, -0.1], [0.2, -0.1, 1.5]]}");
  return std::make_shared<const Scene>(LoadSceneFromString(yaml, c.file, ""));
}

void PrintTo(const DiffCase& c, std::ostream* out) { *out << c.file << " after " << c.steps; }

class HalmPosaCalcDiff : public ::testing::TestWithParam<DiffCase> {};

TEST_P(HalmPosaCalcDiff, MatchesFiniteDifferences) {
  const DiffCase& c = GetParam();
  const ScenePtr scene = DiffScene(c);
  const auto model = ModelOf(scene, 0.05);
  const StateAndCommand s = After(*model, c.steps);
  const auto data = model->CreateData();
  model->Calc(State{s.q, {}}, s.u, data.get());
  ASSERT_TRUE(data->result.ok()) << data->result.message;
  model->CalcDiff(GradientMode::kAAndB, data.get());
  const StepDerivatives& d = data->derivatives;
  ASSERT_TRUE(d.ok()) << d.message;
  EXPECT_GE(d.active_rows, c.min_active);
  const auto reference = model->CreateData();
  const StepFunction step = [&](const Eigen::VectorXd& q, const Eigen::VectorXd& u) {
    model->ClearWarmStart(reference.get());
    model->Calc(State{q, {}}, u, reference.get());
    return reference->result.ok()
               ? reference->result.next.q
               : Eigen::VectorXd::Constant(q.size(), std::numeric_limits<double>::quiet_NaN());
  };
  const Eigen::MatrixXd B = FiniteDifferenceB(step, s.q, s.u);
  const Eigen::MatrixXd A = FiniteDifferenceA(*scene, step, s.q, s.u);
  EXPECT_LT(testing::RelativeError(d.B, B), kFdTolerance) << "B\n" << d.B << "\nFD\n" << B;
  EXPECT_LT(testing::RelativeError(d.A, A), kFdTolerance) << "A\n" << d.A << "\nFD\n" << A;
  // B alone: the same B, no A.
  model->CalcDiff(GradientMode::kBOnly, data.get());
  EXPECT_EQ(data->derivatives.A.size(), 0);
  EXPECT_TRUE(testing::MatricesNear(data->derivatives.B, d.B, 0.0));
}

INSTANTIATE_TEST_SUITE_P(
    DiskPushes, HalmPosaCalcDiff,
    ::testing::Values(DiffCase{"symmetric_push.yaml", 20, 0},    // before contact: A = I
                      DiffCase{"symmetric_push.yaml", 150, 2},   // both fingers pushing
                      DiffCase{"asymmetric_push.yaml", 150, 2},  // lopsided, turning
                      DiffCase{"scene.yaml", 200, 2},            // along the half circle
                      DiffCase{"wall_push.yaml", 120, 3},        // squeezed against the wall
                      DiffCase{"asymmetric_push.yaml", 150, 2, true}),

    [](const ::testing::TestParamInfo<DiffCase>& case_info) {
      std::string name = case_info.param.file.substr(0, case_info.param.file.find('.'));
      if (name == "scene") name = "semicircular_push";
      return name + "_" + std::to_string(case_info.param.steps) +
             (case_info.param.anisotropic ? "_anisotropic" : "");
    });

}  // namespace
}  // namespace quasidyn
