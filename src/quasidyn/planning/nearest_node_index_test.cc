#include "quasidyn/planning/nearest_node_index.h"

#include <gtest/gtest.h>

#include <Eigen/Eigenvalues>
#include <cmath>
#include <functional>
#include <limits>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "quasidyn/gradients/randomized_smoothing_sampler.h"
#include "quasidyn/math/quaternion.h"
#include "quasidyn/testing/example_states.h"

namespace quasidyn {
namespace {

// A configuration of the scene's objects spread as an RRT tree spreads them: positions within
// `spread` [m] of q0, planar angles anywhere in [-π, π], orientations uniform (a normalised
// Gaussian 4-vector, so both signs of a quaternion occur).
Eigen::VectorXd SpreadConfiguration(const Scene& scene, const ObjectSpace& space, double spread,
                                    Xoshiro256StarStar* g) {
  Eigen::VectorXd q = scene.q0;
  for (const ObjectSpace::Block& block : space.blocks()) {
    const int s = block.q_start;
    const int positions = block.floating ? 3 : 2;
    q.segment(s, positions) += spread * StandardNormalVector(g, positions);
    if (block.floating) {
      q.segment<4>(s + 3) = NormalizeQuaternion(StandardNormalVector(g, 4));
    } else {
      q[s + 2] = M_PI * (2.0 * g->NextUniform() - 1.0);
    }
  }
  return q;
}

// Random nodes of the reachability metric: a third out of contact (B = 0), the others with B of
// scale 0.01-1 (conditioning up to 1e6 with λ = 1e-3).
struct RandomTree {
  ScenePtr scene;
  std::unique_ptr<ObjectSpace> space;
  std::vector<NodeReachability> nodes;
};

NodeReachability RandomNode(const RandomTree& tree, Xoshiro256StarStar* g) {
  const Scene& scene = *tree.scene;
  const Eigen::VectorXd mu = SpreadConfiguration(scene, *tree.space, 0.05, g);
  Eigen::MatrixXd B = Eigen::MatrixXd::Zero(scene.nq_u, scene.nq_a);
  if (g->NextUniform() > 1.0 / 3.0) {
    const double scale = std::pow(10.0, -2.0 + 2.0 * g->NextUniform());
    for (int j = 0; j < B.cols(); ++j) B.col(j) = scale * StandardNormalVector(g, B.rows());
  }
  return NodeReachability(*tree.space, mu, B, 1e-3);
}

RandomTree MakeTree(const std::string& example) {
  RandomTree tree;
  tree.scene = testing::LoadExample(example);
  tree.space = std::make_unique<ObjectSpace>(*tree.scene);
  return tree;
}

// What the planner did before the index: a scan in id order keeping the first least distance.
NearestNodeIndex::Nearest Scan(int count, const std::function<double(int)>& distance) {
  NearestNodeIndex::Nearest best;
  for (int i = 0; i < count; ++i) {
    const double d = distance(i);
    if (d < best.distance) {
      best.distance = d;
      best.id = i;
    }
  }
  return best;
}

void ExpectSameAsScanWhileGrowing(const std::string& example, std::uint64_t seed) {
  RandomTree tree = MakeTree(example);
  NearestNodeIndex index(*tree.space);
  Xoshiro256StarStar g(seed);
  Eigen::VectorXd scratch;
  const Eigen::VectorXd* sample = nullptr;
  const std::function<double(int)> distance = [&](int i) {
    return tree.nodes[i].Distance(*tree.space, *sample, &scratch);
  };
  int queries = 0;
  // 700 nodes: the buffer and trees of 32 ... 512 nodes, merged many times.
  for (int n = 0; n < 700; ++n) {
    tree.nodes.push_back(RandomNode(tree, &g));
    index.Insert(n, tree.nodes.back().mu(), ReachabilityBoundScale(tree.nodes.back()));
    for (int k = 0; k < 3; ++k, ++queries) {
      const Eigen::VectorXd q = SpreadConfiguration(*tree.scene, *tree.space, 0.05, &g);
      sample = &q;
      const NearestNodeIndex::Nearest found = index.Find(q, distance);
      const NearestNodeIndex::Nearest expected = Scan(n + 1, distance);
      ASSERT_EQ(found.id, expected.id) << example << ": " << n + 1 << " nodes, query " << k;
      ASSERT_EQ(found.distance, expected.distance);
    }
  }
  EXPECT_EQ(index.size(), 700);
  // Pruning happens at all: fewer distances than a scan of every query would compute.
  EXPECT_LT(index.distance_calls(), 700LL * 701 / 2 * 3);
}

TEST(NearestNodeIndex, ReturnsTheScansNodeOnAPlanarTreeWhileItGrows) {
  ExpectSameAsScanWhileGrowing("planar_hand", 11);
}

TEST(NearestNodeIndex, ReturnsTheScansNodeOnAFloatingObjectTreeWhileItGrows) {
  ExpectSameAsScanWhileGrowing("hand_ball_3d", 12);
}

// Equal distances: copies of one node under several ids, inserted in decreasing id order; the
// scan keeps the least id, and so must the index.
TEST(NearestNodeIndex, BreaksTiesByTheLeastIdAsTheScanDoes) {
  RandomTree tree = MakeTree("hand_ball_3d");
  Xoshiro256StarStar g(13);
  std::vector<NodeReachability> distinct;
  for (int i = 0; i < 50; ++i) distinct.push_back(RandomNode(tree, &g));
  const int copies = 4;
  tree.nodes.resize(distinct.size() * copies);
  // id = copy · 50 + i holds distinct[i]: ids i, 50 + i, 100 + i, 150 + i are one node.
  NearestNodeIndex index(*tree.space);
  for (int id = static_cast<int>(tree.nodes.size()) - 1; id >= 0; --id) {
    tree.nodes[id] = distinct[id % distinct.size()];
    // A key of the other quaternion sign for odd ids: the same rotation, the same distances.
    Eigen::VectorXd key = tree.nodes[id].mu();
    if (id % 2) key.segment<4>(3) *= -1.0;
    index.Insert(id, key, ReachabilityBoundScale(tree.nodes[id]));
  }
  Eigen::VectorXd scratch;
  for (int k = 0; k < 200; ++k) {
    const Eigen::VectorXd q = SpreadConfiguration(*tree.scene, *tree.space, 0.05, &g);
    const std::function<double(int)> distance = [&](int i) {
      return tree.nodes[i].Distance(*tree.space, q, &scratch);
    };
    const NearestNodeIndex::Nearest found = index.Find(q, distance);
    const NearestNodeIndex::Nearest expected = Scan(static_cast<int>(tree.nodes.size()), distance);
    ASSERT_EQ(found.id, expected.id) << "query " << k;
    ASSERT_LT(found.id, static_cast<int>(distinct.size()));
  }
}

// The Euclidean ablation rule: d = ½ ‖q ⊖ q_i‖², keys the nodes' configurations, c = 1.
TEST(NearestNodeIndex, ReturnsTheScansNodeForTheEuclideanRule) {
  for (const std::string example : {"planar_hand", "hand_ball_3d"}) {
    RandomTree tree = MakeTree(example);
    NearestNodeIndex index(*tree.space);
    Xoshiro256StarStar g(14);
    std::vector<Eigen::VectorXd> keys;
    Eigen::VectorXd scratch(tree.space->tangent_size());
    const Eigen::VectorXd* sample = nullptr;
    const std::function<double(int)> distance = [&](int i) {
      tree.space->Difference(*sample, keys[i], scratch);
      return 0.5 * scratch.squaredNorm();
    };
    for (int n = 0; n < 600; ++n) {
      keys.push_back(SpreadConfiguration(*tree.scene, *tree.space, 0.05, &g));
      index.Insert(n, keys.back(), 1.0);
      const Eigen::VectorXd q = SpreadConfiguration(*tree.scene, *tree.space, 0.05, &g);
      sample = &q;
      const NearestNodeIndex::Nearest found = index.Find(q, distance);
      const NearestNodeIndex::Nearest expected = Scan(n + 1, distance);
      ASSERT_EQ(found.id, expected.id) << example << ": " << n + 1 << " nodes";
      ASSERT_EQ(found.distance, expected.distance);
    }
  }
}

// Sub-linear: over 8192 nodes spread as above, a query under the Euclidean rule computes a small
// fraction of the distances (a kd-tree in 7 dimensions: a few hundred; a scan: 8192).
TEST(NearestNodeIndex, ComputesFewDistancesOnALargeTree) {
  RandomTree tree = MakeTree("hand_ball_3d");
  NearestNodeIndex index(*tree.space);
  Xoshiro256StarStar g(15);
  std::vector<Eigen::VectorXd> keys;
  const int count = 8192;
  for (int n = 0; n < count; ++n) {
    keys.push_back(SpreadConfiguration(*tree.scene, *tree.space, 0.05, &g));
    index.Insert(n, keys.back(), 1.0);
  }
  Eigen::VectorXd scratch(tree.space->tangent_size());
  const int queries = 100;
  for (int k = 0; k < queries; ++k) {
    const Eigen::VectorXd q = SpreadConfiguration(*tree.scene, *tree.space, 0.05, &g);
    index.Find(q, [&](int i) {
      tree.space->Difference(q, keys[i], scratch);
      return 0.5 * scratch.squaredNorm();
    });
  }
  EXPECT_LT(index.distance_calls(), queries * count / 10);
}

// (1) with c = ReachabilityBoundScale: d >= ½ c ‖e‖² for every e, with equality along B's
// leading left singular vector (the bound is the tightest scalar one).
TEST(NearestNodeIndex, ReachabilityBoundScaleIsTheTightestScalarBound) {
  RandomTree tree = MakeTree("planar_hand");
  Xoshiro256StarStar g(16);
  Eigen::VectorXd scratch;
  for (int trial = 0; trial < 20; ++trial) {
    const NodeReachability node = RandomNode(tree, &g);
    const double c = ReachabilityBoundScale(node);
    for (int k = 0; k < 20; ++k) {
      const Eigen::VectorXd q = SpreadConfiguration(*tree.scene, *tree.space, 0.05, &g);
      const Eigen::VectorXd e = tree.space->Difference(q, node.mu());
      EXPECT_GE(node.Distance(*tree.space, q, &scratch), 0.5 * c * e.squaredNorm() * (1 - 1e-12));
    }
    // Along the leading direction u of B Bᵀ: d = ½ ‖e‖² / (σ_max² + λ) exactly.
    const Eigen::MatrixXd gram = node.B() * node.B().transpose();
    const Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> eigen(gram);
    const Eigen::Vector3d u = 0.01 * eigen.eigenvectors().col(2);
    Eigen::VectorXd q = tree.scene->q0;
    q.head<3>() = node.mu().head<3>() + u;  // planar: a tangent step is a coordinate step
    const double d = node.Distance(*tree.space, q, &scratch);
    const double bound = 0.5 * c * tree.space->Difference(q, node.mu()).squaredNorm();
    EXPECT_NEAR(d, bound, 1e-9 * d);
  }
}

TEST(NearestNodeIndex, RefusesBadInsertsWithTheirReason) {
  RandomTree tree = MakeTree("hand_ball_3d");
  NearestNodeIndex index(*tree.space);
  const Eigen::VectorXd q = tree.scene->q0;
  const auto message = [&](int id, const Eigen::VectorXd& key, double scale) {
    try {
      index.Insert(id, key, scale);
    } catch (const std::invalid_argument& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_NE(message(-1, q, 1.0).find("id must be >= 0"), std::string::npos);
  EXPECT_NE(message(0, q.head(3), 1.0).find("key has size 3"), std::string::npos);
  Eigen::VectorXd bad = q;
  bad[0] = std::numeric_limits<double>::quiet_NaN();
  EXPECT_NE(message(0, bad, 1.0).find("non-finite"), std::string::npos);
  EXPECT_NE(message(0, q, 0.0).find("bound_scale"), std::string::npos);
  EXPECT_NE(message(0, q, std::numeric_limits<double>::infinity()).find("bound_scale"),
            std::string::npos);
  EXPECT_EQ(index.size(), 0);
  // An empty index finds nothing.
  EXPECT_EQ(index.Find(q, [](int) { return 0.0; }).id, -1);
}

}  // namespace
}  // namespace quasidyn
