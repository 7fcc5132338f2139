#include "quasidyn/planning/object_space.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "quasidyn/math/quaternion.h"
#include "quasidyn/testing/example_states.h"
#include "quasidyn/testing/matrix_compare.h"

namespace quasidyn {
namespace {

constexpr double kEps = std::numeric_limits<double>::epsilon();

TEST(ObjectSpace, PlanarDifferenceWrapsTheAngle) {
  const ScenePtr scene = testing::LoadExample("planar_hand");
  const ObjectSpace space(*scene);
  ASSERT_EQ(space.tangent_size(), 3);
  Eigen::VectorXd a = scene->q0, b = scene->q0;
  a.head<3>() << 0.1, 0.2, M_PI - 0.1;
  b.head<3>() << 0.0, 0.0, -M_PI + 0.1;
  const Eigen::VectorXd d = space.Difference(a, b);
  EXPECT_NEAR(d[0], 0.1, 4 * kEps);
  EXPECT_NEAR(d[1], 0.2, 4 * kEps);
  EXPECT_NEAR(d[2], -0.2, 16 * kEps);  // 2π − 0.2 the other way round
  EXPECT_NEAR(WrapAngle(3 * M_PI / 2), -M_PI / 2, 8 * kEps);
}

TEST(ObjectSpace, QuaternionDifferenceIsTheRotationVectorAndSignInvariant) {
  const Eigen::Vector4d Q_b = NormalizeQuaternion(Eigen::Vector4d(0.9, 0.1, -0.3, 0.2));
  const Eigen::Vector3d r(0.3, -0.5, 0.7);  // 0.91 rad
  const Eigen::Vector4d Q_a = QuaternionProduct(QuaternionFromRotationVector(r), Q_b);
  EXPECT_TRUE(testing::MatricesNear(QuaternionDifference(Q_a, Q_b), r, 64 * kEps));
  EXPECT_TRUE(testing::MatricesNear(QuaternionDifference(-Q_a, Q_b), r, 64 * kEps));
  EXPECT_TRUE(testing::MatricesNear(QuaternionDifference(Q_a, -Q_b), r, 64 * kEps));
  // The shorter of the two rotations: angle <= π.
  const Eigen::Vector3d long_way(0, 0, 1.5 * M_PI);
  const Eigen::Vector4d Q_c = QuaternionFromRotationVector(long_way);
  EXPECT_NEAR(QuaternionDifference(Q_c, IdentityQuaternion())[2], -0.5 * M_PI, 64 * kEps);
}

TEST(ObjectSpace, TangentRowsMapRawMotionToTheDifference) {
  const ScenePtr scene = testing::LoadExample("box_turning");
  const ObjectSpace space(*scene);
  ASSERT_EQ(space.tangent_size(), 6);
  Eigen::VectorXd q = scene->q0;
  q.segment<4>(3) = NormalizeQuaternion(Eigen::Vector4d(0.8, 0.1, 0.2, 0.5));
  // A raw motion δq of the object coordinates (one column) moves q to q + t δq; its tangent
  // rows must match (q + t δq) ⊖ q / t to first order (central differences).
  Eigen::MatrixXd raw(7, 1);
  raw << 0.1, -0.2, 0.05, 0.3, -0.1, 0.4, 0.2;
  const Eigen::MatrixXd tangent = space.TangentRows(q, raw);
  const double t = 1e-6;
  Eigen::VectorXd plus = q, minus = q;
  plus.head<7>() += t * raw.col(0);
  minus.head<7>() -= t * raw.col(0);
  const Eigen::VectorXd fd = (space.Difference(plus, q) - space.Difference(minus, q)) / (2 * t);
  // Central differences: truncation O(t²) ≈ 1e-12, round-off ε/t ≈ 2e-10.
  EXPECT_TRUE(testing::MatricesNear(tangent, fd, 1e-8));
}

TEST(ObjectSpace, GoalDistanceWeighsMetresAndRadians) {
  const ScenePtr scene = testing::LoadExample("planar_hand");
  const ObjectSpace space(*scene);
  PlanningSettings settings;
  settings.position_weight = 2.0;
  settings.rotation_weight = 0.5;
  Eigen::VectorXd q = scene->q0, goal = scene->q0;
  q.head<3>() << 0.03, 0.04, 0.1;
  goal.head<3>() << 0.0, 0.0, 0.1 + 2 * M_PI + 0.4;  // 0.4 rad apart modulo 2π
  EXPECT_NEAR(space.GoalDistance(q, goal.head(3), settings),
              std::sqrt(std::pow(2.0 * 0.05, 2) + std::pow(0.5 * 0.4, 2)), 1e-14);
}

// δqᵀ W δq = D² to second order: for a small motion of size s the two differ by O(s³).
TEST(ObjectSpace, CoordinateWeightsGiveTheSquaredDistanceNearby) {
  PlanningSettings settings;
  settings.position_weight = 10.0;
  settings.rotation_weight = 0.7;
  for (const char* example : {"box_turning", "planar_hand"}) {
    const ScenePtr scene = testing::LoadExample(example);
    const ObjectSpace space(*scene);
    const Eigen::VectorXd w = space.CoordinateWeights(settings);
    ASSERT_EQ(w.size(), space.coordinate_size()) << example;
    Eigen::VectorXd q = scene->q0;
    if (space.coordinate_size() == 7)
      q.segment<4>(3) = NormalizeQuaternion(Eigen::Vector4d(0.8, 0.1, 0.2, 0.5));
    for (const double s : {1e-3, 1e-4}) {
      Eigen::VectorXd moved = q;
      if (space.coordinate_size() == 7) {
        moved.head<3>() += s * Eigen::Vector3d(0.3, -0.4, 0.2);
        moved.segment<4>(3) = QuaternionProduct(
            QuaternionFromRotationVector(s * Eigen::Vector3d(0.5, 0.2, -0.6)), q.segment<4>(3));
      } else {
        moved.head<3>() += s * Eigen::Vector3d(0.3, -0.4, 0.5);
      }
      const Eigen::VectorXd dq = (moved - q).head(space.coordinate_size());
      const double quadratic = dq.dot(w.asDiagonal() * dq);
      const double squared = std::pow(space.GoalDistance(moved, q, settings), 2);
      // Relative agreement O(s): the quaternion's chord against its arc.
      EXPECT_NEAR(quadratic / squared, 1.0, 2.0 * s) << example << " s = " << s;
    }
  }
}

TEST(ObjectSpace, RejectsASceneWithoutObjects) {
  Scene empty;
  empty.name = "empty";
  EXPECT_THROW(ObjectSpace{empty}, std::invalid_argument);
}

}  // namespace
}  // namespace quasidyn
