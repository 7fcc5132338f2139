// The properties of the paper's examples (Halm & Posa 2018, §6) reproduced by
// examples/disk_pushing, examples/peg_in_hole and examples/pinch, each a rollout of its scene's
// schedule (the figures: the examples' *_figure(s) programs, docs/formulations.md).

#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "quasidyn/formulations/registry.h"
#include "quasidyn/scenes/scene_loading.h"
#include "quasidyn/simulation/rollout.h"
#include "quasidyn/testing/program_settings.h"

namespace quasidyn {
namespace {

ScenePtr HalmPosaExamplesExample(const std::string& path) {
  return std::make_shared<const Scene>(
      LoadScene(std::string(QUASIDYN_SOURCE_DIR) + "/examples/" + path));
}

Trajectory RunExample(const ScenePtr& scene, double c, std::string type = "halm-posa") {
  testing::ProgramSettings settings = testing::SceneProgramSettings(*scene);
  settings.type = type;
  settings.feedback_scale = c;
  RolloutOptions options;
  options.steps = StepCountForDuration(scene->ScheduleEnd(), settings.time_step);
  return Rollout(*MakeStepModel(scene, settings), options);
}

const Eigen::VectorXd& At(const Trajectory& t, double time) {
  const int k = static_cast<int>(std::lround(time / t.time_step));
  return k == 0 ? t.q0 : t.steps.at(k - 1).q;
}

// Fig. 3, top left: both fingers push the disk straight down; it keeps its line (the LCP's
// first contact picks one of several solutions, which turns it by 4e-3 rad: §7, non-uniqueness).
TEST(HalmPosaExamples, SymmetricPushCarriesTheDiskStraightDown) {
  const Trajectory run =
      RunExample(HalmPosaExamplesExample("disk_pushing/symmetric_push.yaml"), 0.01);
  ASSERT_TRUE(run.completed()) << run.message;
  const Eigen::VectorXd& q = run.FinalConfiguration();
  EXPECT_LT(q[1], -5.5);  // from y = 3: 8.8 m of the fingers' 10 m after contact at 1.15 s
  EXPECT_LT(std::abs(q[0]), 1e-3);
  EXPECT_LT(std::abs(q[2]), 1e-2);
  for (int f = 0; f < 2; ++f)  // both fingertips (radius 1e-4 m) still on the rim
    EXPECT_NEAR((q.segment<2>(3 + 2 * f) - q.head<2>()).norm(), 1.0001, 1e-3);
}

TEST(HalmPosaExamples, AsymmetricPushTurnsTheDisk) {
  const Trajectory run =
      RunExample(HalmPosaExamplesExample("disk_pushing/asymmetric_push.yaml"), 0.0);
  ASSERT_TRUE(run.completed()) << run.message;
  const Eigen::VectorXd& q = run.FinalConfiguration();
  EXPECT_LT(q[2], -0.5);  // the faster finger 1 (x > 0) turns it clockwise
  EXPECT_LT(q[1], -3.5);
}

// Fig. 3, top right: at high gain the disk follows the half circle to (5, √3) turned by π; at low
// gain the fingers slide off its sides and leave it behind (§6.1).
TEST(HalmPosaExamples, SemicircularPushFollowsAtHighGainAndFallsBehindAtLowGain) {
  const ScenePtr scene = HalmPosaExamplesExample("disk_pushing/scene.yaml");
  const Trajectory perfect = RunExample(scene, 0.0);
  ASSERT_TRUE(perfect.completed()) << perfect.message;
  const Eigen::VectorXd& q = perfect.FinalConfiguration();
  EXPECT_NEAR(q[0], 5.0, 0.05);
  EXPECT_NEAR(q[1], std::sqrt(3.0), 0.05);
  EXPECT_NEAR(q[2], M_PI, 0.05);
  const Trajectory low_gain = RunExample(scene, 0.5);
  ASSERT_TRUE(low_gain.completed()) << low_gain.message;
  EXPECT_LT(low_gain.FinalConfiguration()[0], 0.0);
}

// Fig. 4, top: perfect velocity control stops at the first squeeze against the wall (no
// solution, state kept); finite feedback rolls the disk along the wall (Δx = −r Δθ, r = 1 m).
TEST(HalmPosaExamples, WallPushStopsUnderPerfectVelocityControlAndRollsOnWithFeedback) {
  const ScenePtr scene = HalmPosaExamplesExample("disk_pushing/wall_push.yaml");
  const Trajectory perfect = RunExample(scene, 0.0);
  EXPECT_FALSE(perfect.completed());
  EXPECT_EQ(perfect.status, SolverStatus::kInfeasible);
  EXPECT_EQ(perfect.steps.size(), 93u);  // step 94, t = 2.35 s, is the first squeeze
  EXPECT_NE(perfect.message.find("disk/rim"), std::string::npos) << perfect.message;
  EXPECT_NEAR(perfect.FinalConfiguration()[1], 1.0, 0.05);  // on the wall
  const Trajectory finite = RunExample(scene, 0.01);
  ASSERT_TRUE(finite.completed()) << finite.message;
  const Eigen::VectorXd& a = At(finite, 2.5);
  const Eigen::VectorXd& b = At(finite, 6.0);
  for (double t = 2.5; t <= 6.0; t += 0.5) EXPECT_NEAR(At(finite, t)[1], 1.0, 1e-3) << t;
  EXPECT_GT(b[0] - a[0], 1.5);
  EXPECT_NEAR(b[0] - a[0], -(b[2] - a[2]), 0.05);  // rolling without slipping
}

// Fig. 3, bottom (Theorem 4): e_n = ‖q_o(10 s; c_n) − q_o(10 s; 0)‖ falls in proportion to c_n
// at high gain: the least-squares slope of log₂ e_n on log₂ c_n for c_n = 2⁻⁶ … 2⁻¹⁴ is 1.00
// (symmetric), 1.00 (asymmetric) and 1.10 (semicircular push).
TEST(HalmPosaExamples, FinalPoseConvergesLinearlyInTheFeedbackScale) {
  for (const std::string file : {"symmetric_push.yaml", "asymmetric_push.yaml", "scene.yaml"}) {
    SCOPED_TRACE(file);
    const ScenePtr scene = HalmPosaExamplesExample("disk_pushing/" + file);
    const Trajectory perfect = RunExample(scene, 0.0);
    ASSERT_TRUE(perfect.completed());
    std::vector<double> x, y;
    for (int n = 10; n <= 18; ++n) {
      const double c = std::pow(2.0, 4 - n);
      const Trajectory run = RunExample(scene, c);
      ASSERT_TRUE(run.completed()) << run.message;
      const double e =
          (run.FinalConfiguration().head<3>() - perfect.FinalConfiguration().head<3>()).norm();
      if (!y.empty()) {
        EXPECT_LT(std::log2(e), y.back()) << "n = " << n;
      }
      x.push_back(std::log2(c));
      y.push_back(std::log2(e));
    }
    double mx = 0, my = 0, sxy = 0, sxx = 0;
    for (size_t i = 0; i < x.size(); ++i) mx += x[i] / x.size(), my += y[i] / x.size();
    for (size_t i = 0; i < x.size(); ++i)
      sxy += (x[i] - mx) * (y[i] - my), sxx += (x[i] - mx) * (x[i] - mx);
    EXPECT_NEAR(sxy / sxx, 1.0, 0.15);
  }
}

// Fig. 4, bottom: grasp, the first attempt jams on the slot's corner, reorientation about it,
// insertion with 1 % clearance.
TEST(HalmPosaExamples, PegJamsOnTheCornerThenIsReorientedAndInserted) {
  const Trajectory run = RunExample(HalmPosaExamplesExample("peg_in_hole/scene.yaml"), 0.01);
  ASSERT_TRUE(run.completed()) << run.message;
  // The jam: tilted by more than 0.4 rad, held on the slot's right block above the slot.
  bool jammed = false;
  for (const TrajectoryStep& s : run.steps) {
    if (s.t < 3.5 || s.t > 4.1) continue;
    for (const ContactRecord& c : s.contacts)
      jammed |= c.body_a == "peg" && c.shape_b == "world/slot_right" && c.normal_force > 5 &&
                s.q[2] < -0.4 && s.q[1] > 2.7;
  }
  EXPECT_TRUE(jammed);
  const Eigen::VectorXd& reoriented = At(run, 5.5);
  EXPECT_NEAR(reoriented[2], 0.0, 0.03);
  const Eigen::VectorXd& q = run.FinalConfiguration();
  EXPECT_LT(q[1], -2.8);  // the peg's top 0.1 m below the slot's rim
  EXPECT_LT(std::abs(q[0]), 0.02);
  EXPECT_LT(std::abs(q[2]), 0.01);
  for (const TrajectoryStep& s : run.steps)
    for (const ContactRecord& c : s.contacts) EXPECT_GT(c.phi_end, -1e-3) << s.t;
}

// §6.3, Fig. 5: the unbalanced pinch moves the square in +y and turns it, under halm-posa and
// under the quasi-dynamic QP (quasidyn's stand-in for the paper's second-order comparison).
TEST(HalmPosaExamples, PinchMovesAndTurnsTheSquareAsTheQuasiDynamicModelDoes) {
  const ScenePtr scene = HalmPosaExamplesExample("pinch/scene.yaml");
  const Trajectory halm_posa = RunExample(scene, 0.05);
  const Trajectory qp = RunExample(scene, 0.05, "qp");
  ASSERT_TRUE(halm_posa.completed()) << halm_posa.message;
  ASSERT_TRUE(qp.completed()) << qp.message;
  for (const Trajectory* run : {&halm_posa, &qp}) {
    EXPECT_GT(run->FinalConfiguration()[1], 0.03);
    EXPECT_GT(run->FinalConfiguration()[2], 0.9);
  }
  EXPECT_NEAR(halm_posa.FinalConfiguration()[2], qp.FinalConfiguration()[2], 0.3);
}

}  // namespace
}  // namespace quasidyn
