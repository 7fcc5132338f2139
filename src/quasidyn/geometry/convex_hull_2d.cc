#include "quasidyn/geometry/convex_hull_2d.h"

#include <algorithm>
#include <stdexcept>

namespace quasidyn {
namespace {

// Twice the signed area of the triangle (o, a, b): > 0 when o → a → b turns left.
double Cross(const Eigen::Vector2d& o, const Eigen::Vector2d& a, const Eigen::Vector2d& b) {
  return (a.x() - o.x()) * (b.y() - o.y()) - (a.y() - o.y()) * (b.x() - o.x());
}

// True when b is not strictly to the left of the line o → a (by more than tolerance),
// so b does not turn the chain left and a must be removed.
bool NotLeftTurn(const Eigen::Vector2d& o, const Eigen::Vector2d& a, const Eigen::Vector2d& b,
                 double length_tolerance) {
  // The distance of b from the line o → a is Cross / |a − o|.
  return Cross(o, a, b) <= length_tolerance * (a - o).norm();
}

}  // namespace

std::vector<Eigen::Vector2d> ConvexHull2d(std::vector<Eigen::Vector2d> points,
                                          double length_tolerance) {
  for (const Eigen::Vector2d& p : points) {
    if (!p.allFinite()) throw std::invalid_argument("ConvexHull2d: a point is not finite");
  }
  if (!(length_tolerance >= 0.0)) {
    throw std::invalid_argument("ConvexHull2d: length_tolerance must be >= 0");
  }
  std::sort(points.begin(), points.end(), [](const Eigen::Vector2d& a, const Eigen::Vector2d& b) {
    return a.x() < b.x() || (a.x() == b.x() && a.y() < b.y());
  });
  points.erase(std::unique(points.begin(), points.end()), points.end());
  if (points.size() < 3) return points;

  // Lower chain left to right, then upper chain right to left; each keeps only left turns.
  std::vector<Eigen::Vector2d> hull;
  hull.reserve(2 * points.size());
  for (const Eigen::Vector2d& p : points) {
    while (hull.size() >= 2 &&
           NotLeftTurn(hull[hull.size() - 2], hull[hull.size() - 1], p, length_tolerance)) {
      hull.pop_back();
    }
    hull.push_back(p);
  }
  const size_t lower_size = hull.size();
  for (auto it = points.rbegin() + 1; it != points.rend(); ++it) {
    while (hull.size() > lower_size &&
           NotLeftTurn(hull[hull.size() - 2], hull[hull.size() - 1], *it, length_tolerance)) {
      hull.pop_back();
    }
    hull.push_back(*it);
  }
  hull.pop_back();  // the first point closes the loop
  if (hull.size() < 3) {
    // All points on one line: its two extreme points.
    return {points.front(), points.back()};
  }
  return hull;
}

}  // namespace quasidyn
