// Objects on planar ghost links (model/planning_settings.h, OnPlanarGhostLinks): an object moved
// by two prismatic joints and one revolute joint to the world, as the reference quasistatic
// simulator's *_xy_yaw models are (iiwa_planar_bimanual_cylinder), is planned in its joint
// coordinates as a planar object's (x, y, θ), in a 3D scene; other articulated objects are still
// refused with the field and the joint that makes them so.

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <memory>
#include <string>

#include "quasidyn/io/scene_document.h"
#include "quasidyn/model/planning_settings.h"
#include "quasidyn/model/scene_error.h"
#include "quasidyn/planning/object_space.h"
#include "quasidyn/planning/rrt.h"
#include "quasidyn/testing/plan_replay_checks.h"

namespace quasidyn {
namespace {

constexpr double kEps = std::numeric_limits<double>::epsilon();

// A box (0.16 × 0.1 × 0.06 m) on ghost links x, y, yaw `object_joints` (YAML list entries),
// pushed by a round tip on x, y, z joints; the planning block asks for the box 4 cm further along
// x. No table, as in qsim's iiwa_planar_bimanual_cylinder: the ghost links hold the box at its
// height, and a resting contact whose rows J_n are zero has no strictly feasible point for the
// log-barrier metric's linearisation (the row's value is 0 at every v).
std::string GhostBoxScene(const std::string& object_joints, const std::string& initial) {
  return "name: ghost_box\n"
         "dimension: 3\n"
         "time_step: 0.01\n"
         "contact_tolerance: 0.01\n"
         "formulation: {type: qp}\n"
         "objects:\n"
         "  - name: box\n"
         "    bodies:\n"
         "      - {name: ghost_x, mass: 0.01, inertia: {principal: [1.0e-4, 1.0e-4, 1.0e-4]}}\n"
         "      - {name: ghost_y, mass: 0.01, inertia: {principal: [1.0e-4, 1.0e-4, 1.0e-4]}}\n"
         "      - {name: block, mass: 0.5, inertia: from_shapes, shapes: [{type: box, size: "
         "[0.16, 0.1, 0.06], pose: {xyz: [0, 0, 0.03]}, friction: 0.3}]}\n"
         "    joints:\n" +
         object_joints + "    initial: " + initial +
         "\n"
         "robots:\n"
         "  - name: pusher\n"
         "    bodies:\n"
         "      - {name: carriage_x, mass: 0.5, inertia: {principal: [1.0e-3, 1.0e-3, 1.0e-3]}}\n"
         "      - {name: carriage_y, mass: 0.5, inertia: {principal: [1.0e-3, 1.0e-3, 1.0e-3]}}\n"
         "      - {name: tip, mass: 0.1, inertia: from_shapes, shapes: [{type: sphere, radius: "
         "0.015, friction: 0.5}]}\n"
         "    joints:\n"
         "      - {name: x, type: prismatic, parent: world, child: carriage_x, axis: [1, 0, 0]}\n"
         "      - {name: y, type: prismatic, parent: carriage_x, child: carriage_y, axis: [0, 1, "
         "0]}\n"
         "      - {name: z, type: prismatic, parent: carriage_y, child: tip, axis: [0, 0, 1]}\n"
         "    stiffness: [200, 200, 200]\n"
         "    initial: [-0.1, 0.0, 0.03]\n"
         "planning:\n"
         "  goal: [0.04, 0.0, 0.0]\n"
         "  goal_tolerance: 0.1\n"
         "  goal_weights: {position: 10, rotation: 1}\n"
         "  bounds: {lower: [-0.05, -0.05, -0.5], upper: [0.1, 0.05, 0.5]}\n"
         "  time_step: 0.02\n"
         "  step_size: 0.08\n"
         "  limits: {max_nodes: 3000, time_limit: 60}\n";
}

const char* const kGhostJoints =
    "      - {name: x_slider, type: prismatic, parent: world, child: ghost_x, axis: [1, 0, 0]}\n"
    "      - {name: y_slider, type: prismatic, parent: ghost_x, child: ghost_y, axis: [0, 1, 0]}\n"
    "      - {name: yaw, type: revolute, parent: ghost_y, child: block, axis: [0, 0, 1]}\n";

ScenePtr GhostBox() {
  return std::make_shared<const Scene>(
      ReadSceneText(GhostBoxScene(kGhostJoints, "[0.0, 0.0, 0.0]"), "ghost_box.yaml", "."));
}

TEST(GhostLinkObjects, TheirJointCoordinatesAreAPlanarBlock) {
  const ScenePtr scene = GhostBox();
  ASSERT_FALSE(scene->planar);
  EXPECT_TRUE(OnPlanarGhostLinks(*scene, scene->instances[0]));
  EXPECT_FALSE(OnPlanarGhostLinks(*scene, scene->instances[1]));  // the robot
  EXPECT_FALSE(CheckPlanningSettings(*scene->planning, *scene, /*complete=*/true).has_value());
  const ObjectSpace space(*scene);
  ASSERT_EQ(space.blocks().size(), 1u);
  EXPECT_FALSE(space.blocks()[0].floating);
  ASSERT_EQ(space.tangent_size(), 3);
  Eigen::VectorXd a = scene->q0, b = scene->q0;
  a.head<3>() << 0.1, 0.2, M_PI - 0.1;
  b.head<3>() << 0.0, 0.0, -M_PI + 0.1;
  const Eigen::VectorXd d = space.Difference(a, b);
  EXPECT_NEAR(d[0], 0.1, 4 * kEps);
  EXPECT_NEAR(d[1], 0.2, 4 * kEps);
  EXPECT_NEAR(d[2], -0.2, 16 * kEps);  // the yaw wraps as a planar angle
}

// Two prismatic joints and a revolute one in another order, or two joints only, are not planar
// ghost links: refused, naming the object and the joint.
TEST(GhostLinkObjects, OtherArticulatedObjectsAreStillRefused) {
  const std::string revolute_first =
      "      - {name: yaw, type: revolute, parent: world, child: ghost_x, axis: [0, 0, 1]}\n"
      "      - {name: x_slider, type: prismatic, parent: ghost_x, child: ghost_y, axis: [1, 0, "
      "0]}\n"
      "      - {name: y_slider, type: prismatic, parent: ghost_y, child: block, axis: [0, 1, "
      "0]}\n";
  std::string error = "(loaded)";
  try {
    ReadSceneText(GhostBoxScene(revolute_first, "[0.0, 0.0, 0.0]"), "turned.yaml", ".");
  } catch (const SceneError& e) {
    error = e.what();
  }
  EXPECT_NE(error.find("turned.yaml:29: planning.objects: object 'box' is articulated (revolute "
                       "joint 'box/yaw')"),
            std::string::npos)
      << error;
}

// The planner reaches a goal of the ghost coordinates, and the path replays bit for bit within
// the penetration tolerance (testing/plan_replay_checks.h).
TEST(GhostLinkObjects, ThePlannerPushesTheBoxToItsGoal) {
  const ScenePtr scene = GhostBox();
  const PlanningSettings& settings = *scene->planning;
  testing::ExpectPathReplays(
      scene, PlanThroughContact(scene, PlanningFormulation(*scene, settings), settings));
}

}  // namespace
}  // namespace quasidyn
