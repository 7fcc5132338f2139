#include "quasidyn/kinematics/inverse_kinematics.h"

#include <gtest/gtest.h>

#include <Eigen/Geometry>
#include <cmath>
#include <stdexcept>

#include "quasidyn/kinematics/kinematics.h"
#include "quasidyn/testing/hand_built_scenes.h"
#include "quasidyn/testing/shared_scene.h"

namespace quasidyn {
namespace {

using testing::MakePose;
using testing::SceneBuilder;
using testing::TwoLinkArm;

// A spatial six-revolute arm (axes z, y, y, z, y, z) after a floating object, so that the
// robot's block of q does not start at 0.
struct SixJointArm {
  int instance = -1, hand = -1;
  Scene Build() {
    SceneBuilder builder;
    const int object = builder.AddInstance("ball", false);
    builder.AddBody(object, "ball", 0.1, Eigen::Vector3d::Zero(),
                    1e-3 * Eigen::Matrix3d::Identity(), JointType::kFloating, 0);
    instance = builder.AddInstance("arm", true);
    const Eigen::Vector3d axes[] = {Eigen::Vector3d::UnitZ(), Eigen::Vector3d::UnitY(),
                                    Eigen::Vector3d::UnitY(), Eigen::Vector3d::UnitZ(),
                                    Eigen::Vector3d::UnitY(), Eigen::Vector3d::UnitZ()};
    const Eigen::Vector3d offsets[] = {{0, 0, 0},    {0, 0, 0.3}, {0, 0, 0.4},
                                       {0, 0, 0.35}, {0, 0, 0.1}, {0, 0, 0.1}};
    int parent = 0;
    for (int i = 0; i < 6; ++i) {
      parent = builder.AddBody(instance, "link" + std::to_string(i), 1.0, Eigen::Vector3d::Zero(),
                               0.01 * Eigen::Matrix3d::Identity(), JointType::kRevolute, parent,
                               MakePose(0.0, Eigen::Vector3d::UnitX(), offsets[i]), axes[i]);
    }
    hand = parent;
    return builder.Build();
  }
};

TEST(InverseKinematicsTest, ReachesReachablePosition) {
  TwoLinkArm arm;
  const Scene scene = arm.Build();
  InverseKinematicsTarget target;
  target.body = arm.link2;
  target.point_B = Eigen::Vector3d(arm.l2, 0, 0);
  target.position_W = Eigen::Vector3d(1.2, 0.6, 0.0);  // |·| = 1.34 < l1 + l2 = 1.8
  InverseKinematicsSettings settings;
  const InverseKinematicsResult result =
      SolveInverseKinematics(scene, 0, target, Eigen::Vector2d(0.3, 0.5), settings);
  EXPECT_EQ(result.status, InverseKinematicsStatus::kConverged);
  EXPECT_LE(result.error, settings.tolerance);
  EXPECT_GT(result.iterations, 0);
  // Independent check of the answer: the closed-form tip position at the returned angles.
  const double t1 = result.q[0], t2 = result.q[1];
  const Eigen::Vector3d tip(arm.l1 * std::cos(t1) + arm.l2 * std::cos(t1 + t2),
                            arm.l1 * std::sin(t1) + arm.l2 * std::sin(t1 + t2), 0.0);
  EXPECT_LE((tip - target.position_W).norm(), settings.tolerance);
  // Law of cosines: cos θ2 is fixed by the target distance d: d² = l1² + l2² + 2 l1 l2 cos θ2.
  const double d2 = target.position_W.squaredNorm();
  const double cos_t2 = (d2 - arm.l1 * arm.l1 - arm.l2 * arm.l2) / (2 * arm.l1 * arm.l2);
  EXPECT_NEAR(std::cos(t2), cos_t2, 10 * settings.tolerance / (arm.l1 * arm.l2));
}

TEST(InverseKinematicsTest, ReportsMaxIterationsWhenUnreachable) {
  TwoLinkArm arm;
  const Scene scene = arm.Build();
  InverseKinematicsTarget target;
  target.body = arm.link2;
  target.point_B = Eigen::Vector3d(arm.l2, 0, 0);
  target.position_W = Eigen::Vector3d(3.0, 0.0, 0.0);
  InverseKinematicsSettings settings;
  settings.max_iterations = 50;
  const InverseKinematicsResult result =
      SolveInverseKinematics(scene, 0, target, Eigen::Vector2d(0.3, 0.5), settings);
  EXPECT_EQ(result.status, InverseKinematicsStatus::kMaxIterations);
  EXPECT_EQ(result.iterations, settings.max_iterations);
  // No configuration comes closer than 3 − (l1 + l2) = 1.2 m. (Where the iterates end is
  // not specified: near the stretched arm the damped Newton steps oscillate about θ2 = 0.)
  const double closest = 3.0 - (arm.l1 + arm.l2);
  EXPECT_GE(result.position_error, closest - 1e-12);
  EXPECT_TRUE(result.q.allFinite());
  // The reported error is that of the returned q: the closed-form tip distance.
  const double t1 = result.q[0], t2 = result.q[1];
  const Eigen::Vector3d tip(arm.l1 * std::cos(t1) + arm.l2 * std::cos(t1 + t2),
                            arm.l1 * std::sin(t1) + arm.l2 * std::sin(t1 + t2), 0.0);
  EXPECT_NEAR(result.position_error, (tip - target.position_W).norm(), 1e-12);
  EXPECT_DOUBLE_EQ(result.error, result.position_error);
}

TEST(InverseKinematicsTest, ReachesPoseWithOrientation) {
  SixJointArm arm;
  const Scene scene = arm.Build();
  // A target pose made reachable by construction: the forward kinematics of q_goal.
  Eigen::VectorXd q_goal = scene.q0;
  const int start = scene.instances[arm.instance].q_start;
  q_goal.segment(start, 6) << 0.5, -0.4, 0.7, 0.3, -0.6, 0.2;
  Kinematics kinematics(testing::Shared(scene));
  kinematics.Update(q_goal);
  InverseKinematicsTarget target;
  target.body = arm.hand;
  target.point_B = Eigen::Vector3d(0, 0, 0.05);
  target.position_W = kinematics.BodyPose(arm.hand) * target.point_B;
  target.orientation_W = kinematics.BodyPose(arm.hand).linear();

  Eigen::VectorXd q_initial = scene.q0;
  q_initial.segment(start, 6).setConstant(0.1);
  InverseKinematicsSettings settings;
  const InverseKinematicsResult result =
      SolveInverseKinematics(scene, arm.instance, target, q_initial, settings);
  ASSERT_EQ(result.status, InverseKinematicsStatus::kConverged);
  EXPECT_EQ(result.q.head(start), q_initial.head(start));  // the object is untouched
  kinematics.Update(result.q);
  const Eigen::Isometry3d& X_WH = kinematics.BodyPose(arm.hand);
  EXPECT_LE((X_WH * target.point_B - target.position_W).norm(), settings.tolerance);
  const Eigen::AngleAxisd rotation_error(X_WH.linear().transpose() * *target.orientation_W);
  EXPECT_LE(rotation_error.angle() * settings.orientation_length, settings.tolerance);
}

TEST(InverseKinematicsTest, RejectsBadInput) {
  TwoLinkArm arm;
  const Scene scene = arm.Build();
  InverseKinematicsTarget target;
  target.body = arm.link2;
  const Eigen::Vector2d q(0.1, 0.2);
  EXPECT_THROW(SolveInverseKinematics(scene, 3, target, q), std::invalid_argument);
  EXPECT_THROW(SolveInverseKinematics(scene, 0, target, Eigen::Vector3d::Zero()),
               std::invalid_argument);
  InverseKinematicsSettings bad_settings;
  bad_settings.damping = 0.0;
  EXPECT_THROW(SolveInverseKinematics(scene, 0, target, q, bad_settings), std::invalid_argument);
  target.position_W.x() = std::nan("");
  EXPECT_THROW(SolveInverseKinematics(scene, 0, target, q), std::invalid_argument);
  target.position_W.setZero();
  target.body = 7;
  EXPECT_THROW(SolveInverseKinematics(scene, 0, target, q), std::invalid_argument);
  target.body = arm.link2;
  target.orientation_W = 2.0 * Eigen::Matrix3d::Identity();
  EXPECT_THROW(SolveInverseKinematics(scene, 0, target, q), std::invalid_argument);
}

TEST(InverseKinematicsTest, RejectsUnactuatedInstance) {
  SixJointArm arm;
  const Scene scene = arm.Build();
  InverseKinematicsTarget target;
  target.body = arm.hand;
  EXPECT_THROW(SolveInverseKinematics(scene, 0, target, scene.q0), std::invalid_argument);
}

}  // namespace
}  // namespace quasidyn
