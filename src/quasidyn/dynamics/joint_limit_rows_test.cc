// The joint-limit rows (dynamics/joint_limit_rows.h): which bounds give rows, their offsets and
// directions, the rows appended to a program, and the limits' generalized impulse.

#include "quasidyn/dynamics/joint_limit_rows.h"

#include <gtest/gtest.h>

#include <limits>

#include "quasidyn/scenes/scene_loading.h"

namespace quasidyn {
namespace {

// A free object (no limit rows: its joint has none) before a robot with a limited prismatic
// joint, an unlimited revolute one and a revolute one limited above only (URDF cannot say
// that; the scene model can).
Scene LimitedRobot() {
  Scene scene = LoadSceneFromString(
      "name: limited\ndimension: 2\ngravity: [0, 0, 0]\ntime_step: 0.1\n"
      "objects:\n  - name: ball\n    joint: planar\n"
      "    body: {mass: 1, inertia: from_shapes, shapes: [{type: sphere, radius: 0.1, "
      "friction: 0.5}]}\n    initial: [1, 1, 0]\n"
      "robots:\n  - name: arm\n    bodies:\n"
      "      - {name: a, mass: 1, inertia: {principal: [1, 1, 1]}}\n"
      "      - {name: b, mass: 1, inertia: {principal: [1, 1, 1]}}\n"
      "      - {name: c, mass: 1, inertia: {principal: [1, 1, 1]}}\n"
      "    joints:\n"
      "      - {name: x, type: prismatic, parent: world, child: a, axis: [1, 0, 0],\n"
      "         limits: [-0.5, 0.25]}\n"
      "      - {name: r, type: revolute, parent: a, child: b, axis: [0, 0, 1]}\n"
      "      - {name: s, type: revolute, parent: b, child: c, axis: [0, 0, 1],\n"
      "         limits: [-1, 2]}\n"
      "    stiffness: 10\n    initial: [0, 0, 0.5]\n",
      "limited.yaml", ".");
  scene.joints[scene.bodies[scene.BodyIndex("arm/c")].parent_joint].lower_limit =
      -std::numeric_limits<double>::infinity();
  return scene;
}

TEST(JointLimitRows, OneRowPerFiniteBoundWithItsOffset) {
  const Scene scene = LimitedRobot();
  ASSERT_EQ(scene.nq, 6);
  Eigen::VectorXd q(6);
  q << 1, 1, 0, 0.2, 3.0, 1.5;
  JointLimitRows rows;
  BuildJointLimitRows(scene, q, 0.1, &rows);
  ASSERT_EQ(rows.size(), 3);  // x lower, x upper, s upper
  EXPECT_EQ(rows.rows[0].velocity, 3);
  EXPECT_EQ(rows.rows[0].direction, 1.0);
  EXPECT_EQ(rows.rows[1].direction, -1.0);
  EXPECT_EQ(rows.rows[2].velocity, 5);
  EXPECT_EQ(rows.rows[2].direction, -1.0);
  // o_l = d (q − bound)/h: (0.2 + 0.5)/0.1, (0.25 − 0.2)/0.1, (2 − 1.5)/0.1.
  EXPECT_NEAR(rows.offset[0], 7.0, 1e-12);
  EXPECT_NEAR(rows.offset[1], 0.5, 1e-12);
  EXPECT_NEAR(rows.offset[2], 5.0, 1e-12);
  // The slack at v: the distance to the bound after the step over h.
  Eigen::VectorXd v = Eigen::VectorXd::Zero(6);
  v[3] = 1.0;  // x moves 0.1: 0.05 past its upper bound
  EXPECT_NEAR(JointLimitSlack(rows, 1, v), -0.5, 1e-12);
  EXPECT_NEAR(JointLimitSlack(rows, 0, v), 8.0, 1e-12);
}

TEST(JointLimitRows, RowsAndImpulseAgreeWithTheJacobian) {
  const Scene scene = LimitedRobot();
  JointLimitRows rows;
  BuildJointLimitRows(scene, scene.q0, 0.1, &rows);
  SparseRowMatrix G(scene.nv);
  Eigen::VectorXd rhs(2 + rows.size());
  AppendJointLimitRows(rows, &G, &rhs, 2);
  EXPECT_TRUE(G.ToDense().isApprox(JointLimitJacobian(rows, scene.nv)));
  EXPECT_TRUE(rhs.tail(rows.size()).isApprox(-rows.offset));
  // The impulse Σ d_l λ_l e_j equals Gᵀ λ.
  const Eigen::Vector3d lambda(0.5, 2.0, 3.0);
  Eigen::VectorXd impulse;
  JointLimitImpulse(rows, lambda, scene.nv, &impulse);
  EXPECT_TRUE(impulse.isApprox(JointLimitJacobian(rows, scene.nv).transpose() * lambda));
  EXPECT_NEAR(impulse[3], -1.5, 1e-15);
  EXPECT_THROW(JointLimitImpulse(rows, Eigen::Vector2d(1, 1), scene.nv, &impulse),
               std::invalid_argument);
}

}  // namespace
}  // namespace quasidyn
