#include "quasidyn/planning/reachability_metric.h"

#include <gtest/gtest.h>

#include <Eigen/LU>
#include <algorithm>
#include <limits>
#include <vector>

#include "quasidyn/formulations/registry.h"
#include "quasidyn/gradients/randomized_smoothing_sampler.h"
#include "quasidyn/math/quaternion.h"
#include "quasidyn/planning/node_linearizer.h"
#include "quasidyn/planning/rrt.h"
#include "quasidyn/testing/example_states.h"
#include "quasidyn/testing/malloc_counter.h"
#include "quasidyn/testing/matrix_compare.h"

namespace quasidyn {
namespace {

constexpr double kEps = std::numeric_limits<double>::epsilon();

// d(q; q̄) = ½ eᵀ (B Bᵀ + λ I)⁻¹ e by a dense inverse, the definition.
double DefinitionDistance(const Eigen::VectorXd& e, const Eigen::MatrixXd& B, double lambda) {
  Eigen::MatrixXd gram = B * B.transpose();
  gram.diagonal().array() += lambda;
  return 0.5 * e.dot(gram.inverse() * e);
}

TEST(ReachabilityMetric, MatchesItsDefinitionOnRandomPlanarCases) {
  const ScenePtr scene = testing::LoadExample("planar_hand");
  const ObjectSpace space(*scene);
  Xoshiro256StarStar generator(7);
  for (int trial = 0; trial < 20; ++trial) {
    const Eigen::VectorXd mu = scene->q0 + 0.1 * StandardNormalVector(&generator, scene->nq);
    Eigen::MatrixXd B(3, 4);
    for (int j = 0; j < 4; ++j) B.col(j) = 0.2 * StandardNormalVector(&generator, 3);
    const double lambda = trial % 2 ? 1e-3 : 1e-6;
    const NodeReachability metric(space, mu, B, lambda);
    Eigen::VectorXd q = mu + 0.3 * StandardNormalVector(&generator, scene->nq);
    const Eigen::VectorXd e = space.Difference(q, mu);
    Eigen::VectorXd scratch;
    const double expected = DefinitionDistance(e, B, lambda);
    // The Cholesky route and the dense inverse agree to the conditioning (‖B‖²/λ <= 1e6) × ε.
    EXPECT_NEAR(metric.Distance(space, q, &scratch), expected, 1e-9 * expected);
    // δu = argmin ‖B δu − e‖² + λ‖δu‖² = (BᵀB + λI)⁻¹ Bᵀ e (the normal equations).
    Eigen::MatrixXd normal = B.transpose() * B;
    normal.diagonal().array() += lambda;
    const Eigen::VectorXd du = normal.inverse() * (B.transpose() * e);
    EXPECT_TRUE(
        testing::MatricesNear(metric.Command(space, q), du, 1e-8 * (1 + du.cwiseAbs().maxCoeff())));
  }
}

// Weighted (the goal distance's units): d = ½ (We)ᵀ (W B Bᵀ W + λ I)⁻¹ (We) and δu = argmin
// ‖W (B δu − e)‖² + λ ‖δu‖² = (Bᵀ W² B + λ I)⁻¹ Bᵀ W² e, on a floating object with position
// weight 10 and rotation weight 2; unit weights give the unweighted metric bit for bit.
TEST(ReachabilityMetric, WeightedMetricMatchesItsDefinition) {
  const ScenePtr scene = testing::LoadExample("box_turning");
  const ObjectSpace space(*scene);
  PlanningSettings settings;
  settings.position_weight = 10.0;
  settings.rotation_weight = 2.0;
  const Eigen::VectorXd weights = MetricWeights(space, settings);
  ASSERT_EQ(weights.size(), 6);
  EXPECT_EQ(weights, (Eigen::VectorXd(6) << 10, 10, 10, 2, 2, 2).finished());
  Xoshiro256StarStar generator(11);
  for (int trial = 0; trial < 10; ++trial) {
    Eigen::MatrixXd B(7, scene->nq_a);
    for (int j = 0; j < scene->nq_a; ++j) B.col(j) = 0.2 * StandardNormalVector(&generator, 7);
    const double lambda = 1e-3;
    const NodeReachability weighted(space, scene->q0, B, lambda, weights);
    const NodeReachability plain(space, scene->q0, B, lambda);
    Eigen::VectorXd q = scene->q0;
    q.head(3) += 0.02 * StandardNormalVector(&generator, 3);
    q.segment<4>(3) = QuaternionFromRotationVector(0.3 * StandardNormalVector(&generator, 3));
    const Eigen::VectorXd e = space.Difference(q, scene->q0);
    const Eigen::MatrixXd Bt = plain.B();  // tangent rows, unweighted
    EXPECT_EQ(weighted.B(), weights.asDiagonal() * Bt);
    Eigen::VectorXd scratch;
    const Eigen::VectorXd We = weights.asDiagonal() * e;
    const double expected = DefinitionDistance(We, weights.asDiagonal() * Bt, lambda);
    EXPECT_NEAR(weighted.Distance(space, q, &scratch), expected, 1e-9 * expected);
    Eigen::MatrixXd normal = Bt.transpose() * weights.array().square().matrix().asDiagonal() * Bt;
    normal.diagonal().array() += lambda;
    const Eigen::VectorXd du =
        normal.inverse() * (Bt.transpose() * (weights.array().square() * e.array()).matrix());
    EXPECT_TRUE(testing::MatricesNear(weighted.Command(space, q), du,
                                      1e-8 * (1 + du.cwiseAbs().maxCoeff())));
    // Position counts ten times more: a 1 cm miss of a node that cannot move the box (B = 0)
    // costs 100 times what it costs unweighted.
    const NodeReachability stuck_weighted(space, scene->q0, Eigen::MatrixXd::Zero(7, scene->nq_a),
                                          lambda, weights);
    const NodeReachability stuck(space, scene->q0, Eigen::MatrixXd::Zero(7, scene->nq_a), lambda);
    Eigen::VectorXd shifted = scene->q0;
    shifted[0] += 0.01;
    const double unweighted = stuck.Distance(space, shifted, &scratch);
    EXPECT_NEAR(stuck_weighted.Distance(space, shifted, &scratch), 100 * unweighted,
                1e-12 * unweighted);
  }
  // Unit weights: no weights at all, the same metric.
  EXPECT_EQ(MetricWeights(space, PlanningSettings()).size(), 0);
  // A zero weight (a goal that ignores rotations) leaves that direction unweighted.
  settings.rotation_weight = 0.0;
  EXPECT_EQ(MetricWeights(space, settings), (Eigen::VectorXd(6) << 10, 10, 10, 1, 1, 1).finished());
  // Planar objects: x, y and θ.
  const ScenePtr planar = testing::LoadExample("planar_hand");
  const ObjectSpace planar_space(*planar);
  settings.rotation_weight = 3.0;
  EXPECT_EQ(MetricWeights(planar_space, settings), Eigen::Vector3d(10, 10, 3));
}

TEST(ReachabilityMetric, RejectsBadWeights) {
  const ScenePtr scene = testing::LoadExample("planar_hand");
  const ObjectSpace space(*scene);
  const Eigen::MatrixXd B = Eigen::MatrixXd::Zero(3, 4);
  EXPECT_THROW(NodeReachability(space, scene->q0, B, 1e-3, Eigen::VectorXd::Ones(2)),
               std::invalid_argument);
  EXPECT_THROW(NodeReachability(space, scene->q0, B, 1e-3, Eigen::Vector3d(1, 0, 1)),
               std::invalid_argument);
  EXPECT_THROW(NodeReachability(space, scene->q0, B, 1e-3,
                                Eigen::Vector3d(1, std::numeric_limits<double>::infinity(), 1)),
               std::invalid_argument);
}

TEST(ReachabilityMetric, AnImmovableObjectIsFarAndTheRangeOfBIsNear) {
  const ScenePtr scene = testing::LoadExample("planar_hand");
  const ObjectSpace space(*scene);
  const double lambda = 1e-3;
  const Eigen::VectorXd mu = scene->q0;
  Eigen::VectorXd scratch;
  // B = 0: no command moves the object; d = ½ ‖e‖² / λ.
  const NodeReachability stuck(space, mu, Eigen::MatrixXd::Zero(3, 4), lambda);
  Eigen::VectorXd q = mu;
  q[0] += 0.01;
  EXPECT_NEAR(stuck.Distance(space, q, &scratch), 0.5 * 1e-4 / lambda, 1e-12);
  // B moves x only (1 m per unit command): 0.01 m along x costs ½ (0.01)²/(1 + λ), along y
  // it costs ½ (0.01)²/λ, 1000 times more.
  Eigen::MatrixXd B = Eigen::MatrixXd::Zero(3, 4);
  B(0, 0) = 1.0;
  const NodeReachability along_x(space, mu, B, lambda);
  Eigen::VectorXd qy = mu;
  qy[1] += 0.01;
  EXPECT_NEAR(along_x.Distance(space, q, &scratch), 0.5 * 1e-4 / (1 + lambda), 1e-15);
  EXPECT_NEAR(along_x.Distance(space, qy, &scratch), 0.5 * 1e-4 / lambda, 1e-12);
}

TEST(ReachabilityMetric, QuaternionObjectsAreComparedInTheTangentSpace) {
  const ScenePtr scene = testing::LoadExample("box_turning");
  const ObjectSpace space(*scene);
  Xoshiro256StarStar generator(3);
  Eigen::MatrixXd B(7, 3);
  for (int j = 0; j < 3; ++j) B.col(j) = StandardNormalVector(&generator, 7);
  const NodeReachability metric(space, scene->q0, B, 1e-3);
  Eigen::VectorXd q = scene->q0;
  q.segment<4>(3) = QuaternionFromRotationVector(Eigen::Vector3d(0.1, 0.0, 0.4));
  Eigen::VectorXd flipped = q;
  flipped.segment<4>(3) *= -1.0;  // the same orientation
  Eigen::VectorXd scratch;
  const double d = metric.Distance(space, q, &scratch);
  EXPECT_EQ(d, metric.Distance(space, flipped, &scratch));
  EXPECT_NEAR(d, DefinitionDistance(space.Difference(q, scene->q0), metric.B(), 1e-3), 1e-9 * d);
}

// A nearest-node search refactors nothing: distances to 2000 nodes (planar and quaternion
// objects) allocate nothing once the scratch is sized (a factorisation would: Eigen's LLT
// allocates its matrix), and each equals its definition.
TEST(ReachabilityMetric, NearestNodeSearchAllocatesNothing) {
  for (const char* example : {"planar_hand", "box_turning"}) {
    SCOPED_TRACE(example);
    const ScenePtr scene = testing::LoadExample(example);
    const ObjectSpace space(*scene);
    Xoshiro256StarStar generator(4);
    std::vector<NodeReachability> nodes;
    for (int i = 0; i < 2000; ++i) {
      Eigen::MatrixXd B(scene->nq_u, scene->nq_a);
      for (int j = 0; j < scene->nq_a; ++j)
        B.col(j) = 0.3 * StandardNormalVector(&generator, scene->nq_u);
      nodes.emplace_back(space, scene->q0, B, 1e-3);
    }
    Eigen::VectorXd q = scene->q0;
    q.head(2).array() += 0.05;
    Eigen::VectorXd scratch;
    nodes.front().Distance(space, q, &scratch);  // sizes the scratch
    double nearest = std::numeric_limits<double>::infinity();
    long allocations = 0;
    {
      testing::MallocCounter counter;
      for (const NodeReachability& node : nodes)
        nearest = std::min(nearest, node.Distance(space, q, &scratch));
      allocations = counter.count();
    }
    EXPECT_EQ(allocations, 0);
    double expected = std::numeric_limits<double>::infinity();
    for (const NodeReachability& node : nodes)
      expected =
          std::min(expected, DefinitionDistance(space.Difference(q, scene->q0), node.B(), 1e-3));
    EXPECT_NEAR(nearest, expected, 1e-9 * expected);
  }
}

TEST(ReachabilityMetric, RejectsBadArguments) {
  const ScenePtr scene = testing::LoadExample("planar_hand");
  const ObjectSpace space(*scene);
  EXPECT_THROW(NodeReachability(space, scene->q0, Eigen::MatrixXd::Zero(3, 4), 0.0),
               std::invalid_argument);
  EXPECT_THROW(NodeReachability(space, scene->q0, Eigen::MatrixXd::Zero(2, 4), 1e-3),
               std::invalid_argument);
  Eigen::VectorXd nan = scene->q0;
  nan[0] = std::numeric_limits<double>::quiet_NaN();
  EXPECT_THROW(NodeReachability(space, nan, Eigen::MatrixXd::Zero(3, 4), 1e-3),
               std::invalid_argument);
}

// The physics: in planar_pushing_top_down with the pusher 2 mm from the box's left face at its
// middle (within the contact tolerance), moving the box right (+x, the push) is reachable, moving
// it left or sideways is not, under the log-barrier linearisation, whose B sees the contact.
TEST(ReachabilityMetric, PushingForwardIsNearerThanBackwardOrSideways) {
  const ScenePtr scene = testing::LoadExample("planar_pushing_top_down");
  const ObjectSpace space(*scene);
  const PlanningSettings settings = *scene->planning;
  NodeLinearizer linearizer(*MakeStepModel(scene, PlanningFormulation(*scene, settings)), settings,
                            1);
  Eigen::VectorXd q0 = scene->q0;
  q0[3] = -0.1 - 0.02 - 0.002;  // face at x = −0.1, tip radius 0.02 (q0 has a 1 cm gap)
  const NodeLinearization at = linearizer.Linearize({q0}, {0}).front();
  ASSERT_TRUE(at.ok()) << at.message;
  const NodeReachability metric(space, at.mu, at.B.topRows(3), settings.regularization);
  Eigen::VectorXd scratch;
  const auto moved = [&](double dx, double dy) {
    Eigen::VectorXd q = q0;
    q[0] += dx;
    q[1] += dy;
    return metric.Distance(space, q, &scratch);
  };
  // Sideways the push cannot move the box: an order of magnitude farther. Backward is nearer
  // than sideways, but still farther than forward: the barrier already pushes μ ahead of q0,
  // and withdrawing the pusher relaxes that push, so B does reach a little behind μ.
  const double forward = moved(0.02, 0.0);
  EXPECT_LT(10 * forward, moved(0.0, 0.02));
  EXPECT_LT(forward, moved(-0.02, 0.0));
}

}  // namespace
}  // namespace quasidyn
