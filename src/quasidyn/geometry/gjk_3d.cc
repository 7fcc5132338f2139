#include "quasidyn/geometry/gjk_3d.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "quasidyn/geometry/gjk_simplex_3d.h"

namespace quasidyn {
namespace {

struct Simplex {
  std::array<SupportVertex3d, 4> vertex;
  std::array<double, 4> weight = {0.0, 0.0, 0.0, 0.0};
  int size = 0;
};

void Finish(const Simplex& simplex, GjkResult* result) {
  result->witness_a.setZero();
  result->witness_b.setZero();
  for (int i = 0; i < simplex.size; ++i) {
    result->witness_a += simplex.weight[i] * simplex.vertex[i].a;
    result->witness_b += simplex.weight[i] * simplex.vertex[i].b;
    result->simplex[i] = simplex.vertex[i];
  }
  result->simplex_size = simplex.size;
}

}  // namespace

GjkResult Gjk3d(const CorePair3d& pair) {
  const double scale = pair.scale();
  const double touch = kGjkTouchTolerance * scale;
  GjkResult result;
  // Start from the support point of M toward the origin's side of the frame origins.
  Eigen::Vector3d direction = -pair.a_origin();
  if (!(direction.squaredNorm() > 0.0)) direction = Eigen::Vector3d::UnitX();
  Simplex simplex;
  simplex.vertex[0] = pair.Support(direction);
  simplex.weight[0] = 1.0;
  simplex.size = 1;
  Eigen::Vector3d v = simplex.vertex[0].w;
  double lower = 0.0;
  double gap_floor = 0.0;  // the stopping gap of the last iteration
  result.outcome = GjkOutcome::kIterationLimit;
  int iteration = 0;
  for (; iteration < kGjkMaxIterations; ++iteration) {
    const double norm = v.norm();
    if (norm <= touch) {
      result.outcome = GjkOutcome::kOverlap;
      break;
    }
    const SupportVertex3d w = pair.Support(-v);
    lower = std::max(lower, v.dot(w.w) / norm);
    double largest = w.w.squaredNorm();
    for (int i = 0; i < simplex.size; ++i) {
      largest = std::max(largest, simplex.vertex[i].w.squaredNorm());
    }
    gap_floor = std::max(kGjkRelativeTolerance * (scale + norm),
                         kGjkRoundOff * std::numeric_limits<double>::epsilon() * largest / norm);
    if (norm - lower <= gap_floor) {
      result.outcome = GjkOutcome::kSeparated;
      break;
    }
    bool repeated = false;
    for (int i = 0; i < simplex.size; ++i) repeated = repeated || simplex.vertex[i].w == w.w;
    if (repeated) {
      result.outcome = GjkOutcome::kSeparated;
      break;
    }
    Eigen::Vector3d points[4];
    for (int i = 0; i < simplex.size; ++i) points[i] = simplex.vertex[i].w;
    points[simplex.size] = w.w;
    const SimplexClosest3d closest = ClosestPointOfSimplex3d(points, simplex.size + 1);
    if (closest.contains_origin) {
      Simplex grown = simplex;
      grown.vertex[simplex.size] = w;
      grown.size = simplex.size + 1;
      for (int i = 0; i < grown.size; ++i) grown.weight[i] = closest.kept[i].weight;
      simplex = grown;
      v.setZero();
      result.outcome = GjkOutcome::kOverlap;
      ++iteration;
      break;
    }
    if (!(closest.closest.squaredNorm() < v.squaredNorm())) {
      // No progress: round-off has the last word; keep the previous simplex and v.
      result.outcome = GjkOutcome::kSeparated;
      ++iteration;
      break;
    }
    Simplex next;
    next.size = closest.count;
    for (int i = 0; i < closest.count; ++i) {
      const int from = closest.kept[i].index;
      next.vertex[i] = from < simplex.size ? simplex.vertex[from] : w;
      next.weight[i] = closest.kept[i].weight;
    }
    simplex = next;
    v = closest.closest;
  }
  result.iterations = iteration;
  result.closest = v;
  result.distance = v.norm();
  result.lower_bound = std::min(lower, result.distance);
  if (result.outcome == GjkOutcome::kSeparated &&
      result.distance - result.lower_bound > gap_floor) {
    result.outcome = GjkOutcome::kStalled;
  }
  Finish(simplex, &result);
  return result;
}

}  // namespace quasidyn
