// TrackingSettings::velocity_feedforward (plan_tracking.h): a second-order plant's robot, an
// impedance damped toward rest, trails a command moving at a constant rate; with the feed-forward
// it tracks it. Checked on a pusher in free space against an independent scalar recurrence of
// the same implicit Euler step (second_order_cost.h): (m + hD + h²K) v⁺ = m v + hK (c − x),
// x⁺ = x + h v⁺, for the commands c TrackPlan sends.

#include <gtest/gtest.h>

#include <cmath>
#include <stdexcept>
#include <string>
#include <vector>

#include "quasidyn/control/plan_tracking.h"
#include "quasidyn/formulations/registry.h"
#include "quasidyn/scenes/scene_loading.h"
#include "quasidyn/testing/pusher_box_scene.h"

namespace quasidyn {
namespace {

// The pusher (0.1 kg on a prismatic x joint, K = 100 N/m, critical damping D = 2√(K m)) a metre
// from the box (testing/pusher_box_scene.h): nothing touches during the run.
const std::string kFreePusher = testing::PusherBoxYaml("free_pusher", 1.0, 0.0);

constexpr double kMass = 0.1, kStiffness = 100.0, kControlStep = 0.1;
constexpr int kSubsteps = 10, kSteps = 20;
constexpr double kRate = 0.05;  // u̇ [m/s]: the command moves 5 mm per control step
// The interior point's tolerance (solvers/socp.h, 1e-9) on velocities of order kRate, summed over
// kSteps · kSubsteps plant steps of h/n: positions agree to well below 1e-8 m.
constexpr double kSolverTolerance = 1e-8;

struct PusherRun {
  std::vector<double> pusher;  // x at the end of each control step [m]
};

// The plan's commands u_t = (t + 1) u̇ h_c; its configurations are not used open loop.
PusherRun TrackedOnThePlant(bool feedforward) {
  const ScenePtr scene =
      std::make_shared<const Scene>(LoadSceneFromString(kFreePusher, "scene.yaml", "."));
  const std::shared_ptr<const StepModel> plant =
      MakeStepModel(scene, FormulationChoice("anitescu-cone", {}, kControlStep / kSubsteps));
  std::vector<Eigen::VectorXd> q_ref(kSteps + 1, scene->q0), u_ref;
  for (int t = 0; t < kSteps; ++t)
    u_ref.push_back(Eigen::VectorXd::Constant(1, (t + 1) * kRate * kControlStep));
  TrackingSettings settings;
  settings.velocity_feedforward = feedforward;
  const TrackingResult result =
      TrackPlan(*plant, kSubsteps, scene->q0, q_ref, u_ref, nullptr, settings);
  EXPECT_TRUE(result.message.empty()) << result.message;
  PusherRun run;
  for (int t = 1; t <= kSteps; ++t) run.pusher.push_back(result.q[t](scene->nq_u));
  return run;
}

// The same commands through the scalar implicit Euler step: substep j of control step t is
// commanded a + (j/n)(u_t − a) (+ D/K (u_t − a)/h_c with the feed-forward), a where the pusher
// is at the step's start.
PusherRun ScalarRecurrence(bool feedforward) {
  const double h = kControlStep / kSubsteps, damping = 2.0 * std::sqrt(kStiffness * kMass);
  double x = 0.0, v = 0.0;
  PusherRun run;
  for (int t = 0; t < kSteps; ++t) {
    const double u = (t + 1) * kRate * kControlStep, a = x;
    const double lead = feedforward ? damping / kStiffness * (u - a) / kControlStep : 0.0;
    for (int j = 1; j <= kSubsteps; ++j) {
      const double c = a + static_cast<double>(j) / kSubsteps * (u - a) + lead;
      v = (kMass * v + h * kStiffness * (c - x)) / (kMass + h * damping + h * h * kStiffness);
      x += h * v;
    }
    run.pusher.push_back(x);
  }
  return run;
}

TEST(VelocityFeedforward, ThePlantStepsAsTheScalarRecurrence) {
  for (const bool feedforward : {false, true}) {
    SCOPED_TRACE(feedforward ? "feed-forward" : "damped toward rest");
    const PusherRun plant = TrackedOnThePlant(feedforward), scalar = ScalarRecurrence(feedforward);
    for (int t = 0; t < kSteps; ++t)
      EXPECT_NEAR(plant.pusher[t], scalar.pusher[t], kSolverTolerance) << "control step " << t + 1;
  }
}

// Without it the pusher ends a control step a large share of the command's step behind (the
// ramp restarts from where the pusher is, so the lag is not D u̇ / K exactly); with it the lag
// decays to the solver's tolerance once the start's transient (e^(−t D/2m), D/2m = 31.6 1/s)
// has passed.
TEST(VelocityFeedforward, TheRobotKeepsUpWithARampingCommand) {
  const PusherRun damped = TrackedOnThePlant(false), fed = TrackedOnThePlant(true);
  const double last_command = kSteps * kRate * kControlStep, step = kRate * kControlStep;
  EXPECT_GT(last_command - damped.pusher.back(), 0.1 * step);
  EXPECT_NEAR(fed.pusher.back(), last_command, kSolverTolerance);
}

TEST(VelocityFeedforward, RefusedForAPlantWithoutVelocity) {
  const ScenePtr scene =
      std::make_shared<const Scene>(LoadSceneFromString(kFreePusher, "scene.yaml", "."));
  const std::shared_ptr<const StepModel> plant = MakeStepModel(scene, FormulationChoice("qp"));
  TrackingSettings settings;
  settings.velocity_feedforward = true;
  const std::vector<Eigen::VectorXd> q_ref(2, scene->q0), u_ref(1, Eigen::VectorXd::Zero(1));
  try {
    TrackPlan(*plant, 1, scene->q0, q_ref, u_ref, nullptr, settings);
    FAIL() << "expected an error";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("velocity_feedforward"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("'qp'"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace quasidyn
