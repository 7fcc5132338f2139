#include "quasidyn/geometry/gjk_simplex_3d.h"

namespace quasidyn {
namespace {

bool SameSign(double x, double y) { return (x > 0.0 && y > 0.0) || (x < 0.0 && y < 0.0); }

SimplexClosest3d Vertex(const Eigen::Vector3d* points, int i) {
  SimplexClosest3d result;
  result.count = 1;
  result.kept[0] = {points[i], 1.0, i};
  result.closest = points[i];
  return result;
}

// S1D: the segment points[i], points[j].
SimplexClosest3d Segment(const Eigen::Vector3d* points, int i, int j) {
  const Eigen::Vector3d& p = points[i];
  const Eigen::Vector3d& q = points[j];
  const Eigen::Vector3d t = q - p;
  const double tt = t.dot(t);
  if (!(tt > 0.0)) return Vertex(points, i);
  const double s = -p.dot(t) / tt;  // the weight of q
  if (s <= 0.0) return Vertex(points, i);
  if (s >= 1.0) return Vertex(points, j);
  SimplexClosest3d result;
  result.count = 2;
  result.kept[0] = {p, 1.0 - s, i};
  result.kept[1] = {q, s, j};
  result.closest = (1.0 - s) * p + s * q;
  return result;
}

double SquaredNorm(const SimplexClosest3d& r) { return r.closest.squaredNorm(); }

// S2D: the triangle points[i], points[j], points[k].
SimplexClosest3d Triangle(const Eigen::Vector3d* points, int i, int j, int k) {
  const Eigen::Vector3d& a = points[i];
  const Eigen::Vector3d& b = points[j];
  const Eigen::Vector3d& c = points[k];
  const Eigen::Vector3d n = (b - a).cross(c - a);
  int axis = 0;
  n.cwiseAbs().maxCoeff(&axis);
  const double n_axis = n[axis];
  const int corner[3] = {i, j, k};
  double area[3] = {0.0, 0.0, 0.0};  // signed areas opposite a, b, c
  if (n_axis != 0.0) {
    // The origin's projection onto the plane, and the coordinate plane (x, y) after `axis`
    // in cyclic order, where the projected cross product of (b − a, c − a) is n_axis.
    const Eigen::Vector3d p0 = n * (a.dot(n) / n.dot(n));
    const int x = (axis + 1) % 3;
    const int y = (axis + 2) % 3;
    const auto cross = [&](const Eigen::Vector3d& u, const Eigen::Vector3d& v) {
      return (u[x] - p0[x]) * (v[y] - p0[y]) - (u[y] - p0[y]) * (v[x] - p0[x]);
    };
    area[0] = cross(b, c);
    area[1] = cross(c, a);
    area[2] = cross(a, b);
    if (SameSign(area[0], n_axis) && SameSign(area[1], n_axis) && SameSign(area[2], n_axis)) {
      // The point is p0 itself, exact to round-off even for a sliver (whose weights are
      // ill-conditioned): Σ weight · point would carry their error out of the plane.
      const double total = area[0] + area[1] + area[2];
      SimplexClosest3d result;
      result.count = 3;
      result.closest = p0;
      for (int m = 0; m < 3; ++m) result.kept[m] = {points[corner[m]], area[m] / total, corner[m]};
      return result;
    }
  }
  // The projected origin is outside an edge (or the triangle is degenerate): the closest
  // point lies on an edge whose opposite area has the wrong sign.
  SimplexClosest3d best;
  bool found = false;
  for (int m = 0; m < 3; ++m) {
    if (n_axis != 0.0 && SameSign(area[m], n_axis)) continue;
    const SimplexClosest3d edge = Segment(points, corner[(m + 1) % 3], corner[(m + 2) % 3]);
    if (!found || SquaredNorm(edge) < SquaredNorm(best)) {
      best = edge;
      found = true;
    }
  }
  return best;
}

double Determinant(const Eigen::Vector3d& a, const Eigen::Vector3d& b, const Eigen::Vector3d& c) {
  return a.dot(b.cross(c));
}

// S3D: the tetrahedron points[0..3].
SimplexClosest3d Tetrahedron(const Eigen::Vector3d* s) {
  // Cofactors of [s1 s2 s3 s4; 1 1 1 1]: C_j is the signed volume with s_j replaced by the
  // origin, and Σ C the signed volume of the tetrahedron.
  const double volume_part[4] = {Determinant(s[1], s[2], s[3]), -Determinant(s[0], s[2], s[3]),
                                 Determinant(s[0], s[1], s[3]), -Determinant(s[0], s[1], s[2])};
  const double total = volume_part[0] + volume_part[1] + volume_part[2] + volume_part[3];
  bool inside = true;
  for (double part : volume_part) inside = inside && SameSign(part, total);
  if (inside) {
    SimplexClosest3d result;
    result.count = 4;
    result.contains_origin = true;
    result.closest.setZero();
    for (int m = 0; m < 4; ++m) result.kept[m] = {s[m], volume_part[m] / total, m};
    return result;
  }
  static constexpr int kFace[4][3] = {{1, 2, 3}, {0, 2, 3}, {0, 1, 3}, {0, 1, 2}};
  SimplexClosest3d best;
  bool found = false;
  for (int m = 0; m < 4; ++m) {
    if (SameSign(volume_part[m], total)) continue;
    const SimplexClosest3d face = Triangle(s, kFace[m][0], kFace[m][1], kFace[m][2]);
    if (!found || SquaredNorm(face) < SquaredNorm(best)) {
      best = face;
      found = true;
    }
  }
  return best;
}

}  // namespace

SimplexClosest3d ClosestPointOfSimplex3d(const Eigen::Vector3d* points, int count) {
  switch (count) {
    case 1:
      return Vertex(points, 0);
    case 2:
      return Segment(points, 0, 1);
    case 3:
      return Triangle(points, 0, 1, 2);
    default:
      return Tetrahedron(points);
  }
}

}  // namespace quasidyn
