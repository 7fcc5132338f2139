// A step that starts with two shapes overlapping (the reference simulator's files at their
// default q0, docs/qsim-files.md): where the bodies can move apart along the contact normal the
// step separates them; where neither can (its normal row J_n is zero), the step fails with a
// status, and its message names the deepest pair, its depth and why (dynamics/step_problem.h,
// DescribeOverlap).

#include <gtest/gtest.h>

#include <string>

#include "quasidyn/scenes/scene_loading.h"
#include "quasidyn/testing/contains_text.h"
#include "quasidyn/testing/stepper.h"

namespace quasidyn {
namespace {

// A ball (radius 0.1 m) and a pusher (radius 0.05 m), each on a prismatic joint along y, no
// gravity; q = [ball y, pusher y], both 0 by default: the centres coincide (φ = −0.15 m).
constexpr const char* kTwoBallsOnY = R"(name: two_balls_on_y
dimension: 3
gravity: [0, 0, 0]
time_step: 0.1
contact_tolerance: 0.5
objects:
  - name: ball
    bodies:
      - {name: ball, mass: 1.0, inertia: from_shapes,
         shapes: [{name: ball_shape, type: sphere, radius: 0.1, friction: 0.5}]}
    joints:
      - {name: ball_y, type: prismatic, parent: world, child: ball, axis: [0, 1, 0]}
    initial: [0.0]
robots:
  - name: pusher
    bodies:
      - {name: tip, mass: 1.0, inertia: from_shapes,
         shapes: [{name: tip_shape, type: sphere, radius: 0.05, friction: 0.5}]}
    joints:
      - {name: pusher_y, type: prismatic, parent: world, child: tip, axis: [0, 1, 0]}
    stiffness: 100
    initial: [0.0]
)";

Scene TwoBallsOnY() { return LoadSceneFromString(kTwoBallsOnY, "two_balls_on_y.yaml", "."); }

// Coincident centres: the normal the distance query picks is not along y, so no velocity of
// the two joints changes φ, and φ/h + J_n v >= 0 cannot hold.
TEST(OverlappingStart, APinnedOverlapFailsNamingThePairItsDepthAndTheZeroRow) {
  const Scene scene = TwoBallsOnY();
  for (const char* type : {"qp", "socp"}) {
    SCOPED_TRACE(type);
    testing::Stepper stepper(scene, FormulationChoice(type));
    const StepResult& result = stepper.Step(scene.q0, scene.q0.tail(1));
    ASSERT_FALSE(result.ok());
    const std::string& m = result.message;
    EXPECT_TRUE(testing::Contains(m, "the start overlaps: deepest ")) << m;
    EXPECT_TRUE(testing::Contains(m, "ball_shape")) << m;
    EXPECT_TRUE(testing::Contains(m, "tip_shape")) << m;
    EXPECT_TRUE(testing::Contains(m, "(phi = -0.15 m)")) << m;
    EXPECT_TRUE(testing::Contains(m, "J_n v >= -phi/h = 1.5 m/s")) << m;
    EXPECT_TRUE(testing::Contains(m, "but its row J_n is zero")) << m;
  }
}

// Centres 0.05 m apart along y: the normal is ±y, and the first step separates them.
TEST(OverlappingStart, AnOverlapAlongTheJointsIsUndoneByTheStep) {
  const Scene scene = TwoBallsOnY();
  Eigen::VectorXd q = scene.q0;
  q[0] = 0.05;  // the ball's centre 0.05 m along +y: φ = 0.05 − 0.15 = −0.1 m
  for (const char* type : {"qp", "socp"}) {
    SCOPED_TRACE(type);
    testing::Stepper stepper(scene, FormulationChoice(type));
    const StepResult& result = stepper.Step(q, q.tail(1));
    ASSERT_TRUE(result.ok()) << result.message;
    // Apart by at least the radii's sum but the solver's tolerance (m, at h = 0.1 s).
    EXPECT_GE(result.next.q[0] - result.next.q[1], 0.15 - 1e-6);
  }
}

}  // namespace
}  // namespace quasidyn
