#include "quasidyn/planning/grasp_conditioning.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

#include "quasidyn/formulations/registry.h"
#include "quasidyn/planning/node_linearizer.h"
#include "quasidyn/planning/object_space.h"
#include "quasidyn/planning/rrt.h"
#include "quasidyn/testing/example_states.h"
#include "quasidyn/testing/matrix_compare.h"

namespace quasidyn {
namespace {

constexpr double kGraspEps = std::numeric_limits<double>::epsilon();

// A rotation of the plane by `angle` [rad], embedded in the first two of n coordinates.
Eigen::MatrixXd PlaneRotation(int n, double angle) {
  Eigen::MatrixXd r = Eigen::MatrixXd::Identity(n, n);
  r(0, 0) = r(1, 1) = std::cos(angle);
  r(0, 1) = -std::sin(angle);
  r(1, 0) = std::sin(angle);
  return r;
}

// σ_r by hand: W B = U diag(3, 2) Vᵀ with U, V rotations has singular values 3 and 2, so the
// score is 2 for the tall (3 × 2) and the wide (2 × 3) case alike, to round-off of the SVD.
TEST(GraspScore, IsTheSmallestSingularValueOfTheObjectRows) {
  Eigen::MatrixXd tall = Eigen::MatrixXd::Zero(3, 2);
  tall(0, 0) = 3.0;
  tall(1, 1) = 2.0;
  const Eigen::MatrixXd mixed = PlaneRotation(3, 0.7) * tall * PlaneRotation(2, -1.1);
  EXPECT_NEAR(GraspScore(mixed), 2.0, 16 * kGraspEps * 3.0);
  EXPECT_NEAR(GraspScore(Eigen::MatrixXd(mixed.transpose())), 2.0, 16 * kGraspEps * 3.0);
  // A direction no command reaches: 0 (square and rank deficient).
  Eigen::MatrixXd flat = Eigen::MatrixXd::Zero(2, 2);
  flat(0, 0) = 1.0;
  EXPECT_EQ(GraspScore(flat), 0.0);
  EXPECT_EQ(GraspScore(Eigen::MatrixXd()), 0.0);
  flat(1, 0) = std::numeric_limits<double>::quiet_NaN();
  EXPECT_THROW(GraspScore(flat), std::invalid_argument);
}

// planar_pushing: the pusher (x, y) far from the box or touching its left face.
struct PusherAt {
  ScenePtr scene = testing::LoadExample("planar_pushing");
  PlanningSettings settings = *scene->planning;
  ObjectSpace space{*scene};

  Eigen::VectorXd Configuration(double pusher_x) const {
    Eigen::VectorXd q = scene->q0;
    q[scene->nq_u] = pusher_x;
    return q;
  }
  NodeLinearization Linearize(const Eigen::VectorXd& q) const {
    NodeLinearizer linearizer(*MakeStepModel(scene, PlanningFormulation(*scene, settings)),
                              settings, 1);
    return linearizer.Linearize({q}, {0}).front();
  }
  NodeReachability Reach(const NodeLinearization& l) const {
    return NodeReachability(space, l.mu, l.B.topRows(scene->nq_u), settings.regularization,
                            MetricWeights(space, settings));
  }
};

// The box's left face is at x = −0.1 m and the pusher's radius 0.02 m: at x = −0.2 m the gap
// (0.08 m) is beyond the contact tolerance (0.02 m), so no command moves the box (B's object
// rows are 0) and the score is exactly 0; at x = −0.1195 m (0.5 mm overlap) it pushes. Planar
// objects have tangent = coordinate rows and weights 1, so the score is σ_2 of the 3 × 2 object
// rows B_u, by hand the smaller root of the 2 × 2 Gram matrix G = B_uᵀ B_u:
//   σ_2² = (tr G − sqrt(tr² G − 4 det G)) / 2.
TEST(GraspScore, ZeroWithoutContactAndTheGramRootWithIt) {
  const PusherAt pusher;
  ASSERT_EQ(pusher.scene->nq_u, 3);
  ASSERT_EQ(pusher.scene->nq_a, 2);
  const NodeLinearization apart = pusher.Linearize(pusher.Configuration(-0.2));
  ASSERT_TRUE(apart.ok()) << apart.message;
  EXPECT_TRUE(apart.B.topRows(3).isZero(0.0));
  EXPECT_EQ(GraspScore(pusher.Reach(apart)), 0.0);

  const NodeLinearization touching = pusher.Linearize(pusher.Configuration(-0.1195));
  ASSERT_TRUE(touching.ok()) << touching.message;
  const Eigen::MatrixXd B_u = touching.B.topRows(3);
  const Eigen::Matrix2d G = B_u.transpose() * B_u;
  const double trace = G.trace(), det = G.determinant();
  const double by_hand = std::sqrt((trace - std::sqrt(trace * trace - 4.0 * det)) / 2.0);
  const double score = GraspScore(pusher.Reach(touching));
  EXPECT_GT(score, 0.0);
  // The closed form loses relative accuracy ~ε·σ_1²/σ_2² in σ_2²: the tolerance is that.
  const double sigma_1_squared = trace;
  EXPECT_NEAR(score * score, by_hand * by_hand, 64 * kGraspEps * sigma_1_squared);
}

// The constructed case: the sample is where the far candidate's box goes (d = 0 from it), so
// the nearest rule takes the pusher that does not touch the box; conditioning passes it over
// (score 0) and takes the touching one.
TEST(SelectGrasps, ConditioningTakesTheCandidateThatMovesTheObject) {
  PusherAt pusher;
  const std::vector<NodeReachability> reaches = {
      pusher.Reach(pusher.Linearize(pusher.Configuration(-0.2))),
      pusher.Reach(pusher.Linearize(pusher.Configuration(-0.1195)))};
  const Eigen::VectorXd sample = reaches[0].mu();
  Eigen::VectorXd scratch;
  RankedGrasps ranked = {{reaches[1].Distance(pusher.space, sample, &scratch), 1},
                         {reaches[0].Distance(pusher.space, sample, &scratch), 0}};
  std::stable_sort(ranked.begin(), ranked.end(),
                   [](const auto& a, const auto& b) { return a.first < b.first; });
  ASSERT_EQ(ranked.front().second, 0);  // nearest: the pusher apart from the box
  const auto score_of = [&](int k) { return GraspScore(reaches[k]); };

  pusher.settings.grasp_selection = GraspSelection::kNearest;
  EXPECT_EQ(SelectGrasps(pusher.settings, ranked, score_of), ranked);
  pusher.settings.grasp_selection = GraspSelection::kConditioning;
  const RankedGrasps kept = SelectGrasps(pusher.settings, ranked, score_of);
  ASSERT_EQ(kept.size(), 1u);
  EXPECT_EQ(kept.front().second, 1);
}

TEST(SelectGrasps, KeepsTheOrderOfThoseAboveTheFraction) {
  PlanningSettings settings;
  const RankedGrasps ranked = {{0.1, 2}, {0.2, 0}, {0.3, 1}, {0.4, 3}};
  const std::vector<double> scores = {0.5, 1.0, 0.49, 0.0};  // by candidate index
  int calls = 0;
  const auto score_of = [&](int k) {
    ++calls;
    return scores[k];
  };
  EXPECT_EQ(SelectGrasps(settings, ranked, score_of), ranked);  // nearest: the default
  EXPECT_EQ(calls, 0);                                          // and no score computed
  settings.grasp_selection = GraspSelection::kConditioning;
  settings.grasp_score_fraction = 0.5;  // keeps scores >= 0.5 · 1.0
  EXPECT_EQ(SelectGrasps(settings, ranked, score_of), (RankedGrasps{{0.2, 0}, {0.3, 1}}));
  settings.grasp_score_fraction = 0.4;
  EXPECT_EQ(SelectGrasps(settings, ranked, score_of), (RankedGrasps{{0.1, 2}, {0.2, 0}, {0.3, 1}}));
  // No candidate moves the objects in every direction: all kept.
  EXPECT_EQ(SelectGrasps(settings, ranked, [](int) { return 0.0; }), ranked);
  EXPECT_THROW(SelectGrasps(settings, ranked, [](int) { return -1.0; }), std::invalid_argument);
}

PlanResult ConditioningPlan(const ScenePtr& scene, const PlanningSettings& settings, int threads) {
  PlannerOptions options;
  options.threads = threads;
  return PlanThroughContact(scene, PlanningFormulation(*scene, settings), settings, options);
}

bool ConditioningSameTree(const PlanResult& a, const PlanResult& b) {
  if (a.nodes.size() != b.nodes.size()) return false;
  for (size_t i = 0; i < a.nodes.size(); ++i) {
    if (a.nodes[i].parent != b.nodes[i].parent || a.nodes[i].edge != b.nodes[i].edge ||
        !testing::MatricesEqual(a.nodes[i].q, b.nodes[i].q) ||
        !testing::MatricesEqual(a.nodes[i].u, b.nodes[i].u))
      return false;
  }
  return a.best_node == b.best_node;
}

// With the conditioning rule the tree is still bitwise the same at 1 and 2 threads (the scores
// come from the linearisations, which are), and it is another tree than the nearest rule's
// (the rule is used).
TEST(SelectGrasps, ConditioningTreesAreTheSameAtOneAndTwoThreads) {
  const ScenePtr scene = testing::LoadExample("planar_hand");
  PlanningSettings settings = *scene->planning;
  settings.p_grasp = 0.3;
  settings.max_nodes = 150;
  settings.seed = 5;
  const PlanResult nearest = ConditioningPlan(scene, settings, 1);
  settings.grasp_selection = GraspSelection::kConditioning;
  settings.grasp_score_fraction = 1.0;
  const PlanResult one = ConditioningPlan(scene, settings, 1);
  ASSERT_GT(one.statistics.regrasps, 5);
  EXPECT_TRUE(ConditioningSameTree(one, ConditioningPlan(scene, settings, 2)));
  EXPECT_FALSE(ConditioningSameTree(one, nearest));
}

}  // namespace
}  // namespace quasidyn
