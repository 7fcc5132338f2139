#include "quasidyn/planning/configuration_sampler.h"

#include <gtest/gtest.h>

#include "quasidyn/math/quaternion.h"
#include "quasidyn/testing/example_states.h"

namespace quasidyn {
namespace {

TEST(ConfigurationSampler, PlanarSamplesFillTheBounds) {
  const ScenePtr scene = testing::LoadExample("planar_hand");
  const ObjectSpace space(*scene);
  const PlanningSettings& settings = *scene->planning;
  const ConfigurationSampler sampler(*scene, space, settings);
  Xoshiro256StarStar generator(9);
  Eigen::Vector3d low = Eigen::Vector3d::Constant(1e9), high = -low;
  for (int i = 0; i < 2000; ++i) {
    const Eigen::VectorXd q = sampler.Sample(&generator);
    ASSERT_EQ(q.size(), 3);
    for (int k = 0; k < 3; ++k) {
      ASSERT_GE(q[k], settings.lower[k]);
      ASSERT_LE(q[k], settings.upper[k]);
    }
    low = low.cwiseMin(q.head<3>());
    high = high.cwiseMax(q.head<3>());
  }
  // 2000 uniform samples come within 1 % of each end of every interval (probability of a miss
  // per end 0.99^2000 ≈ 2e-9).
  const Eigen::Vector3d width = settings.upper - settings.lower;
  EXPECT_TRUE(((low - settings.lower).array() < 0.01 * width.array()).all());
  EXPECT_TRUE(((settings.upper - high).array() < 0.01 * width.array()).all());
}

TEST(ConfigurationSampler, RotationsAboutAnAxisKeepTheAxis) {
  const ScenePtr scene = testing::LoadExample("box_turning");
  const ObjectSpace space(*scene);
  const ConfigurationSampler sampler(*scene, space, *scene->planning);  // axis z
  Xoshiro256StarStar generator(1);
  for (int i = 0; i < 200; ++i) {
    const Eigen::VectorXd q = sampler.Sample(&generator);
    const Eigen::Vector4d Q = q.segment<4>(3);
    ASSERT_NEAR(Q.norm(), 1.0, 1e-12);
    // The box's z axis stays vertical: a rotation about z of the initial (identity) orientation.
    const Eigen::Vector3d z = RotationMatrixFromQuaternion(Q).col(2);
    ASSERT_NEAR(z.z(), 1.0, 1e-12);
    ASSERT_EQ(q[2], 0.03);  // lower = upper in z
  }
}

TEST(ConfigurationSampler, UniformRotationsCoverSO3) {
  const ScenePtr scene = testing::LoadExample("box_turning");
  PlanningSettings settings = *scene->planning;
  settings.rotation_axis.reset();
  const ObjectSpace space(*scene);
  const ConfigurationSampler sampler(*scene, space, settings);
  Xoshiro256StarStar generator(2);
  // Uniform on SO(3): the rotated z axis is uniform on the sphere, so its z component is
  // uniform on [−1, 1], mean 0 and variance 1/3 (standard errors 0.013 and 0.006 at N = 2000).
  double mean = 0.0, square = 0.0;
  const int n = 2000;
  for (int i = 0; i < n; ++i) {
    const double z = RotationMatrixFromQuaternion(sampler.Sample(&generator).segment<4>(3))(2, 2);
    mean += z / n;
    square += z * z / n;
  }
  EXPECT_NEAR(mean, 0.0, 4 * 0.013);
  EXPECT_NEAR(square, 1.0 / 3.0, 4 * 0.006);
}

}  // namespace
}  // namespace quasidyn
