// The nearest-node search of RRT through contact (src/quasidyn/planning/rrt.h): d(q; q̄_i) of
// the reachability metric over N tree nodes (each with its μ and the inverse factor L⁻¹ of
// B Bᵀ + λI computed once, reachability_metric.h), against the cost of making one node's factor.
// Nodes are random (μ near q0, B Gaussian) on planar_hand (planar object: 3 tangent
// coordinates) and box_turning (a floating object: 6). items_per_second counts node distances.
// Run: build/release/nearest_node_bench --benchmark_repetitions=5
// --benchmark_report_aggregates_only=true
#include <benchmark/benchmark.h>

#include <limits>
#include <memory>
#include <string>
#include <vector>

#include "quasidyn/formulations/scene_loading.h"
#include "quasidyn/gradients/randomized_smoothing_sampler.h"
#include "quasidyn/math/quaternion.h"
#include "quasidyn/planning/reachability_metric.h"

namespace quasidyn::bench {
namespace {

struct Tree {
  std::shared_ptr<const Scene> scene;
  std::unique_ptr<ObjectSpace> space;
  std::vector<NodeReachability> nodes;
  std::vector<Eigen::VectorXd> mus;
  std::vector<Eigen::MatrixXd> Bs;
};

Eigen::VectorXd RandomConfiguration(const Scene& scene, Xoshiro256StarStar* g) {
  Eigen::VectorXd q = scene.q0 + 0.05 * StandardNormalVector(g, scene.nq);
  for (const ModelInstance& instance : scene.instances)
    if (instance.nq == 7)
      q.segment<4>(instance.q_start + 3) = NormalizeQuaternion(q.segment<4>(instance.q_start + 3));
  return q;
}

Tree MakeTree(const std::string& example, int count) {
  Tree tree;
  tree.scene = std::make_shared<const Scene>(
      LoadScene(std::string(QUASIDYN_SOURCE_DIR) + "/examples/" + example + "/scene.yaml"));
  tree.space = std::make_unique<ObjectSpace>(*tree.scene);
  Xoshiro256StarStar g(1);
  for (int i = 0; i < count; ++i) {
    tree.mus.push_back(RandomConfiguration(*tree.scene, &g));
    Eigen::MatrixXd B(tree.scene->nq_u, tree.scene->nq_a);
    for (int j = 0; j < B.cols(); ++j) B.col(j) = 0.1 * StandardNormalVector(&g, B.rows());
    tree.Bs.push_back(B);
    tree.nodes.emplace_back(*tree.space, tree.mus.back(), B, 1e-3);
  }
  return tree;
}

void BM_NearestNode(benchmark::State& state, const std::string& example) {
  const int count = static_cast<int>(state.range(0));
  const Tree tree = MakeTree(example, count);
  Xoshiro256StarStar g(2);
  const Eigen::VectorXd sample = RandomConfiguration(*tree.scene, &g);
  Eigen::VectorXd scratch;
  for (auto _ : state) {
    double best = std::numeric_limits<double>::infinity();
    int nearest = -1;
    for (int i = 0; i < count; ++i) {
      const double d = tree.nodes[i].Distance(*tree.space, sample, &scratch);
      if (d < best) {
        best = d;
        nearest = i;
      }
    }
    benchmark::DoNotOptimize(nearest);
  }
  state.SetItemsProcessed(state.iterations() * count);
}

// Making one node's metric: the tangent B, B Bᵀ + λI, its Cholesky factor and L⁻¹.
void BM_MakeNodeMetric(benchmark::State& state, const std::string& example) {
  const Tree tree = MakeTree(example, 1);
  for (auto _ : state) {
    NodeReachability node(*tree.space, tree.mus[0], tree.Bs[0], 1e-3);
    benchmark::DoNotOptimize(node.factor_inverse().data());
  }
}

BENCHMARK_CAPTURE(BM_NearestNode, planar_hand, std::string("planar_hand"))->Arg(1000)->Arg(5000);
BENCHMARK_CAPTURE(BM_NearestNode, box_turning, std::string("box_turning"))->Arg(1000)->Arg(5000);
BENCHMARK_CAPTURE(BM_MakeNodeMetric, planar_hand, std::string("planar_hand"));
BENCHMARK_CAPTURE(BM_MakeNodeMetric, box_turning, std::string("box_turning"));

}  // namespace
}  // namespace quasidyn::bench

BENCHMARK_MAIN();
