// A formulation registered from this folder alone (penalty_formulation.h) runs through the
// library and the command line as the built-in ten do: the scene loader checks its parameter,
// `quasidyn formulations` lists it, and simulate, linearize, compare (the command line) and
// Rollout (the C++ API) step it, with no file outside tests/plugin/ naming it.

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "cli.h"
#include "penalty_formulation.h"
#include "quasidyn/formulations/registry.h"
#include "quasidyn/linearization/linearizer.h"
#include "quasidyn/model/scene_error.h"
#include "quasidyn/scenes/scene_loading.h"
#include "quasidyn/simulation/rollout.h"
#include "quasidyn/simulation/trajectory_file.h"
#include "quasidyn/testing/scratch_files.h"

namespace quasidyn::plugin_test {
namespace {

class PenaltyPlugin : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    if (FormulationRegistry::Global().Find("penalty") == nullptr)
      RegisterFormulation(PenaltyFormulation());
  }
  void SetUp() override {
    scene_path_ = (folder_ / "penalty_push.yaml").string();
    std::ofstream(scene_path_) << kPenaltyPushScene;
  }
  // Runs the command line with `args` (after the program name); its exit code, stdout in *out.
  int Cli(std::vector<std::string> args, std::string* out = nullptr) {
    args.insert(args.begin(), "quasidyn");
    std::vector<char*> argv;
    for (std::string& a : args) argv.push_back(a.data());
    ::testing::internal::CaptureStdout();
    const int code = cli::RunCommandLine(static_cast<int>(argv.size()), argv.data());
    const std::string printed = ::testing::internal::GetCapturedStdout();
    if (out != nullptr) *out = printed;
    return code;
  }

  // A folder of this test's own (mkdtemp: tests run in parallel), removed at the end.
  testing::ScratchDirectory folder_;
  std::string scene_path_;
};

TEST_F(PenaltyPlugin, IsListedAndItsParameterIsCheckedWhereTheSceneGivesIt) {
  std::string listing;
  ASSERT_EQ(Cli({"formulations"}, &listing), 0);
  EXPECT_NE(listing.find("penalty_stiffness [N/m], > 0, default 1e4"), std::string::npos)
      << listing;
  std::string bad = kPenaltyPushScene;
  bad.replace(bad.find("penalty_stiffness: 20000"), 24, "penalty_stiffness: -5");
  try {
    LoadSceneFromString(bad, "bad.yaml", "");
    ADD_FAILURE() << "a negative stiffness loaded";
  } catch (const SceneError& e) {
    EXPECT_EQ(e.line(), 5);
    EXPECT_EQ(e.field(), "formulation.penalty_stiffness");
  }
}

// The springs settle the box on the table at the penetration that carries its weight: n
// springs (the box's corners on the table) of stiffness k each hold m|g| at φ = −m|g|/(n k),
// the closed form of the formulation (its robot still away, before the push).
TEST_F(PenaltyPlugin, RestsAtThePenetrationThatCarriesTheWeight) {
  const ScenePtr scene = std::make_shared<const Scene>(LoadScene(scene_path_));
  const std::shared_ptr<const StepModel> model = MakeStepModel(scene);
  EXPECT_EQ(model->formulation().name, "penalty");
  RolloutOptions options;
  options.steps = 20;  // 0.2 s, before the tip reaches the box
  options.gradients = GradientMode::kBOnly;
  const Trajectory t = Rollout(*model, options);
  ASSERT_TRUE(t.completed()) << t.message;
  const double box_bottom = t.FinalConfiguration()[1] - 0.05;
  double springs = 0;  // the contacts that push (found penetrating)
  for (const ContactRecord& c : t.steps.back().contacts) springs += c.phi_start < 0;
  ASSERT_EQ(springs, 2.0);  // the two corners of the box's lower face
  const double k = 20000.0, weight = 1.0 * 9.81;
  EXPECT_NEAR(box_bottom, -weight / (springs * k), 1e-3 * weight / (springs * k));
  EXPECT_EQ(t.steps.back().B.rows(), scene->nq);  // the plug-in's own derivative, recorded
}

TEST_F(PenaltyPlugin, SimulatesLinearizesAndComparesThroughTheCommandLine) {
  const std::string trajectory = (folder_ / "run.json").string();
  ASSERT_EQ(Cli({"simulate", scene_path_, "--out", trajectory, "--quiet"}), 0);
  const Trajectory run = ReadTrajectory(trajectory);
  EXPECT_EQ(run.formulation, "penalty");
  ASSERT_NE(run.parameters.Find("penalty_stiffness"), nullptr);
  EXPECT_EQ(run.parameters.Find("penalty_stiffness")->value(0, 0), 20000.0);
  EXPECT_GT(run.FinalConfiguration()[0], 0.05);  // the box was pushed

  std::string printed;
  ASSERT_EQ(Cli({"linearize", scene_path_, "--step", "40", "--json"}, &printed), 0);
  const nlohmann::json j = nlohmann::json::parse(printed);
  EXPECT_EQ(j["formulation"], "penalty");
  ASSERT_EQ(j["B"].size(), 5u);
  // The same B as the library's lineariser at that state.
  const ScenePtr scene = std::make_shared<const Scene>(LoadScene(scene_path_));
  Linearizer linearizer(scene, FormulationChoice(), LinearizationOptions());
  const std::vector<double> q = j["q"], u = j["u"];
  const Linearization l = linearizer.Linearize(
      State{Eigen::Map<const Eigen::VectorXd>(q.data(), q.size()), Eigen::VectorXd()},
      Eigen::Map<const Eigen::VectorXd>(u.data(), u.size()));
  ASSERT_TRUE(l.ok()) << l.message;
  for (int r = 0; r < 5; ++r)
    for (int c = 0; c < 2; ++c) EXPECT_EQ(j["B"][r][c].get<double>(), l.B(r, c));
  EXPECT_GT(l.B.col(0).head(3).cwiseAbs().maxCoeff(), 0.0);  // the push moves the box

  ASSERT_EQ(Cli({"compare", scene_path_, "--formulations", "penalty,qp", "--steps", "60",
                 "--reference-refinement", "2", "--quiet"},
                &printed),
            0);
  EXPECT_NE(printed.find("penalty"), std::string::npos) << printed;
  EXPECT_NE(printed.find("completed"), std::string::npos) << printed;
}

}  // namespace
}  // namespace quasidyn::plugin_test
