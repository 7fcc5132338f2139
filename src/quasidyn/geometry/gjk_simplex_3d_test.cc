// The signed-volumes sub-algorithm against brute-force enumeration of every sub-simplex, on
// random and degenerate simplices.
#include "quasidyn/geometry/gjk_simplex_3d.h"

#include <gtest/gtest.h>

#include <Eigen/Dense>
#include <cmath>
#include <limits>
#include <random>
#include <vector>

namespace quasidyn {
namespace {

using Eigen::Vector3d;

constexpr double kEps = std::numeric_limits<double>::epsilon();

// The point of the hull of `points` nearest the origin by brute force: for every non-empty
// subset, the origin's projection onto its affine hull (a least-squares solve of the
// barycentric weights); the nearest of those whose weights are all >= 0.
Vector3d BruteForceClosest(const std::vector<Vector3d>& points) {
  const int n = static_cast<int>(points.size());
  Vector3d best = points[0];
  for (int mask = 1; mask < (1 << n); ++mask) {
    std::vector<int> members;
    for (int i = 0; i < n; ++i) {
      if (mask & (1 << i)) members.push_back(i);
    }
    const int m = static_cast<int>(members.size());
    // min |Σ λ_i p_i| subject to Σ λ_i = 1: λ = λ_0 e_0 + ..., solved as the KKT system.
    Eigen::MatrixXd kkt = Eigen::MatrixXd::Zero(m + 1, m + 1);
    Eigen::VectorXd rhs = Eigen::VectorXd::Zero(m + 1);
    for (int i = 0; i < m; ++i) {
      for (int j = 0; j < m; ++j) kkt(i, j) = points[members[i]].dot(points[members[j]]);
      kkt(i, m) = kkt(m, i) = 1.0;
    }
    rhs(m) = 1.0;
    const Eigen::VectorXd solution = kkt.completeOrthogonalDecomposition().solve(rhs);
    Vector3d point = Vector3d::Zero();
    bool feasible = true;
    double weight_sum = 0.0;
    for (int i = 0; i < m; ++i) {
      feasible = feasible && solution(i) >= -1e-12;
      weight_sum += solution(i);
      point += solution(i) * points[members[i]];
    }
    if (feasible && std::abs(weight_sum - 1.0) < 1e-9 && point.norm() < best.norm()) best = point;
  }
  return best;
}

// The properties every answer has: weights >= 0 summing to 1, kept points taken from the
// input, closest = Σ weight · point (to round-off of the points' size).
void ExpectConsistent(const SimplexClosest3d& result, const std::vector<Vector3d>& points) {
  double size = 0.0;
  for (const Vector3d& p : points) size = std::max(size, p.norm());
  ASSERT_GE(result.count, 1);
  ASSERT_LE(result.count, static_cast<int>(points.size()));
  double sum = 0.0;
  Vector3d combination = Vector3d::Zero();
  for (int i = 0; i < result.count; ++i) {
    const SimplexPoint3d& kept = result.kept[i];
    EXPECT_GE(kept.weight, 0.0);
    EXPECT_EQ(kept.point, points[kept.index]);
    sum += kept.weight;
    combination += kept.weight * kept.point;
  }
  EXPECT_NEAR(sum, 1.0, 16 * kEps);
  EXPECT_TRUE(result.closest.allFinite());
  EXPECT_LT((combination - result.closest).norm(), 1e-12 * (1.0 + size));
}

TEST(ClosestPointOfSimplex3d, MatchesBruteForceOnRandomSimplices) {
  std::mt19937 random(11);
  std::uniform_real_distribution<double> coordinate(-1.0, 1.0);
  int inside = 0;
  for (int trial = 0; trial < 8000; ++trial) {
    const int count = 1 + trial % 4;
    // Shifted away from the origin in most trials, so every branch of S1D–S3D is reached;
    // every eighth trial (count 4) a tetrahedron around the origin: its 4th point a negative
    // multiple of the sum of the others.
    const Vector3d shift = (trial % 3 == 0 ? 0.0 : 1.5) *
                           Vector3d(coordinate(random), coordinate(random), coordinate(random));
    std::vector<Vector3d> points;
    for (int i = 0; i < count; ++i) {
      points.push_back(shift +
                       Vector3d(coordinate(random), coordinate(random), coordinate(random)));
    }
    if (trial % 8 == 3) {
      for (int i = 0; i < 3; ++i) points[i] -= shift;
      points[3] = -(0.2 + std::abs(coordinate(random))) * (points[0] + points[1] + points[2]);
    }
    const SimplexClosest3d result = ClosestPointOfSimplex3d(points.data(), count);
    ExpectConsistent(result, points);
    EXPECT_LT((result.closest - BruteForceClosest(points)).norm(), 1e-12) << "trial " << trial;
    if (result.contains_origin) {
      ++inside;
      EXPECT_EQ(result.count, 4);
      EXPECT_EQ(result.closest, Vector3d::Zero());
    }
  }
  EXPECT_GT(inside, 500);  // the origin-inside branch is exercised
}

TEST(ClosestPointOfSimplex3d, DegenerateSimplicesEndOnTheirFacesAndEdges) {
  const Vector3d p(0.3, -0.2, 1.0);
  // Four coincident points: that point.
  std::vector<Vector3d> same(4, p);
  SimplexClosest3d result = ClosestPointOfSimplex3d(same.data(), 4);
  ExpectConsistent(result, same);
  EXPECT_EQ(result.closest, p);
  // Collinear points along x at height 1: the foot (0, 0, 1).
  std::vector<Vector3d> line = {{-1, 0, 1}, {-0.5, 0, 1}, {0.5, 0, 1}, {2, 0, 1}};
  for (int count = 2; count <= 4; ++count) {
    result = ClosestPointOfSimplex3d(line.data(), count);
    ExpectConsistent(result, line);
    EXPECT_LT((result.closest - BruteForceClosest({line.begin(), line.begin() + count})).norm(),
              1e-15);
  }
  // A flat tetrahedron in the plane z = 0.5 around the origin's foot: (0, 0, 0.5), not inside.
  std::vector<Vector3d> flat = {{-1, -1, 0.5}, {1, -1, 0.5}, {0, 1, 0.5}, {0.1, 0.1, 0.5}};
  result = ClosestPointOfSimplex3d(flat.data(), 4);
  ExpectConsistent(result, flat);
  EXPECT_FALSE(result.contains_origin);
  EXPECT_LT((result.closest - Vector3d(0, 0, 0.5)).norm(), 1e-15);
  // The same flat tetrahedron through the origin: distance 0 on a face.
  for (Vector3d& q : flat) q.z() = 0.0;
  result = ClosestPointOfSimplex3d(flat.data(), 4);
  ExpectConsistent(result, flat);
  EXPECT_LT(result.closest.norm(), 1e-15);
}

TEST(ClosestPointOfSimplex3d, SliverTriangleGivesTheExactProjection) {
  // Three nearly collinear points 20–45 units away whose plane passes 1.8e-4 from the
  // origin: the weights are ill-conditioned, the point (the plane's foot) is not. GJK's
  // lower bound v·w/|v| needs v ⟂ (w − v) for every vertex w.
  const std::vector<Vector3d> sliver = {
      {0.418742, 6.05379, -16.2031}, {-0.528497, -7.62191, 20.4038}, {-1.13901, -16.4935, 44.134}};
  const SimplexClosest3d result = ClosestPointOfSimplex3d(sliver.data(), 3);
  ExpectConsistent(result, sliver);
  ASSERT_EQ(result.count, 3);
  const Vector3d n = (sliver[1] - sliver[0]).cross(sliver[2] - sliver[0]).normalized();
  const double foot = n.dot(sliver[0]);
  EXPECT_NEAR(result.closest.norm(), std::abs(foot), 64 * kEps * 44.0);
  for (const Vector3d& w : sliver) {
    EXPECT_LT(std::abs(result.closest.dot(w - result.closest)), 64 * kEps * 44.0 * 44.0);
  }
}

}  // namespace
}  // namespace quasidyn
