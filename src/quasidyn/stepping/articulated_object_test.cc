// Articulated objects (un-actuated bodies on revolute and prismatic joints): the door and the
// drawer of examples/door and examples/drawer against their closed forms (the scene files'
// comments derive them), in every quasi-dynamic formulation that solves the exact contact
// program, and in the second-order ones, which keep the objects' momentum; their gradients
// against finite differences.

#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "quasidyn/io/scene_document.h"
#include "quasidyn/scenes/scene_loading.h"
#include "quasidyn/testing/example_states.h"
#include "quasidyn/testing/gradient_checks.h"
#include "quasidyn/testing/program_settings.h"
#include "quasidyn/testing/registered_formulations.h"
#include "quasidyn/testing/stepper.h"

namespace quasidyn {
namespace {

using testing::LoadExample;

// The interior-point solvers' default tolerance (solvers/qp.h, socp.h): velocities and impulses
// of one step are exact to it, relative to their scale.
constexpr double kSolverTolerance = 1e-9;

// The door of examples/door/scene.yaml: the finger's radius plus half the board's thickness
// [m], the finger's stiffness [N/m], the hinge's upper limit [rad].
constexpr double kFaceOffset = 0.03 + 0.02;
constexpr double kFingerStiffness = 1000.0;
constexpr double kDoorStop = 1.0;

// The hinge angle at which the door's face touches a finger centred at p (scene file):
// p·n(θ) = −c with n = (−sin θ, cos θ), θ = arccos(−c/|p|) − atan2(p_x, p_y).
double DoorAngleTouching(const Eigen::Vector2d& p) {
  return std::acos(-kFaceOffset / p.norm()) - std::atan2(p.x(), p.y());
}

testing::ProgramSettings SettingsFor(const Scene& scene, const std::string& type) {
  testing::ProgramSettings settings = testing::SceneProgramSettings(scene);
  settings.type = type;
  return settings;
}

// The door follows the finger on the closed form while they touch, then holds it at its stop
// with the limit impulse of the finger's push. qp and socp solve the same frictionless program
// exactly (μ = 0 makes the cone and the pyramid one set).
TEST(ArticulatedObjects, TheDoorFollowsTheFingerAndHoldsItAtItsStop) {
  const ScenePtr scene = LoadExample("door");
  ASSERT_EQ(scene->nq_u, 1);
  ASSERT_EQ(scene->joints[scene->instances[0].joints[0]].type, JointType::kRevolute);
  const double h = scene->time_step;
  for (const char* type : {"qp", "socp"}) {
    SCOPED_TRACE(type);
    testing::Stepper stepper(scene, SettingsFor(*scene, type));
    Eigen::VectorXd q = scene->q0;
    int touching_steps = 0;
    const int steps = static_cast<int>(std::lround(scene->ScheduleEnd() / h));
    for (int k = 0; k < steps; ++k) {
      const Eigen::VectorXd u = scene->CommandAt((k + 1) * h);
      const StepResult& result = stepper.Step(q, u);
      ASSERT_TRUE(result.ok()) << "step " << k << ": " << result.message;
      const double turned = result.next.q[0] - q[0];
      const double moved = (result.next.q.tail<2>() - q.tail<2>()).norm();
      q = result.next.q;
      const double theta = q[0];
      const Eigen::Vector2d finger = q.tail<2>();
      EXPECT_GE(theta, -kSolverTolerance) << "step " << k;
      EXPECT_LE(theta, kDoorStop + kSolverTolerance) << "step " << k;
      bool touching = false;
      for (const ContactReport& contact : result.contacts) touching |= contact.normal_force > 0;
      if (!touching) {
        // Before the finger arrives, nothing turns the door (it starts at rest on its lower
        // stop); after the stop, nothing turns it back.
        if (finger.y() < -kFaceOffset) {
          EXPECT_NEAR(theta, 0.0, kSolverTolerance) << k;
        }
        continue;
      }
      if (theta < kDoorStop - 1e-6) {
        // Opening. The step's non-penetration row φ + h J v = 0 is exact to first order in the
        // step; φ(p, θ) = −p·n(θ) − c has the second-order terms −Δp·n'(θ) Δθ (the finger's
        // move Δp across the turning normal, n' = −e) and ½ (p·n) Δθ² = −½ c Δθ², so the face
        // ends within |Δp| |Δθ| + ½ c Δθ² of the finger, an angle of that over the lever
        // ℓ = p·e. A wrong hinge (joint frame, axis, lever) is off by O(0.01 – 1) rad.
        ++touching_steps;
        const Eigen::Vector2d e(std::cos(theta), std::sin(theta));
        const double second_order = moved * std::abs(turned) + 0.5 * kFaceOffset * turned * turned;
        EXPECT_NEAR(theta, DoorAngleTouching(finger),
                    second_order / finger.dot(e) + kSolverTolerance)
            << "step " << k;
      }
    }
    EXPECT_GT(touching_steps, 100);  // opening from t ≈ 0.04 s to 1.70 s
    // At rest at the stop: the finger at the projection of its command onto the open face, its
    // push F = K (ū·n + c) balanced by the hinge's limit torque F·(ū·e) (scene file).
    const Eigen::Vector2d command = scene->CommandAt(scene->ScheduleEnd()).tail<2>();
    const Eigen::Vector2d n(-std::sin(kDoorStop), std::cos(kDoorStop));
    const Eigen::Vector2d e(std::cos(kDoorStop), std::sin(kDoorStop));
    const double pressed = command.dot(n) + kFaceOffset;
    ASSERT_GT(pressed, 0.0);
    EXPECT_NEAR(q[0], kDoorStop, kSolverTolerance);
    EXPECT_LT((q.tail<2>() - (command - pressed * n)).norm(), kSolverTolerance * command.norm());
    const StepResult& rest = stepper.Step(q, scene->CommandAt(scene->ScheduleEnd()));
    ASSERT_TRUE(rest.ok()) << rest.message;
    const double torque = kFingerStiffness * pressed * command.dot(e);  // [N·m]
    EXPECT_NEAR(-rest.joint_limit_impulse[0], h * torque, kSolverTolerance * h * torque * 1e3);
  }
}

// The drawer's slide follows the finger, d = p_x − 0.07 m, then stops at 0.3 m and holds the
// finger, the limit impulse h K (ū_x − p_x). Here the slide is linear in q, so the step is exact
// (no second-order term): the closed form holds to the solver's tolerance.
TEST(ArticulatedObjects, TheDrawerFollowsTheFingerAndStopsAtItsLimit) {
  const ScenePtr scene = LoadExample("drawer");
  constexpr double kOffset = 0.03 + 0.2 - 0.3;  // r + w/2 − x_0 [m]
  constexpr double kStop = 0.3;                 // [m]
  const double h = scene->time_step;
  for (const char* type : {"qp", "socp"}) {
    SCOPED_TRACE(type);
    testing::Stepper stepper(scene, SettingsFor(*scene, type));
    Eigen::VectorXd q = scene->q0;
    int pushing_steps = 0;
    const int steps = static_cast<int>(std::lround(scene->ScheduleEnd() / h));
    for (int k = 0; k < steps; ++k) {
      const StepResult& result = stepper.Step(q, scene->CommandAt((k + 1) * h));
      ASSERT_TRUE(result.ok()) << "step " << k << ": " << result.message;
      q = result.next.q;
      const double finger = q[1];
      if (finger + kOffset <= 0.0) {
        EXPECT_NEAR(q[0], 0.0, kSolverTolerance) << "step " << k;
      } else if (finger + kOffset < kStop - 1e-6) {
        ++pushing_steps;
        EXPECT_NEAR(q[0], finger + kOffset, 10 * kSolverTolerance) << "step " << k;
      }
      EXPECT_LE(q[0], kStop + kSolverTolerance) << "step " << k;
    }
    EXPECT_GT(pushing_steps, 100);  // from t ≈ 0.06 s to 1.82 s
    const double command = scene->CommandAt(scene->ScheduleEnd())[0];  // the finger's x
    EXPECT_NEAR(q[0], kStop, kSolverTolerance);
    EXPECT_NEAR(q[1], kStop - kOffset, kSolverTolerance);
    const StepResult& rest = stepper.Step(q, scene->CommandAt(scene->ScheduleEnd()));
    ASSERT_TRUE(rest.ok()) << rest.message;
    const double force = kFingerStiffness * (command - q[1]);  // [N]
    EXPECT_NEAR(-rest.joint_limit_impulse[0], h * force, 1e-6 * h * force);
  }
}

// The second-order formulations keep an object's momentum: set swinging (door) or sliding
// (drawer) with nothing touching it and no force along its joint, it moves at its initial
// velocity, step by step exactly (backward Euler of a free joint: M v⁺ = M v), until its stop
// takes the whole momentum (the limit row is inelastic).
TEST(ArticulatedObjects, SecondOrderObjectsKeepTheirMomentumUntilTheStop) {
  struct Case {
    const char* example;
    double velocity, stop;  // [rad/s or m/s], [rad or m]
  };
  for (const Case& c : {Case{"door", 2.0, 1.0}, Case{"drawer", 0.5, 0.3}}) {
    // The object starts with a velocity; the finger is moved out of the way (held far below).
    ScenePtr loaded = LoadExample(c.example);
    Scene scene = *loaded;
    scene.v0 = Eigen::VectorXd::Zero(scene.nv);
    scene.v0[0] = c.velocity;
    scene.q0.tail<2>() = Eigen::Vector2d(-1.0, -1.0);
    scene.schedules.clear();
    for (const char* type : {"stewart-trinkle", "anitescu", "anitescu-cone"}) {
      SCOPED_TRACE(std::string(c.example) + " " + type);
      const std::shared_ptr<const StepModel> model =
          MakeStepModel(testing::Shared(scene), SettingsFor(scene, type));
      const std::unique_ptr<StepData> data = model->CreateData();
      State x = InitialState(*model);
      const double h = scene.time_step;
      const int free_steps = static_cast<int>(std::floor(c.stop / (c.velocity * h))) - 1;
      for (int k = 0; k < free_steps + 20; ++k) {
        model->Calc(x, scene.q0.tail<2>(), data.get());
        ASSERT_TRUE(data->result.ok()) << "step " << k << ": " << data->result.message;
        x = data->result.next;
        if (k < free_steps) {
          EXPECT_NEAR(x.v[0], c.velocity, kSolverTolerance * c.velocity) << "step " << k;
          EXPECT_NEAR(x.q[0], (k + 1) * h * c.velocity, (k + 1) * kSolverTolerance) << k;
        }
        EXPECT_LE(x.q[0], c.stop + kSolverTolerance) << "step " << k;
      }
      EXPECT_NEAR(x.q[0], c.stop, kSolverTolerance);
      EXPECT_NEAR(x.v[0], 0.0, kSolverTolerance);
    }
  }
}

// CalcDiff on the door while it opens and on the drawer while it is pushed, against central
// differences of the step (testing/gradient_checks.h), in each registered formulation with
// gradients and a configuration state that can step them.
TEST(ArticulatedObjects, GradientsMatchFiniteDifferences) {
  for (const char* example : {"door", "drawer"}) {
    const ScenePtr scene = LoadExample(example);
    const std::vector<std::string> types =
        testing::FormulationsThatStep(scene, testing::DifferentiableInConfiguration);
    EXPECT_GE(types.size(), 2u) << example;
    for (const std::string& type : types) {
      SCOPED_TRACE(std::string(example) + " " + type);
      const testing::ProgramSettings settings = SettingsFor(*scene, type);
      const testing::ExampleState s = testing::StateAfter(scene, settings, 100);
      testing::ExpectGradientsMatchFiniteDifferences(*scene, settings, s.q, s.u);
    }
  }
}

}  // namespace
}  // namespace quasidyn
