#include "quasidyn/geometry/epa_3d.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>

#include "quasidyn/geometry/gjk_simplex_3d.h"

namespace quasidyn {
namespace {

constexpr int kMaxFaces = 2 * kEpaMaxVertices;

// A triangle's plane and its point nearest the origin.
struct FacePlane {
  Eigen::Vector3d normal;  // outward, unit
  double offset;           // normal · (any point of the face)
  // The face's point nearest the origin: its barycentric weights, and the order key
  // offset + (its distance from the origin's projection onto the face's plane). The key is
  // the offset when the projection falls inside the triangle, larger otherwise, so of
  // coplanar faces (a face of M split into triangles) the one holding the projection wins.
  std::array<double, 3> weight;
  double key;
};

// The fields are set when a face is made (no default values: a polytope's arrays are not
// cleared on every query).
struct Face {
  std::array<int, 3> vertex;  // counter-clockwise seen from outside
  // adjacent[e]: the face across edge e = (vertex[e], vertex[e+1]); adjacent_edge[e]: that
  // edge's index in it.
  std::array<int, 3> adjacent;
  std::array<int, 3> adjacent_edge;
  FacePlane plane;
  bool alive;
  bool removed;  // seen from the new vertex in the current iteration
};

// A horizon edge: edge `edge` of the kept face `face`, seen from the removed side.
struct HorizonEdge {
  int face;
  int edge;
};

struct Polytope {
  std::array<SupportVertex3d, kEpaMaxVertices> vertex;
  int vertex_count = 0;
  std::array<Face, kMaxFaces> face;
  int face_slots = 0;  // slots ever used
  std::array<int, kMaxFaces> free_slot;
  int free_count = 0;
};

// The plane, nearest point and key of the triangle (a, b, c) into *face; false when it has
// no area.
bool SetPlane(const Eigen::Vector3d& a, const Eigen::Vector3d& b, const Eigen::Vector3d& c,
              FacePlane* face) {
  const Eigen::Vector3d n = (b - a).cross(c - a);
  const double norm = n.norm();
  if (!(norm > 0.0) || !std::isfinite(norm)) return false;
  face->normal = n / norm;
  face->offset = face->normal.dot(a);
  const Eigen::Vector3d corners[3] = {a, b, c};
  const SimplexClosest3d closest = ClosestPointOfSimplex3d(corners, 3);
  face->weight = {0.0, 0.0, 0.0};
  for (int i = 0; i < closest.count; ++i)
    face->weight[closest.kept[i].index] = closest.kept[i].weight;
  face->key = face->offset + (closest.closest - face->offset * face->normal).norm();
  return true;
}

// Points off the affine hull of `points` (count independent points, 1..3) by more than
// `threshold`: the distance of p from that hull.
double DistanceFromHull(const SupportVertex3d* points, int count, const Eigen::Vector3d& p) {
  const Eigen::Vector3d& p0 = points[0].w;
  if (count == 1) return (p - p0).norm();
  if (count == 2) {
    const Eigen::Vector3d d = (points[1].w - p0).normalized();
    const Eigen::Vector3d r = p - p0;
    return (r - r.dot(d) * d).norm();
  }
  const Eigen::Vector3d n = (points[1].w - p0).cross(points[2].w - p0).normalized();
  return std::abs(n.dot(p - p0));
}

// A unit vector normal to d (d non-zero), fixed by d.
Eigen::Vector3d Perpendicular(const Eigen::Vector3d& d) {
  int axis = 0;
  d.cwiseAbs().minCoeff(&axis);
  return d.cross(Eigen::Vector3d::Unit(axis)).normalized();
}

// Search directions normal to the affine hull of points[0 .. count-1].
int SearchDirections(const SupportVertex3d* points, int count, Eigen::Vector3d* directions) {
  if (count == 1) {
    for (int axis = 0; axis < 3; ++axis) {
      directions[2 * axis] = Eigen::Vector3d::Unit(axis);
      directions[2 * axis + 1] = -Eigen::Vector3d::Unit(axis);
    }
    return 6;
  }
  if (count == 2) {
    const Eigen::Vector3d d = (points[1].w - points[0].w).normalized();
    const Eigen::Vector3d u = Perpendicular(d);
    const Eigen::Vector3d u2 = d.cross(u);
    const Eigen::Vector3d base[4] = {u, u2, (u + u2).normalized(), (u - u2).normalized()};
    for (int i = 0; i < 4; ++i) {
      directions[2 * i] = base[i];
      directions[2 * i + 1] = -base[i];
    }
    return 8;
  }
  const Eigen::Vector3d n = (points[1].w - points[0].w).cross(points[2].w - points[0].w);
  directions[0] = n.normalized();
  directions[1] = -directions[0];
  return 2;
}

// Affinely independent points of M around GJK's simplex: 4 on success; fewer when M is
// flat within `threshold`.
int StartPoints(const CorePair3d& pair, const GjkResult& gjk, double threshold,
                SupportVertex3d* points) {
  int count = 0;
  for (int i = 0; i < gjk.simplex_size; ++i) {
    const SupportVertex3d& p = gjk.simplex[i];
    if (count == 0 || DistanceFromHull(points, count, p.w) > threshold) points[count++] = p;
  }
  while (count < 4) {
    Eigen::Vector3d directions[8];
    const int direction_count = SearchDirections(points, count, directions);
    double best_distance = threshold;
    int best = -1;
    SupportVertex3d candidates[8];
    for (int i = 0; i < direction_count; ++i) {
      candidates[i] = pair.Support(directions[i]);
      const double distance = DistanceFromHull(points, count, candidates[i].w);
      if (distance > best_distance) {
        best_distance = distance;
        best = i;
      }
    }
    if (best < 0) break;
    points[count++] = candidates[best];
  }
  return count;
}

// The contact of a flat M (StartPoints found `count` < 4 independent points).
EpaResult FlatAnswer(const CorePair3d& pair, const GjkResult& gjk, const SupportVertex3d* points,
                     int count) {
  // Any unit n* normal to M's hull gives h_M(n*) = its offset; choose the one whose contact
  // normal −n* points from B's frame origin to A's, for a fixed answer.
  const Eigen::Vector3d toward_a = pair.a_origin();
  Eigen::Vector3d n;
  if (count == 3) {
    n = (points[1].w - points[0].w).cross(points[2].w - points[0].w).normalized();
  } else if (count == 2) {
    const Eigen::Vector3d d = (points[1].w - points[0].w).normalized();
    n = toward_a - toward_a.dot(d) * d;
    n = n.norm() > 0.0 ? Eigen::Vector3d(n.normalized()) : Perpendicular(d);
  } else {
    n = toward_a.norm() > 0.0 ? Eigen::Vector3d(toward_a.normalized()) : Eigen::Vector3d::UnitZ();
  }
  if (n.dot(toward_a) > 0.0) n = -n;  // n* points away from A's side
  if (n.dot(toward_a) == 0.0) {
    // A's origin in the hull's plane: the sign of n's largest component decides.
    int axis = 0;
    n.cwiseAbs().maxCoeff(&axis);
    if (n[axis] > 0.0) n = -n;
  }
  EpaResult result;
  result.outcome = EpaOutcome::kFlat;
  result.normal = n;
  result.depth = n.dot(gjk.closest);
  result.upper_bound = result.depth;
  result.witness_a = gjk.witness_a;
  result.witness_b = gjk.witness_a - result.depth * n;
  return result;
}

int NewFaceSlot(Polytope* polytope) {
  if (polytope->free_count > 0) return polytope->free_slot[--polytope->free_count];
  if (polytope->face_slots < kMaxFaces) return polytope->face_slots++;
  return -1;
}

// The four faces of the tetrahedron points[0..3] (positively oriented) with their links.
bool Tetrahedron(Polytope* polytope) {
  static constexpr int kFaces[4][3] = {{0, 2, 1}, {0, 1, 3}, {0, 3, 2}, {1, 2, 3}};
  for (const auto& corners : kFaces) {
    Face& face = polytope->face[NewFaceSlot(polytope)];
    face.vertex = {corners[0], corners[1], corners[2]};
    face.alive = true;
    face.removed = false;
    if (!SetPlane(polytope->vertex[corners[0]].w, polytope->vertex[corners[1]].w,
                  polytope->vertex[corners[2]].w, &face.plane)) {
      return false;
    }
  }
  for (int f = 0; f < 4; ++f) {
    for (int e = 0; e < 3; ++e) {
      const int from = polytope->face[f].vertex[e];
      const int to = polytope->face[f].vertex[(e + 1) % 3];
      for (int g = 0; g < 4; ++g) {
        for (int k = 0; k < 3; ++k) {
          if (polytope->face[g].vertex[k] == to && polytope->face[g].vertex[(k + 1) % 3] == from) {
            polytope->face[f].adjacent[e] = g;
            polytope->face[f].adjacent_edge[e] = k;
          }
        }
      }
    }
  }
  return true;
}

// The alive face nearest the origin (least key; the lowest index on ties).
int NearestFace(const Polytope& polytope) {
  int best = -1;
  double best_key = std::numeric_limits<double>::infinity();
  for (int f = 0; f < polytope.face_slots; ++f) {
    const Face& face = polytope.face[f];
    if (face.alive && face.plane.key < best_key) {
      best_key = face.plane.key;
      best = f;
    }
  }
  return best;
}

// The answer carried by face f: its offset, normal, and the witness points of its point
// nearest the origin (the origin's projection when inside the face).
void Answer(const Polytope& polytope, int f, EpaResult* result) {
  const Face& face = polytope.face[f];
  result->depth = face.plane.offset;
  result->normal = face.plane.normal;
  result->witness_a.setZero();
  result->witness_b.setZero();
  for (int i = 0; i < 3; ++i) {
    const SupportVertex3d& v = polytope.vertex[face.vertex[i]];
    result->witness_a += face.plane.weight[i] * v.a;
    result->witness_b += face.plane.weight[i] * v.b;
  }
}

// Marks the faces seen from w, starting at the visible face `start`, and lists the horizon
// in order (depth first, as van den Bergen's silhouette walk). False when the lists
// overflow.
bool Horizon(Polytope* polytope, int start, const Eigen::Vector3d& w,
             std::array<HorizonEdge, kMaxFaces>* horizon, int* horizon_count,
             std::array<int, kMaxFaces>* removed, int* removed_count) {
  struct Visit {
    int face;
    int edge;  // the edge of `face` shared with the face the walk came from
  };
  std::array<Visit, 2 * kMaxFaces + 3> stack;
  int top = 0;
  *horizon_count = 0;
  *removed_count = 0;
  polytope->face[start].removed = true;
  (*removed)[(*removed_count)++] = start;
  for (int e = 2; e >= 0; --e) {
    stack[top++] = {polytope->face[start].adjacent[e], polytope->face[start].adjacent_edge[e]};
  }
  while (top > 0) {
    const Visit visit = stack[--top];
    Face& face = polytope->face[visit.face];
    if (face.removed) continue;
    if (face.plane.normal.dot(w) - face.plane.offset <= 0.0) {
      if (*horizon_count == kMaxFaces) return false;
      (*horizon)[(*horizon_count)++] = {visit.face, visit.edge};
      continue;
    }
    face.removed = true;
    if (*removed_count == kMaxFaces || top + 2 > static_cast<int>(stack.size())) return false;
    (*removed)[(*removed_count)++] = visit.face;
    const int second = (visit.edge + 2) % 3;
    const int first = (visit.edge + 1) % 3;
    stack[top++] = {face.adjacent[second], face.adjacent_edge[second]};
    stack[top++] = {face.adjacent[first], face.adjacent_edge[first]};
  }
  return true;
}

}  // namespace

EpaResult Epa3d(const CorePair3d& pair, const GjkResult& gjk) {
  const double scale = pair.scale();
  const double tolerance = kEpaRelativeTolerance * scale;
  Polytope polytope;
  SupportVertex3d start[4];
  const int independent = StartPoints(pair, gjk, kGjkTouchTolerance * scale, start);
  if (independent < 4) return FlatAnswer(pair, gjk, start, independent);
  const Eigen::Vector3d e1 = start[1].w - start[0].w;
  const Eigen::Vector3d e2 = start[2].w - start[0].w;
  const Eigen::Vector3d e3 = start[3].w - start[0].w;
  if (e1.dot(e2.cross(e3)) < 0.0) std::swap(start[1], start[2]);
  for (int i = 0; i < 4; ++i) polytope.vertex[i] = start[i];
  polytope.vertex_count = 4;
  EpaResult result;
  result.upper_bound = std::numeric_limits<double>::infinity();
  if (!Tetrahedron(&polytope)) {
    // Unreachable for independent points, kept for safety: answer from GJK as flat.
    return FlatAnswer(pair, gjk, start, 3);
  }
  std::array<HorizonEdge, kMaxFaces> horizon;
  std::array<int, kMaxFaces> removed;
  std::array<FacePlane, kMaxFaces> new_plane;  // the planes of the faces to be made
  for (;;) {
    const int nearest = NearestFace(polytope);
    Answer(polytope, nearest, &result);
    const Face& face = polytope.face[nearest];
    const SupportVertex3d w = pair.Support(face.plane.normal);
    const double support_value = face.plane.normal.dot(w.w);
    result.upper_bound = std::min(result.upper_bound, support_value);
    if (support_value - face.plane.offset <= tolerance) {
      result.outcome = EpaOutcome::kConverged;
      break;
    }
    if (polytope.vertex_count == kEpaMaxVertices) {
      result.outcome = EpaOutcome::kVertexLimit;
      break;
    }
    bool repeated = false;
    for (int i = 0; i < polytope.vertex_count; ++i) {
      repeated = repeated || polytope.vertex[i].w == w.w;
    }
    int horizon_count = 0;
    int removed_count = 0;
    bool valid = !repeated && Horizon(&polytope, nearest, w.w, &horizon, &horizon_count, &removed,
                                      &removed_count);
    // The new faces (a_i, b_i, w), a_i → b_i the horizon edges in order, must close one loop
    // and have area.
    for (int i = 0; valid && i < horizon_count; ++i) {
      const Face& kept = polytope.face[horizon[i].face];
      const Face& next = polytope.face[horizon[(i + 1) % horizon_count].face];
      const int a = kept.vertex[(horizon[i].edge + 1) % 3];
      const int b = kept.vertex[horizon[i].edge];
      const int next_a = next.vertex[(horizon[(i + 1) % horizon_count].edge + 1) % 3];
      valid =
          b == next_a && SetPlane(polytope.vertex[a].w, polytope.vertex[b].w, w.w, &new_plane[i]);
    }
    valid =
        valid && horizon_count >= 3 &&
        polytope.free_count + (kMaxFaces - polytope.face_slots) + removed_count >= horizon_count;
    if (!valid) {
      for (int i = 0; i < removed_count; ++i) polytope.face[removed[i]].removed = false;
      result.outcome = EpaOutcome::kDegenerate;
      break;
    }
    ++result.iterations;
    const int w_index = polytope.vertex_count++;
    polytope.vertex[w_index] = w;
    for (int i = 0; i < removed_count; ++i) {
      Face& gone = polytope.face[removed[i]];
      gone.alive = false;
      gone.removed = false;
      polytope.free_slot[polytope.free_count++] = removed[i];
    }
    std::array<int, kMaxFaces> created;
    for (int i = 0; i < horizon_count; ++i) created[i] = NewFaceSlot(&polytope);
    for (int i = 0; i < horizon_count; ++i) {
      Face& kept = polytope.face[horizon[i].face];
      Face& fresh = polytope.face[created[i]];
      fresh.vertex = {kept.vertex[(horizon[i].edge + 1) % 3], kept.vertex[horizon[i].edge],
                      w_index};
      fresh.plane = new_plane[i];
      fresh.alive = true;
      fresh.removed = false;
      fresh.adjacent = {horizon[i].face, created[(i + 1) % horizon_count],
                        created[(i + horizon_count - 1) % horizon_count]};
      fresh.adjacent_edge = {horizon[i].edge, 2, 1};
      kept.adjacent[horizon[i].edge] = created[i];
      kept.adjacent_edge[horizon[i].edge] = 0;
    }
  }
  return result;
}

}  // namespace quasidyn
