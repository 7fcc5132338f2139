// Joint limits in every formulation's step (dynamics/joint_limit_rows.h): a command past a
// limit holds the joint at it, with the multiplier of the closed form, and the gradients of
// the step (the limit row a constraint row of the implicit differentiation) match central
// finite differences of the step on both sides of the limit; the second-order steps take the
// same rows.

#include <gtest/gtest.h>

#include <cmath>
#include <memory>
#include <string>
#include <vector>

#include "quasidyn/dynamics/joint_limit_rows.h"
#include "quasidyn/formulations/registry.h"
#include "quasidyn/scenes/scene_loading.h"
#include "quasidyn/testing/gradient_checks.h"
#include "quasidyn/testing/program_settings.h"
#include "quasidyn/testing/registered_formulations.h"
#include "quasidyn/testing/shared_scene.h"
#include "quasidyn/testing/stepper.h"

namespace quasidyn {
namespace {

constexpr double kH = 0.01;           // [s]
constexpr double kK = 100.0;          // [N/m and N·m/rad]
constexpr double kUpperX = 0.1;       // [m]
constexpr double kLowerTheta = -0.5;  // [rad]
constexpr double kKappa = 1e4;        // [1/(N·m)]

// A free robot (no contact, no gravity: also a halm-posa scene): a prismatic x in
// [-0.1, 0.1] m, then a revolute θ in [-0.5, 0.5] rad carrying a sphere. K = 100 on both.
Scene FreeArm() {
  return LoadSceneFromString(
      "name: free_arm\ndimension: 2\ngravity: [0, 0, 0]\ntime_step: 0.01\n"
      "formulation: {type: qp}\n"
      "robots:\n  - name: arm\n    bodies:\n"
      "      - {name: slider, mass: 1.0, inertia: {principal: [0.01, 0.01, 0.01]}}\n"
      "      - {name: link, mass: 1.0, inertia: from_shapes,\n"
      "         shapes: [{type: sphere, radius: 0.05, pose: {x: 0.2}, friction: 0.5}]}\n"
      "    joints:\n"
      "      - {name: x, type: prismatic, parent: world, child: slider, axis: [1, 0, 0],\n"
      "         limits: [-0.1, 0.1]}\n"
      "      - {name: theta, type: revolute, parent: slider, child: link, axis: [0, 0, 1],\n"
      "         limits: [-0.5, 0.5]}\n"
      "    stiffness: 100\n    initial: [0.05, -0.2]\n",
      "free_arm.yaml", ".");
}

testing::ProgramSettings SettingsFor(const Scene& scene, std::string type) {
  testing::ProgramSettings settings = testing::SceneProgramSettings(scene);
  settings.type = type;
  settings.kappa = 10000;  // the barriers' weight of these scenes
  return settings;
}

const std::vector<std::string> kPositionCommanded = {"qp", "socp", "log-barrier",
                                                     "log-barrier-cone", "lcp"};

bool IsBarrier(std::string type) { return type == "log-barrier" || type == "log-barrier-cone"; }

// u = (0.3 m, −0.9 rad) drives x past its upper limit and θ past its lower one. The step of
// the impedance h²K v = hK(u − q) + d λ (quasi_dynamic_cost.h, joint_limit_rows.h) stops at
// the bounds, q⁺ = (0.1, −0.5), with λ = hK|u − bound|: the limits' generalized impulse is
// hK (bound − u) = (−0.2, +0.4) [N·s, N·m·s], i.e. the force K(bound − u) cancels the pull.
// The exact programs hold the bound to their solver's accuracy; the log barriers hold the
// joint off it by their stand-off h/(κ λ) with λ g = 1/κ.
TEST(JointLimits, CommandPastTheLimitHoldsAtTheLimitInEveryFormulation) {
  const Scene scene = FreeArm();
  ASSERT_TRUE(scene.HasJointLimits());
  const Eigen::Vector2d u(0.3, -0.9);
  const Eigen::Vector2d bound(kUpperX, kLowerTheta);
  const Eigen::Vector2d expected_impulse = kH * kK * (bound - u);
  for (std::string type : kPositionCommanded) {
    SCOPED_TRACE(std::string(type));
    testing::Stepper stepper(scene, SettingsFor(scene, type));
    const StepResult& result = stepper.Step(scene.q0, u);
    ASSERT_TRUE(result.ok()) << result.message;
    const Eigen::VectorXd& q = result.next.q;
    const Eigen::VectorXd& impulse = result.joint_limit_impulse;
    ASSERT_EQ(impulse.size(), 2);
    if (!IsBarrier(type)) {
      // The solvers' tolerances are 1e-9 (relative, on velocities of O(10) m/s): 1e-8 in q.
      EXPECT_NEAR(q[0], kUpperX, 1e-8);
      EXPECT_NEAR(q[1], kLowerTheta, 1e-8);
      EXPECT_TRUE(impulse.isApprox(expected_impulse, 1e-6)) << impulse.transpose();
    } else {
      // Inside the limits, by the stand-off h/(κλ) of λ = hK|u − q⁺| (λ g = 1/κ).
      EXPECT_LT(q[0], kUpperX);
      EXPECT_GT(q[1], kLowerTheta);
      const Eigen::Vector2d pull = kH * kK * (q.head<2>() - u);  // the impedance's impulse
      EXPECT_TRUE(impulse.isApprox(pull, 1e-6))
          << impulse.transpose() << " vs " << pull.transpose();
      // Both rows of each joint push, λ g = 1/κ with g = (distance to the bound)/h: the net
      // impulse is (h/κ)(1/(q⁺ − lower) − 1/(upper − q⁺)), and the active bound's stand-off
      // h/(κλ) is 5e-6 m and 2.5e-6 rad here.
      const Eigen::Vector2d lower(-0.1, -0.5), upper(0.1, 0.5);
      for (int j = 0; j < 2; ++j) {
        const double barrier = kH / kKappa * (1.0 / (q[j] - lower[j]) - 1.0 / (upper[j] - q[j]));
        EXPECT_NEAR(impulse[j], barrier, 1e-6 * std::abs(barrier));
        EXPECT_LT(std::abs(q[j] - bound[j]), 1e-5);
      }
    }
  }
}

// halm-posa commands velocities: the robot moves by Δq_j = h u_j + c B d λ (halm_posa_lcp.h,
// eq. (33) with the limit's impulse d λ), so with c = 0.01, B = I and both limits active
// q⁺ = bound and d λ = (bound − q − h u)/c.
TEST(JointLimits, HalmPosaHoldsTheLimitWithTheClosedFormImpulse) {
  const Scene scene = FreeArm();
  testing::ProgramSettings settings = SettingsFor(scene, "halm-posa");
  settings.feedback_scale = 0.01;
  testing::Stepper stepper(scene, settings);
  const Eigen::Vector2d u(30.0, -90.0);  // [m/s, rad/s]: h u = (0.3, −0.9)
  const StepResult& result = stepper.Step(scene.q0, u);
  ASSERT_TRUE(result.ok()) << result.message;
  EXPECT_NEAR(result.next.q[0], kUpperX, 1e-9);
  EXPECT_NEAR(result.next.q[1], kLowerTheta, 1e-9);
  const Eigen::Vector2d bound(kUpperX, kLowerTheta);
  const Eigen::Vector2d expected = (bound - scene.q0 - kH * u) / 0.01;  // d λ
  EXPECT_TRUE(result.joint_limit_impulse.isApprox(expected, 1e-9))
      << result.joint_limit_impulse.transpose();
}

// A command inside the limits is not touched by them: the robot reaches u (q⁺ = u for a free
// robot) and the exact programs' limit impulses are zero.
TEST(JointLimits, CommandInsideTheLimitsIsUnchanged) {
  const Scene scene = FreeArm();
  const Eigen::Vector2d u(0.08, -0.45);
  for (std::string type : kPositionCommanded) {
    SCOPED_TRACE(std::string(type));
    testing::Stepper stepper(scene, SettingsFor(scene, type));
    const StepResult& result = stepper.Step(scene.q0, u);
    ASSERT_TRUE(result.ok()) << result.message;
    // The barriers push by 1/(κ g) from 0.02 m and 0.05 rad away: q⁺ moves by
    // 1/(κ g hK) = 1/(1e4 · 2 · 1) ≈ 5e-5 at most.
    const double tolerance = IsBarrier(type) ? 1e-4 : 1e-8;
    EXPECT_NEAR(result.next.q[0], u[0], tolerance);
    EXPECT_NEAR(result.next.q[1], u[1], tolerance);
    if (!IsBarrier(type)) {
      EXPECT_LT(result.joint_limit_impulse.norm(), 1e-8);
    }
  }
}

// A limit row left out of the differentiation changes an entry of A or B by O(1) (∂x⁺/∂x is 0
// at an active limit, 1 without it), far above the tolerance of
// ExpectGradientsMatchFiniteDifferences (the solvers' accuracy over the FD step).
void ExpectGradientsMatch(const Scene& scene, const testing::ProgramSettings& settings,
                          const Eigen::VectorXd& q, const Eigen::VectorXd& u,
                          double tolerance = 1e-4) {
  testing::ExpectGradientsMatchFiniteDifferences(scene, settings, q, u, tolerance);
}

TEST(JointLimits, GradientsMatchFiniteDifferencesOnBothSidesOfTheLimit) {
  const Scene scene = FreeArm();
  const Eigen::Vector2d past(0.3, -0.9), inside(0.08, -0.45);
  const std::vector<std::string> types = testing::FormulationsThatStep(
      testing::Shared(scene), testing::DifferentiableInConfigurationByPositions);
  EXPECT_GE(types.size(), 2u);
  for (const std::string& type : types) {
    SCOPED_TRACE(type);
    const testing::ProgramSettings settings = SettingsFor(scene, type);
    {
      SCOPED_TRACE("command past the limits");
      ExpectGradientsMatch(scene, settings, scene.q0, past);
    }
    {
      SCOPED_TRACE("command inside the limits");
      ExpectGradientsMatch(scene, settings, scene.q0, inside);
    }
  }
  // The exact programs in closed form: at the active limits q⁺ = bound, so A = B = 0; inside,
  // q⁺ = u: A = 0, B = I.
  testing::Stepper qp(scene, SettingsFor(scene, "qp"));
  ASSERT_TRUE(qp.Step(scene.q0, past).ok());
  const StepDerivatives& at_limit = qp.Differentiate(GradientMode::kAAndB);
  EXPECT_LT(at_limit.B.norm(), 1e-9);
  EXPECT_LT(at_limit.A.norm(), 1e-9);
  EXPECT_EQ(at_limit.active_rows, 2);
  ASSERT_TRUE(qp.Step(scene.q0, inside).ok());
  const StepDerivatives& free = qp.Differentiate(GradientMode::kAAndB);
  EXPECT_LT((free.B - Eigen::Matrix2d::Identity()).norm(), 1e-9);
  EXPECT_EQ(free.active_rows, 0);
}

TEST(JointLimits, HalmPosaGradientsMatchFiniteDifferences) {
  const Scene scene = FreeArm();
  testing::ProgramSettings settings = SettingsFor(scene, "halm-posa");
  ExpectGradientsMatch(scene, settings, scene.q0, Eigen::Vector2d(30.0, -90.0));
  ExpectGradientsMatch(scene, settings, scene.q0, Eigen::Vector2d(2.0, -20.0));
}

// Contact and limit rows active together: planar pushing whose pusher pushes the box along x
// while its y joint is commanded above its upper limit (0.06 m). Every formulation with a
// gradient, against central differences.
Scene PushingWithLimit() {
  return LoadSceneFromString(
      "name: push_limit\ndimension: 2\ntime_step: 0.01\ncontact_tolerance: 0.02\n"
      "formulation: {type: qp}\n"
      "environment: [{name: table, type: half_space, friction: 0.4}]\n"
      "objects:\n  - name: box\n    joint: planar\n"
      "    body: {mass: 1.0, inertia: from_shapes,\n"
      "           shapes: [{type: box, size: [0.2, 0.1, 0.1], friction: 0.4}]}\n"
      "    initial: [0.0, 0.05, 0.0]\n"
      "robots:\n  - name: pusher\n    bodies:\n"
      "      - {name: slider, mass: 0.5, inertia: {principal: [0.001, 0.001, 0.001]}}\n"
      "      - {name: tip, mass: 0.1, inertia: from_shapes,\n"
      "         shapes: [{type: sphere, radius: 0.02, friction: 0.4}]}\n"
      "    joints:\n"
      "      - {name: x, type: prismatic, parent: world, child: slider, axis: [1, 0, 0]}\n"
      "      - {name: y, type: prismatic, parent: slider, child: tip, axis: [0, 1, 0],\n"
      "         limits: [0.0, 0.06]}\n"
      "    stiffness: [1000, 1000]\n    initial: [-0.1205, 0.05]\n",
      "push_limit.yaml", ".");
}

TEST(JointLimits, GradientsWithContactAndLimitActiveMatchFiniteDifferences) {
  const Scene scene = PushingWithLimit();
  const Eigen::Vector2d u(-0.1, 0.2);  // push right; y commanded 0.14 m above its limit
  const std::vector<std::string> types = testing::FormulationsThatStep(
      testing::Shared(scene), testing::DifferentiableInConfigurationByPositions);
  EXPECT_GE(types.size(), 2u);
  for (const std::string& type : types) {
    SCOPED_TRACE(type);
    const testing::ProgramSettings settings = SettingsFor(scene, type);
    testing::Stepper stepper(scene, settings);
    const StepResult& result = stepper.Step(scene.q0, u);
    ASSERT_TRUE(result.ok()) << result.message;
    EXPECT_LE(result.next.q[4], 0.06 + 1e-8);        // the limit holds
    EXPECT_LT(result.joint_limit_impulse[4], -1.0);  // and pushes y down [N·s]
    EXPECT_FALSE(result.contacts.empty());
    ExpectGradientsMatch(scene, settings, scene.q0, u, 1e-3);
  }
}

// A soft lift (K = 1 N/m) holding a 1 kg box, commanded to stay where it is (u = q = 0), at
// h = 0.1 s: the lower bound, 0.07 m below, lies beyond the step's reach (2|u − q| + 0.05 m,
// joint_limit_rows.h), so the exact programs leave its row out; the box, which falls g h² ≈
// 0.098 m in a quasi-dynamic step from rest, then pushes the soft lift across the bound, and
// the step solves again with every row: q⁺ sits on the bound with the limit's impulse.
Scene SoftLiftWithBox() {
  return LoadSceneFromString(
      "name: soft_lift\ndimension: 2\ntime_step: 0.1\ncontact_tolerance: 0.02\n"
      "formulation: {type: qp}\n"
      "objects:\n  - name: box\n    joint: planar\n"
      "    body: {mass: 1.0, inertia: from_shapes,\n"
      "           shapes: [{type: box, size: [0.1, 0.1, 0.1], friction: 0.4}]}\n"
      "    initial: [0.0, 0.1, 0.0]\n"
      "robots:\n  - name: lift\n    bodies:\n"
      "      - {name: platform, mass: 1.0, inertia: from_shapes,\n"
      "         shapes: [{type: box, size: [0.4, 0.1, 0.1], friction: 0.4}]}\n"
      "    joints:\n"
      "      - {name: y, type: prismatic, parent: world, child: platform, axis: [0, 1, 0],\n"
      "         limits: [-0.07, 1.0]}\n"
      "    stiffness: 1\n    initial: [0.0]\n",
      "soft_lift.yaml", ".");
}

TEST(JointLimits, ABoundLeftOutOfTheProgramStillHoldsWhenContactPushesPastIt) {
  const Scene scene = SoftLiftWithBox();
  const double h = scene.time_step;
  const Eigen::VectorXd u = Eigen::VectorXd::Zero(1);
  JointLimitRows limits;
  BuildJointLimitRows(scene, scene.q0, h, &limits);
  ASSERT_EQ(limits.size(), 2);
  LeaveOutJointLimitsOutOfReach(scene, scene.q0, u, &limits);
  EXPECT_EQ(limits.size(), 0);  // both bounds beyond the reach of u = q
  EXPECT_EQ(limits.left_out, 2);
  Eigen::VectorXd v = Eigen::VectorXd::Zero(scene.nv);
  v[scene.nv_u] = -1.0;  // −0.1 m in one step: past the lower bound left out
  EXPECT_FALSE(LeftOutJointLimitsHold(scene.q0, v, h, limits));
  v[scene.nv_u] = -0.5;  // −0.05 m: within it
  EXPECT_TRUE(LeftOutJointLimitsHold(scene.q0, v, h, limits));
  const int y = scene.nq_u;  // the lift's coordinate
  for (std::string type : {"qp", "socp"}) {
    SCOPED_TRACE(std::string(type));
    testing::Stepper stepper(scene, SettingsFor(scene, type));
    const StepResult& result = stepper.Step(scene.q0, u);
    ASSERT_TRUE(result.ok()) << result.message;
    EXPECT_NEAR(result.next.q[y], -0.07, 1e-6);            // on the bound, not below it
    EXPECT_GT(result.joint_limit_impulse[scene.nv_u], 0);  // the bound pushes the lift up
  }
}

// The second-order formulations take the same limit rows (q⁺ = q + h v⁺ on these joints). At
// rest on both bounds (q = (0.1, −0.5), v = 0) under u = (0.3, −0.9): v⁺ = 0 holds both joints,
// since P v⁺ − τ_h = Gᵀλ at v⁺ = 0 needs λ = hK|u − bound| >= 0 (τ_h = hK(u − q) with v = 0
// and no gravity, second_order_cost.h): the same generalized impulse hK(bound − u) as the
// quasi-dynamic step. B is then 0 in both (an unlimited joint would have ∂v⁺/∂u = M̂⁻¹hK,
// O(0.1)), and A follows from q⁺ = bound.
TEST(JointLimits, SecondOrderStepsHoldTheLimitWithTheImpulseOfTheImpedance) {
  const ScenePtr scene = testing::Shared(FreeArm());
  const Eigen::Vector2d u(0.3, -0.9);
  const Eigen::Vector2d bound(kUpperX, kLowerTheta);
  const Eigen::Vector2d expected_impulse = kH * kK * (bound - u);
  for (std::string type : {"stewart-trinkle", "anitescu", "anitescu-cone"}) {
    SCOPED_TRACE(std::string(type));
    const std::shared_ptr<const StepModel> model = MakeStepModel(scene, SettingsFor(*scene, type));
    const std::unique_ptr<StepData> data = model->CreateData();
    model->Calc(State{bound, Eigen::Vector2d::Zero()}, u, data.get());
    const StepResult& result = data->result;
    ASSERT_TRUE(result.ok()) << result.message;
    // Solver tolerances 1e-9 relative on velocities of O(1) m/s, times h.
    EXPECT_LT((result.next.q - bound).lpNorm<Eigen::Infinity>(), 1e-8) << result.next.q;
    EXPECT_LT(result.next.v.lpNorm<Eigen::Infinity>(), 1e-6) << result.next.v;
    ASSERT_EQ(result.joint_limit_impulse.size(), 2);
    EXPECT_LT((result.joint_limit_impulse - expected_impulse).lpNorm<Eigen::Infinity>(),
              1e-6 * expected_impulse.lpNorm<Eigen::Infinity>())
        << result.joint_limit_impulse;
    model->CalcDiff(GradientMode::kAAndB, data.get());
    const StepDerivatives& d = data->derivatives;
    ASSERT_EQ(d.status, SolverStatus::kSolved) << d.message;
    EXPECT_LT(d.B.lpNorm<Eigen::Infinity>(), 1e-9) << d.B;
    // Held at both bounds whatever (q, v) do nearby: q⁺ = bound, v⁺ = (bound − q)/h, so
    // A = [0 0; −I/h 0] (x = (q, v)).
    ASSERT_EQ(d.A.rows(), 4);
    Eigen::Matrix4d expected_A = Eigen::Matrix4d::Zero();
    expected_A.bottomLeftCorner<2, 2>() = -Eigen::Matrix2d::Identity() / kH;
    EXPECT_LT((d.A - expected_A).lpNorm<Eigen::Infinity>(), 1e-9 / kH) << d.A;
  }
}

}  // namespace
}  // namespace quasidyn
