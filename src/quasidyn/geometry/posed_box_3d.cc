#include "quasidyn/geometry/posed_box_3d.h"

#include <algorithm>
#include <cmath>

namespace quasidyn {

Eigen::Vector3d PosedBox3d::ClosestPoint(const Eigen::Vector3d& p_W) const {
  const Eigen::Vector3d p_S = X_WS.linear().transpose() * (p_W - Centre());
  return X_WS * p_S.cwiseMax(-half).cwiseMin(half);
}

BoxFeature3d BoxSupportFeature3d(const PosedBox3d& box, const Eigen::Vector3d& u, double tie) {
  // Per axis: the sign of the extreme coordinate, or 0 when the axis is perpendicular to u.
  int sign[3];
  int free_axes[2];
  int free_count = 0;
  for (int i = 0; i < 3; ++i) {
    const double along = u.dot(box.Axis(i));
    sign[i] = std::abs(along) <= tie ? 0 : (along > 0.0 ? 1 : -1);
    if (sign[i] == 0 && free_count < 2) free_axes[free_count++] = i;
  }
  auto corner = [&](int s0, int s1) {
    Eigen::Vector3d p_S;
    for (int i = 0; i < 3; ++i) p_S[i] = sign[i] * box.half[i];
    if (free_count >= 1) p_S[free_axes[0]] = s0 * box.half[free_axes[0]];
    if (free_count >= 2) p_S[free_axes[1]] = s1 * box.half[free_axes[1]];
    return Eigen::Vector3d(box.X_WS * p_S);
  };
  BoxFeature3d feature;
  if (free_count == 0) {
    feature.push_back(corner(0, 0));
  } else if (free_count == 1) {
    feature.push_back(corner(-1, 0));
    feature.push_back(corner(1, 0));
  } else {
    feature.push_back(corner(-1, -1));
    feature.push_back(corner(1, -1));
    feature.push_back(corner(1, 1));
    feature.push_back(corner(-1, 1));
  }
  return feature;
}

Eigen::Vector3d BoxFacePointUnder(const PosedBox3d& box, int axis, double sign,
                                  const BoxFeature3d& feature) {
  const int j = (axis + 1) % 3, k = (axis + 2) % 3;
  // Face coordinates (along axes j and k, from the centre) of the projected feature.
  using Polygon = FixedCapacityVector<Eigen::Vector2d, 8>;
  Polygon polygon;
  Eigen::Vector2d mean = Eigen::Vector2d::Zero();
  for (const Eigen::Vector3d& p : feature) {
    const Eigen::Vector3d d = p - box.Centre();
    polygon.push_back(Eigen::Vector2d(d.dot(box.Axis(j)), d.dot(box.Axis(k))));
    mean += polygon.back();
  }
  mean /= static_cast<double>(feature.size());
  // Clip against x_c <= h_c and −x_c <= h_c for c = j, k.
  for (int side = 0; side < 4; ++side) {
    const int c = side / 2;
    const double s = side % 2 == 0 ? 1.0 : -1.0;
    const double limit = box.half[c == 0 ? j : k];
    Polygon clipped;
    for (std::size_t i = 0; i < polygon.size(); ++i) {
      const Eigen::Vector2d& p = polygon[i];
      const Eigen::Vector2d& q = polygon[(i + 1) % polygon.size()];
      const double dp = limit - s * p[c];  // >= 0 inside
      const double dq = limit - s * q[c];
      if (dp >= 0.0) clipped.push_back(p);
      if ((dp >= 0.0) != (dq >= 0.0)) clipped.push_back(p + dp / (dp - dq) * (q - p));
    }
    polygon = clipped;
    if (polygon.empty()) break;
  }
  Eigen::Vector2d point;
  if (polygon.empty()) {
    point = mean.cwiseMax(Eigen::Vector2d(-box.half[j], -box.half[k]))
                .cwiseMin(Eigen::Vector2d(box.half[j], box.half[k]));
  } else {
    point.setZero();
    for (const Eigen::Vector2d& p : polygon) point += p;
    point /= static_cast<double>(polygon.size());
  }
  return box.Centre() + sign * box.half[axis] * box.Axis(axis) + point.x() * box.Axis(j) +
         point.y() * box.Axis(k);
}

}  // namespace quasidyn
