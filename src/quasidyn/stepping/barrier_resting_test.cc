// The log barriers push from a distance (dynamics/barrier_stand_off.h). A regression: a cube
// resting on the table was lifted past the contact tolerance, lost its contact and fell h²|g| per
// step through the table, every step "solved" (h = 10 s: 981 m below it); the arm never carried the
// red cube. These tests pin the fix: contacts are kept up to the barrier's resting stand-off.

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <stdexcept>
#include <string>

#include "quasidyn/formulations/quasi_dynamic/barrier_stand_off.h"
#include "quasidyn/scenes/scene_loading.h"
#include "quasidyn/testing/program_settings.h"
#include "quasidyn/testing/stepper.h"

namespace quasidyn {
namespace {

constexpr double kCubeSide = 0.1;  // [m]

constexpr char kBoxShape[] = "{type: box, size: [0.1, 0.1, 0.1], friction: 0.5}";

// A cube of `mass` [kg] resting on the table (z <= 0) at time step h [s]; no robot. `shape` is
// its one collision shape (a scene-file flow map); a shape other than the box has the inertia
// diag(1, 1, 1) kg·m².
Scene RestingCube(double h, double mass, const std::string& shape = kBoxShape) {
  const std::string yaml = R"(
name: resting_cube
dimension: 3
time_step: )" + std::to_string(h) +
                           R"(
contact_tolerance: 0.01
environment:
  - {name: table, type: half_space, friction: 0.5}
objects:
  - name: cube
    joint: floating
    body:
      mass: )" + std::to_string(mass) +
                           R"(
      inertia: )" + (shape == kBoxShape ? std::string("from_shapes") : "{principal: [1, 1, 1]}") +
                           R"(
      shapes: [)" + shape + R"(]
    initial: [0, 0, 0.05, 1, 0, 0, 0]
)";
  return LoadSceneFromString(yaml, "resting_cube", "");
}

class BarrierRestingTest : public ::testing::TestWithParam<std::string> {};

// At every h the cube's lowest point stays above the table (the barrier keeps the gap of every
// kept contact positive: g = φ/h + J v > 0, exact for a translation) and within the kept
// distance of it, so its contact is never lost; 20 steps reach t = 200 s at h = 10 s.
TEST_P(BarrierRestingTest, CubeOnTheTableNeverGoesBelowItsSupport) {
  for (const double h : {0.01, 0.1, 1.0, 10.0}) {
    const Scene scene = RestingCube(h, 1.0);
    // κ = 100 (the old default, whose stand-off exceeds ε) and the scene's default κ.
    for (const double kappa : {100.0, testing::SceneProgramSettings(scene).kappa}) {
      SCOPED_TRACE("h = " + std::to_string(h) + ", kappa = " + std::to_string(kappa));
      testing::ProgramSettings settings = testing::SceneProgramSettings(scene);
      settings.type = GetParam();
      settings.kappa = kappa;
      const double kept = settings.CandidateDistance(scene);
      // At κ = 100 the stand-off exceeds ε: the case where the contact used to be lost.
      if (kappa == 100.0) {
        ASSERT_GT(kept, scene.contact_tolerance);
      }
      testing::Stepper stepper(scene, settings);
      Eigen::VectorXd q = scene.q0;
      double lowest = std::numeric_limits<double>::infinity();
      for (int k = 0; k < 20; ++k) {
        const StepResult& r = stepper.Step(q, Eigen::VectorXd());
        ASSERT_TRUE(r.ok()) << "step " << k << ": " << r.message;
        q = r.next.q;
        const double bottom = q(2) - 0.5 * kCubeSide;
        lowest = std::min(lowest, bottom);
        // Round-off of the step's integration, relative to the cube's size.
        EXPECT_GE(bottom, -1e-12 * kCubeSide) << "step " << k;
        EXPECT_LT(bottom, std::max(kept, scene.contact_tolerance)) << "step " << k;
        EXPECT_GT(r.contacts.size(), 0u) << "step " << k;
      }
      // Settled on the barrier: at most the resting gap of one support (the bound of
      // barrier_stand_off.h) above the table.
      const double final_height = q(2) - 0.5 * kCubeSide;
      EXPECT_LE(final_height,
                BarrierRestingGap(scene,
                                  settings.type == "log-barrier-cone" ? BarrierKind::kCone
                                                                      : BarrierKind::kPyramid,
                                  settings.kappa, 0));
      std::printf(
          "[ measured ] %s, h = %g s, kappa = %g: cube bottom lowest %.4g m, after 20 "
          "steps %.4g m above the table\n",
          settings.type.c_str(), h, kappa, lowest, final_height);
    }
  }
}

INSTANTIATE_TEST_SUITE_P(BothBarriers, BarrierRestingTest,
                         ::testing::Values("log-barrier", "log-barrier-cone"),
                         [](const auto& param_info) {
                           return param_info.param == "log-barrier" ? "pyramid" : "cone";
                         });

// A 1 mg cube at κ = 100 would float kilometres up: refused when the model is built, with the
// least κ that keeps it within ten times its size.
TEST(BarrierRestingTest, AnObjectTheBarrierWouldLevitateIsRefused) {
  const Scene scene = RestingCube(0.01, 1e-6);
  testing::ProgramSettings settings = testing::SceneProgramSettings(scene);
  settings.type = "log-barrier";
  settings.kappa = 100.0;
  try {
    testing::Stepper stepper(scene, settings);
    FAIL() << "a 1 mg cube was accepted at kappa = 100";
  } catch (const std::invalid_argument& e) {
    const std::string message = e.what();
    EXPECT_NE(message.find("object 'cube'"), std::string::npos) << message;
    EXPECT_NE(message.find("use kappa >="), std::string::npos) << message;
  }
  settings.kappa = 1e7;  // stand-off 4·8/(1e7·1e-6·9.81) = 0.33 m < 10 × 0.1 m
  EXPECT_NO_THROW(testing::Stepper(scene, settings));
  settings.type = "qp";  // no force at a distance: any mass
  settings.kappa = 100;
  EXPECT_NO_THROW(testing::Stepper(scene, settings));
}

// The default κ (a scene without `kappa`) is scaled from the scene so that a resting
// object stays within 1 % of its size of its support. At the old default κ = 100 the 1 kg,
// 10 cm cube rested 16 mm up (16 rows of 1/(κ φ) carrying 9.81 N); with the default, at most
// 1 mm, whatever its mass, under both barriers.
TEST_P(BarrierRestingTest, TheDefaultKappaRestsACubeWithinOnePercentOfItsSize) {
  for (const double mass : {1e-6, 0.25, 1.0, 10.0}) {
    SCOPED_TRACE("mass = " + std::to_string(mass) + " kg");
    const Scene scene = RestingCube(0.01, mass);
    testing::ProgramSettings settings = testing::SceneProgramSettings(scene);
    settings.type = GetParam();
    EXPECT_EQ(settings.kappa, DefaultKappa(scene));
    testing::Stepper stepper(scene, settings);
    Eigen::VectorXd q = scene.q0;
    for (int k = 0; k < 200; ++k) {
      const StepResult& r = stepper.Step(q, Eigen::VectorXd());
      ASSERT_TRUE(r.ok()) << "step " << k << ": " << r.message;
      q = r.next.q;
    }
    const double height = q(2) - 0.5 * kCubeSide;
    EXPECT_GE(height, 0.0);
    EXPECT_LE(height, kDefaultStandOffPerSize * kCubeSide * (1 + 1e-9));
    if (mass == 1.0) {
      // Before: the old default κ = 100.
      testing::ProgramSettings old = settings;
      old.kappa = 100.0;
      testing::Stepper before(scene, old);
      Eigen::VectorXd q_old = scene.q0;
      for (int k = 0; k < 200; ++k) q_old = before.Step(q_old, Eigen::VectorXd()).next.q;
      const double old_height = q_old(2) - 0.5 * kCubeSide;
      std::printf(
          "[ measured ] 1 kg cube, %s: resting height %.4g m at kappa = 100, %.4g m at "
          "the default kappa = %.6g\n",
          GetParam().c_str(), old_height, height, settings.kappa);
      EXPECT_GT(old_height, 10 * height);
    }
  }
}

// An object's size (the κ default's scale) is the largest side of its shapes' bounding boxes, the
// same for a cube given as a box and as its eight corners (a convex shape), in one pass over the
// vertices (the diameter over vertex pairs was quadratic: 52 s before the first step of a
// 100,000-vertex object, and it made the corners' cube √3 times larger than the box).
TEST(BarrierRestingTest, AConvexCubeHasTheSizeAndDefaultKappaOfTheBoxCube) {
  std::string corners = "{type: convex, friction: 0.5, vertices: [";
  for (int i = 0; i < 8; ++i) {
    corners += (i ? ", [" : "[") + std::to_string(i & 1 ? 0.05 : -0.05) + ", " +
               std::to_string(i & 2 ? 0.05 : -0.05) + ", " + std::to_string(i & 4 ? 0.05 : -0.05) +
               "]";
  }
  corners += "]}";
  const Scene box = RestingCube(0.01, 1.0), convex = RestingCube(0.01, 1.0, corners);
  ASSERT_EQ(InstanceSizes(box).size(), 1u);
  EXPECT_EQ(InstanceSizes(box)[0], kCubeSide);
  EXPECT_EQ(InstanceSizes(convex), InstanceSizes(box));
  EXPECT_EQ(DefaultKappa(convex), DefaultKappa(box));
}

// The arm picks the red cube and places it on the stack under both barriers as under the QP
// (paper_arm_test.cc), at a κ whose resting stand-off for the 0.25 kg cubes, 4·8/(κ m |g|) =
// 0.13 mm, is far below ε (at the default κ = 100 it is 13 cm: the cubes float on the barrier
// and the fingers cannot close on the cube; docs/formulations.md, "Choosing κ").
TEST(BarrierRestingTest, TheArmCarriesTheRedCubeOntoTheStack) {
  const Scene scene =
      LoadScene(std::string(QUASIDYN_SOURCE_DIR) + "/examples/arm_cubes/scene.yaml");
  const int cube = scene.instances[scene.InstanceIndex("red_cube")].q_start;
  const Eigen::Vector3d stack_top(0.55, -0.35, 0.2);
  const double h = scene.time_step;
  const int steps = static_cast<int>(std::lround((scene.ScheduleEnd() + 1.0) / h));
  for (const std::string type : {"log-barrier", "log-barrier-cone"}) {
    SCOPED_TRACE(std::string(type));
    testing::ProgramSettings settings = testing::SceneProgramSettings(scene);
    settings.type = type;
    settings.kappa = 1e5;
    testing::Stepper stepper(scene, settings);
    Eigen::VectorXd q = scene.q0;
    double lowest = q(cube + 2);
    for (int k = 0; k < steps; ++k) {
      const StepResult& r = stepper.Step(q, scene.CommandAt((k + 1) * h));
      ASSERT_TRUE(r.ok()) << "step " << k << ": " << r.message;
      q = r.next.q;
      lowest = std::min(lowest, q(cube + 2));
    }
    // Never through the table; on stack_top's face within 2 mm, over its face (half width).
    EXPECT_GE(lowest, 0.04 - 1e-9);
    EXPECT_NEAR(q(cube + 2), stack_top.z() + 0.08, 2e-3);
    EXPECT_LT((q.segment<3>(cube) - stack_top).head<2>().norm(), 0.04);
  }
}

}  // namespace
}  // namespace quasidyn
