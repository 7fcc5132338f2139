#include "quasidyn/io/mpc_reader.h"

#include <gtest/gtest.h>

#include <string>

#include "quasidyn/io/scene_document.h"
#include "quasidyn/model/scene_error.h"

namespace quasidyn {
namespace {

// A planar point robot on two prismatic joints (n_q = n_v = 2, n_x = 4, n_a = 2); `mpc:` is
// line 13, the block's first field line 14.
const std::string kScene = R"(name: mpc_block
dimension: 2
time_step: 0.1
formulation: {type: stewart-trinkle}
robots:
  - name: point
    bodies: [{name: carriage, mass: 0.01, inertia: {principal: [1e-6, 1e-6, 1e-6]}},
             {name: tip, mass: 1.0, inertia: from_shapes, shapes: [{type: sphere, radius: 0.05, friction: 0.5}]}]
    joints: [{name: x, type: prismatic, parent: world, child: carriage, axis: [1, 0, 0]},
             {name: y, type: prismatic, parent: carriage, child: tip, axis: [0, 1, 0]}]
    stiffness: 100
    initial: [0, 0]
mpc:
)";

Scene MpcReaderLoad(const std::string& block) {
  return ReadSceneText(kScene + block, "scene.yaml", ".");
}

void ExpectError(const std::string& block, int line, const std::string& field,
                 const std::string& problem_part) {
  try {
    MpcReaderLoad(block);
    ADD_FAILURE() << "no error for\n" << block;
  } catch (const SceneError& e) {
    EXPECT_EQ(e.line(), line) << e.what();
    EXPECT_EQ(e.field(), field) << e.what();
    EXPECT_NE(std::string(e.what()).find(problem_part), std::string::npos) << e.what();
    EXPECT_EQ(std::string(e.what()).rfind("scene.yaml:" + std::to_string(line) + ": " + field, 0),
              0u)
        << e.what();
  }
}

TEST(MpcReader, ReadsEveryField) {
  const Scene scene = MpcReaderLoad(R"(  horizon: 20
  time_step: 0.05
  target: [3, -5, 0, 0]
  weights: {state: [1, 2, 3, 4], terminal: [5, 6, 7, 8], force: [10, 20]}
  bounds:
    state_lower: [-5, -6, -1.5, -1.5]
    state_upper: [2, 0, 1.5, 1.5]
    force_lower: [-5, -4]
    force_upper: [5, 4]
  contact_distance: 10
  big_m: {impulse_margin: 3, value: 0}
  solver: {node_limit: 100, time_limit: 2, absolute_gap: 1e-5, relative_gap: 1e-3,
           branching: most-fractional}
)");
  ASSERT_TRUE(scene.mpc.has_value());
  const MpcSettings& s = *scene.mpc;
  EXPECT_EQ(s.horizon, 20);
  EXPECT_EQ(s.time_step, 0.05);
  EXPECT_EQ(s.target, (Eigen::VectorXd(4) << 3, -5, 0, 0).finished());
  EXPECT_EQ(s.state_weight[3], 4);
  EXPECT_EQ(s.terminal_weight[0], 5);
  EXPECT_EQ(s.force_weight[1], 20);
  EXPECT_EQ(s.state_upper[1], 0);
  EXPECT_EQ(s.force_lower[1], -4);
  EXPECT_EQ(s.contact_distance, 10);
  EXPECT_EQ(s.impulse_margin, 3);
  EXPECT_EQ(s.node_limit, 100);
  EXPECT_EQ(s.time_limit, 2);
  EXPECT_EQ(s.absolute_gap, 1e-5);
  EXPECT_EQ(s.relative_gap, 1e-3);
  EXPECT_FALSE(s.pseudo_cost_branching);
}

TEST(MpcReader, DefaultsAndAnIncompleteBlock) {
  // The target and bounds may come from the command line or Python.
  const Scene scene = MpcReaderLoad("  horizon: 3\n");
  ASSERT_TRUE(scene.mpc.has_value());
  EXPECT_EQ(scene.mpc->horizon, 3);
  EXPECT_EQ(scene.mpc->target.size(), 0);
  EXPECT_TRUE(scene.mpc->pseudo_cost_branching);
  EXPECT_EQ(scene.mpc->impulse_margin, 2.0);
}

TEST(MpcReader, ProblemsAreReportedAtTheirLine) {
  ExpectError("  horizon: 0\n", 14, "mpc.horizon", "must be >= 1 (got 0)");
  ExpectError("  horizon: 5\n  target: [3, -5, 0]\n", 15, "mpc.target",
              "expected n_x = n_q + n_v = 4 numbers, got 3");
  ExpectError("  weights:\n    force: [10, 0]\n", 15, "mpc.weights.force",
              "entry 1 must be [1e-12, 1e+12] (got 0)");
  ExpectError("  bounds:\n    state_lower: [-5, -6, 2, -1]\n    state_upper: [2, 0, 1, 1]\n", 15,
              "mpc.bounds.state_lower", "entry 2 is above the upper bound (2 > 1)");
  ExpectError("  bounds:\n    force_lower: [-1, -1]\n", 14, "mpc.bounds",
              "both bounds of a box are needed");
  ExpectError("  solver: {branching: cleverest}\n", 14, "mpc.solver.branching",
              "unknown branching rule");
  ExpectError("  solver: {node_limit: 0}\n", 14, "mpc.solver.node_limit", "must be >= 1");
  ExpectError("  big_m: {impulse_margin: 0.5}\n", 14, "mpc.big_m.impulse_margin", "must be");
  ExpectError("  horizn: 5\n", 14, "mpc.horizn", "unknown key");
  ExpectError("  contact_distance: -1\n", 14, "mpc.contact_distance", ">= 0");
}

TEST(MpcReader, ASceneWithAFloatingBodyIsRefused) {
  const std::string scene = R"(name: floating
dimension: 3
time_step: 0.1
objects:
  - name: cube
    joint: floating
    body: {mass: 1.0, inertia: from_shapes, shapes: [{type: box, size: [0.1, 0.1, 0.1], friction: 0.5}]}
    initial: [0, 0, 0.05, 1, 0, 0, 0]
robots:
  - name: point
    bodies: [{name: tip, mass: 1.0, inertia: from_shapes, shapes: [{type: sphere, radius: 0.05, friction: 0.5}]}]
    joints: [{name: x, type: prismatic, parent: world, child: tip, axis: [1, 0, 0]}]
    stiffness: 100
    initial: [0]
mpc:
  horizon: 5
)";
  try {
    ReadSceneText(scene, "scene.yaml", ".");
    FAIL() << "no error";
  } catch (const SceneError& e) {
    EXPECT_EQ(e.field(), "mpc.state") << e.what();
    EXPECT_NE(std::string(e.what()).find("n_q = n_v"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace quasidyn
