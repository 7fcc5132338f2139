#include "quasidyn/geometry/capsule_box_3d.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "quasidyn/geometry/closed_form_3d.h"
#include "quasidyn/geometry/posed_box_3d.h"
#include "quasidyn/geometry/segment_distance_3d.h"

namespace quasidyn {
namespace {

constexpr double kCapsuleBox3dParallelEdges = 1e-9;  // as in box_box_3d.cc
constexpr double kCapsuleBox3dRelativeTie = 1e-12;

}  // namespace

ContactPoint CapsuleBoxDistance3d(double radius_A, double length_A, const Eigen::Isometry3d& X_WA,
                                  const Eigen::Vector3d& size_B, const Eigen::Isometry3d& X_WB) {
  const PosedBox3d B{X_WB, 0.5 * size_B};
  const Eigen::Vector3d axis = X_WA.linear().col(2);
  const Eigen::Vector3d middle = X_WA.translation();
  const Eigen::Vector3d s0 = middle - 0.5 * length_A * axis;
  const Eigen::Vector3d s1 = middle + 0.5 * length_A * axis;
  const Eigen::Vector3d d = middle - B.Centre();
  const double scale = std::max({d.norm(), 0.5 * length_A, B.half.maxCoeff()});
  const double tie = kCapsuleBox3dRelativeTie * scale;

  // Separating axes of the segment and the box.
  int best_face = -1;  // box axis of a face axis; -1 for an edge axis
  int best_edge = -1;  // box edge direction of an edge axis
  Eigen::Vector3d best_n = Eigen::Vector3d::UnitZ();
  double best_gap = -std::numeric_limits<double>::infinity();
  auto consider = [&](int face, int edge, const Eigen::Vector3d& u) {
    const Eigen::Vector3d n = u.dot(d) >= 0.0 ? u : Eigen::Vector3d(-u);
    const double gap = n.dot(d) - 0.5 * length_A * std::abs(n.dot(axis)) - B.Radius(n);
    if (gap > best_gap + tie) {
      best_face = face;
      best_edge = edge;
      best_n = n;
      best_gap = gap;
    }
  };
  for (int j = 0; j < 3; ++j) consider(j, -1, B.Axis(j));
  for (int j = 0; j < 3; ++j) {
    const Eigen::Vector3d cross = axis.cross(B.Axis(j));
    const double norm = cross.norm();
    if (norm > kCapsuleBox3dParallelEdges) consider(-1, j, cross / norm);
  }

  ContactPoint c;
  if (best_gap > 0.0) {
    // The segment misses the box: its closest pair with the box.
    double best = std::numeric_limits<double>::infinity();
    Eigen::Vector3d on_segment = s0, on_box = s0;
    auto pair = [&](const Eigen::Vector3d& p, const Eigen::Vector3d& q) {
      const double distance = (p - q).norm();
      if (distance < best) {
        best = distance;
        on_segment = p;
        on_box = q;
      }
    };
    pair(s0, B.ClosestPoint(s0));
    pair(s1, B.ClosestPoint(s1));
    Eigen::Vector3d e0, e1;
    for (int e = 0; e < 12; ++e) {
      B.Edge(e, &e0, &e1);
      const SegmentClosestPoints closest = ClosestPointsOfSegments(s0, s1, e0, e1);
      pair(closest.on_p, closest.on_q);
    }
    if (best > kCoincidentCores) {
      c.normal = (on_segment - on_box) / best;
      c.phi = best - radius_A;
      c.p_A = on_segment - radius_A * c.normal;
      c.p_B = on_box;
      return c;
    }
  }

  // The segment enters (or touches) the box: the axis of least overlap.
  c.normal = best_n;
  c.phi = best_gap - radius_A;
  Eigen::Vector3d on_segment;
  if (best_face >= 0) {
    const double sign = best_n.dot(B.Axis(best_face)) >= 0.0 ? 1.0 : -1.0;
    BoxFeature3d deepest;  // the end of S deepest along −n, or both when S is parallel
    const double along = axis.dot(best_n);
    if (std::abs(along) <= kCapsuleBox3dRelativeTie) {
      deepest.push_back(s0);
      deepest.push_back(s1);
    } else {
      deepest.push_back(along > 0.0 ? s0 : s1);
    }
    c.p_B = BoxFacePointUnder(B, best_face, sign, deepest);
    on_segment = c.p_B + best_gap * best_n;
  } else {
    Eigen::Vector3d e0, e1;
    Eigen::Vector3d p_S;
    for (int i = 0; i < 3; ++i) p_S[i] = best_n.dot(B.Axis(i)) >= 0.0 ? B.half[i] : -B.half[i];
    p_S[best_edge] = -B.half[best_edge];
    e0 = B.X_WS * p_S;
    p_S[best_edge] = B.half[best_edge];
    e1 = B.X_WS * p_S;
    on_segment = ClosestPointsOfSegments(s0, s1, e0, e1).on_p;
    c.p_B = on_segment - best_gap * best_n;
  }
  c.p_A = on_segment - radius_A * best_n;
  return c;
}

}  // namespace quasidyn
