// The nearest-node search of RRT through contact (src/quasidyn/planning/rrt.h): d(q; q̄_i) of
// the reachability metric over N tree nodes (each with its μ and the inverse factor L⁻¹ of
// B Bᵀ + λI computed once, reachability_metric.h), against the cost of making one node's factor.
// Nodes are random (μ near q0, B Gaussian) on planar_hand (planar object: 3 tangent
// coordinates) and box_turning (a floating object: 6). items_per_second counts node distances.
//
// Scan against index (planning/nearest_node_index.h, issue 39) on hand_ball_3d (the floating
// ball: 6 tangent coordinates), N = 1e3, 1e4, 1e5 nodes spread as the 180° turn's trees spread:
// the ball's centre within N(0, 1 cm) of its start, turned by a uniform angle about the vertical
// and tilted by N(0, 0.15 rad) about a horizontal axis, B = 0.1·N(0, 1) (6 × 16); the queries are
// the planner's samples (centre uniform within ±2 cm in x and y, a uniform turn about z), 64 of
// them in turn; a second tree covers only the turns of -40° to 70° (most queries far from every
// node: the pruning's hard case, as in the planner's early trees). Both find the same node (the
// index's test checks it); distances_per_query counts the metric's evaluations per query (a scan:
// N), the Euclidean variants the ablation's rule. Run: build/release/nearest_node_bench
// --benchmark_repetitions=5
// --benchmark_report_aggregates_only=true
#include <benchmark/benchmark.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "quasidyn/gradients/randomized_smoothing_sampler.h"
#include "quasidyn/math/quaternion.h"
#include "quasidyn/planning/nearest_node_index.h"
#include "quasidyn/planning/reachability_metric.h"
#include "quasidyn/scenes/scene_loading.h"

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

// ---- the 3D hand: scan against index ----

// A tree node's configuration of the 180° turn (see the top of the file); `partial`: turned by
// -40° to 70° only, as the trees of the first thousands of nodes are (docs/planning.md).
Eigen::VectorXd SpreadHandConfiguration(const Scene& scene, bool partial, Xoshiro256StarStar* g) {
  Eigen::VectorXd q = scene.q0;
  q.head<3>() += 0.01 * StandardNormalVector(g, 3);
  const double u = g->NextUniform();
  const double turn = partial ? -0.7 + 1.9 * u : M_PI * (2.0 * u - 1.0);
  const Eigen::VectorXd tilt = 0.15 * StandardNormalVector(g, 2);
  q.segment<4>(3) =
      QuaternionProduct(QuaternionFromRotationVector(Eigen::Vector3d(0, 0, turn)),
                        QuaternionFromRotationVector(Eigen::Vector3d(tilt[0], tilt[1], 0.0)));
  return q;
}

// The planner's sample: centre within ±2 cm of the start in x and y, a uniform turn about z.
Eigen::VectorXd HandSample(const Scene& scene, Xoshiro256StarStar* g) {
  Eigen::VectorXd q = scene.q0;
  q[0] += 0.02 * (2.0 * g->NextUniform() - 1.0);
  q[1] += 0.02 * (2.0 * g->NextUniform() - 1.0);
  q.segment<4>(3) =
      QuaternionFromRotationVector(Eigen::Vector3d(0, 0, M_PI * (2.0 * g->NextUniform() - 1.0)));
  return q;
}

struct HandTree {
  std::shared_ptr<const Scene> scene;
  std::unique_ptr<ObjectSpace> space;
  std::vector<NodeReachability> nodes;
  std::vector<Eigen::VectorXd> qs;  // the nodes' configurations (the Euclidean rule's keys)
  std::unique_ptr<NearestNodeIndex> metric_index, euclidean_index;
  std::vector<Eigen::VectorXd> samples;
};

// Built once per size and kept: 1e5 nodes take seconds to make.
const HandTree& GetHandTree(int count, bool partial) {
  static std::map<std::pair<int, bool>, std::unique_ptr<HandTree>> trees;
  std::unique_ptr<HandTree>& tree = trees[{count, partial}];
  if (tree) return *tree;
  tree = std::make_unique<HandTree>();
  tree->scene = std::make_shared<const Scene>(
      LoadScene(std::string(QUASIDYN_SOURCE_DIR) + "/examples/hand_ball_3d/scene.yaml"));
  const Scene& scene = *tree->scene;
  tree->space = std::make_unique<ObjectSpace>(scene);
  tree->metric_index = std::make_unique<NearestNodeIndex>(*tree->space);
  tree->euclidean_index = std::make_unique<NearestNodeIndex>(*tree->space);
  Xoshiro256StarStar g(3);
  for (int i = 0; i < count; ++i) {
    tree->qs.push_back(SpreadHandConfiguration(scene, partial, &g));
    Eigen::MatrixXd B(scene.nq_u, scene.nq_a);
    for (int j = 0; j < B.cols(); ++j) B.col(j) = 0.1 * StandardNormalVector(&g, B.rows());
    tree->nodes.emplace_back(*tree->space, tree->qs.back(), B, 1e-3);
    tree->metric_index->Insert(i, tree->qs.back(), ReachabilityBoundScale(tree->nodes.back()));
    tree->euclidean_index->Insert(i, tree->qs.back(), 1.0);
  }
  for (int k = 0; k < 64; ++k) tree->samples.push_back(HandSample(scene, &g));
  return *tree;
}

enum class Search { kScan, kIndex };

void BM_HandNearestNode(benchmark::State& state, Search search, NearestRule rule) {
  const int count = static_cast<int>(state.range(0));
  const HandTree& tree = GetHandTree(count, state.range(1) != 0);
  const NearestNodeIndex& index =
      rule == NearestRule::kReachability ? *tree.metric_index : *tree.euclidean_index;
  Eigen::VectorXd scratch(tree.space->tangent_size());
  size_t k = 0;
  const Eigen::VectorXd* sample = nullptr;
  const std::function<double(int)> distance = [&](int i) {
    if (rule == NearestRule::kReachability)
      return tree.nodes[i].Distance(*tree.space, *sample, &scratch);
    tree.space->Difference(*sample, tree.qs[i], scratch);
    return 0.5 * scratch.squaredNorm();
  };
  const long long calls_before = index.distance_calls();
  for (auto _ : state) {
    sample = &tree.samples[k++ % tree.samples.size()];
    int nearest = -1;
    if (search == Search::kIndex) {
      nearest = index.Find(*sample, distance).id;
    } else {
      double best = std::numeric_limits<double>::infinity();
      for (int i = 0; i < count; ++i) {
        const double d = distance(i);
        if (d < best) {
          best = d;
          nearest = i;
        }
      }
    }
    benchmark::DoNotOptimize(nearest);
  }
  const double calls = search == Search::kIndex
                           ? static_cast<double>(index.distance_calls() - calls_before)
                           : static_cast<double>(count) * state.iterations();
  state.counters["distances_per_query"] = calls / std::max<double>(1, state.iterations());
}

// {N, 0}: nodes turned anywhere; {N, 1}: turned by -40° to 70° (queries far from most nodes).
void HandSizes(benchmark::internal::Benchmark* b) {
  for (const int partial : {0, 1})
    for (const int count : {1000, 10000, 100000}) b->Args({count, partial});
  b->Unit(benchmark::kMicrosecond);
}

BENCHMARK_CAPTURE(BM_HandNearestNode, metric_scan, Search::kScan, NearestRule::kReachability)
    ->Apply(HandSizes);
BENCHMARK_CAPTURE(BM_HandNearestNode, metric_index, Search::kIndex, NearestRule::kReachability)
    ->Apply(HandSizes);
BENCHMARK_CAPTURE(BM_HandNearestNode, euclidean_scan, Search::kScan, NearestRule::kEuclidean)
    ->Apply(HandSizes);
BENCHMARK_CAPTURE(BM_HandNearestNode, euclidean_index, Search::kIndex, NearestRule::kEuclidean)
    ->Apply(HandSizes);

BENCHMARK_CAPTURE(BM_NearestNode, planar_hand, std::string("planar_hand"))->Arg(1000)->Arg(5000);
BENCHMARK_CAPTURE(BM_NearestNode, box_turning, std::string("box_turning"))->Arg(1000)->Arg(5000);
BENCHMARK_CAPTURE(BM_MakeNodeMetric, planar_hand, std::string("planar_hand"));
BENCHMARK_CAPTURE(BM_MakeNodeMetric, box_turning, std::string("box_turning"));

}  // namespace
}  // namespace quasidyn::bench

BENCHMARK_MAIN();
