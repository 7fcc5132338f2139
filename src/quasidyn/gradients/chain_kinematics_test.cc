#include "quasidyn/gradients/chain_kinematics.h"

#include <gtest/gtest.h>

#include <random>
#include <stdexcept>
#include <string>

#include "quasidyn/kinematics/kinematics.h"
#include "quasidyn/testing/example_states.h"
#include "quasidyn/testing/hand_built_scenes.h"
#include "quasidyn/testing/shared_scene.h"

namespace quasidyn {
namespace {

using testing::LoadExample;

// The chain path repeats the dense path's floating-point operations (chain_kinematics.h), so
// the two agree to the last bit in the builds we use; the tests allow a few hundred ulps so
// they stay valid if a compiler fuses multiply-adds differently in the two translation units
// (and for BodyTwistAndWrench, which sums the same columns in another order). A wrong joint,
// column or subtree changes entries by O(step) = O(0.1).
constexpr double kRoundOff = 1e-13;

// Every joint type on one chain: a planar-free 3D robot (revolute → prismatic → revolute with
// offsets) and a floating object with a hinged lid (a body below a floating joint that is not
// its child); and a planar object beside them is not allowed in 3D, so it gets its own scene
// below.
Scene EveryJointType3d() {
  testing::SceneBuilder builder;
  const Eigen::Matrix3d inertia = Eigen::Vector3d(0.02, 0.03, 0.04).asDiagonal();
  const int box = builder.AddInstance("box", false);
  const int box_body = builder.AddBody(box, "box", 0.5, Eigen::Vector3d(0.01, -0.02, 0.03), inertia,
                                       JointType::kFloating, 0);
  builder.AddBody(box, "lid", 0.2, Eigen::Vector3d(0.0, 0.02, 0.0), inertia, JointType::kRevolute,
                  box_body,
                  testing::MakePose(0.4, Eigen::Vector3d(1, 0, 1), Eigen::Vector3d(0.1, 0.05, 0.2)),
                  Eigen::Vector3d(1, 0, 0));
  const int arm = builder.AddInstance("arm", true);
  const int link1 = builder.AddBody(
      arm, "link1", 1.0, Eigen::Vector3d(0.1, 0, 0), inertia, JointType::kRevolute, 0,
      testing::MakePose(0.3, Eigen::Vector3d(1, 0, 0), Eigen::Vector3d(0, 0, 0.2)),
      Eigen::Vector3d(0, 0, 1));
  const int link2 = builder.AddBody(
      arm, "link2", 0.8, Eigen::Vector3d(0, 0.05, 0), inertia, JointType::kPrismatic, link1,
      testing::MakePose(-0.4, Eigen::Vector3d(0, 1, 0), Eigen::Vector3d(0.3, 0, 0)),
      Eigen::Vector3d(1, 0, 0));
  builder.AddBody(arm, "link3", 0.6, Eigen::Vector3d(0, 0, 0.05), inertia, JointType::kRevolute,
                  link2,
                  testing::MakePose(0.7, Eigen::Vector3d(1, 1, 0), Eigen::Vector3d(0, 0.2, 0)),
                  Eigen::Vector3d(0, 1, 0));
  builder.AddBody(arm, "tool", 0.1, Eigen::Vector3d::Zero(), inertia, JointType::kFixed, link2,
                  testing::MakePose(0.2, Eigen::Vector3d(0, 0, 1), Eigen::Vector3d(0.1, 0, 0)));
  return builder.Build();
}

Scene PlanarObject() {
  testing::SceneBuilder builder;
  const Eigen::Matrix3d inertia = Eigen::Vector3d(0.02, 0.03, 0.04).asDiagonal();
  const int disk = builder.AddInstance("disk", false);
  builder.AddBody(disk, "disk", 0.5, Eigen::Vector3d(0.02, 0.01, 0), inertia, JointType::kPlanar, 0,
                  testing::MakePose(0.5, Eigen::Vector3d(0, 0, 1), Eigen::Vector3d(0.1, 0.2, 0)));
  const int arm = builder.AddInstance("arm", true);
  builder.AddBody(arm, "slider", 1.0, Eigen::Vector3d::Zero(), inertia, JointType::kPrismatic, 0,
                  Eigen::Isometry3d::Identity(), Eigen::Vector3d(0, 1, 0));
  return builder.Build();
}

// A random configuration away from q0: q0 ⊕ v for a random v with entries in [−1, 1].
Eigen::VectorXd RandomConfiguration(const Scene& scene, std::mt19937* random) {
  std::uniform_real_distribution<double> uniform(-1.0, 1.0);
  Eigen::VectorXd v(scene.nv);
  for (int i = 0; i < scene.nv; ++i) v[i] = uniform(*random);
  return IntegrateConfiguration(scene, scene.q0, v, 1.0);
}

Eigen::MatrixXd Dense(const SparseJacobian3& J, int nv) {
  Eigen::MatrixXd dense = Eigen::MatrixXd::Zero(3, nv);
  for (size_t c = 0; c < J.index.size(); ++c) dense.col(J.index[c]) = J.column[c];
  return dense;
}

double PoseError(const Eigen::Isometry3d& a, const Eigen::Isometry3d& b) {
  return (a.matrix() - b.matrix()).cwiseAbs().maxCoeff();
}

// Poses, Jacobians and the two products at q ⊕ step e_k for every k, against Kinematics at
// IntegrateConfiguration(q, e_k, step).
void CheckAgainstDenseKinematics(const Scene& scene_value, int configurations) {
  const ScenePtr scene_ptr = testing::Shared(scene_value);
  const Scene& scene = *scene_ptr;
  std::mt19937 random(11);
  std::uniform_real_distribution<double> uniform(-1.0, 1.0);
  ChainKinematics chain(scene_ptr);
  Kinematics dense(scene_ptr);
  Eigen::MatrixXd J_dense;
  SparseJacobian3 J;
  const int body_count = static_cast<int>(scene.bodies.size());
  for (int trial = 0; trial < configurations; ++trial) {
    const Eigen::VectorXd q = RandomConfiguration(scene, &random);
    chain.SetConfiguration(q);
    Eigen::VectorXd v(scene.nv);
    for (int i = 0; i < scene.nv; ++i) v[i] = uniform(random);
    const Eigen::Vector3d f(uniform(random), uniform(random), uniform(random));
    Kinematics at_q(scene_ptr);
    at_q.Update(q);
    for (int k = 0; k < scene.nv; ++k) {
      for (const double step : {0.3, -0.2}) {
        const std::string where = "trial " + std::to_string(trial) + ", direction " +
                                  std::to_string(k) + ", step " + std::to_string(step);
        chain.Perturb(k, step);
        dense.Update(IntegrateConfiguration(scene, q, Eigen::VectorXd::Unit(scene.nv, k), step));
        const int joint = chain.JointOfVelocity(k);
        EXPECT_GE(k, scene.joints[joint].v_start) << where;
        EXPECT_LT(k, scene.joints[joint].v_start + JointNv(scene.joints[joint].type)) << where;
        for (int b = 0; b < body_count; ++b) {
          EXPECT_LT(PoseError(chain.BodyPoses()[b], dense.BodyPose(b)), kRoundOff)
              << where << ", body " << b;
          const Eigen::Vector3d p_W =
              dense.BodyPose(b) * Eigen::Vector3d(uniform(random), uniform(random), 0.1);
          dense.PointJacobian(b, p_W, &J_dense);
          chain.PointJacobian(b, p_W, &J);
          EXPECT_LT((Dense(J, scene.nv) - J_dense).cwiseAbs().maxCoeff(), kRoundOff)
              << where << ", body " << b;
          // J v, to round-off of |J| |v|.
          const double scale = 1.0 + J_dense.cwiseAbs().maxCoeff();
          EXPECT_LT((J.Times(v) - J_dense * v).cwiseAbs().maxCoeff(), kRoundOff * scale * scene.nv)
              << where;
          dense.RotationalJacobian(b, &J_dense);
          chain.RotationalJacobian(b, &J);
          EXPECT_LT((Dense(J, scene.nv) - J_dense).cwiseAbs().maxCoeff(), kRoundOff)
              << where << ", body " << b;
          // The body's twist and the generalised force of a force f at p_W (as a wrench about
          // its origin o): J_p v = v_o + ω × (p − o), ω = J_ω v, out += J_pᵀ f, to round-off.
          Eigen::Vector3d omega, origin_velocity;
          const Eigen::Vector3d origin = chain.BodyPoses()[b].translation();
          Eigen::VectorXd out = Eigen::VectorXd::Constant(scene.nv, 0.5);
          chain.BodyTwistAndWrench(b, v, f, (p_W - origin).cross(f), &omega, &origin_velocity, out);
          dense.PointJacobian(b, p_W, &J_dense);
          const Eigen::VectorXd expected =
              Eigen::VectorXd::Constant(scene.nv, 0.5) + J_dense.transpose() * f;
          EXPECT_LT(
              (origin_velocity + omega.cross(p_W - origin) - J_dense * v).cwiseAbs().maxCoeff(),
              kRoundOff * scale * scene.nv)
              << where << ", body " << b;
          EXPECT_LT((out - expected).cwiseAbs().maxCoeff(), kRoundOff * scale * (1.0 + p_W.norm()))
              << where << ", body " << b;
          dense.RotationalJacobian(b, &J_dense);
          EXPECT_LT((omega - J_dense * v).cwiseAbs().maxCoeff(), kRoundOff * scene.nv)
              << where << ", body " << b;
          // MovedBy: exactly the bodies whose pose the direction changes.
          const bool moved = PoseError(chain.BodyPoses()[b], at_q.BodyPose(b)) > 1e-6;
          EXPECT_EQ(chain.MovedBy(b, joint), moved) << where << ", body " << b;
        }
        chain.Restore();
      }
    }
  }
}

TEST(ChainKinematics, MatchesKinematicsEveryJointType3d) {
  CheckAgainstDenseKinematics(EveryJointType3d(), 3);
}

TEST(ChainKinematics, MatchesKinematicsPlanarObject) {
  CheckAgainstDenseKinematics(PlanarObject(), 3);
}

TEST(ChainKinematics, MatchesKinematicsExamples) {
  CheckAgainstDenseKinematics(*LoadExample("planar_hand"), 2);
  CheckAgainstDenseKinematics(*LoadExample("planar_gripper"), 2);
  CheckAgainstDenseKinematics(*LoadExample("arm_cubes"), 1);
}

// The columns' spatial twists reproduce PointJacobian and RotationalJacobian, and their
// derivatives along every direction (Bracket where TwistMovedBy, else zero) match central
// differences of the twists at q ⊕ ±δ e_k (Perturb): truncation δ²|∂³S| and round-off
// ε_machine|S|/δ, ≈ 1e-10 with δ = 1e-5 on these scenes of unit size; a wrong dependency
// (a column carried that is not, or the other way) is O(1).
void CheckColumnTwistDerivatives(const Scene& scene_value, int configurations) {
  const ScenePtr scene_ptr = testing::Shared(scene_value);
  const Scene& scene = *scene_ptr;
  std::mt19937 random(13);
  ChainKinematics chain(scene_ptr);
  SparseJacobian3 J, R;
  std::vector<SpatialTwist> S, plus, minus;
  const double delta = 1e-5;
  int carried = 0;
  for (int trial = 0; trial < configurations; ++trial) {
    const Eigen::VectorXd q = RandomConfiguration(scene, &random);
    chain.SetConfiguration(q);
    chain.ColumnTwists(&S);
    ASSERT_EQ(static_cast<int>(S.size()), scene.nv);
    for (int b = 1; b < static_cast<int>(scene.bodies.size()); ++b) {
      const Eigen::Vector3d p_W = chain.BodyPoses()[b] * Eigen::Vector3d(0.1, -0.2, 0.3);
      chain.PointJacobian(b, p_W, &J);
      chain.RotationalJacobian(b, &R);
      ASSERT_EQ(J.index, chain.ChainColumns(b));
      for (size_t c = 0; c < J.index.size(); ++c) {
        EXPECT_LT((S[J.index[c]].PointVelocity(p_W) - J.column[c]).norm(), kRoundOff) << b;
        EXPECT_LT((S[J.index[c]].angular - R.column[c]).norm(), kRoundOff) << b;
      }
    }
    for (int k = 0; k < scene.nv; ++k) {
      chain.Perturb(k, delta);
      chain.ColumnTwists(&plus);
      chain.Perturb(k, -delta);
      chain.ColumnTwists(&minus);
      chain.Restore();
      for (int c = 0; c < scene.nv; ++c) {
        const bool moved = chain.TwistMovedBy(c, k);
        const SpatialTwist rate = moved ? Bracket(S[k], S[c]) : SpatialTwist{};
        carried += moved ? 1 : 0;
        const Eigen::Vector3d angular = (plus[c].angular - minus[c].angular) / (2.0 * delta);
        const Eigen::Vector3d linear = (plus[c].linear - minus[c].linear) / (2.0 * delta);
        EXPECT_LT((rate.angular - angular).norm(), 1e-8) << "column " << c << ", direction " << k;
        EXPECT_LT((rate.linear - linear).norm(), 1e-8) << "column " << c << ", direction " << k;
      }
    }
  }
  EXPECT_GT(carried, 0);
}

TEST(ChainKinematics, ColumnTwistDerivativesMatchDifferences) {
  CheckColumnTwistDerivatives(EveryJointType3d(), 3);
  CheckColumnTwistDerivatives(PlanarObject(), 3);
  CheckColumnTwistDerivatives(*LoadExample("planar_hand"), 2);
  CheckColumnTwistDerivatives(*LoadExample("arm_cubes"), 1);
}

// Restore returns to the base poses exactly, and a second Perturb without Restore is still the
// perturbation of the base (one direction at a time).
TEST(ChainKinematics, RestoreAndRepeatedPerturb) {
  const ScenePtr scene_ptr = LoadExample("arm_cubes");
  const Scene& scene = *scene_ptr;
  std::mt19937 random(3);
  const Eigen::VectorXd q = RandomConfiguration(scene, &random);
  ChainKinematics chain(scene_ptr);
  chain.SetConfiguration(q);
  const std::vector<Eigen::Isometry3d> base = chain.BodyPoses();
  Kinematics dense(scene_ptr);
  dense.Update(q);
  for (size_t b = 0; b < base.size(); ++b)
    EXPECT_LT(PoseError(base[b], dense.BodyPose(static_cast<int>(b))), kRoundOff);
  const int last = scene.nv - 1, first_robot = scene.nv_u;
  chain.Perturb(first_robot, 0.2);
  chain.Perturb(last, 0.1);  // restores first_robot's perturbation first
  dense.Update(IntegrateConfiguration(scene, q, Eigen::VectorXd::Unit(scene.nv, last), 0.1));
  for (size_t b = 0; b < base.size(); ++b)
    EXPECT_LT(PoseError(chain.BodyPoses()[b], dense.BodyPose(static_cast<int>(b))), kRoundOff);
  chain.Restore();
  for (size_t b = 0; b < base.size(); ++b)
    EXPECT_TRUE(chain.BodyPoses()[b].matrix() == base[b].matrix()) << "body " << b;
}

TEST(ChainKinematics, RejectsBadUse) {
  const ScenePtr scene_ptr = LoadExample("planar_gripper");
  const Scene& scene = *scene_ptr;
  ChainKinematics chain(scene_ptr);
  EXPECT_THROW(chain.Perturb(0, 1e-3), std::logic_error);
  EXPECT_THROW(chain.SetConfiguration(scene.q0.head(1)), std::invalid_argument);
  Eigen::VectorXd bad = scene.q0;
  bad[0] = std::nan("");
  EXPECT_THROW(chain.SetConfiguration(bad), std::invalid_argument);
  chain.SetConfiguration(scene.q0);
  EXPECT_THROW(chain.Perturb(-1, 1e-3), std::invalid_argument);
  EXPECT_THROW(chain.Perturb(scene.nv, 1e-3), std::invalid_argument);
  EXPECT_THROW(chain.Perturb(0, std::nan("")), std::invalid_argument);
}

}  // namespace
}  // namespace quasidyn
