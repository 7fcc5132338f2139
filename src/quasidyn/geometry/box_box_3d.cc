#include "quasidyn/geometry/box_box_3d.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>

#include "quasidyn/geometry/closed_form_3d.h"
#include "quasidyn/geometry/posed_box_3d.h"
#include "quasidyn/geometry/segment_distance_3d.h"

namespace quasidyn {
namespace {

// A cross product of two edge directions shorter than this is parallel edges: its axis is
// redundant with a face axis and skipped [-].
constexpr double kParallelEdges = 1e-9;
// Relative size of the tie between two axes' gaps, and between a direction and an axis.
constexpr double kRelativeTie = 1e-12;
// Relative size of a tie between two candidate closest pairs of separated boxes.
constexpr double kSeparatedTie = 1e-13;

// A candidate closest pair of separated boxes, with the normal (from B to A) its features fix.
struct SeparatedCandidate {
  double distance = std::numeric_limits<double>::infinity();
  Eigen::Vector3d p_A = Eigen::Vector3d::Zero(), p_B = Eigen::Vector3d::Zero();
  Eigen::Vector3d normal = Eigen::Vector3d::UnitZ();
};

// A point p (world) outside `box` against the box: the closest box point and the unit
// direction from it to p. Both come from the box frame, where the clamped coordinates are
// exact: over a face (one coordinate clamped) the direction is that face's normal exactly,
// not the difference of two world points divided by their distance, whose round-off grows
// like ε_machine·|p|/distance as the boxes close in (1e-11 at 10 µm apart).
// X_SW is box.X_WS.inverse(), computed once per box.
SeparatedCandidate PointAgainstBox(const PosedBox3d& box, const Eigen::Isometry3d& X_SW,
                                   const Eigen::Vector3d& p_W) {
  const Eigen::Vector3d p_S = X_SW * p_W;
  const Eigen::Vector3d clamped = p_S.cwiseMax(-box.half).cwiseMin(box.half);
  const Eigen::Vector3d offset = p_S - clamped;  // zero on the coordinates inside the box
  SeparatedCandidate c;
  c.distance = offset.norm();
  c.p_B = box.X_WS * clamped;
  c.p_A = p_W;
  if (c.distance > 0.0) {
    int outside = 0, axis = 0;
    for (int k = 0; k < 3; ++k) {
      if (offset[k] != 0.0) {
        ++outside;
        axis = k;
      }
    }
    c.normal = outside == 1 ? Eigen::Vector3d((offset[axis] > 0.0 ? 1.0 : -1.0) * box.Axis(axis))
                            : Eigen::Vector3d(box.X_WS.linear() * (offset / c.distance));
  }
  return c;
}

// The closest pair of separated boxes over their corner–box and edge–edge pairs. Where
// several pairs are equally close (faces parallel and overlapping: corners against a face
// and crossing edges all at the same distance), the first within `tie` is kept: A's corners
// against B, then B's corners against A, then the edge pairs, so the normal is a face normal,
// exact, rather than one chosen by round-off.
// Edge pairs are pruned by the separating axis n (from B toward A, gap g > 0 between A's
// lowest and B's highest level along n): any p_A ∈ A, p_B ∈ B have
//   |p_A − p_B| >= n·(p_A − p_B) = (n·p_A − low_A) + g + (high_B − n·p_B),
// so an edge of A whose lowest end lies more than d − g above low_A (d the closest distance
// found so far), or an edge of B whose highest end lies more than d − g below high_B, cannot
// hold a closer point. Face on face this leaves the 4 × 4 edges of the two facing faces.
ContactPoint SeparatedPair(const PosedBox3d& A, const PosedBox3d& B, const Eigen::Vector3d& n,
                           double gap, double tie, double margin) {
  SeparatedCandidate best;
  auto consider = [&](const SeparatedCandidate& c) {
    if (c.distance < best.distance - tie) best = c;
  };
  const Eigen::Isometry3d X_BW = B.X_WS.inverse(), X_AW = A.X_WS.inverse();
  for (int i = 0; i < 8; ++i) consider(PointAgainstBox(B, X_BW, A.Corner(i)));
  for (int i = 0; i < 8; ++i) {
    SeparatedCandidate c = PointAgainstBox(A, X_AW, B.Corner(i));
    std::swap(c.p_A, c.p_B);
    c.normal = -c.normal;
    consider(c);
  }
  const double reach = best.distance - gap + margin;
  const double low_A = n.dot(A.Centre()) - A.Radius(n);
  const double high_B = n.dot(B.Centre()) + B.Radius(n);
  std::array<Eigen::Vector3d, 12> a0, a1, b0, b1;
  int edges_A = 0, edges_B = 0;
  for (int e = 0; e < 12; ++e) {
    A.Edge(e, &a0[edges_A], &a1[edges_A]);
    if (std::min(n.dot(a0[edges_A]), n.dot(a1[edges_A])) - low_A <= reach) ++edges_A;
    B.Edge(e, &b0[edges_B], &b1[edges_B]);
    if (high_B - std::max(n.dot(b0[edges_B]), n.dot(b1[edges_B])) <= reach) ++edges_B;
  }
  for (int e = 0; e < edges_A; ++e) {
    for (int f = 0; f < edges_B; ++f) {
      const SegmentClosestPoints closest = ClosestPointsOfSegments(a0[e], a1[e], b0[f], b1[f]);
      SeparatedCandidate c;
      c.p_A = closest.on_p;
      c.p_B = closest.on_q;
      const Eigen::Vector3d difference = c.p_A - c.p_B;
      c.distance = difference.norm();
      if (!(c.distance < best.distance - tie)) continue;
      // Two edges closest at inner points: the normal is along their cross product (exact);
      // at an end of either, a corner–box pair above is at least as close.
      const Eigen::Vector3d cross = (a1[e] - a0[e]).cross(b1[f] - b0[f]);
      const double cross_norm = cross.norm();
      if (cross_norm > kParallelEdges * (a1[e] - a0[e]).norm() * (b1[f] - b0[f]).norm()) {
        c.normal = (cross.dot(difference) >= 0.0 ? 1.0 : -1.0) * cross / cross_norm;
      } else {
        c.normal = difference / c.distance;
      }
      best = c;
    }
  }
  ContactPoint c;
  c.phi = best.distance;
  c.p_A = best.p_A;
  c.p_B = best.p_B;
  c.normal = best.normal;
  return c;
}

// One separating axis: its unit direction n (from B toward A), its gap and its kind.
struct Axis {
  enum Kind { kFaceOfB, kFaceOfA, kEdges } kind = kFaceOfB;
  int index_A = -1;  // A's axis (face of A or A's edge direction)
  int index_B = -1;  // B's axis (face of B or B's edge direction)
  Eigen::Vector3d n = Eigen::Vector3d::UnitZ();
  double gap = -std::numeric_limits<double>::infinity();
};

// The edge of `box` parallel to its axis `along` that is extreme along u (unit).
void ExtremeEdge(const PosedBox3d& box, int along, const Eigen::Vector3d& u, Eigen::Vector3d* start,
                 Eigen::Vector3d* end) {
  Eigen::Vector3d p_S;
  for (int i = 0; i < 3; ++i) p_S[i] = u.dot(box.Axis(i)) >= 0.0 ? box.half[i] : -box.half[i];
  p_S[along] = -box.half[along];
  *start = box.X_WS * p_S;
  p_S[along] = box.half[along];
  *end = box.X_WS * p_S;
}

}  // namespace

ContactPoint BoxBoxDistance3d(const Eigen::Vector3d& size_A, const Eigen::Isometry3d& X_WA,
                              const Eigen::Vector3d& size_B, const Eigen::Isometry3d& X_WB) {
  const PosedBox3d A{X_WA, 0.5 * size_A};
  const PosedBox3d B{X_WB, 0.5 * size_B};
  const Eigen::Vector3d d = A.Centre() - B.Centre();
  const double scale = std::max({d.norm(), A.half.maxCoeff(), B.half.maxCoeff()});
  const double tie = kRelativeTie * scale;

  Axis best;
  auto consider = [&](Axis::Kind kind, int index_A, int index_B, const Eigen::Vector3d& u) {
    const Eigen::Vector3d n = u.dot(d) >= 0.0 ? u : Eigen::Vector3d(-u);
    const double gap = n.dot(d) - A.Radius(n) - B.Radius(n);
    if (gap > best.gap + tie) {
      best = Axis{kind, index_A, index_B, n, gap};
    }
  };
  for (int j = 0; j < 3; ++j) consider(Axis::kFaceOfB, -1, j, B.Axis(j));
  for (int i = 0; i < 3; ++i) consider(Axis::kFaceOfA, i, -1, A.Axis(i));
  for (int i = 0; i < 3; ++i) {
    for (int j = 0; j < 3; ++j) {
      const Eigen::Vector3d cross = A.Axis(i).cross(B.Axis(j));
      const double norm = cross.norm();
      if (norm > kParallelEdges) consider(Axis::kEdges, i, j, cross / norm);
    }
  }

  if (best.gap > 0.0) {
    // Pruning margin: the round-off of the projections of world points (|p| up to about
    // |centre| + size), far below any distance that matters.
    const double margin =
        1e-12 * (scale + A.Centre().cwiseAbs().maxCoeff() + B.Centre().cwiseAbs().maxCoeff());
    const ContactPoint separated =
        SeparatedPair(A, B, best.n, best.gap, kSeparatedTie * scale, margin);
    if (separated.phi > kCoincidentCores) return separated;
  }

  // Penetrating or touching: the axis of least overlap.
  ContactPoint c;
  c.phi = best.gap;
  c.normal = best.n;
  const double feature_tie = kRelativeTie;
  switch (best.kind) {
    case Axis::kFaceOfB: {
      // B's face with outward normal n; A's deepest feature lies above it.
      const double sign = best.n.dot(B.Axis(best.index_B)) >= 0.0 ? 1.0 : -1.0;
      c.p_B =
          BoxFacePointUnder(B, best.index_B, sign, BoxSupportFeature3d(A, -best.n, feature_tie));
      c.p_A = c.p_B + c.phi * c.normal;
      break;
    }
    case Axis::kFaceOfA: {
      // A's face with outward normal −n; B's deepest feature lies under it.
      const double sign = best.n.dot(A.Axis(best.index_A)) >= 0.0 ? -1.0 : 1.0;
      c.p_A = BoxFacePointUnder(A, best.index_A, sign, BoxSupportFeature3d(B, best.n, feature_tie));
      c.p_B = c.p_A - c.phi * c.normal;
      break;
    }
    case Axis::kEdges: {
      Eigen::Vector3d a0, a1, b0, b1;
      ExtremeEdge(A, best.index_A, -best.n, &a0, &a1);
      ExtremeEdge(B, best.index_B, best.n, &b0, &b1);
      c.p_A = ClosestPointsOfSegments(a0, a1, b0, b1).on_p;
      c.p_B = c.p_A - c.phi * c.normal;
      break;
    }
  }
  return c;
}

}  // namespace quasidyn
